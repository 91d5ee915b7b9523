// Command network-controller realises every samplecrd.k8s.io/v1 Network object as an
// OpenStack Neutron network with one subnet, and removes it when the object goes.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"

	clientset "github.com/samplecrd/network-controller/pkg/client/clientset/versioned"
	informers "github.com/samplecrd/network-controller/pkg/client/informers/externalversions"
	"github.com/samplecrd/network-controller/pkg/endpoints"
	"github.com/samplecrd/network-controller/pkg/leaderelect"
	"github.com/samplecrd/network-controller/pkg/logging"
	"github.com/samplecrd/network-controller/pkg/metrics"
	"github.com/samplecrd/network-controller/pkg/neutron"
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
	logging.LogClientFeatureGates(logger)

	cfg, err := clientcmd.BuildConfigFromFlags(opts.master, opts.kubeconfig)
	if err != nil {
		return fmt.Errorf("building Kubernetes client configuration: %w", err)
	}
	cfg.QPS = float32(opts.kubeAPIQPS)
	cfg.Burst = opts.kubeAPIBurst
	cfg = rest.AddUserAgent(cfg, controllerAgentName)
	kubeClient, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return fmt.Errorf("creating Kubernetes client: %w", err)
	}
	networkClient, err := clientset.NewForConfig(cfg)
	if err != nil {
		return fmt.Errorf("creating Network client: %w", err)
	}

	startupCtx, cancel := context.WithTimeout(ctx, opts.neutronStartupTimeout)
	defer cancel()
	config, err := controllerConfig(startupCtx, opts, kubeClient, networkClient, cfg.Host)
	if err != nil {
		return err
	}

	m := metrics.New()
	// Must happen before the controller creates its queue.
	workqueue.SetProvider(m.WorkqueueProvider())
	probes := endpoints.NewProbes()
	driver, err := connectNeutron(startupCtx, opts, m, probes.ObserveNeutronCall)
	if err != nil {
		return err
	}
	logger.Info("Connected", "apiserver", cfg.Host, "clusterID", config.ClusterID)

	informerFactory := informers.NewSharedInformerFactory(networkClient, 0)
	controller, err := NewController(ctx, kubeClient, networkClient,
		informerFactory.Samplecrd().V1().Networks(), driver, m, config)
	if err != nil {
		return err
	}

	probes.SetSynced(controller.networksSynced)
	if err := endpoints.Serve(ctx, opts.metricsBindAddress, m.Registry(), opts.healthProbeAddress, probes); err != nil {
		return err
	}
	informerFactory.Start(ctx.Done())
	defer informerFactory.Shutdown()
	enforceShutdownTimeout(ctx, opts.shutdownTimeout)

	if !opts.leaderElect {
		probes.SetLeading(true)
		return controller.Run(ctx, opts.workers)
	}
	election := leaderelect.Config{
		Namespace:     opts.leaseNamespace,
		Name:          opts.leaseName,
		LeaseDuration: opts.leaseDuration,
		RenewDeadline: opts.leaseRenewDeadline,
		RetryPeriod:   opts.leaseRetryPeriod,
		Watchdog:      probes.LeaderWatchdog(),
		SetLeading:    probes.SetLeading,
	}
	return leaderelect.Run(ctx, election, kubeClient, func(ctx context.Context) error {
		return controller.Run(ctx, opts.workers)
	})
}

// controllerConfig turns flags into the controller's Config, asking the apiserver for what
// the flags leave open. It doubles as the startup check that the API and the CRD are there.
func controllerConfig(ctx context.Context, opts options, kubeClient kubernetes.Interface, networkClient clientset.Interface, host string) (Config, error) {
	config := Config{
		ClusterID:           opts.clusterID,
		NeutronResyncPeriod: opts.neutronResyncPeriod,
		OrphanGracePeriod:   opts.orphanGracePeriod,
		RetryBaseDelay:      opts.retryBaseDelay,
		RetryMaxDelay:       opts.retryMaxDelay,
	}
	err := startup.DefaultRetry.WaitFor(ctx, "the apiserver at "+host, func(ctx context.Context) error {
		if config.ClusterID == "" {
			ns, err := kubeClient.CoreV1().Namespaces().Get(ctx, metav1.NamespaceSystem, metav1.GetOptions{})
			if err != nil {
				return fmt.Errorf("reading the kube-system namespace for the default -cluster-id: %w", err)
			}
			config.ClusterID = string(ns.UID)
		}
		if _, err := networkClient.SamplecrdV1().Networks("").List(ctx, metav1.ListOptions{Limit: 1}); err != nil {
			return fmt.Errorf("listing Networks (is the CRD installed? kubectl apply -f crd/): %w", err)
		}
		return nil
	})
	return config, err
}

// connectNeutron opens the Neutron connection the flags name and checks that it answers.
// Every call's outcome goes to the metrics and to onCall.
func connectNeutron(ctx context.Context, opts options, m *metrics.Metrics, onCall func(error)) (neutron.Driver, error) {
	observe := func(op string, err error, elapsed time.Duration) {
		outcome := "ok"
		if err != nil {
			outcome = neutron.KindOf(err).String()
		}
		m.ObserveNeutronCall(op, outcome, elapsed)
		onCall(err)
	}
	var (
		driver *neutron.Client
		err    error
		where  string
	)
	if opts.neutronEndpoint != "" {
		where = opts.neutronEndpoint
		// Only parses the URL: nothing a retry could change.
		if driver, err = neutron.ConnectEndpoint(opts.neutronEndpoint, observe); err != nil {
			return nil, err
		}
	} else {
		where = "cloud " + opts.osCloud
	}
	err = startup.DefaultRetry.WaitFor(ctx, "Neutron at "+where, func(ctx context.Context) error {
		if driver == nil {
			// Authenticates with Keystone, which may not answer yet either.
			d, err := neutron.ConnectCloud(ctx, opts.osCloud, observe)
			if neutron.KindOf(err) == neutron.KindRejected {
				// Keystone refused the credentials: no retry will change its mind.
				return startup.Permanent(err)
			}
			if err != nil {
				return err
			}
			driver = d
		}
		return driver.Ping(ctx)
	})
	if err != nil {
		return nil, err
	}
	driver.LimitRate(opts.neutronQPS, opts.neutronBurst, m.ObserveNeutronRateLimitWait)
	return driver, nil
}

// enforceShutdownTimeout exits the process when shutting down takes longer than timeout
// after ctx is cancelled, so a stuck Neutron call cannot keep a terminating pod alive.
func enforceShutdownTimeout(ctx context.Context, timeout time.Duration) {
	context.AfterFunc(ctx, func() {
		time.Sleep(timeout)
		klog.FromContext(ctx).Error(errors.New("shutdown timed out"), "Exiting with items still in flight", "timeout", timeout)
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	})
}
