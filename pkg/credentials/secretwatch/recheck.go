package secretwatch

import (
	"context"
	"fmt"
	"math"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
)

// A namespace that granted the controller nothing holds no watch: the first refusal of a
// watch's list or watch stops it, and its place in the total is free for the namespaces
// that did grant. Its Networks say CredentialsNotGranted (State: ErrNotGranted), and the
// Secret is asked for again by one small list now and then: after a second, then twice as
// long each time up to half a minute, each wait up to 10 % longer so that Secrets refused
// together come due apart, like a reflector's retries. Unlike a reflector per
// Secret, one loop asks for them all, one request at a time, at most one per
// rechecks.every, the namespaces taking turns; so a thousand refused Secrets cost the
// apiserver a bounded rate, and a namespace's one Secret waits about one turn per
// namespace with Secrets due, not one per Secret. Once a request succeeds, the watch
// starts again (or waits for a place, as any new watch does) and its Networks are told.

// recheck is when a refused Secret is next asked for; the waits are its watch's backoff.
type recheck struct {
	at time.Time
}

// rechecks are the settings and state of the re-check loop; settings are replaced in tests.
type rechecks struct {
	// every spaces the requests of all re-checks together.
	every time.Duration
	// first is the wait before a refused Secret is first asked for again; it doubles up to
	// most, with jitter (nextWait).
	first, most time.Duration
	timeout     time.Duration
	now         func() time.Time
	kick        chan struct{}
	// lastNamespace had the last turn; guarded by Watches.mu.
	lastNamespace string
}

func defaultRechecks() rechecks {
	return rechecks{every: 200 * time.Millisecond, first: time.Second, most: 30 * time.Second,
		timeout: 10 * time.Second, now: time.Now, kick: make(chan struct{}, 1)}
}

// recheckJitter lengthens each wait by up to 10 %.
const recheckJitter = 0.1

// nextWait steps b, the backoff of one Secret's re-checks (zero before its first refusal),
// and returns the wait before its next re-check: from first, doubling, never below first
// nor above most. The doubling stops at most/(1+jitter), so that the waits at the top keep
// their jitter within most.
func (w *rechecks) nextWait(b *wait.Backoff) time.Duration {
	if b.Duration == 0 {
		*b = wait.Backoff{Duration: w.first, Factor: 2, Jitter: recheckJitter, Steps: math.MaxInt32,
			Cap: max(w.first, time.Duration(float64(w.most)/(1+recheckJitter)))}
	}
	return min(b.Step(), w.most)
}

// Refused returns how many Secrets are refused to the controller now, their watches
// stopped.
func (w *Watches) Refused() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.refused)
}

// refuse stops wt, the watch of secret, which the apiserver refused, and frees its place
// in the total.
func (w *Watches) refuse(secret cache.ObjectName, wt *secretWatch) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.watches[secret] != wt || wt.refused {
		return // released or refused already
	}
	wt.refused = true
	wt.stop()
	w.refused[secret] = &recheck{at: w.now().Add(w.nextWait(&wt.backoff))}
	w.loggerLocked().V(2).Info("Stopped the watch of a credentials Secret the controller may not read; asking for it again now and then",
		"secret", secret, "watched", len(w.watches)-len(w.refused), "refused", len(w.refused))
	select {
	case w.kick <- struct{}{}:
	default:
	}
	if wt.bounded {
		w.countLiveLocked(secret.Namespace, -1)
		w.admitWaitingLocked()
	}
}

// recheckLoop asks for the refused Secrets, one at a time, until ctx ends.
func (w *Watches) recheckLoop(ctx context.Context) {
	for {
		secret, wait, due := w.nextRecheck()
		if due {
			w.rechecked(secret, w.probe(ctx, secret))
			// At most one request per every, however many Secrets are refused; a
			// refusal meanwhile stays in kick.
			wait = w.every
		}
		t := time.NewTimer(wait)
		var woken <-chan struct{}
		if !due {
			woken = w.kick // a new refusal may be due sooner
		}
		var timer <-chan time.Time
		if due || wait > 0 {
			timer = t.C
		}
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-timer:
		case <-woken:
		}
		t.Stop()
	}
}

// nextRecheck returns the refused Secret to ask for now, if one is due: of the namespace
// after the one served last (in name order, round), its earliest. Otherwise it returns
// how long until one is due, 0 when none is refused.
func (w *Watches) nextRecheck() (cache.ObjectName, time.Duration, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := w.now()
	var after, first cache.ObjectName
	var afterAt, firstAt, soonest time.Time
	earlier := func(s cache.ObjectName, at time.Time, best cache.ObjectName, bestAt time.Time) bool {
		return best == (cache.ObjectName{}) || s.Namespace < best.Namespace || (s.Namespace == best.Namespace && at.Before(bestAt))
	}
	for s, r := range w.refused {
		if r.at.After(now) {
			if soonest.IsZero() || r.at.Before(soonest) {
				soonest = r.at
			}
			continue
		}
		if s.Namespace > w.lastNamespace && earlier(s, r.at, after, afterAt) {
			after, afterAt = s, r.at
		}
		if earlier(s, r.at, first, firstAt) {
			first, firstAt = s, r.at
		}
	}
	if after == (cache.ObjectName{}) {
		after = first
	}
	if after != (cache.ObjectName{}) {
		w.lastNamespace = after.Namespace
		return after, 0, true
	}
	if soonest.IsZero() {
		return cache.ObjectName{}, 0, false
	}
	return cache.ObjectName{}, max(soonest.Sub(now), time.Millisecond), false
}

// probe lists the one Secret as its watch would, by name and label, from the
// apiserver's cache, at most one item: the same right, at the least cost.
func (w *Watches) probe(ctx context.Context, secret cache.ObjectName) error {
	ctx, cancel := context.WithTimeout(ctx, w.timeout)
	defer cancel()
	options := metav1.ListOptions{ResourceVersion: "0", Limit: 1}
	selectSecret(&options, secret)
	if _, err := w.client.Resource(secrets).Namespace(secret.Namespace).List(ctx, options); err != nil {
		return fmt.Errorf("listing Secret %s: %w", secret, err)
	}
	return nil
}

// rechecked takes the outcome of a re-check of secret: any error, a refusal or not, waits
// the next step of its backoff; success starts its watch again and tells its users.
func (w *Watches) rechecked(secret cache.ObjectName, err error) {
	w.mu.Lock()
	r, wt := w.refused[secret], w.watches[secret]
	if r == nil || wt == nil {
		w.mu.Unlock()
		return // no longer named
	}
	if err != nil {
		next := w.nextWait(&wt.backoff)
		r.at = w.now().Add(next)
		w.loggerLocked().V(4).Info("A credentials Secret is still refused", "secret", secret, "next", next, "err", err)
		w.mu.Unlock()
		return
	}
	w.grantLocked(secret, wt)
	w.mu.Unlock()
	w.accessGranted(secret)
}

// grantLocked replaces the refused wt by a running watch of secret, or by a wait for a
// place when the total, as shared, has none.
func (w *Watches) grantLocked(secret cache.ObjectName, wt *secretWatch) {
	delete(w.refused, secret)
	delete(w.watches, secret)
	// A namespace's grant is usually a RoleBinding of all its Secrets: ask for its
	// other refused ones next.
	now := w.now()
	for other, r := range w.refused {
		if other.Namespace == secret.Namespace {
			r.at = now
		}
	}
	if !wt.bounded {
		w.addWatchLocked(secret, false, wt.users).backoff = wt.backoff
		return
	}
	decrement(w.held, secret.Namespace)
	if w.overTotalLocked(secret) != nil {
		w.waiting[secret] += wt.users
		return
	}
	w.addWatchLocked(secret, true, wt.users).backoff = wt.backoff
}

func (w *Watches) accessGranted(secret cache.ObjectName) {
	w.mu.Lock()
	granted, logger := w.granted, w.loggerLocked()
	w.mu.Unlock()
	logger.V(2).Info("The controller may read a credentials Secret now", "secret", secret)
	for _, f := range granted {
		f(secret)
	}
}

func (w *Watches) loggerLocked() klog.Logger {
	if w.ctx == nil {
		return klog.Background()
	}
	return klog.FromContext(w.ctx)
}
