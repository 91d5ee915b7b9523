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
	"github.com/samplecrd/network-controller/pkg/metrics"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

func main() {
	var opts options
	opts.addFlags(flag.CommandLine)
	klog.InitFlags(nil)
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
	if err := opts.validate(); err != nil {
		return err
	}
	if err := setupLogging(opts.loggingFormat); err != nil {
		return err
	}
	ctx := signalContext()
	logger := klog.FromContext(ctx)

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
	driver, err := connectNeutron(startupCtx, opts, m)
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

	probes := newProbes(controller.networksSynced, driver)
	if err := serveEndpoints(ctx, opts, m, probes); err != nil {
		return err
	}
	informerFactory.Start(ctx.Done())
	defer informerFactory.Shutdown()
	enforceShutdownTimeout(ctx, opts.shutdownTimeout)

	if !opts.leaderElect {
		probes.setLeading(true)
		return controller.Run(ctx, opts.workers)
	}
	return runWithLeaderElection(ctx, opts, kubeClient, probes, func(ctx context.Context) error {
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
	if config.ClusterID == "" {
		ns, err := kubeClient.CoreV1().Namespaces().Get(ctx, metav1.NamespaceSystem, metav1.GetOptions{})
		if err != nil {
			return config, fmt.Errorf("reading the kube-system namespace from %s for the default -cluster-id: %w", host, err)
		}
		config.ClusterID = string(ns.UID)
	}
	if _, err := networkClient.SamplecrdV1().Networks("").List(ctx, metav1.ListOptions{Limit: 1}); err != nil {
		return config, fmt.Errorf("listing Networks at %s (is the CRD installed? kubectl apply -f crd/): %w", host, err)
	}
	return config, nil
}

// connectNeutron opens the Neutron connection the flags name and checks that it answers.
func connectNeutron(ctx context.Context, opts options, m *metrics.Metrics) (neutron.Driver, error) {
	observe := func(op string, err error, elapsed time.Duration) {
		outcome := "ok"
		if err != nil {
			outcome = neutron.KindOf(err).String()
		}
		m.ObserveNeutronCall(op, outcome, elapsed)
	}
	var (
		driver *neutron.Client
		err    error
		where  string
	)
	if opts.neutronEndpoint != "" {
		where = opts.neutronEndpoint
		driver, err = neutron.ConnectEndpoint(opts.neutronEndpoint, observe)
	} else {
		where = "cloud " + opts.osCloud
		driver, err = neutron.ConnectCloud(ctx, opts.osCloud, observe)
	}
	if err != nil {
		return nil, err
	}
	if err := driver.Ping(ctx); err != nil {
		return nil, fmt.Errorf("Neutron at %s does not answer: %w", where, err)
	}
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
