package reconcile

import (
	"cmp"
	"context"
	"slices"
	"time"

	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	clientset "github.com/samplecrd/network-controller/pkg/client/clientset/versioned"
	"github.com/samplecrd/network-controller/pkg/credentials"
	"github.com/samplecrd/network-controller/pkg/credentials/grants"
	"github.com/samplecrd/network-controller/pkg/metrics"
	"github.com/samplecrd/network-controller/pkg/scope"
)

// Reconciler makes the Neutron side of one Network at a time match its spec, and records
// what it did in the Network's status and Events. It keeps no state of a Network between
// passes beyond the stores of its tenants, an import's findings and the time to Ready.
type Reconciler struct {
	// tenants gives each Network the store of its OpenStack project, reached with its
	// credentials (this cluster's Neutron resources there, asked instead of Neutron, and
	// the way every change reaches Neutron), its powers there and what it should say of
	// its credentials.
	tenants *credentials.Tenants
	// networks and routerQuota bound a namespace's routers of their own.
	networks    *scope.Informers
	routerQuota routerQuota
	recorder    record.EventRecorder
	status      *statusWriter
	finalizers  finalizers
	findings    importFindings
	clock       *readyClock
	writes      *ownWrites
	clusterID   string
	// enforcement says what becomes of a power in effect that no grant allows any more;
	// withoutGrant counts the Networks that keep one.
	enforcement  grants.Enforcement
	withoutGrant withoutGrant
	// checks are the drift checks handed over and not yet taken by a pass.
	checks driftChecks
}

// Config holds what a Reconciler works with.
type Config struct {
	// Client writes the Networks' finalizers and status.
	Client clientset.Interface
	// FieldManager names the controller in managedFields of everything it writes.
	FieldManager string
	// Tenants are the Networks' credentials: where each Network's resources are, what
	// it may do there, what it should say of its credentials.
	Tenants *credentials.Tenants
	// Networks are the informers of Networks, where a namespace's routers of their own
	// are counted; nil counts none.
	Networks *scope.Informers
	Recorder record.EventRecorder
	Metrics  *metrics.Metrics
	// ClusterID goes into the ownership marks of every Neutron resource.
	ClusterID string
	// GrantEnforcement says what becomes of a power in effect that no grant allows any
	// more; "" is grants.Warn.
	GrantEnforcement grants.Enforcement
	// Now is the clock of the time to Ready; nil means time.Now.
	Now func() time.Time
}

// New returns a Reconciler working with cfg.
func New(cfg Config) *Reconciler {
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	clock := newReadyClock(now, cfg.Metrics)
	writes := newOwnWrites(cfg.Metrics, now)
	return &Reconciler{
		tenants:    cfg.Tenants,
		networks:   cfg.Networks,
		recorder:   cfg.Recorder,
		status:     &statusWriter{client: cfg.Client, fieldManager: cfg.FieldManager, recorder: cfg.Recorder, clock: clock, writes: writes},
		finalizers: finalizers{client: cfg.Client, fieldManager: cfg.FieldManager, writes: writes},
		clock:      clock,
		writes:     writes,
		clusterID:  cfg.ClusterID,

		enforcement: cmp.Or(cfg.GrantEnforcement, grants.Warn),
	}
}

// Sync makes Neutron match the Network as the informer cache has it, or removes its
// Neutron side when the Network is being deleted; a paused Network (its annotation
// samplecrdv1.AnnotationReconcile) only gets its Paused condition. A failure it recorded
// in the Network's status comes back as an error RecordedFailure recognises.
func (r *Reconciler) Sync(ctx context.Context, network *samplecrdv1.Network) error {
	deleting := network.DeletionTimestamp != nil
	st := r.status.forPass()
	if why := pauseOf(network); why != "" && (!deleting || slices.Contains(network.Finalizers, samplecrdv1.FinalizerName)) {
		// A pause holds the tenant's changes, not the operator's: a grant taken away is
		// carried out (or, in warn mode, reported) all the same.
		withdrawn, err := r.withdrawWhilePaused(ctx, st, network)
		if err != nil {
			return st.failed(ctx, network, "", err)
		}
		return st.paused(ctx, withdrawn, why)
	}
	st.resumed(ctx, network)
	if deleting {
		return r.finalize(ctx, st, network)
	}
	return r.reconcile(ctx, st, network)
}

// Forget drops what the Reconciler keeps about a Network that no longer exists.
func (r *Reconciler) Forget(key cache.ObjectName) {
	r.tenants.Forget(key)
	r.findings.forget(key)
	r.routerQuota.release(key)
	r.withoutGrant.forget(key)
	r.writes.forget(key)
	r.checks.forget(key)
}

// Saw notes a Network as the informer delivers it, for the time to Ready.
func (r *Reconciler) Saw(network *samplecrdv1.Network) { r.clock.saw(network) }

// Gone notes that the informer reported a Network deleted: it waits no more.
func (r *Reconciler) Gone(key cache.ObjectName) {
	r.clock.forget(key)
	r.writes.forget(key)
}

// WroteItself reports whether the Network, as the informer delivers it, is a version the
// Reconciler's own write made: the pass that wrote it went on from it, so it needs no pass
// of its own.
func (r *Reconciler) WroteItself(network *samplecrdv1.Network) bool { return r.writes.claim(network) }

// ExpiryOutOfDate reports whether the Network's CredentialsExpiring condition no longer
// says what its credentials' expiry calls for at now, so that its next pass writes it;
// reading the cache and the registry costs no call. A paused or deleted Network is left
// as it is.
func (r *Reconciler) ExpiryOutOfDate(network *samplecrdv1.Network, now time.Time) bool {
	if network.DeletionTimestamp != nil || IsPaused(network) {
		return false
	}
	return r.tenants.ExpiryDue(network, now) != HasExpiryWarning(network)
}

// expiryWarning is what the Network should say of its tenant's credentials' expiry now.
func (r *Reconciler) expiryWarning(network *samplecrdv1.Network, tenant credentials.Tenant) string {
	return truncate(r.tenants.ExpiryWarning(network, tenant.Expiry, r.clock.now()), maxMessageLength)
}
