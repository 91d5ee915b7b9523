package shard

import (
	"context"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"sync"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	coordinationclient "k8s.io/client-go/kubernetes/typed/coordination/v1"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"
)

// Labels of the Leases a Holder reads and writes: the group is the -lease-name every
// replica shares, the role says whether a Lease is a shard's or a replica's, and a
// shard's carries the number of shards it is one of.
const (
	LabelGroup  = "network-controller.samplecrd.k8s.io/lease-group"
	LabelRole   = "network-controller.samplecrd.k8s.io/lease-role"
	LabelShards = "network-controller.samplecrd.k8s.io/shards"

	roleShard   = "shard"
	roleReplica = "replica"
)

// Work is what the holder of a shard does with it.
type Work interface {
	// Start starts the shard's work and returns once it runs (its informers synced); an
	// error gives the shard back.
	Start(ctx context.Context, s Shard) error
	// Stop stops the shard's work and returns once the items in flight have finished.
	Stop(ctx context.Context, s Shard)
	// Lost is told that the shard's Lease could not be renewed in time or was taken: its
	// items in flight may go on beside another holder's, which only an exit prevents. It
	// must stop the work within LeaseDuration-RenewDeadline (see deadline.go).
	Lost(s Shard)
}

// Holder holds some of the shards by a Lease each, spread evenly over the replicas that
// renew a Lease of their own, and runs Work for each.
type Holder struct {
	cfg    Config
	leases coordinationclient.LeaseInterface
	work   Work
	clock  clock.WithDelayedExecution

	// seen holds, for each Lease name, its holder and renewal as last read and when this
	// replica saw them change: a Lease's age is measured on this replica's clock.
	seen map[string]seenLease
	// otherCount is the other -shards value whose live Leases keep this replica waiting.
	otherCount string
	// served says whether the apiserver answered the Lease list with the shard selector it
	// was asked; nil until a list answered.
	served func(bool)
	probed bool
	// announced: the replica's Lease was renewed at an earlier look. The first look takes
	// no shard, so that replicas starting together see each other before they plan.
	announced bool

	// rebalanced holds when each shard was given up to rebalance: for a LeaseDuration after,
	// this replica leaves it to the others.
	rebalanced map[int]time.Time

	mu   sync.Mutex
	held map[int]*heldShard
	// holders are the live holders of the shards at the last look, for the metrics.
	holders map[int]string
}

type seenLease struct {
	holder, renewed string
	at              time.Time
}

// heldShard is a shard whose Lease this replica holds.
type heldShard struct {
	lease *coordinationv1.Lease
	// renewed is when the last confirmed write of the Lease was sent; deadline fires
	// RenewDeadline after it and gives the shard up unless it was renewed since.
	renewed  time.Time
	deadline clock.Timer
	// startDone is closed when Work.Start returned, with startErr.
	startDone chan struct{}
	startErr  error
	// stopping: the shard is being given up; stopDone is closed once its work stopped,
	// and the next renewal releases the Lease.
	stopping bool
	stopDone chan struct{}
}

func closed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// running reports whether the shard's work runs and is not being stopped.
func (s *heldShard) running() bool { return closed(s.startDone) && s.startErr == nil && !s.stopping }

// settling reports whether the shard's work is starting or stopping.
func (s *heldShard) settling() bool {
	return !closed(s.startDone) || (s.stopping && !closed(s.stopDone))
}

// NewHolder returns a Holder of cfg's shards through leases, running work. It panics on
// a cfg that fails Validate: the flags cfg comes from are checked before.
func NewHolder(cfg Config, leases coordinationclient.LeasesGetter, work Work) *Holder {
	if err := cfg.Validate(); err != nil {
		panic(err)
	}
	var c clock.WithDelayedExecution = clock.RealClock{}
	if cfg.Clock != nil {
		c = cfg.Clock
	}
	return &Holder{cfg: cfg, leases: leases.Leases(cfg.Namespace), work: work, clock: c,
		seen: map[string]seenLease{}, held: map[int]*heldShard{}, holders: map[int]string{}, rebalanced: map[int]time.Time{}}
}

// OnSelectorServed makes the Holder tell served, once, whether the apiserver filters lists
// by a shard selector: the Lease list asks for one that matches every Lease, and an
// apiserver that applied it says so in the list's metadata.
func (h *Holder) OnSelectorServed(served func(bool)) { h.served = served }

// ShardLeaseName is the name of the Lease of shard s in group name.
func ShardLeaseName(name string, s Shard) string {
	return fmt.Sprintf("%s-shard-%d-of-%d", name, s.Index, s.Count)
}

// replicaLeaseName is the name of the Lease a replica renews while it runs: identities
// need not be valid names, so it is named by a hash of the identity.
func (h *Holder) replicaLeaseName() string {
	f := fnv.New64a()
	f.Write([]byte(h.cfg.Identity))
	return fmt.Sprintf("%s-replica-%016x", h.cfg.Name, f.Sum64())
}

// Held returns the shards whose work runs here now, in order.
func (h *Holder) Held() []Shard {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []Shard
	for i, s := range h.held {
		if s.running() {
			out = append(out, Shard{Index: i, Count: h.cfg.Shards})
		}
	}
	slices.SortFunc(out, func(a, b Shard) int { return a.Index - b.Index })
	return out
}

// Holders returns the live holder of each shard as this replica last saw the Leases;
// a shard nobody holds is absent.
func (h *Holder) Holders() map[int]string {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make(map[int]string, len(h.holders))
	for i, who := range h.holders {
		out[i] = who
	}
	return out
}

// Run holds shards until ctx is done, then stops their work, releases their Leases and
// deletes the replica's own Lease. It returns once all of that is done.
func (h *Holder) Run(ctx context.Context) {
	logger := klog.FromContext(ctx)
	logger.Info("Holding shards", "shards", h.cfg.Shards, "identity", h.cfg.Identity, "leaseNamespace", h.cfg.Namespace, "leaseGroup", h.cfg.Name)
	// Writes outlive ctx: releasing the Leases is the point of stopping cleanly.
	writeCtx := context.WithoutCancel(ctx)
	for ctx.Err() == nil {
		h.tick(ctx, writeCtx)
		select {
		case <-ctx.Done():
		case <-h.clock.After(h.cfg.RetryPeriod):
		}
	}
	h.stopAll(writeCtx)
}

// tick is one look at the Leases: renew what is held, release what was given up, and
// take or give up shards by the plan.
func (h *Holder) tick(ctx, writeCtx context.Context) {
	logger := klog.FromContext(ctx)
	// Renewals first: nothing else the look does may delay them.
	h.renewHeld(writeCtx)
	list, err := h.list(ctx)
	if err != nil {
		logger.Info("Cannot read the shard Leases; renewed what is held", "err", err)
		return
	}
	// After the list returned: the renewals it shows were sent before, so a Lease's age
	// counted from here is never more than its holder's own count.
	now := h.clock.Now()
	if !h.probed && h.served != nil {
		h.probed = true
		h.served(list.ShardInfo != nil)
	}
	byName := map[string]*coordinationv1.Lease{}
	for i := range list.Items {
		l := &list.Items[i]
		byName[l.Name] = l
		h.observe(l, now)
	}
	h.renewReplica(writeCtx, byName[h.replicaLeaseName()], now)
	if !h.announced {
		h.announced = true
		return
	}

	v := view{shards: h.cfg.Shards, me: h.cfg.Identity, holders: map[int]string{}, leftAlone: map[int]bool{}}
	for i, at := range h.rebalanced {
		if now.Sub(at) < h.cfg.LeaseDuration {
			v.leftAlone[i] = true
		} else {
			delete(h.rebalanced, i)
		}
	}
	other := ""
	for _, l := range list.Items {
		holder := h.liveHolder(l.Name, now)
		if holder == "" {
			continue
		}
		switch l.Labels[LabelRole] {
		case roleReplica:
			v.members = append(v.members, holder)
		case roleShard:
			if l.Labels[LabelShards] != strconv.Itoa(h.cfg.Shards) {
				other = l.Labels[LabelShards]
				continue
			}
			for _, s := range All(h.cfg.Shards) {
				if l.Name == ShardLeaseName(h.cfg.Name, s) {
					v.holders[s.Index] = holder
				}
			}
		}
	}
	h.mu.Lock()
	for i := range h.held {
		v.holders[i] = h.cfg.Identity
	}
	h.holders = v.holders
	busy := false
	for _, held := range h.held {
		busy = busy || held.settling()
	}
	h.mu.Unlock()

	if other != "" {
		// Two -shards values cut the namespaces differently: a shard of each could hold
		// one namespace. The replicas of the other value must be gone first.
		if other != h.otherCount {
			logger.Info("Leases of another number of shards are held: taking none until they lapse", "shards", h.cfg.Shards, "heldFor", other)
			h.otherCount = other
		}
		return
	}
	h.otherCount = ""
	p := planOf(v)
	for _, i := range p.acquire {
		h.acquire(ctx, writeCtx, Shard{Index: i, Count: h.cfg.Shards}, byName[ShardLeaseName(h.cfg.Name, Shard{Index: i, Count: h.cfg.Shards})])
	}
	if len(p.giveUp) > 0 && !busy {
		// One at a time, once nothing starts or stops: the plan is made again after it.
		h.giveUp(ctx, Shard{Index: p.giveUp[0], Count: h.cfg.Shards}, "rebalancing")
		h.rebalanced[p.giveUp[0]] = now
	}
}

// observe notes when the Lease's holder or renewal changed, as this replica saw it.
func (h *Holder) observe(l *coordinationv1.Lease, now time.Time) {
	holder, renewed := holderOf(l), ""
	if l.Spec.RenewTime != nil {
		renewed = l.Spec.RenewTime.UTC().Format(time.RFC3339Nano)
	}
	if s, ok := h.seen[l.Name]; ok && s.holder == holder && s.renewed == renewed {
		return
	}
	h.seen[l.Name] = seenLease{holder: holder, renewed: renewed, at: now}
}

// liveHolder is the holder of the named Lease, or "" when it has none or its holder let
// it lapse: not renewed for LeaseDuration since this replica saw it renewed.
func (h *Holder) liveHolder(name string, now time.Time) string {
	s, ok := h.seen[name]
	if !ok || s.holder == "" || now.Sub(s.at) >= h.cfg.LeaseDuration {
		return ""
	}
	return s.holder
}

func holderOf(l *coordinationv1.Lease) string {
	if l == nil || l.Spec.HolderIdentity == nil {
		return ""
	}
	return *l.Spec.HolderIdentity
}

// acquire takes the shard's Lease (current: as listed, nil when it does not exist) and
// starts its work.
func (h *Holder) acquire(ctx, writeCtx context.Context, s Shard, current *coordinationv1.Lease) {
	logger := klog.FromContext(ctx)
	lease := current.DeepCopy()
	if lease == nil {
		lease = h.newLease(ShardLeaseName(h.cfg.Name, s), map[string]string{LabelRole: roleShard, LabelShards: strconv.Itoa(s.Count)})
	} else {
		lease.Spec.LeaseTransitions = ptr(ptrValue(lease.Spec.LeaseTransitions) + 1)
	}
	sent := h.clock.Now()
	h.stamp(lease, sent, true)
	written, err := h.write(writeCtx, lease, current == nil)
	if err != nil {
		// Another replica was quicker: the next look sees it.
		logger.V(2).Info("Did not take the shard's Lease", "shard", s, "lease", lease.Name, "err", err)
		return
	}
	held := &heldShard{lease: written, renewed: sent, startDone: make(chan struct{}), stopDone: make(chan struct{})}
	h.mu.Lock()
	if !h.armLocked(logger, s, held) {
		h.mu.Unlock()
		logger.Info("Took the shard's Lease too late to work it; it lapses", "shard", s, "lease", lease.Name)
		return
	}
	h.held[s.Index] = held
	h.mu.Unlock()
	logger.Info("Took shard; starting its work", "shard", s, "lease", lease.Name, "previousHolder", holderOf(current))
	go func() {
		err := h.work.Start(ctx, s)
		h.mu.Lock()
		defer h.mu.Unlock()
		held.startErr = err
		close(held.startDone)
		if err != nil {
			if ctx.Err() == nil {
				logger.Error(err, "Could not start the shard's work; giving it up", "shard", s)
			}
			h.stopLocked(writeCtx, s, held)
			return
		}
		logger.Info("Started the shard's work", "shard", s)
	}()
}

// giveUp stops the shard's work; the next renewal after it stopped releases its Lease.
func (h *Holder) giveUp(ctx context.Context, s Shard, why string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if held := h.held[s.Index]; held != nil && !held.stopping {
		klog.FromContext(ctx).Info("Giving up shard; finishing its items in flight", "shard", s, "why", why)
		h.stopLocked(context.WithoutCancel(ctx), s, held)
	}
}

// stopLocked stops the shard's work once it started, if it did; h.mu must be held.
func (h *Holder) stopLocked(ctx context.Context, s Shard, held *heldShard) {
	if held.stopping {
		return
	}
	held.stopping = true
	go func() {
		<-held.startDone
		if held.startErr == nil {
			h.work.Stop(ctx, s)
		}
		close(held.stopDone)
	}()
}

// stopAll stops the work of every held shard and releases each Lease once its work
// stopped, renewing the others meanwhile: a stop that outlasted the Lease would let
// another replica take the shard beside the items still in flight. Then it deletes the
// replica's own Lease.
func (h *Holder) stopAll(ctx context.Context) {
	logger := klog.FromContext(ctx)
	h.mu.Lock()
	for i, held := range h.held {
		h.stopLocked(ctx, Shard{Index: i, Count: h.cfg.Shards}, held)
	}
	h.mu.Unlock()
	for {
		h.renewHeld(ctx)
		h.mu.Lock()
		var stopping []chan struct{}
		for _, held := range h.held {
			stopping = append(stopping, held.stopDone)
		}
		h.mu.Unlock()
		if len(stopping) == 0 {
			break
		}
		select {
		case <-stopping[0]:
		case <-h.clock.After(h.cfg.RetryPeriod):
		}
	}
	if err := h.deleteLease(ctx, h.replicaLeaseName()); err != nil && !apierrors.IsNotFound(err) {
		logger.Info("Cannot delete the replica's Lease; it lapses instead", "lease", h.replicaLeaseName(), "err", err)
	}
	logger.Info("Released every shard")
}
