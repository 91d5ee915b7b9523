package shard

import (
	"context"
	"fmt"

	"k8s.io/klog/v2"
)

// A shard's work stops before another replica can take its Lease.
//
// Another replica takes the Lease only once it has seen no new renewal for LeaseDuration,
// counted on its own clock from the return of the list that showed it the last one (tick):
// that list returned after the renewal was applied, which was after this replica sent it.
// This replica counts RenewDeadline from when it sent its last confirmed renewal, and then
// tells Work the shard is lost (Work.Lost stops the work: it exits). So the work stops at
// least LeaseDuration-RenewDeadline before the other may take the shard, less the time
// the stop takes and the two clocks' difference in rate (not in offset: each counts a
// duration on its own clock); that margin must cover both. A renewal applied but not
// confirmed only moves the other's count later, and one the other has not listed makes
// its take, an update at the version it listed, conflict.
//
// The deadline is a timer of its own, and every Lease call ends by callTimeout: neither a
// hung call nor a long look at the Leases delays the loss.

// callContext returns the context of one Lease call: it ends callTimeout from now, on the
// real clock (which the transport sees as the deadline) and on the Holder's (which tests
// step).
func (h *Holder) callContext(parent context.Context) (context.Context, context.CancelFunc) {
	timeout := h.cfg.callTimeout()
	ctx, cancel := context.WithTimeout(parent, timeout)
	timer := h.clock.AfterFunc(timeout, cancel)
	return ctx, func() {
		timer.Stop()
		cancel()
	}
}

// armLocked starts the shard's renew deadline again, RenewDeadline after its last
// confirmed renewal; h.mu must be held. It reports false, arming nothing, once that has
// passed.
func (h *Holder) armLocked(logger klog.Logger, s Shard, held *heldShard) bool {
	h.disarmLocked(held)
	left := h.cfg.RenewDeadline - h.clock.Since(held.renewed)
	if left <= 0 {
		return false
	}
	// expire on a goroutine of its own: a fake clock runs this under its lock, and expire
	// reads the clock.
	held.deadline = h.clock.AfterFunc(left, func() { go h.expire(logger, s, held) })
	return true
}

// disarmLocked stops the shard's renew deadline; h.mu must be held.
func (h *Holder) disarmLocked(held *heldShard) {
	if held.deadline != nil {
		held.deadline.Stop()
	}
}

// expire gives the shard up as lost unless it was renewed, released or lost meanwhile.
func (h *Holder) expire(logger klog.Logger, s Shard, held *heldShard) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.held[s.Index] != held || h.clock.Since(held.renewed) < h.cfg.RenewDeadline {
		return
	}
	h.loseLocked(logger, s, held, "Could not renew the shard's Lease in time",
		fmt.Errorf("no renewal of the shard's Lease confirmed within the renew deadline of %v", h.cfg.RenewDeadline))
}

// loseLocked drops a shard whose Lease may be another replica's by now, and tells Work
// so (logging msg) unless the shard's work had stopped already; h.mu must be held.
func (h *Holder) loseLocked(logger klog.Logger, s Shard, held *heldShard, msg string, err error) {
	delete(h.held, s.Index)
	h.disarmLocked(held)
	if closed(held.stopDone) {
		logger.Info("Could not release the shard's Lease; its work had stopped, so it lapses instead", "shard", s, "lease", held.lease.Name, "err", err)
		return
	}
	logger.Error(err, msg, "shard", s, "lease", held.lease.Name, "renewDeadline", h.cfg.RenewDeadline)
	h.work.Lost(s)
}
