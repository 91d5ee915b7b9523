package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	clientset "github.com/samplecrd/network-controller/pkg/client/clientset/versioned"
	networkscheme "github.com/samplecrd/network-controller/pkg/client/clientset/versioned/scheme"
	listers "github.com/samplecrd/network-controller/pkg/client/listers/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials"
	"github.com/samplecrd/network-controller/pkg/credentials/grants"
	"github.com/samplecrd/network-controller/pkg/fairqueue"
	"github.com/samplecrd/network-controller/pkg/metrics"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronclient"
	"github.com/samplecrd/network-controller/pkg/reconcile"
	"github.com/samplecrd/network-controller/pkg/requestid"
	"github.com/samplecrd/network-controller/pkg/resync"
	"github.com/samplecrd/network-controller/pkg/scope"
)

const (
	controllerAgentName = "network-controller"
	// fieldManager names this controller in managedFields of everything it writes.
	fieldManager = controllerAgentName
)

// Config holds the controller's tunables; main fills it from flags.
type Config struct {
	// ClusterID goes into the ownership tag of every Neutron resource.
	ClusterID string
	// NeutronResyncPeriod is how often every project is listed to collect orphans and
	// catch lost retries (the sweep), and the drift check period of a Network without one
	// of its own. Zero disables both; Networks with their own period are still checked.
	NeutronResyncPeriod time.Duration
	// OrphanGracePeriod protects young Neutron networks from orphan collection, so a
	// create whose object is not in the informer cache yet is never collected.
	OrphanGracePeriod time.Duration
	// Namespaces are the namespaces watched (empty: all). Orphans of Networks in other
	// namespaces are left alone: another controller may manage those.
	Namespaces scope.Namespaces
	// Ownership says which namespaces this replica acts for, with shards those of the
	// shards it holds; nil: every watched namespace.
	Ownership *scope.Ownership
	// RetryBaseDelay and RetryMaxDelay bound the per-object exponential backoff.
	RetryBaseDelay, RetryMaxDelay time.Duration
	// FIFOQueue hands Networks to workers first in, first out instead of in turns by
	// namespace with user changes first (fairqueue): the baseline for measuring.
	FIFOQueue bool
	// GrantEnforcement: a power in effect no grant allows is kept (Warn) or withdrawn.
	GrantEnforcement grants.Enforcement
	// EventTarget carries Events about the controller itself (the leader election
	// Lease); nil: only the log has them.
	EventTarget runtime.Object
}

// Controller hands Networks from the informers to workers that reconcile them: the
// wiring of the reconciler, the Neutron resync and the credentials guard.
type Controller struct {
	// networks are the informers of Networks in the watched namespaces.
	networks *scope.Informers
	// synced are the informers workers need: the Networks' and the grants'. The first
	// Network that needs a credentials Secret waits for its watch.
	synced []cache.InformerSynced
	// workqueue holds keys, not objects: the worker reads the latest object from the
	// lister, and a key queued many times while waiting is processed once.
	workqueue networkQueue
	// tickets hold the Neutron budget's requests and the token requests' turns reserved
	// for deferred Networks.
	tickets budgetTickets
	// running holds what the informer delivers of the Networks a worker reconciles.
	running    reconcile.RunningPasses
	reconciler *reconcile.Reconciler
	resync     *resync.Resyncer
	// credentials wake the Networks whose credentials may have changed, and run what
	// only a leader does of them (the Secrets' finalizers among others).
	credentials *credentials.Credentials
	tenants     *credentials.Tenants
	metrics     *metrics.Metrics
	config      Config
	// now is time.Now, replaceable in tests.
	now func() time.Time
}

// NewController wires the event handlers of the Network informers, and of what the
// credentials watch (their Secrets, the grants), into the workqueue. Events go to
// recorder.
func NewController(
	ctx context.Context,
	networkclientset clientset.Interface,
	networks *scope.Informers,
	creds *credentials.Credentials,
	recorder record.EventRecorder,
	m *metrics.Metrics,
	config Config,
) (*Controller, error) {
	logger := klog.FromContext(ctx)
	if config.Ownership == nil {
		config.Ownership = scope.NewOwnership(config.Namespaces, 0)
	}
	c := &Controller{
		networks:    networks,
		synced:      []cache.InformerSynced{networks.HasSynced, creds.HasSynced},
		workqueue:   newNetworkQueue(config.RetryBaseDelay, config.RetryMaxDelay, config.FIFOQueue, m),
		credentials: creds,
		tenants:     creds.Tenants(),
		metrics:     m,
		config:      config,
		now:         time.Now,
	}
	if err := creds.Requeue(c.workqueue.addFor); err != nil {
		return nil, err
	}
	c.reconciler = reconcile.New(reconcile.Config{Client: networkclientset, FieldManager: fieldManager, Tenants: c.tenants, Networks: networks,
		Recorder: recorder, Metrics: m, ClusterID: config.ClusterID, GrantEnforcement: config.GrantEnforcement})
	c.resync = resync.New(resync.Config{Tenants: c.tenants, Networks: networks, Imports: c.reconciler, Recorder: recorder, Metrics: m,
		Enqueue: func(key cache.ObjectName) { c.workqueue.addFor(key, fairqueue.Resync) }, Checked: c.reconciler.Checked, DefaultPeriod: config.NeutronResyncPeriod,
		ClusterID: config.ClusterID, Namespaces: config.Namespaces, Ownership: config.Ownership,
		OrphanGracePeriod: config.OrphanGracePeriod, EventTarget: config.EventTarget, Now: func() time.Time { return c.now() }})
	m.CountNetworks(reconcile.NetworkStates(), c.countNetworkStates)
	m.CountNetworksWithoutGrant(reconcile.GrantedPowers(), c.reconciler.CountWithoutGrant)
	m.CountDriftedNetworks(c.countDrifted)
	if err := c.resync.WatchChecks(); err != nil {
		return nil, fmt.Errorf("adding the drift checks' event handlers: %w", err)
	}

	logger.Info("Setting up event handlers")
	err := networks.AddEventHandler(cache.ResourceEventHandlerDetailedFuncs{AddFunc: c.handleAdd, UpdateFunc: c.handleUpdate, DeleteFunc: c.handleDelete})
	if err != nil {
		return nil, fmt.Errorf("adding Network event handlers: %w", err)
	}
	return c, nil
}

// NewRecorder returns the recorder of the controller's Events, which go to the API
// through kubeclientset until ctx is done.
func NewRecorder(ctx context.Context, kubeclientset kubernetes.Interface) record.EventRecorder {
	// Let the event recorder know our types, so Events can refer to Networks.
	utilruntime.Must(networkscheme.AddToScheme(scheme.Scheme))
	eventBroadcaster := record.NewBroadcaster(record.WithContext(ctx))
	// Our own log lines already say what each Event says; repeat Events only at -v=4.
	eventBroadcaster.StartStructuredLogging(4)
	eventBroadcaster.StartRecordingToSink(&typedcorev1.EventSinkImpl{Interface: kubeclientset.CoreV1().Events("")})
	return eventBroadcaster.NewRecorder(scheme.Scheme, corev1.EventSource{Component: controllerAgentName})
}

// Run waits for the informer cache and fills the Neutron store, then runs workers and the
// periodic Neutron resync until ctx is done. It returns once the workers have finished the
// items they were processing.
func (c *Controller) Run(ctx context.Context, workers int) error {
	defer utilruntime.HandleCrashWithContext(ctx)
	logger := klog.FromContext(ctx)

	c.credentials.StartLeading(ctx)
	logger.Info("Starting Network controller; waiting for informer caches to sync")
	if ok := cache.WaitForCacheSync(ctx.Done(), c.synced...); !ok {
		c.workqueue.ShutDown()
		return errors.New("failed to wait for caches to sync")
	}
	if err := c.waitForStore(ctx); err != nil {
		c.workqueue.ShutDown()
		return err
	}

	logger.Info("Starting workers", "count", workers)
	done := make(chan struct{}, workers)
	for range workers {
		go func() {
			defer func() { done <- struct{}{} }()
			wait.UntilWithContext(ctx, c.runWorker, time.Second)
		}()
	}
	// Each Network's drift check, and the sweep every NeutronResyncPeriod (0: none).
	go c.resync.Run(ctx, c.config.NeutronResyncPeriod)
	c.credentials.RunBesideWorkers(ctx, c.now, c.reconciler.ExpiryOutOfDate)

	logger.Info("Started workers")
	<-ctx.Done()
	logger.Info("Shutting down workers; waiting for items in flight")
	// Take no new items, let workers finish the ones they hold.
	c.workqueue.ShutDownWithDrain()
	for range workers {
		<-done
	}
	logger.Info("Workers stopped")
	return nil
}

// storeFillBackoff spaces the attempts to fill the store: 1 s doubling up to 30 s, with
// jitter, for as long as Neutron does not answer.
var storeFillBackoff = wait.Backoff{Duration: time.Second, Factor: 2, Jitter: 0.1, Steps: math.MaxInt32, Cap: 30 * time.Second}

// waitForStore fills the store of the controller's own project, retrying while Neutron does
// not answer: workers decide from it. Tenants' projects are filled on their first use.
func (c *Controller) waitForStore(ctx context.Context) error {
	logger := klog.FromContext(ctx)
	has := true
	// Not wait.ExponentialBackoffWithContext: it gives up once the cap is reached (the cap
	// ends the Backoff's Steps), after five attempts in 31 s. A DelayFunc stays at the cap.
	err := storeFillBackoff.DelayFunc().Until(ctx, true, true, func(ctx context.Context) (bool, error) {
		ok, err := c.tenants.FillOwn(ctx)
		if err != nil {
			logger.Info("Cannot read this cluster's Neutron resources yet; retrying", "err", err)
			return false, nil
		}
		has = ok
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("filling the Neutron store: %w", err)
	}
	if !has {
		logger.Info("No cloud of the controller's own: every Network names its credentials")
		return nil
	}
	c.metrics.SetManagedNetworks(c.tenants.Len())
	logger.Info("Filled the Neutron store", "networks", c.tenants.Len())
	return nil
}

// runWorker processes items until the queue shuts down.
func (c *Controller) runWorker(ctx context.Context) {
	for c.processNextWorkItem(ctx) {
	}
}

// processNextWorkItem reconciles one key. Success forgets the key's failure history, and
// so does a terminal failure, which waits for a spec change; any other failure puts the
// key back with per-key exponential backoff, so nothing is dropped.
func (c *Controller) processNextWorkItem(ctx context.Context) bool {
	key, shutdown := c.workqueue.Get()
	if shutdown {
		return false
	}
	defer c.workqueue.Done(key)
	if ctx.Err() != nil {
		// Shutting down: the queue still hands out what waits, but a worker takes no new
		// item, so that the drain waits only for the passes under way. The next leader
		// lists every Network again.
		return false
	}

	// The work item itself runs without the shutdown signal: a Neutron call and the
	// status write that records it belong together, and the drain waits for both. A
	// project whose Neutron budget is spent, or a token request waiting for its
	// namespace's turn, defers the item instead of holding the worker; its ticket keeps
	// the request or the turn reserved for it, for its next run.
	ticket := c.tickets.take(key)
	itemCtx := neutronclient.DeferOverBudget(context.WithoutCancel(ctx), ticket)
	start := c.now()
	c.running.Begin(key)
	err := c.syncHandler(itemCtx, key)
	if c.running.End(key, c.reconciler.WroteItself) {
		c.workqueue.addFor(key, fairqueue.UserChange)
	}
	throttled, deferred := neutron.AsThrottled(err)
	if deferred && ticket.Held() {
		c.tickets.keep(key, ticket)
	} else {
		ticket.Release()
	}
	if err == nil {
		c.metrics.ObserveReconcile(metrics.ResultSuccess, c.now().Sub(start))
		c.workqueue.Forget(key)
		return true
	}
	if deferred {
		// Not a failure: no status, no Event, its backoff stays as it was. What was done
		// so far is in the store, so the next run goes on from there, when the request
		// or the token request's turn its ticket holds is due.
		c.metrics.ObserveReconcile(metrics.ResultDeferred, c.now().Sub(start))
		klog.FromContext(ctx).V(4).Info("Deferring Network", "network", key, "delay", throttled.Delay, "why", throttled.Error())
		c.workqueue.AddAfter(key, throttled.Delay)
		return true
	}
	c.metrics.ObserveReconcile(metrics.ResultError, c.now().Sub(start))

	failure, recorded := reconcile.RecordedFailure(err)
	switch {
	case recorded && failure.Terminal:
		// In the Network's status and Events; only a change of the spec or of the
		// credentials Secret, which the informers report, can help.
		klog.FromContext(ctx).V(2).Info("Not retrying Network until its spec or its credentials Secret changes", "network", key, "reason", failure.Reason)
		c.workqueue.Forget(key)
		return true
	case recorded:
		// Already in the Network's status and Events; logging each retry again would
		// only flood the log while Neutron is down.
		klog.FromContext(ctx).V(4).Info("Retrying Network", "network", key, "err", err)
	case apierrors.IsConflict(err):
		// The cache was behind our own last write; the retry reads the newer object.
		klog.FromContext(ctx).V(4).Info("Retrying Network after a write conflict", "network", key, "err", err)
	case credentials.IsWaiting(err):
		// A watch just started for its Secret: a moment, not a failure.
		klog.FromContext(ctx).V(4).Info("Retrying Network", "network", key, "err", err)
	default:
		utilruntime.HandleErrorWithContext(ctx, err, "Error syncing Network; requeuing for later retry", "network", key)
	}
	c.workqueue.AddRateLimited(key)
	return true
}

// cachesSynced reports whether every informer the workers read from has synced.
func (c *Controller) cachesSynced() bool {
	for _, synced := range c.synced {
		if !synced() {
			return false
		}
	}
	return true
}

// syncHandler hands the Network named by key, as the informer cache has it, to the
// reconciler, which makes its Neutron side equal to it or removes it.
func (c *Controller) syncHandler(ctx context.Context, key cache.ObjectName) error {
	// One global request ID for the OpenStack calls of this pass, in its log lines too.
	id := requestid.New()
	logger := klog.LoggerWithValues(klog.FromContext(ctx), "network", key, "requestID", id)
	ctx = requestid.NewContext(klog.NewContext(ctx, logger), id)

	network, err := listers.NewNetworkLister(c.networks.Indexer(key.Namespace)).Networks(key.Namespace).Get(key.Name)
	if apierrors.IsNotFound(err) {
		// Gone with its finalizer: its Neutron side was removed before. Anything that
		// escaped (its finalizer removed by hand) is collected by the resync as an orphan.
		logger.V(4).Info("Network no longer exists")
		c.reconciler.Forget(key)
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading Network %s from the informer cache: %w", key, err)
	}

	return c.reconciler.Sync(ctx, network)
}

// handleAdd queues a new Network; those of the informer's initial list (a start, a
// takeover) wait behind the changes users make meanwhile.
func (c *Controller) handleAdd(obj any, isInInitialList bool) {
	c.metrics.AddCachedNetworks(1)
	c.reconciler.Saw(obj.(*samplecrdv1.Network))
	if isInInitialList {
		c.enqueueNetwork(obj, fairqueue.InitialList)
		return
	}
	c.enqueueNetwork(obj, fairqueue.UserChange)
}

// handleUpdate queues a changed Network. A resync re-delivers every object with an
// unchanged ResourceVersion, and the controller's own writes come back as versions the
// pass that wrote them already went on from; there is nothing new to do for those.
func (c *Controller) handleUpdate(old, new any) {
	network := new.(*samplecrdv1.Network)
	if old.(*samplecrdv1.Network).ResourceVersion == network.ResourceVersion {
		return
	}
	c.reconciler.Saw(network)
	if c.reconciler.WroteItself(network) || c.running.Deliver(network) {
		return
	}
	c.enqueueNetwork(new, fairqueue.UserChange)
}

// handleDelete queues a Network gone from the API, so that what the controller kept
// about it is forgotten.
func (c *Controller) handleDelete(obj any) {
	c.metrics.AddCachedNetworks(-1)
	if key, err := cache.DeletionHandlingObjectToName(obj); err == nil {
		c.reconciler.Gone(key)
	}
	c.enqueueNetwork(obj, fairqueue.UserChange)
}

// enqueueNetwork queues the key of a Network for the reason class; it accepts the
// tombstone the informer hands out when it missed a delete.
func (c *Controller) enqueueNetwork(obj any, class fairqueue.Class) {
	if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tombstone.Obj
	}
	key, err := cache.ObjectToName(obj)
	if err != nil {
		utilruntime.HandleError(fmt.Errorf("queueing Network: %w", err))
		return
	}
	c.workqueue.addFor(key, class)
}

// countNetworkStates counts the cached Networks by state, at a scrape.
func (c *Controller) countNetworkStates() map[metrics.NetworkState]int {
	counts := map[metrics.NetworkState]int{}
	for _, obj := range c.networks.List() {
		if network, ok := obj.(*samplecrdv1.Network); ok {
			counts[reconcile.StateOf(network)]++
		}
	}
	return counts
}

// countDrifted counts, by namespace, the cached Networks whose last check under the
// Report policy found drift, at a scrape.
func (c *Controller) countDrifted() map[string]int {
	counts := map[string]int{}
	for _, obj := range c.networks.List() {
		if network, ok := obj.(*samplecrdv1.Network); ok && reconcile.IsDrifted(network) {
			counts[network.Namespace]++
		}
	}
	return counts
}

// queueName labels the workqueue's metrics.
const queueName = "networks"

// networkQueue is the controller's workqueue: client-go's rate-limiting queue, with the
// order of fairqueue underneath, and the Queue itself to mark why each key is added.
type networkQueue struct {
	workqueue.TypedRateLimitingInterface[cache.ObjectName]
	order *fairqueue.Queue
}

// newNetworkQueue builds the workqueue: per-key exponential backoff between retryBase and
// retryMax under an overall ceiling, and namespaces taking turns unless fifo.
func newNetworkQueue(retryBase, retryMax time.Duration, fifo bool, m *metrics.Metrics) networkQueue {
	ratelimiter := workqueue.NewTypedMaxOfRateLimiter(
		workqueue.NewTypedItemExponentialFailureRateLimiter[cache.ObjectName](retryBase, retryMax),
		// Overall ceiling, so a burst of failures cannot flood the apiserver or Neutron.
		&workqueue.TypedBucketRateLimiter[cache.ObjectName]{Limiter: rate.NewLimiter(rate.Limit(50), 300)},
	)
	classes := make([]string, len(fairqueue.Classes))
	for i, class := range fairqueue.Classes {
		classes[i] = class.String()
	}
	m.DeclareQueueClasses(classes)
	order := fairqueue.New(fairqueue.Options{
		FIFO:    fifo,
		Observe: func(class fairqueue.Class, waited time.Duration) { m.ObserveQueueWait(class.String(), waited) },
	})
	// The queue's name goes to both layers: the inner one reports depth, adds and
	// latency, the delaying one retries.
	queue := workqueue.NewTypedWithConfig(workqueue.TypedQueueConfig[cache.ObjectName]{Name: queueName, Queue: order})
	delaying := workqueue.NewTypedDelayingQueueWithConfig(workqueue.TypedDelayingQueueConfig[cache.ObjectName]{Name: queueName, Queue: queue})
	return networkQueue{
		TypedRateLimitingInterface: workqueue.NewTypedRateLimitingQueueWithConfig(ratelimiter,
			workqueue.TypedRateLimitingQueueConfig[cache.ObjectName]{DelayingQueue: delaying}),
		order: order,
	}
}

// addFor queues key, saying why: the order depends on it.
func (q networkQueue) addFor(key cache.ObjectName, class fairqueue.Class) {
	q.order.Mark(key, class)
	q.Add(key)
}

// budgetTickets keep, for each Network deferred over its project's Neutron budget or for
// its token request's turn, the request or turn reserved for it, until its next run takes
// it up.
type budgetTickets struct {
	mu    sync.Mutex
	byKey map[cache.ObjectName]*neutronclient.Ticket
	// peak is the map's largest size since it was made: emptied after growing past
	// releaseTicketsAbove, it is made anew, as a Go map keeps the memory of its largest size.
	peak int
}

const releaseTicketsAbove = 1024

// take returns key's ticket, or a new one, and forgets it: the run holds it now.
func (t *budgetTickets) take(key cache.ObjectName) *neutronclient.Ticket {
	t.mu.Lock()
	defer t.mu.Unlock()
	ticket := t.byKey[key]
	if ticket == nil {
		return &neutronclient.Ticket{}
	}
	delete(t.byKey, key)
	if len(t.byKey) == 0 && t.peak > releaseTicketsAbove {
		t.byKey, t.peak = nil, 0
	}
	return ticket
}

// keep holds key's ticket for its next run.
func (t *budgetTickets) keep(key cache.ObjectName, ticket *neutronclient.Ticket) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.byKey == nil {
		t.byKey = map[cache.ObjectName]*neutronclient.Ticket{}
	}
	t.byKey[key] = ticket
	t.peak = max(t.peak, len(t.byKey))
}
