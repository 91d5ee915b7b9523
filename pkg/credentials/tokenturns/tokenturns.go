// Package tokenturns shares one rate of permits among parties in turns. While requests
// wait, each party with a request waiting gets the next permit in its turn, however many
// requests it has waiting: one party's flood delays another party's request by about one
// permit per party waiting, not by the length of the flood.
package tokenturns

import (
	"context"
	"slices"
	"sync"
	"time"

	"k8s.io/utils/clock"
)

// Limiter hands out qps permits per second (burst at once) in turns between parties. It
// is safe for concurrent use.
type Limiter struct {
	clock clock.WithDelayedExecution
	qps   float64
	burst float64

	mu     sync.Mutex
	tokens float64
	last   time.Time
	// waiting holds each party's waiting requests, first come first.
	waiting map[string][]*waiter
	// ring lists the parties with requests waiting, in turn order; next is the
	// index of the party whose turn comes next.
	ring []string
	next int
	// timer is the pending hand-out, nil when none is due.
	timer clock.Timer
}

type waiter struct {
	ready   chan struct{}
	granted bool
}

// New returns a Limiter of qps permits per second and burst, full, on clock c.
func New(qps float64, burst int, c clock.WithDelayedExecution) *Limiter {
	return &Limiter{clock: c, qps: qps, burst: float64(burst), tokens: float64(burst), last: c.Now(), waiting: map[string][]*waiter{}}
}

// Wait blocks until party gets a permit, or ctx ends (then it returns ctx's error and
// no permit is used).
func (l *Limiter) Wait(ctx context.Context, party string) error {
	l.mu.Lock()
	l.refillLocked()
	if len(l.ring) == 0 && l.tokens >= 1 {
		l.tokens--
		l.mu.Unlock()
		return nil
	}
	w := &waiter{ready: make(chan struct{})}
	if len(l.waiting[party]) == 0 {
		l.ring = append(l.ring, party)
	}
	l.waiting[party] = append(l.waiting[party], w)
	l.handOutLocked()
	l.mu.Unlock()

	select {
	case <-w.ready:
		return nil
	case <-ctx.Done():
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if w.granted {
		return nil // granted while ctx ended: use it
	}
	l.dropLocked(party, w)
	return ctx.Err()
}

// Waiting returns how many requests wait, in all.
func (l *Limiter) Waiting() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, q := range l.waiting {
		n += len(q)
	}
	return n
}

// handOutLocked gives each permit there is to the next party in turn, and sets a timer
// for the next permit while requests still wait.
func (l *Limiter) handOutLocked() {
	l.refillLocked()
	for l.tokens >= 1 && len(l.ring) > 0 {
		if l.next >= len(l.ring) {
			l.next = 0
		}
		party := l.ring[l.next]
		q := l.waiting[party]
		w := q[0]
		q[0] = nil
		l.waiting[party] = q[1:]
		w.granted = true
		close(w.ready)
		l.tokens--
		if len(l.waiting[party]) == 0 {
			delete(l.waiting, party)
			l.ring = slices.Delete(l.ring, l.next, l.next+1) // next now names the party after it
		} else {
			l.next++
		}
	}
	if len(l.ring) == 0 || l.timer != nil {
		return
	}
	due := time.Duration((1 - l.tokens) / l.qps * float64(time.Second))
	// On a goroutine of its own: a clock may run the function under its own lock
	// (a fake clock does), which handOutLocked would take again.
	l.timer = l.clock.AfterFunc(due, func() { go l.handOutDue() })
}

// handOutDue hands out the permits due when the timer fires.
func (l *Limiter) handOutDue() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.timer = nil
	l.handOutLocked()
}

// dropLocked takes a request that stopped waiting out of its party's queue.
func (l *Limiter) dropLocked(party string, w *waiter) {
	q := l.waiting[party]
	i := slices.Index(q, w)
	if i < 0 {
		return
	}
	q = slices.Delete(q, i, i+1)
	if len(q) > 0 {
		l.waiting[party] = q
		return
	}
	delete(l.waiting, party)
	at := slices.Index(l.ring, party)
	l.ring = slices.Delete(l.ring, at, at+1)
	if at < l.next {
		l.next--
	}
}

func (l *Limiter) refillLocked() {
	now := l.clock.Now()
	l.tokens = min(l.burst, l.tokens+now.Sub(l.last).Seconds()*l.qps)
	l.last = now
}
