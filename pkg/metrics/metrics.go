// Package metrics defines every Prometheus series the controller exports, so the names
// documented in the README live in one place.
package metrics

import (
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

const namespace = "network_controller"

// Reconcile results, the values of the "result" label.
const (
	ResultSuccess = "success"
	ResultError   = "error"
	// ResultDeferred is a reconciliation put off because its project's Neutron budget
	// was spent, or its token request waits for its namespace's turn; it comes back
	// when the budget or the turn has it.
	ResultDeferred = "deferred"
)

// Rate limiters, the values of the "limiter" label of the rate-limit wait.
const (
	// LimiterTotal is -neutron-qps, shared by every project: calls wait for it.
	LimiterTotal = "total"
	// LimiterProject is -neutron-project-qps: a worker does not wait for it, the
	// Network is deferred by the time it would have waited.
	LimiterProject = "project"
)

// What brought a Network to Ready, the values of the "change" label of the time to Ready.
const (
	// ChangeCreate: the Network was new.
	ChangeCreate = "create"
	// ChangeUpdate: its spec changed (a new generation).
	ChangeUpdate = "update"
)

// What an API write of a Network wrote, the values of the "write" label.
const (
	WriteStatus    = "status"
	WriteFinalizer = "finalizer"
)

// Metrics holds the controller's own series.
type Metrics struct {
	reconcileTotal    *prometheus.CounterVec
	reconcileDuration *prometheus.HistogramVec
	neutronRequests   *prometheus.CounterVec
	neutronDuration   *prometheus.HistogramVec
	neutronRateWait   *prometheus.CounterVec
	queueWait         *prometheus.HistogramVec
	managedNetworks   prometheus.Gauge
	cachedNetworks    prometheus.Gauge
	orphansCollected  prometheus.Counter
	orphansReleased   prometheus.Counter
	orphansHalted     prometheus.Gauge
	timeToReady       *prometheus.HistogramVec
	keystoneTokens    *prometheus.CounterVec
	keystoneHeld      *prometheus.CounterVec
	accountsHeld      prometheus.Gauge
	ownRefused        prometheus.Gauge
	leader            prometheus.Gauge
	buildInfo         *prometheus.GaugeVec
	quotaRefusals     *prometheus.CounterVec
	apiWrites         *prometheus.HistogramVec
	tokenWait         prometheus.Counter
	// expiry is set by ExportCredentialExpiries.
	expiry         *expiryCollector
	leading        atomic.Bool
	workqueue      *workqueueProvider
	restClient     *restClientSeries
	leaderElection *leaderElectionProvider
	registry       *prometheus.Registry
	// shards is the collector of the shards' states, nil without shards.
	shards *shardCollector
}

// New creates the series and registers them, the client-go workqueue, REST client and
// leader election series and the Go runtime and process collectors on a new registry.
func New() *Metrics {
	m := &Metrics{
		reconcileTotal: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "reconcile_total",
			Help: "Network reconciliations, by result (success or error).",
		}, []string{"result"}),
		reconcileDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: namespace, Name: "reconcile_duration_seconds",
			Help:    "Time one reconciliation of a Network took, by result.",
			Buckets: prometheus.ExponentialBuckets(0.001, 2, 16),
		}, []string{"result"}),
		neutronRequests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "neutron_requests_total",
			Help: "Neutron API calls, by operation and outcome (ok or the error kind).",
		}, []string{"operation", "outcome"}),
		neutronDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: namespace, Name: "neutron_request_duration_seconds",
			Help:    "Latency of Neutron API calls, by operation.",
			Buckets: prometheus.ExponentialBuckets(0.001, 2, 16),
		}, []string{"operation"}),
		neutronRateWait: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "neutron_rate_limit_wait_seconds_total",
			Help: "Time Neutron API calls waited for the client-side rate limits, by limiter: total (-neutron-qps) or project (-neutron-project-qps, the delay Networks were deferred by).",
		}, []string{"limiter"}),
		queueWait: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: namespace, Name: "workqueue_wait_seconds",
			Help:    "Time a Network waited in the workqueue before a worker took it, by why it was queued: user_change, initial_list, resync or retry.",
			Buckets: prometheus.ExponentialBuckets(0.001, 2, 19),
		}, []string{"class"}),
		managedNetworks: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: namespace, Name: "managed_networks",
			Help: "Neutron networks carrying this cluster's tag, as of the last fill of the controller's index.",
		}),
		cachedNetworks: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: namespace, Name: "cached_networks",
			Help: "Network objects in this replica's informer cache, all watched namespaces together: what its memory grows with.",
		}),
		orphansCollected: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: namespace, Name: "orphans_collected_total",
			Help: "Neutron networks deleted because their Network object no longer exists.",
		}),
		orphansReleased: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: namespace, Name: "orphans_released_total",
			Help: "Neutron networks kept without this cluster's marks because their Network object, whose deletionPolicy was Retain, no longer exists.",
		}),
		orphansHalted: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: namespace, Name: "orphan_collection_halted",
			Help: "Projects in which the last Neutron resync's orphan collection stopped at its circuit breaker: more orphans than one pass may collect, as when another cluster uses this cluster ID.",
		}),
		timeToReady: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: namespace, Name: "time_to_ready_seconds",
			Help:    "Time from a Network's creation (change=create) or spec change (change=update) until this replica made it Ready. Counted from when the controller saw the Network, or from its creationTimestamp when it was created while no controller ran.",
			Buckets: prometheus.ExponentialBuckets(0.05, 2, 17),
		}, []string{"change"}),
		keystoneTokens: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "keystone_token_requests_total",
			Help: "Token requests to Keystone (first authentications and renewals), by outcome: ok, rejected (401/403), unavailable (no answer or 5xx), error.",
		}, []string{"outcome"}),
		keystoneHeld: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "keystone_token_requests_held_total",
			Help: "Token requests not sent to Keystone, by limit: account (another refusal could get the user locked out) or cluster (the request gave up waiting for its namespace's turn in the controller-wide rate).",
		}, []string{"limit"}),
		accountsHeld: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: namespace, Name: "keystone_accounts_held",
			Help: "Spellings of Keystone users (an ID or a name) in the shared record of refusals, with refusals in a row or a request under way: held back, at least for credentials that never got a token of the user, since another refusal could bring the user too close to a lockout.",
		}),
		ownRefused: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: namespace, Name: "own_credentials_refused",
			Help: "1 while Keystone refuses to renew the token of the controller's own credentials (asked again with backoff), else 0.",
		}),
		leader: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: namespace, Name: "leader",
			Help: "1 while this replica leads (holds the Lease, or runs without leader election) and reconciles, else 0.",
		}),
		quotaRefusals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "neutron_quota_refusals_total",
			Help: "Neutron requests refused as over the project's quota (409 OverQuota), by project: the ID of the project, \"\" for a Neutron without authentication. A series exists from the controller's first connection to the project.",
		}, []string{"project"}),
		buildInfo: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Namespace: namespace, Name: "build_info",
			Help: "Always 1; its labels name the running build: version, commit and the Go version it was built with.",
		}, []string{"version", "commit", "go_version"}),
		apiWrites: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: namespace, Name: "api_write_duration_seconds",
			Help:    "Time the controller's writes of Networks to the Kubernetes API took, by what they wrote: status or finalizer.",
			Buckets: prometheus.ExponentialBuckets(0.001, 2, 16),
		}, []string{"write"}),
		tokenWait: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: namespace, Name: "keystone_token_wait_seconds_total",
			Help: "Time token requests to Keystone waited for their namespace's turn in the controller-wide rate (-keystone-auth-qps).",
		}),
		workqueue:      newWorkqueueProvider(),
		restClient:     newRESTClientSeries(),
		leaderElection: newLeaderElectionProvider(),
		registry:       prometheus.NewRegistry(),
	}
	m.registry.MustRegister(
		m.reconcileTotal, m.reconcileDuration, m.neutronRequests, m.neutronDuration, m.neutronRateWait, m.queueWait,
		m.managedNetworks, m.cachedNetworks, m.orphansCollected, m.orphansReleased, m.orphansHalted,
		m.timeToReady, m.keystoneTokens, m.keystoneHeld, m.accountsHeld, m.ownRefused, m.leader,
		m.buildInfo, m.quotaRefusals, m.apiWrites, m.tokenWait, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	m.workqueue.mustRegister(m.registry)
	m.restClient.mustRegister(m.registry)
	m.leaderElection.mustRegister(m.registry)
	for _, limiter := range []string{LimiterTotal, LimiterProject} {
		m.neutronRateWait.WithLabelValues(limiter)
	}
	for _, change := range []string{ChangeCreate, ChangeUpdate} {
		m.timeToReady.WithLabelValues(change)
	}
	for _, write := range []string{WriteStatus, WriteFinalizer} {
		m.apiWrites.WithLabelValues(write)
	}
	return m
}

// DeclareQuotaProject exports the project's quota refusals at zero, before the first. A
// project is declared once the controller connects to it, and kept: projects are made
// by the cloud's admin, not by tenants, so they stay few.
func (m *Metrics) DeclareQuotaProject(project string) { m.quotaRefusals.WithLabelValues(project) }

// ObserveQuotaRefusal counts a request Neutron refused as over the project's quota.
func (m *Metrics) ObserveQuotaRefusal(project string) { m.quotaRefusals.WithLabelValues(project).Inc() }

// SetBuildInfo names the running build.
func (m *Metrics) SetBuildInfo(version, commit, goVersion string) {
	m.buildInfo.Reset()
	m.buildInfo.WithLabelValues(version, commit, goVersion).Set(1)
}

// Registry is what /metrics serves.
func (m *Metrics) Registry() *prometheus.Registry { return m.registry }

// ObserveReconcile records one reconciliation.
func (m *Metrics) ObserveReconcile(result string, elapsed time.Duration) {
	m.reconcileTotal.WithLabelValues(result).Inc()
	m.reconcileDuration.WithLabelValues(result).Observe(elapsed.Seconds())
}

// ObserveNeutronCall records one Neutron API call; outcome is "ok" or the error kind.
func (m *Metrics) ObserveNeutronCall(operation, outcome string, elapsed time.Duration) {
	m.neutronRequests.WithLabelValues(operation, outcome).Inc()
	m.neutronDuration.WithLabelValues(operation).Observe(elapsed.Seconds())
}

// ObserveAPIWrite records one write of a Network to the Kubernetes API (WriteStatus or
// WriteFinalizer), whatever its outcome.
func (m *Metrics) ObserveAPIWrite(write string, elapsed time.Duration) {
	m.apiWrites.WithLabelValues(write).Observe(elapsed.Seconds())
}

// ObserveKeystoneTokenWait adds the time one token request waited for its turn.
func (m *Metrics) ObserveKeystoneTokenWait(d time.Duration) { m.tokenWait.Add(d.Seconds()) }

// ObserveNeutronRateLimitWait adds the time one Neutron call waited for limiter
// (LimiterTotal or LimiterProject).
func (m *Metrics) ObserveNeutronRateLimitWait(limiter string, d time.Duration) {
	m.neutronRateWait.WithLabelValues(limiter).Add(d.Seconds())
}

// DeclareQueueClasses creates the queue wait series of every class, so that each
// exists, at zero, before its first item.
func (m *Metrics) DeclareQueueClasses(classes []string) {
	for _, class := range classes {
		m.queueWait.WithLabelValues(class)
	}
}

// ObserveQueueWait records how long a Network queued for class waited for a worker.
func (m *Metrics) ObserveQueueWait(class string, waited time.Duration) {
	m.queueWait.WithLabelValues(class).Observe(waited.Seconds())
}

// SetManagedNetworks records how many Neutron networks this cluster owns.
func (m *Metrics) SetManagedNetworks(n int) { m.managedNetworks.Set(float64(n)) }

// AddCachedNetworks records that delta Network objects entered (or, negative, left) the
// informer cache.
func (m *Metrics) AddCachedNetworks(delta int) { m.cachedNetworks.Add(float64(delta)) }

// OrphanCollected counts one orphaned Neutron network deleted.
func (m *Metrics) OrphanCollected() { m.orphansCollected.Inc() }

// OrphanReleased counts one orphaned Neutron network kept and released from the cluster.
func (m *Metrics) OrphanReleased() { m.orphansReleased.Inc() }

// SetOrphanCollectionHalted records in how many projects the last resync's orphan
// collection stopped at its circuit breaker.
func (m *Metrics) SetOrphanCollectionHalted(projects int) { m.orphansHalted.Set(float64(projects)) }

// DeclareKeystoneHeldLimits creates the held token request series of every limit, so
// that each exists, at zero, before the first request held back.
func (m *Metrics) DeclareKeystoneHeldLimits(limits []string) {
	for _, limit := range limits {
		m.keystoneHeld.WithLabelValues(limit)
	}
}

// KeystoneTokenRequestHeld counts one token request not sent because of limit.
func (m *Metrics) KeystoneTokenRequestHeld(limit string) { m.keystoneHeld.WithLabelValues(limit).Inc() }

// SetKeystoneAccountsHeld records how many Keystone users the controller holds back.
func (m *Metrics) SetKeystoneAccountsHeld(n int) { m.accountsHeld.Set(float64(n)) }

// SetOwnCredentialsRefused records whether Keystone refuses the controller's own
// credentials.
func (m *Metrics) SetOwnCredentialsRefused(refused bool) {
	if refused {
		m.ownRefused.Set(1)
	} else {
		m.ownRefused.Set(0)
	}
}

// DeclareKeystoneTokenOutcomes creates the token request series of every outcome, so that
// each exists, at zero, before the first request.
func (m *Metrics) DeclareKeystoneTokenOutcomes(outcomes []string) {
	for _, outcome := range outcomes {
		m.keystoneTokens.WithLabelValues(outcome)
	}
}

// ObserveKeystoneTokenRequest counts one token request to Keystone.
func (m *Metrics) ObserveKeystoneTokenRequest(outcome string) {
	m.keystoneTokens.WithLabelValues(outcome).Inc()
}

// ObserveTimeToReady records how long a Network took to become Ready after change.
func (m *Metrics) ObserveTimeToReady(change string, d time.Duration) {
	m.timeToReady.WithLabelValues(change).Observe(d.Seconds())
}

// SetLeader records whether this replica leads; network_controller_networks is exported
// only while it does.
func (m *Metrics) SetLeader(leading bool) {
	m.leading.Store(leading)
	if leading {
		m.leader.Set(1)
	} else {
		m.leader.Set(0)
	}
}
