package shard

import (
	"context"
	"errors"
	"sync"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/klog/v2"
)

// renewal is the write of one held shard's Lease at a look: a renewal, or the release of
// a shard whose work stopped.
type renewal struct {
	index   int
	held    *heldShard
	lease   *coordinationv1.Lease
	release bool
	// sent is when the write was sent: a renewal confirmed was applied after it.
	sent    time.Time
	written *coordinationv1.Lease
	err     error
}

// renewHeld renews each held shard's Lease and releases those whose work stopped. The
// writes go at once, so that one slow write holds no other back, and outside h.mu, so
// that the renew deadlines (armLocked) never wait for a call. A Lease another replica took
// loses the shard at once; other failures are retried at the next look until the shard's
// renew deadline passes.
func (h *Holder) renewHeld(ctx context.Context) {
	logger := klog.FromContext(ctx)
	h.mu.Lock()
	writes := make([]*renewal, 0, len(h.held))
	for i, held := range h.held {
		writes = append(writes, &renewal{index: i, held: held, lease: held.lease.DeepCopy(), release: closed(held.stopDone)})
	}
	h.mu.Unlock()

	var wg sync.WaitGroup
	for _, w := range writes {
		wg.Go(func() {
			w.sent = h.clock.Now()
			if w.release {
				release(w.lease, w.sent)
			} else {
				h.stamp(w.lease, w.sent, false)
			}
			w.written, w.err = h.write(ctx, w.lease, false)
		})
	}
	wg.Wait()

	h.mu.Lock()
	defer h.mu.Unlock()
	for _, w := range writes {
		h.settleLocked(logger, w)
	}
}

// settleLocked acts on the outcome of a held shard's write; h.mu must be held.
func (h *Holder) settleLocked(logger klog.Logger, w *renewal) {
	s, held := Shard{Index: w.index, Count: h.cfg.Shards}, w.held
	if h.held[w.index] != held {
		return // its renew deadline passed while the write was under way
	}
	switch {
	case w.release:
		if w.err != nil && !apierrors.IsConflict(w.err) {
			logger.Info("Cannot release the shard's Lease; it lapses instead", "shard", s, "lease", held.lease.Name, "err", w.err)
		}
		delete(h.held, w.index)
		h.disarmLocked(held)
		logger.Info("Gave up shard", "shard", s, "lease", held.lease.Name)
	case w.err == nil:
		held.lease, held.renewed = w.written, w.sent
		if !h.armLocked(logger, s, held) {
			h.loseLocked(logger, s, held, "Could not renew the shard's Lease in time", errors.New("the renewal was confirmed after the renew deadline"))
		}
	case apierrors.IsConflict(w.err) || apierrors.IsNotFound(w.err):
		h.loseLocked(logger, s, held, "Another replica took the shard's Lease", w.err)
	case h.clock.Since(held.renewed) >= h.cfg.RenewDeadline:
		h.loseLocked(logger, s, held, "Could not renew the shard's Lease in time", w.err)
	default:
		logger.Info("Cannot renew the shard's Lease yet; retrying", "shard", s, "lease", held.lease.Name, "err", w.err)
	}
}

// renewReplica renews (or creates) the replica's own Lease: its renewals tell the other
// replicas that this one takes a share of the shards.
func (h *Holder) renewReplica(ctx context.Context, current *coordinationv1.Lease, now time.Time) {
	lease := current.DeepCopy()
	if lease == nil {
		lease = h.newLease(h.replicaLeaseName(), map[string]string{LabelRole: roleReplica})
	}
	h.stamp(lease, now, lease.Spec.AcquireTime == nil)
	if _, err := h.write(ctx, lease, current == nil); err != nil {
		klog.FromContext(ctx).Info("Cannot renew the replica's Lease", "lease", lease.Name, "err", err)
	}
}
