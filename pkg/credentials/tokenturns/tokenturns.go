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

// Reservation is a request that waits for its party's turn without blocking anyone:
// Reserve makes it, Granted says whether its permit came, Cancel stops its wait.
type Reservation struct {
	l     *Limiter
	party string
	w     *waiter
	made  time.Time
}

// Party is whose turn the reservation waits for.
func (r *Reservation) Party() string { return r.party }

// Made is when the reservation was made, by the limiter's clock.
func (r *Reservation) Made() time.Time { return r.made }

// Reserve queues a request of party for a permit, as Wait does, and returns at once.
// The caller asks Granted when it comes back (ReadyIn says about when), and cancels a
// reservation it will not use.
func (l *Limiter) Reserve(party string) *Reservation {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := &waiter{ready: make(chan struct{})}
	l.refillLocked()
	r := &Reservation{l: l, party: party, w: w, made: l.clock.Now()}
	if len(l.ring) == 0 && l.tokens >= 1 {
		l.tokens--
		w.granted = true
		close(w.ready)
		return r
	}
	if len(l.waiting[party]) == 0 {
		l.ring = append(l.ring, party)
	}
	l.waiting[party] = append(l.waiting[party], w)
	l.handOutLocked()
	return r
}

// Granted reports whether the reservation's permit came; it is then the caller's.
func (r *Reservation) Granted() bool {
	r.l.mu.Lock()
	defer r.l.mu.Unlock()
	return r.w.granted
}

// ReadyIn estimates how long the reservation still waits: one permit for each request
// handed out before it, in turns, and the one it waits for. Zero once granted.
func (r *Reservation) ReadyIn() time.Duration {
	l := r.l
	l.mu.Lock()
	defer l.mu.Unlock()
	if r.w.granted {
		return 0
	}
	l.refillLocked()
	q := l.waiting[r.party]
	place := slices.Index(q, r.w) // requests of its own party ahead of it
	at := slices.Index(l.ring, r.party)
	if place < 0 || at < 0 {
		return 0
	}
	ahead := 0
	for i, party := range l.ring {
		// A party before it in this round's order gets one more turn before it.
		before := (i-l.next+len(l.ring))%len(l.ring) < (at-l.next+len(l.ring))%len(l.ring)
		turns := place
		if before {
			turns++
		}
		ahead += min(len(l.waiting[party]), turns)
	}
	permits := float64(ahead+1) - l.tokens
	return time.Duration(max(permits, 0) / l.qps * float64(time.Second))
}

// Cancel stops the reservation's wait; a permit already granted is not given back,
// as Wait's caller would have used it.
func (r *Reservation) Cancel() {
	r.l.mu.Lock()
	defer r.l.mu.Unlock()
	if !r.w.granted {
		r.l.dropLocked(r.party, r.w)
	}
}

// SetRate changes the rate to qps permits per second and burst: the permits accrued so far
// at the old rate are kept, up to the new burst. A qps of 0 hands out no more permits
// until it rises again.
func (l *Limiter) SetRate(qps float64, burst int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.refillLocked()
	l.qps, l.burst = qps, float64(burst)
	l.tokens = min(l.tokens, l.burst)
	if l.timer != nil {
		l.timer.Stop()
		l.timer = nil
	}
	l.handOutLocked()
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
	if len(l.ring) == 0 || l.timer != nil || l.qps <= 0 {
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
