package shard

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"sync"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
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

// Config is what a Holder needs.
type Config struct {
	// Namespace holds the Leases; Name is the group's name, which every Lease's name starts with.
	Namespace, Name string
	// Shards is the number of shards.
	Shards int
	// Identity names this replica in the Leases' holderIdentity.
	Identity string
	// FieldManager names the Holder's writes.
	FieldManager string
	// As leader election has them: a Lease not renewed for LeaseDuration (as this
	// replica's clock measures from when it saw the last renewal) is free; a holder that
	// cannot renew within RenewDeadline has lost its shard; every RetryPeriod the Holder
	// renews and looks again.
	LeaseDuration, RenewDeadline, RetryPeriod time.Duration
	// Clock is the Holder's time; nil is the real one.
	Clock clock.Clock
}

// Work is what the holder of a shard does with it.
type Work interface {
	// Start starts the shard's work and returns once it runs (its informers synced); an
	// error gives the shard back.
	Start(ctx context.Context, s Shard) error
	// Stop stops the shard's work and returns once the items in flight have finished.
	Stop(ctx context.Context, s Shard)
	// Lost is told that the shard's Lease could not be renewed in time or was taken: its
	// items in flight may go on beside another holder's, which only an exit prevents.
	Lost(s Shard)
}

// Holder holds some of the shards by a Lease each, spread evenly over the replicas that
// renew a Lease of their own, and runs Work for each.
type Holder struct {
	cfg    Config
	leases coordinationclient.LeaseInterface
	work   Work
	clock  clock.Clock

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
	lease   *coordinationv1.Lease
	renewed time.Time
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

// NewHolder returns a Holder of cfg's shards through leases, running work.
func NewHolder(cfg Config, leases coordinationclient.LeasesGetter, work Work) *Holder {
	c := cfg.Clock
	if c == nil {
		c = clock.RealClock{}
	}
	return &Holder{cfg: cfg, leases: leases.Leases(cfg.Namespace), work: work, clock: c,
		seen: map[string]seenLease{}, held: map[int]*heldShard{}, holders: map[int]string{}}
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
	now := h.clock.Now()
	list, err := h.leases.List(ctx, metav1.ListOptions{
		LabelSelector: labels.SelectorFromSet(labels.Set{LabelGroup: h.cfg.Name}).String(),
		ShardSelector: Shard{Index: 0, Count: 1}.Selector().String(),
	})
	if err != nil {
		logger.Info("Cannot read the shard Leases; renewing what is held", "err", err)
		h.renewHeld(writeCtx, now)
		return
	}
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
	h.renewHeld(writeCtx, now)
	if !h.announced {
		h.announced = true
		return
	}

	v := view{shards: h.cfg.Shards, me: h.cfg.Identity, holders: map[int]string{}}
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
		h.acquire(ctx, writeCtx, Shard{Index: i, Count: h.cfg.Shards}, byName[ShardLeaseName(h.cfg.Name, Shard{Index: i, Count: h.cfg.Shards})], now)
	}
	if len(p.giveUp) > 0 && !busy {
		// One at a time, once nothing starts or stops: the plan is made again after it.
		h.giveUp(ctx, Shard{Index: p.giveUp[0], Count: h.cfg.Shards}, "rebalancing")
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

// renewHeld renews each held shard's Lease, releases those whose work stopped, and tells
// Work of a shard lost: one taken by another holder, or not renewed within RenewDeadline.
func (h *Holder) renewHeld(ctx context.Context, now time.Time) {
	logger := klog.FromContext(ctx)
	h.mu.Lock()
	defer h.mu.Unlock()
	for i, held := range h.held {
		s := Shard{Index: i, Count: h.cfg.Shards}
		lease := held.lease.DeepCopy()
		if closed(held.stopDone) {
			lease.Spec.HolderIdentity = ptr("")
			lease.Spec.LeaseDurationSeconds = ptr(int32(1))
			lease.Spec.RenewTime = &metav1.MicroTime{Time: now}
			if _, err := h.write(ctx, lease, false); err != nil && !apierrors.IsConflict(err) {
				logger.Info("Cannot release the shard's Lease; it lapses instead", "shard", s, "lease", lease.Name, "err", err)
			}
			delete(h.held, i)
			logger.Info("Gave up shard", "shard", s, "lease", lease.Name)
			continue
		}
		h.stamp(lease, now, false)
		written, err := h.write(ctx, lease, false)
		if err == nil {
			held.lease, held.renewed = written, now
			continue
		}
		if apierrors.IsConflict(err) || apierrors.IsNotFound(err) {
			logger.Error(err, "Another replica took the shard's Lease", "shard", s, "lease", lease.Name)
			delete(h.held, i)
			h.work.Lost(s)
			continue
		}
		if now.Sub(held.renewed) >= h.cfg.RenewDeadline {
			logger.Error(err, "Could not renew the shard's Lease in time", "shard", s, "lease", lease.Name, "renewDeadline", h.cfg.RenewDeadline)
			delete(h.held, i)
			h.work.Lost(s)
			continue
		}
		logger.Info("Cannot renew the shard's Lease yet; retrying", "shard", s, "lease", lease.Name, "err", err)
	}
}

// acquire takes the shard's Lease (current: as listed, nil when it does not exist) and
// starts its work.
func (h *Holder) acquire(ctx, writeCtx context.Context, s Shard, current *coordinationv1.Lease, now time.Time) {
	logger := klog.FromContext(ctx)
	lease := current.DeepCopy()
	if lease == nil {
		lease = h.newLease(ShardLeaseName(h.cfg.Name, s), map[string]string{LabelRole: roleShard, LabelShards: strconv.Itoa(s.Count)})
	} else {
		lease.Spec.LeaseTransitions = ptr(ptrValue(lease.Spec.LeaseTransitions) + 1)
	}
	h.stamp(lease, now, true)
	written, err := h.write(writeCtx, lease, current == nil)
	if err != nil {
		// Another replica was quicker: the next look sees it.
		logger.V(2).Info("Did not take the shard's Lease", "shard", s, "lease", lease.Name, "err", err)
		return
	}
	logger.Info("Took shard; starting its work", "shard", s, "lease", lease.Name, "previousHolder", holderOf(current))
	held := &heldShard{lease: written, renewed: now, startDone: make(chan struct{}), stopDone: make(chan struct{})}
	h.mu.Lock()
	h.held[s.Index] = held
	h.mu.Unlock()
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

// stopAll stops the work of every held shard, releases their Leases and deletes the
// replica's own, once the holder's context is done.
func (h *Holder) stopAll(ctx context.Context) {
	logger := klog.FromContext(ctx)
	h.mu.Lock()
	var stopping []chan struct{}
	for i, held := range h.held {
		h.stopLocked(ctx, Shard{Index: i, Count: h.cfg.Shards}, held)
		stopping = append(stopping, held.stopDone)
	}
	h.mu.Unlock()
	for _, done := range stopping {
		<-done
	}
	h.renewHeld(ctx, h.clock.Now())
	err := h.leases.Delete(ctx, h.replicaLeaseName(), metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		logger.Info("Cannot delete the replica's Lease; it lapses instead", "lease", h.replicaLeaseName(), "err", err)
	}
	logger.Info("Released every shard")
}

func (h *Holder) newLease(name string, extra map[string]string) *coordinationv1.Lease {
	l := map[string]string{LabelGroup: h.cfg.Name}
	for k, v := range extra {
		l[k] = v
	}
	return &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: h.cfg.Namespace, Labels: l}}
}

// stamp makes lease this replica's, renewed now (acquired now too when acquired).
func (h *Holder) stamp(lease *coordinationv1.Lease, now time.Time, acquired bool) {
	lease.Spec.HolderIdentity = ptr(h.cfg.Identity)
	lease.Spec.LeaseDurationSeconds = ptr(int32(h.cfg.LeaseDuration / time.Second))
	lease.Spec.RenewTime = &metav1.MicroTime{Time: now}
	if acquired {
		lease.Spec.AcquireTime = &metav1.MicroTime{Time: now}
	}
}

// write creates lease or updates it at the version it was read at: a replica that read
// an older version loses the race.
func (h *Holder) write(ctx context.Context, lease *coordinationv1.Lease, create bool) (*coordinationv1.Lease, error) {
	if create {
		return h.leases.Create(ctx, lease, metav1.CreateOptions{FieldManager: h.cfg.FieldManager})
	}
	if lease.ResourceVersion == "" {
		return nil, errors.New("the Lease has no resourceVersion to update at")
	}
	return h.leases.Update(ctx, lease, metav1.UpdateOptions{FieldManager: h.cfg.FieldManager})
}

func ptr[T any](v T) *T { return &v }

func ptrValue[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
