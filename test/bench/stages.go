package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gophercloud/gophercloud/v2"
	"github.com/gophercloud/gophercloud/v2/openstack/networking/v2/networks"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	versioned "github.com/samplecrd/network-controller/pkg/client/clientset/versioned"
)

// bench holds the connections and state of one bench run.
type bench struct {
	o       options
	runID   string
	kube    kubernetes.Interface
	nets    versioned.Interface
	neutron *gophercloud.ServiceClient
	log     *requestLog
	tracker *tracker
	ctl     controllerConfig
	running *controllerProcess // stopped by cleanup if a stage failed while it ran
}

// phase is one timed step: how long it took and the Neutron calls it caused, as logged
// by Neutron and, for the controller, as counted by the controller (nil when unknown).
type phase struct {
	dur    time.Duration
	calls  callCounts
	metric opCounts
}

type stageResult struct {
	create, delete phase
}

func newBench(ctx context.Context, o options) (*bench, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", o.kubeconfig)
	if err != nil {
		return nil, fmt.Errorf("loading kubeconfig %s: %w", o.kubeconfig, err)
	}
	// The bench's own API traffic must not be what limits the controller.
	cfg.QPS, cfg.Burst = 1000, 2000
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("creating the Kubernetes client: %w", err)
	}
	nets, err := versioned.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("creating the Network client: %w", err)
	}
	if _, err := os.Stat(o.neutronLog); err != nil {
		return nil, fmt.Errorf("neutron-server's log: %w", err)
	}
	if _, err := os.Stat(o.controllerBinary); err != nil {
		return nil, fmt.Errorf("controller binary: %w", err)
	}
	if err := os.MkdirAll(o.logDir, 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", o.logDir, err)
	}
	b := &bench{
		o: o, runID: randomHex(6), kube: kube, nets: nets,
		neutron: neutronClient(o.neutronEndpoint),
		log:     &requestLog{path: o.neutronLog},
		ctl: controllerConfig{
			binary: absPath(o.controllerBinary), kubeconfig: absPath(o.kubeconfig),
			neutronEndpoint: o.neutronEndpoint, workers: o.workers,
			extraArgs: strings.Fields(o.controllerArgs), logDir: o.logDir,
		},
	}
	_, err = kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: o.namespace}}, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return nil, fmt.Errorf("creating namespace %s: %w", o.namespace, err)
	}
	foreign, err := foreignNetworks(ctx, nets, o.namespace)
	if err != nil {
		return nil, fmt.Errorf("%w (is the CRD installed?)", err)
	}
	if len(foreign) > 0 {
		return nil, fmt.Errorf("the cluster holds %d Networks outside namespace %s (e.g. %s); a controller reconciles every namespace, "+
			"so they would distort the measurement: use a cluster of its own", len(foreign), o.namespace, foreign[0])
	}
	if b.tracker, err = startTracker(ctx, nets, o.namespace); err != nil {
		return nil, err
	}
	logf("run %s: N=%d workers=%d rounds=%d restart-n=%d; controller logs in %s", b.runID, o.n, o.workers, o.rounds, o.restartN, o.logDir)
	return b, nil
}

// isBenchNetwork recognises the Neutron networks a bench made, this run or an earlier
// one that was interrupted: tagged for a bench cluster ID, made by the raw loop, or
// named after an object of the bench namespace (a create that died before tagging).
func (b *bench) isBenchNetwork(n networks.Network) bool {
	for _, t := range n.Tags {
		if strings.HasPrefix(t, "k8s-cluster=bench-") || strings.HasPrefix(t, "bench-raw=") {
			return true
		}
	}
	return strings.HasPrefix(n.Name, "bench-raw-") || strings.HasPrefix(n.Name, "k8s_"+b.o.namespace+"_")
}

// cleanup stops a controller left running, removes every Network object of the bench
// namespace and deletes the bench's Neutron networks. It reports and goes on on errors.
func (b *bench) cleanup(ctx context.Context, when string) {
	if b.running != nil {
		if err := b.running.stop(30 * time.Second); err != nil {
			logf("cleanup %s: %v", when, err)
		}
		b.running = nil
	}
	if n, err := purgeNetworks(ctx, b.nets, b.o.namespace); err != nil {
		logf("cleanup %s: %v", when, err)
	} else if n > 0 {
		logf("cleanup %s: removed %d Network objects", when, n)
	}
	if n, err := sweepNeutron(ctx, b.neutron, b.o.workers, b.isBenchNetwork); err != nil {
		logf("cleanup %s: %v", when, err)
	} else if n > 0 {
		logf("cleanup %s: deleted %d Neutron networks", when, n)
	}
}

// settled waits until Neutron has been quiet for -settle and returns the log offset: the
// boundary between two counted phases.
func (b *bench) settled(ctx context.Context) (int64, error) {
	if err := b.log.waitQuiet(ctx, b.o.settle, b.o.timeout); err != nil {
		return 0, err
	}
	return b.log.offset()
}

func (b *bench) rawRound(ctx context.Context, r int) (stageResult, error) {
	loop := &rawLoop{sc: b.neutron, workers: b.o.workers, prefix: fmt.Sprintf("bench-raw-%s-r%d", b.runID, r)}
	logf("round %d: raw loop creates %d network+tag+subnet", r, b.o.n)
	o0, err := b.settled(ctx)
	if err != nil {
		return stageResult{}, err
	}
	start := time.Now()
	ids, err := loop.create(ctx, b.o.n)
	created := time.Since(start)
	if err != nil {
		return stageResult{}, err
	}
	o1, err := b.settled(ctx)
	if err != nil {
		return stageResult{}, err
	}
	logf("round %d: raw loop deletes %d networks", r, b.o.n)
	start = time.Now()
	if err := loop.delete(ctx, ids); err != nil {
		return stageResult{}, err
	}
	deleted := time.Since(start)
	o2, err := b.settled(ctx)
	if err != nil {
		return stageResult{}, err
	}
	res := stageResult{create: phase{dur: created}, delete: phase{dur: deleted}}
	if res.create.calls, err = b.log.count(o0, o1); err != nil {
		return res, err
	}
	res.delete.calls, err = b.log.count(o1, o2)
	return res, err
}

// startSettled starts a controller, waits for /readyz and for its startup calls to end.
func (b *bench) startSettled(ctx context.Context, clusterID, logName string) (*controllerProcess, error) {
	p, err := startController(b.ctl, clusterID, logName)
	if err != nil {
		return nil, err
	}
	b.running = p
	if _, err := p.waitReady(ctx, 2*time.Minute); err != nil {
		return nil, err
	}
	if err := b.log.waitQuiet(ctx, b.o.settle, b.o.timeout); err != nil {
		return nil, err
	}
	return p, nil
}

// stopRunning stops the running controller with SIGTERM.
func (b *bench) stopRunning() error {
	p := b.running
	b.running = nil
	return p.stop(time.Minute)
}

// metricNow scrapes the controller's Neutron call counter; nil when it has none.
func metricNow(p *controllerProcess) opCounts {
	m, err := p.neutronCalls()
	if err != nil {
		logf("controller pid %d: %v", p.pid(), err)
		return nil
	}
	return m
}

func (b *bench) controllerRound(ctx context.Context, r int) (stageResult, error) {
	var res stageResult
	p, err := b.startSettled(ctx, fmt.Sprintf("bench-%s-r%d", b.runID, r), fmt.Sprintf("round-%d", r))
	if err != nil {
		return res, err
	}
	names := networkNames(fmt.Sprintf("r%d-%s", r, b.runID), b.o.n)
	o0, err := b.log.offset()
	if err != nil {
		return res, err
	}
	m0 := metricNow(p)

	logf("round %d: controller (pid %d) creates %d Networks", r, p.pid(), b.o.n)
	start := time.Now()
	if err := createNetworks(ctx, b.nets, b.o.namespace, names); err != nil {
		return res, err
	}
	last, err := b.tracker.waitReady(ctx, names, b.o.timeout, p.alive)
	if err != nil {
		return res, err
	}
	res.create.dur = last.Sub(start)
	o1, err := b.settled(ctx)
	if err != nil {
		return res, err
	}
	m1 := metricNow(p)

	logf("round %d: controller deletes %d Networks", r, b.o.n)
	start = time.Now()
	if err := deleteNetworks(ctx, b.nets, b.o.namespace, names); err != nil {
		return res, err
	}
	last, err = b.tracker.waitGone(ctx, names, b.o.timeout, p.alive)
	if err != nil {
		return res, err
	}
	res.delete.dur = last.Sub(start)
	o2, err := b.settled(ctx)
	if err != nil {
		return res, err
	}
	m2 := metricNow(p)
	if err := b.stopRunning(); err != nil {
		return res, err
	}
	res.create.metric, res.delete.metric = m1.minus(m0), m2.minus(m1)
	if res.create.calls, err = b.log.count(o0, o1); err != nil {
		return res, err
	}
	if res.delete.calls, err = b.log.count(o1, o2); err != nil {
		return res, err
	}
	left, err := b.countBenchNetworks(ctx)
	if err != nil {
		return res, err
	}
	if left > 0 {
		logf("WARNING: round %d: %d Neutron networks are left after the controller deleted every Network", r, left)
	}
	return res, nil
}

func (b *bench) countBenchNetworks(ctx context.Context) (int, error) {
	pages, err := networks.List(b.neutron, networks.ListOpts{}).AllPages(ctx)
	if err != nil {
		return 0, fmt.Errorf("listing Neutron networks: %w", err)
	}
	all, err := networks.ExtractNetworks(pages)
	if err != nil {
		return 0, fmt.Errorf("listing Neutron networks: %w", err)
	}
	n := 0
	for _, net := range all {
		if b.isBenchNetwork(net) {
			n++
		}
	}
	return n, nil
}

// restartResult describes a controller restart over M realized Networks.
type restartResult struct {
	n             int
	createDur     time.Duration
	createCalls   callCounts
	calls         callCounts
	metric        opCounts
	readyAfter    time.Duration // /readyz (informer synced) after process start
	lastCall      time.Duration // last Neutron request after process start; -1 if none
	peakRSS       int64         // the restarted controller
	creatorPeak   int64         // the controller that created the Networks
	creatorMetric opCounts
}

func (b *bench) restartStage(ctx context.Context) (*restartResult, error) {
	res := &restartResult{n: b.o.restartN, lastCall: -1}
	clusterID := fmt.Sprintf("bench-%s-restart", b.runID)
	names := networkNames("restart-"+b.runID, b.o.restartN)

	p, err := b.startSettled(ctx, clusterID, "restart-create")
	if err != nil {
		return nil, err
	}
	logf("restart: controller (pid %d) creates %d Networks", p.pid(), res.n)
	o0, err := b.log.offset()
	if err != nil {
		return nil, err
	}
	m0 := metricNow(p)
	start := time.Now()
	if err := createNetworks(ctx, b.nets, b.o.namespace, names); err != nil {
		return nil, err
	}
	last, err := b.tracker.waitReady(ctx, names, b.o.timeout, p.alive)
	if err != nil {
		return nil, err
	}
	res.createDur = last.Sub(start)
	logf("restart: %d Networks Ready after %s", res.n, secs(res.createDur))
	o1, err := b.settled(ctx)
	if err != nil {
		return nil, err
	}
	if res.createCalls, err = b.log.count(o0, o1); err != nil {
		return nil, err
	}
	res.creatorMetric = metricNow(p).minus(m0)
	if res.creatorPeak, err = p.peakRSS(); err != nil {
		return nil, err
	}
	logf("restart: stopping controller pid %d with SIGTERM", p.pid())
	if err := b.stopRunning(); err != nil {
		return nil, err
	}
	o2, err := b.settled(ctx)
	if err != nil {
		return nil, err
	}

	p, err = startController(b.ctl, clusterID, "restart")
	if err != nil {
		return nil, err
	}
	b.running = p
	logf("restart: started controller pid %d; counting Neutron calls until %s of quiet after /readyz", p.pid(), b.o.quiet)
	var readyAt atomic.Pointer[time.Time]
	readyErr := make(chan error, 1)
	go func() {
		at, err := p.waitReady(ctx, 2*time.Minute)
		if err == nil {
			readyAt.Store(&at)
		}
		readyErr <- err
	}()
	lastAt, err := b.log.follow(ctx, o2, b.o.timeout, func(now, last time.Time) bool {
		ready := readyAt.Load()
		return ready != nil && now.Sub(later(last, *ready)) >= b.o.quiet
	})
	if err != nil {
		return nil, err
	}
	if err := <-readyErr; err != nil {
		return nil, err
	}
	o3, err := b.log.offset()
	if err != nil {
		return nil, err
	}
	res.readyAfter = readyAt.Load().Sub(p.started)
	if !lastAt.IsZero() {
		res.lastCall = lastAt.Sub(p.started)
	}
	if res.calls, err = b.log.count(o2, o3); err != nil {
		return nil, err
	}
	res.metric = metricNow(p)
	if res.peakRSS, err = p.peakRSS(); err != nil {
		return nil, err
	}
	if err := b.stopRunning(); err != nil {
		return nil, err
	}
	return res, nil
}
