// Command network-controller realises samplecrd.k8s.io/v1 Network objects in OpenStack
// Neutron: a network with the subnets of the spec (the one-subnet form at its top, or
// spec.subnets), attached to a router and shared with other projects when the spec asks,
// in the project of the controller or of spec.cloudCredentialsRef. It removes them when
// the object goes, unless deletionPolicy is Retain; a Network with spec.import only
// reports an existing network.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"golang.org/x/time/rate"
	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/tools/leaderelection"
	clientmetrics "k8s.io/client-go/tools/metrics"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"

	"github.com/samplecrd/network-controller/pkg/buildinfo"
	clientset "github.com/samplecrd/network-controller/pkg/client/clientset/versioned"
	informers "github.com/samplecrd/network-controller/pkg/client/informers/externalversions"
	"github.com/samplecrd/network-controller/pkg/credentials"
	"github.com/samplecrd/network-controller/pkg/endpoints"
	"github.com/samplecrd/network-controller/pkg/leaderelect"
	"github.com/samplecrd/network-controller/pkg/logging"
	"github.com/samplecrd/network-controller/pkg/metrics"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronclient"
	"github.com/samplecrd/network-controller/pkg/scope"
	"github.com/samplecrd/network-controller/pkg/shard"
	"github.com/samplecrd/network-controller/pkg/shardwork"
	"github.com/samplecrd/network-controller/pkg/signals"
	"github.com/samplecrd/network-controller/pkg/startup"
)

func main() {
	logging.ReadClientFeatureGates()
	var opts options
	own := flag.NewFlagSet("network-controller", flag.ExitOnError)
	opts.addFlags(own)
	klogFlags := flag.NewFlagSet("klog", flag.ExitOnError)
	klog.InitFlags(klogFlags)
	for _, fs := range []*flag.FlagSet{own, klogFlags} {
		fs.VisitAll(func(f *flag.Flag) { flag.Var(f.Value, f.Name, f.Usage) })
	}
	flag.Usage = func() { printUsage(flag.CommandLine.Output(), own, klogFlags) }
	flag.Parse()
	if opts.printVersion {
		build := buildinfo.Read()
		fmt.Printf("network-controller %s (commit %s, %s)\n", build.Version, build.Commit, build.GoVersion)
		return
	}

	if err := run(opts); err != nil {
		if opts.loggingFormat == "json" {
			// Log pipelines expect every line to be JSON, the last one too.
			klog.Background().Error(err, "Exiting")
		} else {
			fmt.Fprintf(os.Stderr, "network-controller: %v\n", err)
		}
		klog.Flush()
		os.Exit(1)
	}
	klog.Flush()
}

func run(opts options) error {
	if flag.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q; all settings are flags", flag.Args())
	}
	opts.fillFromEnvironment()
	if err := opts.validate(); err != nil {
		return err
	}
	if err := logging.Setup(opts.loggingFormat); err != nil {
		return err
	}
	ctx := signals.Context()
	logger := klog.FromContext(ctx)
	build := buildinfo.Read()
	logger.Info("Starting network-controller", "version", build.Version, "commit", build.Commit, "goVersion", build.GoVersion)
	logging.LogClientFeatureGates(logger)

	// Before the first request, so that the startup checks count in the REST client series.
	m, probes := newMetrics(build)
	kube, err := newKubeClients(opts)
	if err != nil {
		return err
	}
	startupCtx, cancel := context.WithTimeout(ctx, opts.neutronStartupTimeout)
	defer cancel()
	config, err := controllerConfig(startupCtx, opts, kube.core, kube.networks, kube.config.Host)
	if err != nil {
		return err
	}
	networkInformers, err := newNetworkInformers(opts, kube.networks)
	if err != nil {
		return err
	}
	ownership := scope.NewOwnership(opts.namespaces, opts.shards)
	config.Ownership = ownership
	access := newNeutronAccess(opts, m, probes)
	creds, err := credentials.New(ctx, startupCtx, opts.creds, credentials.Env{
		Core: kube.core, Networks: kube.networks, Metadata: kube.metadata,
		NetworkInformers: networkInformers, Namespaces: opts.namespaces, Ownership: ownership,
		ClusterID: config.ClusterID, FieldManager: fieldManager, LeaseNamespace: opts.leaseNamespace, Metrics: m,
		ObserveOwn: access.observeOwn, ObserveTenant: access.observeTenant, Limit: func(c *neutronclient.Client) { access.limit(c, m) },
		RetryBaseDelay: opts.retryBaseDelay, RetryMaxDelay: opts.retryMaxDelay,
	})
	if err != nil {
		return err
	}
	logger.Info("Connected", append([]any{"apiserver", kube.config.Host, "clusterID", config.ClusterID, "namespaces", opts.namespaces.String()}, creds.OwnCloudLog()...)...)
	controller, err := NewController(ctx, kube.networks, networkInformers, creds, NewRecorder(ctx, kube.core), m, config)
	if err != nil {
		return err
	}
	lead := func(ctx context.Context) error { return controller.Run(ctx, opts.workers) }

	probes.SetSynced(controller.cachesSynced)
	if err := serveEndpoints(ctx, opts, kube.config, m, probes); err != nil {
		return err
	}
	creds.Start(ctx)
	networkInformers.Run(ctx)
	enforceShutdownTimeout(ctx, opts.shutdownTimeout)
	if opts.shards > 1 {
		identity, err := leaderelect.Identity()
		if err != nil {
			return err
		}
		return shardwork.Run(ctx, shardwork.Config{
			Shards: opts.shards, Namespaces: opts.namespaces,
			LeaseNamespace: opts.leaseNamespace, LeaseName: opts.leaseName, Identity: identity, FieldManager: fieldManager,
			LeaseDuration: opts.leaseDuration, RenewDeadline: opts.leaseRenewDeadline, RetryPeriod: opts.leaseRetryPeriod,
			Leases: kube.core.CoordinationV1(), Networks: kube.networks, Informers: networkInformers, Ownership: ownership, Metrics: m,
			Share: access.shareRates(opts, creds), SetLeading: leadingReporter(probes, m), Unfill: creds.Tenants().Unfill,
			WaitForPasses: controller.running.WaitFor, QueuedByNamespace: controller.workqueue.order.QueuedByNamespace,
		}, lead)
	}
	return leadWhenElected(ctx, opts, kube.core, probes, m, lead)
}

// kubeClients are the controller's clients of the apiserver, all with one configuration.
type kubeClients struct {
	config   *rest.Config
	core     kubernetes.Interface
	networks clientset.Interface
	metadata metadata.Interface
}

// newKubeClients builds the apiserver clients from -kubeconfig/-master and the rate flags.
func newKubeClients(opts options) (kubeClients, error) {
	cfg, err := clientcmd.BuildConfigFromFlags(opts.master, opts.kubeconfig)
	if err != nil {
		return kubeClients{}, fmt.Errorf("building Kubernetes client configuration: %w", err)
	}
	cfg.QPS = float32(opts.kubeAPIQPS)
	cfg.Burst = opts.kubeAPIBurst
	cfg = rest.AddUserAgent(cfg, controllerAgentName)
	kube := kubeClients{config: cfg}
	if kube.core, err = kubernetes.NewForConfig(cfg); err != nil {
		return kubeClients{}, fmt.Errorf("creating Kubernetes client: %w", err)
	}
	if kube.networks, err = clientset.NewForConfig(cfg); err != nil {
		return kubeClients{}, fmt.Errorf("creating Network client: %w", err)
	}
	if kube.metadata, err = metadata.NewForConfig(cfg); err != nil {
		return kubeClients{}, fmt.Errorf("creating metadata client: %w", err)
	}
	return kube, nil
}

// newMetrics returns the registry of every metric, with the series declared that must
// show before their first event, and the health probes, whose readiness follows the
// controller's own Neutron. It hands client-go its series, which client-go takes once per
// process.
func newMetrics(build buildinfo.Info) (*metrics.Metrics, *endpoints.Probes) {
	m := metrics.New()
	m.SetBuildInfo(build.Version, build.Commit, build.GoVersion)
	// Must happen before the controller creates its queue, and the leader elector.
	workqueue.SetProvider(m.WorkqueueProvider())
	leaderelection.SetProvider(m.LeaderElectionProvider())
	clientmetrics.Register(m.RESTClientMetrics())
	return m, endpoints.NewProbes()
}

// neutronAccess is what every Neutron client shares: the metrics of its calls and the
// rate limits, one ceiling for every credential's client together and a budget per Place.
type neutronAccess struct {
	observeOwn, observeTenant neutronclient.CallObserver
	limiter                   *rate.Limiter
	budgets                   *neutronclient.ProjectBudgets
	onWait                    func(project bool, d time.Duration)
}

func newNeutronAccess(opts options, m *metrics.Metrics, probes *endpoints.Probes) neutronAccess {
	observe := func(onCall func(error)) neutronclient.CallObserver {
		return func(op string, err error, elapsed time.Duration) {
			outcome := "ok"
			if err != nil {
				outcome = neutron.KindOf(err).String()
			}
			m.ObserveNeutronCall(op, outcome, elapsed)
			onCall(err)
		}
	}
	return neutronAccess{
		// Readiness follows the controller's own cloud only: a tenant's unreachable Neutron
		// is that tenant's Networks' condition, not a reason to take this pod out of service.
		observeOwn:    observe(probes.ObserveNeutronCall),
		observeTenant: observe(func(error) {}),
		limiter:       rate.NewLimiter(rate.Limit(opts.neutronQPS), opts.neutronBurst),
		budgets:       neutronclient.NewProjectBudgets(opts.neutronProjectQPS, opts.neutronProjectBurst),
		onWait: func(project bool, d time.Duration) {
			if project {
				m.ObserveNeutronRateLimitWait(metrics.LimiterProject, d)
			} else {
				m.ObserveNeutronRateLimitWait(metrics.LimiterTotal, d)
			}
		},
	}
}

// shareRates returns what sets this replica's rates to its share of the cloud's, for held
// of the -shards shards: together the replicas never exceed the flags' rates.
func (a neutronAccess) shareRates(opts options, creds *credentials.Credentials) func(held int) {
	return func(held int) {
		total := shard.Budget{QPS: opts.neutronQPS, Burst: opts.neutronBurst}.Share(held, opts.shards)
		a.limiter.SetLimit(rate.Limit(total.QPS))
		a.limiter.SetBurst(total.Burst)
		project := shard.Budget{QPS: opts.neutronProjectQPS, Burst: opts.neutronProjectBurst}.Share(held, opts.shards)
		a.budgets.SetRate(project.QPS, project.Burst)
		keystone := shard.Budget{QPS: opts.creds.KeystoneAuthQPS, Burst: opts.creds.KeystoneAuthBurst}.Share(held, opts.shards)
		creds.SetKeystoneRate(keystone.QPS, keystone.Burst)
	}
}

// limit puts client under the rate limits and counts its quota refusals by project.
func (a neutronAccess) limit(client *neutronclient.Client, m *metrics.Metrics) {
	place := client.Place()
	client.LimitRate(neutronclient.RateLimits{Total: a.limiter, Project: a.budgets.Of(place), OnWait: a.onWait})
	m.DeclareQuotaProject(place.ProjectID)
	client.OnOverQuota(func() { m.ObserveQuotaRefusal(place.ProjectID) })
}

// newNetworkInformers returns the Network informers of the watched namespaces; with
// shards, a set that gets the informers of each shard when it is taken.
func newNetworkInformers(opts options, networkClient clientset.Interface) (*scope.Informers, error) {
	trim := scope.NewCacheTrim()
	if opts.shards > 1 {
		set := scope.NewShardedInformers(opts.namespaces, opts.shards)
		if err := set.SetTransform(trim.Transform); err != nil {
			return nil, err
		}
		return set, nil
	}
	return scope.NewInformers(opts.namespaces, func(namespace string) cache.SharedIndexInformer {
		return informers.NewSharedInformerFactoryWithOptions(networkClient, 0, informers.WithNamespace(namespace),
			informers.WithTransform(trim.Transform)).Samplecrd().V1().Networks().Informer()
	}), nil
}

// serveEndpoints serves the metrics (behind TLS and a token review with -metrics-secure),
// the probes and, when asked, profiling, until ctx is done.
func serveEndpoints(ctx context.Context, opts options, cfg *rest.Config, m *metrics.Metrics, probes *endpoints.Probes) error {
	var secure *endpoints.SecureMetrics
	if opts.metricsSecure {
		// A rate limit of its own: callers with bad tokens cannot spend the controller's.
		reviewCfg := rest.CopyConfig(cfg)
		reviewCfg.QPS, reviewCfg.Burst = metricsReviewQPS, metricsReviewBurst
		reviewClient, err := kubernetes.NewForConfig(reviewCfg)
		if err != nil {
			return fmt.Errorf("creating the client reviewing metrics callers: %w", err)
		}
		secure = &endpoints.SecureMetrics{CertDir: opts.metricsCertDir, Kube: reviewClient}
	}
	if err := endpoints.ServeMetrics(ctx, opts.metricsBindAddress, m.Registry(), secure); err != nil {
		return err
	}
	if err := endpoints.ServeProbes(ctx, opts.healthProbeAddress, probes); err != nil {
		return err
	}
	return endpoints.ServeProfiling(ctx, opts.profilingAddress)
}

// leadWhenElected runs lead at once, or with -leader-elect each time this process wins
// the Lease, until ctx is done.
func leadWhenElected(ctx context.Context, opts options, kubeClient kubernetes.Interface, probes *endpoints.Probes, m *metrics.Metrics, lead func(context.Context) error) error {
	setLeading := leadingReporter(probes, m)
	if !opts.leaderElect {
		setLeading(true)
		return lead(ctx)
	}
	election := leaderelect.Config{
		Namespace:     opts.leaseNamespace,
		Name:          opts.leaseName,
		LeaseDuration: opts.leaseDuration,
		RenewDeadline: opts.leaseRenewDeadline,
		RetryPeriod:   opts.leaseRetryPeriod,
		Watchdog:      probes.LeaderWatchdog(),
		SetLeading:    setLeading,
		FieldManager:  fieldManager,
	}
	return leaderelect.Run(ctx, election, kubeClient, lead)
}

// leadingReporter returns what tells the probes and the metrics whether this replica
// leads (holds the Lease, or a shard).
func leadingReporter(probes *endpoints.Probes, m *metrics.Metrics) func(bool) {
	return func(leading bool) {
		probes.SetLeading(leading)
		m.SetLeader(leading)
	}
}

// controllerConfig turns flags into the controller's Config, asking the apiserver for what
// the flags leave open. It doubles as the startup check that the API and the CRD are there.
func controllerConfig(ctx context.Context, opts options, kubeClient kubernetes.Interface, networkClient clientset.Interface, host string) (Config, error) {
	config := Config{
		ClusterID:           opts.clusterID,
		NeutronResyncPeriod: opts.neutronResyncPeriod,
		OrphanGracePeriod:   opts.orphanGracePeriod,
		Namespaces:          opts.namespaces,
		RetryBaseDelay:      opts.retryBaseDelay,
		RetryMaxDelay:       opts.retryMaxDelay,
		FIFOQueue:           !opts.fairQueue,
		GrantEnforcement:    opts.creds.Enforcement(),
	}
	if opts.leaderElect {
		config.EventTarget = &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: opts.leaseName, Namespace: opts.leaseNamespace}}
	}
	err := startup.DefaultRetry.WaitFor(ctx, "the apiserver at "+host, func(ctx context.Context) error {
		if config.ClusterID == "" {
			ns, err := kubeClient.CoreV1().Namespaces().Get(ctx, metav1.NamespaceSystem, metav1.GetOptions{})
			if err != nil {
				return fmt.Errorf("reading the kube-system namespace for the default -cluster-id: %w", err)
			}
			config.ClusterID = string(ns.UID)
		}
		// The first watched namespace stands for all: each is listed the same way.
		namespace := metav1.NamespaceAll
		if !opts.namespaces.All() {
			namespace = opts.namespaces[0]
		}
		if _, err := networkClient.SamplecrdV1().Networks(namespace).List(ctx, metav1.ListOptions{Limit: 1}); err != nil {
			return fmt.Errorf("listing Networks (is the CRD installed? kubectl apply -f crd/): %w", err)
		}
		return nil
	})
	return config, err
}

// The apiserver requests of -metrics-secure: a few scrapers need a review a minute each.
const (
	metricsReviewQPS   = 5
	metricsReviewBurst = 10
)

// enforceShutdownTimeout exits the process when shutting down takes longer than timeout
// after ctx is cancelled, so a stuck Neutron call cannot keep a terminating pod alive.
func enforceShutdownTimeout(ctx context.Context, timeout time.Duration) {
	context.AfterFunc(ctx, func() {
		time.Sleep(timeout)
		klog.FromContext(ctx).Error(errors.New("shutdown timed out"), "Exiting with items still in flight", "timeout", timeout)
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	})
}
