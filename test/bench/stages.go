package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/gophercloud/gophercloud/v2"
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
	// extraNamespaces are bench namespaces besides -namespace that cleanup empties.
	extraNamespaces []string
}

// phase is one timed step: how long it took and the Neutron calls it caused, as logged
// by Neutron and, for the controller, as counted by the controller (nil when unknown);
// and the controller's reconciles deferred over a project's Neutron budget (NaN when
// unknown) and CPU time (-1 when unknown).
type phase struct {
	dur      time.Duration
	calls    callCounts
	ops      callCounts // the same calls by operation (operationOf)
	metric   opCounts
	deferred float64
	cpu      time.Duration
	// breakdown is where the controller's time went (breakdown.go); nil for the raw loop.
	breakdown breakdown
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
	if o.baseline != "" {
		if _, err := os.Stat(o.baseline); err != nil {
			return nil, fmt.Errorf("baseline controller binary: %w", err)
		}
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
	b.extraNamespaces = []string{o.namespace + "-b"}
	if o.shardN > 0 {
		for _, ns := range shardNamespaces(o.namespace) {
			_, err := kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
			if err != nil && !apierrors.IsAlreadyExists(err) {
				return nil, fmt.Errorf("creating namespace %s: %w", ns, err)
			}
			b.extraNamespaces = append(b.extraNamespaces, ns)
		}
	}
	foreign, err := foreignNetworks(ctx, nets, append([]string{o.namespace}, b.extraNamespaces...))
	if err != nil {
		return nil, fmt.Errorf("%w (is the CRD installed?)", err)
	}
	if len(foreign) > 0 {
		return nil, fmt.Errorf("the cluster holds %d Networks outside the bench namespaces %s (e.g. %s); a controller reconciles every namespace, "+
			"so they would distort the measurement: use a cluster of its own", len(foreign), strings.Join(append([]string{o.namespace}, b.extraNamespaces...), ", "), foreign[0])
	}
	if b.tracker, err = startTracker(ctx, nets, o.namespace); err != nil {
		return nil, err
	}
	logf("run %s: N=%d workers=%d rounds=%d dual-rounds=%d dual-n=%d routed-rounds=%d routed-n=%d restart-n=%d resync-n=%d; controller logs in %s",
		b.runID, o.n, o.workers, o.rounds, o.dualRounds, o.dualN, o.routedRounds, o.routedN, o.restartN, o.resyncN, o.logDir)
	return b, nil
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
	for _, ns := range append([]string{b.o.namespace}, b.extraNamespaces...) {
		if n, err := purgeNetworks(ctx, b.nets, ns); err != nil {
			logf("cleanup %s: %v", when, err)
		} else if n > 0 {
			logf("cleanup %s: removed %d Network objects of namespace %s", when, n, ns)
		}
	}
	if n, err := b.sweepNeutron(ctx); err != nil {
		logf("cleanup %s: %v", when, err)
	} else if n > 0 {
		logf("cleanup %s: deleted %d Neutron networks", when, n)
	}
}

// mark is a boundary between two counted phases: the end of Neutron's log so far and
// the controller's own count of its Neutron calls (nil when no controller counts), of
// its deferred reconciles (NaN) and its CPU time (-1 when unknown).
type mark struct {
	offset    int64
	metric    opCounts
	deferred  float64
	cpu       time.Duration
	breakdown breakdown
}

// deferredMetric counts the reconciles deferred because a project's Neutron budget was spent.
const deferredMetric = `network_controller_reconcile_total{result="deferred"}`

// markNow marks the present, with the counts of p (nil: the raw loop, no controller).
func (b *bench) markNow(p *controllerProcess) (mark, error) {
	offset, err := b.log.offset()
	if err != nil {
		return mark{}, err
	}
	m := mark{offset: offset, metric: metricNow(p), deferred: math.NaN(), cpu: -1}
	if p != nil {
		if v, err := p.metricSum(deferredMetric); err == nil {
			m.deferred = v
		}
		if cpu, err := p.cpuTime(); err == nil {
			m.cpu = cpu
		}
		if b, err := p.breakdownNow(); err == nil {
			m.breakdown = b
		} else {
			logf("controller pid %d: %v", p.pid(), err)
		}
	}
	return m, nil
}

// since is what the controller did from the mark from to m: its deferred reconciles and
// CPU time.
func (m mark) since(from mark) (deferred float64, cpu time.Duration) {
	cpu = -1
	if m.cpu >= 0 && from.cpu >= 0 {
		cpu = m.cpu - from.cpu
	}
	return m.deferred - from.deferred, cpu
}

// settled waits until Neutron has been quiet for -settle and marks that moment.
func (b *bench) settled(ctx context.Context, p *controllerProcess) (mark, error) {
	if err := b.log.waitQuiet(ctx, b.o.settle, b.o.timeout); err != nil {
		return mark{}, err
	}
	return b.markNow(p)
}

// measure times step, which returns when the work it started is done, then waits for
// Neutron to settle and counts the calls since from: the phase, and the mark it ended at.
func (b *bench) measure(ctx context.Context, p *controllerProcess, from mark, step func() (done time.Time, err error)) (phase, mark, error) {
	start := time.Now()
	done, err := step()
	if err != nil {
		return phase{}, mark{}, err
	}
	to, err := b.settled(ctx, p)
	if err != nil {
		return phase{}, mark{}, err
	}
	calls, err := b.log.count(from.offset, to.offset)
	if err != nil {
		return phase{}, to, err
	}
	ops, err := b.log.countOps(from.offset, to.offset)
	deferred, cpu := to.since(from)
	return phase{dur: done.Sub(start), calls: calls, ops: ops, metric: to.metric.minus(from.metric), deferred: deferred, cpu: cpu,
		breakdown: to.breakdown.minus(from.breakdown)}, to, err
}

// driveNetworks measures one phase of the controller p from the mark from: it changes the
// Networks names (change: createNetworks or deleteNetworks) and is done when the tracker
// saw the last of them reach its end state (reached: the tracker's waitReady or waitGone).
// It waits -timeout, or longer for thousands of Networks: about 0.2 s each.
func (b *bench) driveNetworks(ctx context.Context, p *controllerProcess, from mark, names []string,
	change func(context.Context, versioned.Interface, string, []string) error,
	reached func(context.Context, []string, time.Duration, func() error) (time.Time, error)) (phase, mark, error) {
	timeout := max(b.o.timeout, time.Duration(len(names))*200*time.Millisecond)
	return b.measure(ctx, p, from, func() (time.Time, error) {
		if err := change(ctx, b.nets, b.o.namespace, names); err != nil {
			return time.Time{}, err
		}
		return reached(ctx, names, timeout, p.alive)
	})
}

// startSettled starts a controller, with extraArgs after the bench's, waits for /readyz
// and for its startup calls to end.
func (b *bench) startSettled(ctx context.Context, clusterID, logName string, extraArgs ...string) (*controllerProcess, error) {
	ctl := b.ctl
	ctl.extraArgs = append(slices.Clone(b.ctl.extraArgs), extraArgs...)
	return b.startSettledWith(ctx, ctl, clusterID, logName)
}

// startSettledWith is startSettled with the controller ctl.
func (b *bench) startSettledWith(ctx context.Context, ctl controllerConfig, clusterID, logName string) (*controllerProcess, error) {
	p, err := startController(ctl, clusterID, logName)
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

// metricNow scrapes the controller's Neutron call counter; nil without a controller or
// when it has none.
func metricNow(p *controllerProcess) opCounts {
	if p == nil {
		return nil
	}
	m, err := p.neutronCalls()
	if err != nil {
		logf("controller pid %d: %v", p.pid(), err)
		return nil
	}
	return m
}
