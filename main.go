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
	"github.com/samplecrd/network-controller/pkg/credentials/grants"
	"github.com/samplecrd/network-controller/pkg/credentials/identitystatus"
	"github.com/samplecrd/network-controller/pkg/credentials/lockout"
	"github.com/samplecrd/network-controller/pkg/credentials/owncloud"
	"github.com/samplecrd/network-controller/pkg/credentials/registry"
	"github.com/samplecrd/network-controller/pkg/credentials/requeue"
	"github.com/samplecrd/network-controller/pkg/credentials/secretwatch"
	"github.com/samplecrd/network-controller/pkg/endpoints"
	"github.com/samplecrd/network-controller/pkg/leaderelect"
	"github.com/samplecrd/network-controller/pkg/logging"
	"github.com/samplecrd/network-controller/pkg/metrics"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronclient"
	"github.com/samplecrd/network-controller/pkg/resync"
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
	access := newNeutronAccess(opts, m, probes)
	own, err := connectOwnCloud(startupCtx, opts, access, m)
	if err != nil {
		return err
	}
	logger.Info("Connected", append([]any{"apiserver", kube.config.Host, "clusterID", config.ClusterID, "namespaces", opts.namespaces.String()}, ownCloudLog(own)...)...)
	secretWatches := secretwatch.New(kube.metadata, registry.StripSecretMetadata,
		secretwatch.Limits{PerNamespace: opts.maxSecretsPerNamespace, Total: opts.maxSecrets})
	gate := lockout.NewGate(opts.keystoneAuthQPS, opts.keystoneAuthBurst, m.KeystoneTokenRequestHeld, m.SetKeystoneAccountsHeld)
	gate.OnTurnWait(m.ObserveKeystoneTokenWait)
	owncloud.GuardAccount(gate, own)
	restoreLockouts := gate.KeepInConfigMap(ctx, kube.core, opts.leaseNamespace, opts.refusalsConfigMap, fieldManager)
	tenants, err := newRegistry(startupCtx, opts, config.ClusterID, own, secretWatches, kube, access.tenantConnector(m, gate))
	if err != nil {
		return err
	}
	networkInformers, err := newNetworkInformers(opts, kube.networks)
	if err != nil {
		return err
	}
	ownership := scope.NewOwnership(opts.namespaces, opts.shards)
	config.Ownership = ownership
	identities, namespaces := grants.NewInformers(kube.networks, kube.metadata)
	grantBook := grants.NewBook(identities, namespaces, opts.ownCloudSelector)
	// Force-removed Networks leave orphans in delegated projects that no Network may reach again.
	config.Delegated = resync.Delegated{Identities: identities.GetStore(), Delegation: grantBook.Delegation, UseSecret: secretWatches.Use}
	controller, err := NewController(ctx, kube.core, kube.networks, networkInformers, secretWatches, tenants, grantBook, NewRecorder(ctx, kube.core), m, config)
	if err != nil {
		return err
	}
	m.ExportCredentialExpiries(opts.expiryWarning, tenants.MetricExpiries)
	if err := controller.requeue.OnIdentitySecrets(identities, secretWatches); err != nil {
		return err
	}
	identityStatus, err := identitystatus.New(kube.networks, identities, namespaces, networkInformers, ownership, tenants.Check, fieldManager)
	if err != nil {
		return err
	}
	secretWatches.AddEventHandler(requeue.SecretChanges(identityStatus.SecretChanged))
	lead := func(ctx context.Context) error {
		// The last leader's counts: Networks whose credentials need none go on meanwhile.
		go restoreLockouts(ctx)
		go identityStatus.Run(ctx)
		return controller.Run(ctx, opts.workers)
	}

	probes.SetSynced(controller.cachesSynced)
	if err := serveEndpoints(ctx, opts, kube.config, m, probes); err != nil {
		return err
	}
	secretWatches.Start(ctx)
	networkInformers.Run(ctx)
	go identities.RunWithContext(ctx)
	go namespaces.RunWithContext(ctx)
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
			Share: access.shareRates(opts, gate), SetLeading: leadingReporter(probes, m), Unfill: tenants.Unfill,
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
	m.DeclareKeystoneTokenOutcomes(neutronclient.TokenOutcomes)
	m.DeclareKeystoneHeldLimits(lockout.HeldLimits)
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
func (a neutronAccess) shareRates(opts options, gate *lockout.Gate) func(held int) {
	return func(held int) {
		total := shard.Budget{QPS: opts.neutronQPS, Burst: opts.neutronBurst}.Share(held, opts.shards)
		a.limiter.SetLimit(rate.Limit(total.QPS))
		a.limiter.SetBurst(total.Burst)
		project := shard.Budget{QPS: opts.neutronProjectQPS, Burst: opts.neutronProjectBurst}.Share(held, opts.shards)
		a.budgets.SetRate(project.QPS, project.Burst)
		keystone := shard.Budget{QPS: opts.keystoneAuthQPS, Burst: opts.keystoneAuthBurst}.Share(held, opts.shards)
		gate.SetRate(keystone.QPS, keystone.Burst)
	}
}

// limit puts client under the rate limits and counts its quota refusals by project.
func (a neutronAccess) limit(client *neutronclient.Client, m *metrics.Metrics) {
	place := client.Place()
	client.LimitRate(neutronclient.RateLimits{Total: a.limiter, Project: a.budgets.Of(place), OnWait: a.onWait})
	m.DeclareQuotaProject(place.ProjectID)
	client.OnOverQuota(func() { m.ObserveQuotaRefusal(place.ProjectID) })
}

// tenantConnector connects the credentials of a Secret or an identity, their token
// requests admitted by gate.
func (a neutronAccess) tenantConnector(m *metrics.Metrics, gate *lockout.Gate) registry.Connector {
	hooks := neutronclient.Hooks{Observe: a.observeTenant, OnToken: m.ObserveKeystoneTokenRequest, Gate: gate}
	return func(ctx context.Context, creds neutronclient.Credentials) (neutron.Driver, neutron.Place, error) {
		client, err := neutronclient.ConnectKeystone(ctx, creds, hooks)
		if err != nil {
			return nil, neutron.Place{}, err
		}
		if err := client.ExpiryError(); err != nil {
			klog.FromContext(ctx).Info("Cannot tell when credentials expire", "credentials", creds.Name, "err", err)
		}
		a.limit(client, m)
		return client, client.Place(), nil
	}
}

// connectOwnCloud connects the controller's own cloud (nil: -require-credentials-ref),
// under the rate limits, its refused tokens retried.
func connectOwnCloud(ctx context.Context, opts options, access neutronAccess, m *metrics.Metrics) (*registry.Own, error) {
	own, err := owncloud.Connect(ctx, opts.ownCloudFlags(), neutronclient.Hooks{Observe: access.observeOwn, OnToken: m.ObserveKeystoneTokenRequest})
	if err != nil || own == nil {
		return own, err
	}
	client := own.Driver.(*neutronclient.Client)
	access.limit(client, m)
	client.RetryRefusals(owncloud.RefusalRetryFirst, owncloud.RefusalRetryMax, m.SetOwnCredentialsRefused)
	if err := client.ExpiryError(); err != nil {
		klog.FromContext(ctx).Info("Cannot tell when the controller's own credentials expire", "err", err)
	}
	return own, nil
}

// ownCloudLog names the controller's own project in the log, or says there is none.
func ownCloudLog(own *registry.Own) []any {
	if own == nil {
		return []any{"ownCloud", false}
	}
	return []any{"projectID", own.Place.ProjectID, "region", own.Place.Region}
}

// keystoneUnavailableBackoff is how long credentials whose Keystone did not answer are
// not tried again; the Networks using them are retried with their own backoff meanwhile.
const keystoneUnavailableBackoff = 5 * time.Second

// newRegistry builds the registry of every Network's credentials: the own cloud, and the
// Secrets the watches read, which tenants' Keystone URLs must be on the allowlist of.
func newRegistry(ctx context.Context, opts options, clusterID string, own *registry.Own, secrets *secretwatch.Watches, kube kubeClients, connect registry.Connector) (*registry.Registry, error) {
	allowed, err := owncloud.TenantAuthURLs(opts.ownCloudFlags())
	if err != nil {
		return nil, err
	}
	klog.FromContext(ctx).Info("Credentials Secrets may authenticate at", "authURLs", allowed.String())
	return registry.NewRegistry(registry.Config{
		ClusterID:          clusterID,
		Policy:             registry.Policy{AuthURLs: allowed, AllowUnverifiedTLS: opts.allowUnverifiedTLS, Passwords: opts.passwords},
		Own:                own,
		UnavailableBackoff: keystoneUnavailableBackoff,
	}, registry.NewWatchedSecrets(secrets, kube.core, registry.Grantee(ctx, kube.core)), connect), nil
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
		ExpiryWarning:       opts.expiryWarning,
		GrantEnforcement:    opts.enforcement,
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
