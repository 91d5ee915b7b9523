package main

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// queueModes are the two orders the noisy stage compares: the controller's fair queue
// and first in, first out (its -fair-queue=false).
var queueModes = []string{"fair", "fifo"}

// modesOfRound is the order round r runs the modes in: alternated, so that a drift of
// the machine over a round does not always favour the same mode.
func modesOfRound(r int) []string {
	modes := slices.Clone(queueModes)
	if r%2 == 0 {
		slices.Reverse(modes)
	}
	return modes
}

func queueArgs(mode string) []string {
	if mode == "fifo" {
		return []string{"-fair-queue=false"}
	}
	return []string{"-fair-queue=true"}
}

// noisyRound is one controller under namespace A's burst while namespace B trickles.
type noisyRound struct {
	mode   string
	aTotal time.Duration
	// bWait is, per B Network, from its create returning to the controller's first
	// write (its finalizer): the time it waited for a worker. bReady is from just before
	// its create to Ready=True.
	bWait, bReady []time.Duration
	// itemTime is the processing time of one of A's Networks: workers × A's total / A's
	// count (each worker handles items one at a time).
	itemTime time.Duration
}

// restartSample is the time to Ready of a Network a user created right after a restart
// over -noisy-n realized Networks.
type restartSample struct {
	mode  string
	ready time.Duration
}

type noisyResult struct {
	idle     []time.Duration
	rounds   [][]noisyRound // by round, one per queue mode
	restarts [][]restartSample
}

// noisy is the noisy-neighbour stage: namespace A is the bench namespace, namespace B
// the bench's first extra one, watched by trackerB.
type noisy struct {
	b        *bench
	nsB      string
	trackerB *tracker
}

// runNoisy measures the idle time to Ready, then per round and queue mode the noisy
// neighbour, then the user's Network after a restart.
func runNoisy(ctx context.Context, b *bench) (*noisyResult, error) {
	res := &noisyResult{}
	s := noisy{b: b, nsB: b.extraNamespaces[0]}
	var err error
	if s.trackerB, err = ensureNamespace(ctx, b, s.nsB); err != nil {
		return nil, err
	}

	if res.idle, err = s.idleSamples(ctx); err != nil {
		return nil, err
	}
	b.cleanup(ctx, "after the idle samples")
	for r := 1; r <= b.o.noisyRounds; r++ {
		var rounds []noisyRound
		for _, mode := range modesOfRound(r) {
			nr, err := s.round(ctx, r, mode)
			if err != nil {
				return nil, err
			}
			b.cleanup(ctx, fmt.Sprintf("after noisy round %d (%s)", r, mode))
			logf("noisy round %d (%s): A %s; B queue wait p50 %s p99 %s, to Ready p50 %s p99 %s; one item %s", r, mode,
				secs(nr.aTotal), ms(percentile(nr.bWait, 50)), ms(percentile(nr.bWait, 99)),
				ms(percentile(nr.bReady, 50)), ms(percentile(nr.bReady, 99)), ms(nr.itemTime))
			rounds = append(rounds, nr)
		}
		res.rounds = append(res.rounds, rounds)
	}
	if res.restarts, err = s.restartsWithUser(ctx); err != nil {
		return nil, err
	}
	return res, nil
}

// ensureNamespace creates the namespace ns if needed and watches its Networks.
func ensureNamespace(ctx context.Context, b *bench, ns string) (*tracker, error) {
	_, err := b.kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return nil, fmt.Errorf("creating namespace %s: %w", ns, err)
	}
	return startTracker(ctx, b.nets, ns)
}

// idleSamples creates -idle-samples Networks one at a time in namespace B on an idle
// controller and returns each one's time to Ready.
func (s noisy) idleSamples(ctx context.Context) ([]time.Duration, error) {
	b, ns, t := s.b, s.nsB, s.trackerB
	p, err := b.startSettled(ctx, fmt.Sprintf("bench-%s-idle", b.runID), "idle")
	if err != nil {
		return nil, err
	}
	logf("idle: controller (pid %d) gets %d Networks, one at a time", p.pid(), b.o.idleSamples)
	names := networkNames("idle-"+b.runID, b.o.idleSamples)
	var out []time.Duration
	for i, name := range names {
		start := time.Now()
		if err := createNetworkAt(ctx, b.nets, ns, name, i); err != nil {
			return nil, err
		}
		at, err := t.waitReady(ctx, []string{name}, b.o.timeout, p.alive)
		if err != nil {
			return nil, err
		}
		out = append(out, at.Sub(start))
	}
	return out, b.stopRunning()
}

// round runs one controller in mode while namespace A (the bench namespace) applies
// -noisy-n Networks at once and namespace B creates one every -noisy-interval.
func (s noisy) round(ctx context.Context, r int, mode string) (noisyRound, error) {
	b, nsB, trackerB := s.b, s.nsB, s.trackerB
	nr := noisyRound{mode: mode}
	p, err := b.startSettled(ctx, fmt.Sprintf("bench-%s-noisy%d-%s", b.runID, r, mode), fmt.Sprintf("noisy-%d-%s", r, mode), queueArgs(mode)...)
	if err != nil {
		return nr, err
	}
	namesA := networkNames(fmt.Sprintf("noisy%d-%s-a-%s", r, mode, b.runID), b.o.noisyN)
	namesB := networkNames(fmt.Sprintf("noisy%d-%s-b-%s", r, mode, b.runID), b.o.noisyB)
	logf("noisy round %d (%s): controller pid %d; A applies %d Networks at once, B creates %d, one every %s", r, mode, p.pid(),
		b.o.noisyN, b.o.noisyB, b.o.noisyInterval)

	start := time.Now()
	bDone := make(chan error, 1)
	var bStarted []time.Time
	var bCreated []time.Time
	go func() {
		// B begins once A's burst is under way.
		ticker := time.NewTicker(b.o.noisyInterval)
		defer ticker.Stop()
		for i, name := range namesB {
			select {
			case <-ctx.Done():
				bDone <- ctx.Err()
				return
			case <-ticker.C:
			}
			bStarted = append(bStarted, time.Now())
			if err := createNetworkAt(ctx, b.nets, nsB, name, i); err != nil {
				bDone <- err
				return
			}
			bCreated = append(bCreated, time.Now())
		}
		bDone <- nil
	}()
	if err := createNetworks(ctx, b.nets, b.o.namespace, namesA); err != nil {
		return nr, err
	}
	lastA, err := b.tracker.waitReady(ctx, namesA, b.o.timeout, p.alive)
	if err != nil {
		return nr, err
	}
	nr.aTotal = lastA.Sub(start)
	if err := <-bDone; err != nil {
		return nr, err
	}
	if _, err := trackerB.waitReady(ctx, namesB, b.o.timeout, p.alive); err != nil {
		return nr, err
	}
	for i, name := range namesB {
		claimed, ready := trackerB.times(name)
		nr.bWait = append(nr.bWait, max(claimed.Sub(bCreated[i]), 0))
		nr.bReady = append(nr.bReady, ready.Sub(bStarted[i]))
	}
	nr.itemTime = time.Duration(float64(b.o.workers) * float64(nr.aTotal) / float64(b.o.noisyN))
	return nr, b.stopRunning()
}

// restartsWithUser has one controller realize -noisy-n Networks, then per round and mode
// restarts a controller over them and creates one more Network in the same namespace as
// soon as the new controller's informer has synced (its /readyz): the user's wait behind
// the initial list.
func (s noisy) restartsWithUser(ctx context.Context) ([][]restartSample, error) {
	b := s.b
	clusterID := fmt.Sprintf("bench-%s-noisy-restart", b.runID)
	p, err := b.startSettled(ctx, clusterID, "noisy-restart-create")
	if err != nil {
		return nil, err
	}
	names := networkNames("noisy-restart-"+b.runID, b.o.noisyN)
	logf("restart with a user: controller (pid %d) creates %d Networks", p.pid(), len(names))
	if err := createNetworks(ctx, b.nets, b.o.namespace, names); err != nil {
		return nil, err
	}
	if _, err := b.tracker.waitReady(ctx, names, b.o.timeout, p.alive); err != nil {
		return nil, err
	}
	if err := b.stopRunning(); err != nil {
		return nil, err
	}
	var out [][]restartSample
	for r := 1; r <= b.o.noisyRounds; r++ {
		var samples []restartSample
		for _, mode := range modesOfRound(r) {
			ready, err := s.restartWithUser(ctx, clusterID, fmt.Sprintf("user-%d-%s-%s", r, mode, b.runID), mode, len(names))
			if err != nil {
				return nil, err
			}
			logf("restart with a user, round %d (%s): the user's Network Ready %s after its create", r, mode, ms(ready))
			samples = append(samples, restartSample{mode: mode, ready: ready})
		}
		out = append(out, samples)
	}
	return out, nil
}

// restartWithUser starts a controller in mode over the realized Networks, creates the
// Network name as soon as /readyz answers, and returns its time to Ready; the controller
// then deletes it again and stops.
func (s noisy) restartWithUser(ctx context.Context, clusterID, name, mode string, index int) (time.Duration, error) {
	b := s.b
	if _, err := b.settled(ctx, nil); err != nil {
		return 0, err
	}
	ctl := b.ctl
	ctl.extraArgs = append(slices.Clone(b.ctl.extraArgs), queueArgs(mode)...)
	p, err := startController(ctl, clusterID, "noisy-restart-"+mode)
	if err != nil {
		return 0, err
	}
	b.running = p
	if _, err := p.waitReady(ctx, 2*time.Minute); err != nil {
		return 0, err
	}
	start := time.Now()
	if err := createNetworkAt(ctx, b.nets, b.o.namespace, name, index); err != nil {
		return 0, err
	}
	at, err := b.tracker.waitReady(ctx, []string{name}, b.o.timeout, p.alive)
	if err != nil {
		return 0, err
	}
	if err := deleteNetworks(ctx, b.nets, b.o.namespace, []string{name}); err != nil {
		return 0, err
	}
	if _, err := b.tracker.waitGone(ctx, []string{name}, b.o.timeout, p.alive); err != nil {
		return 0, err
	}
	return at.Sub(start), b.stopRunning()
}

// percentile is the nearest-rank percentile q (0-100) of d; of 20 samples p99 is the
// largest.
func percentile(d []time.Duration, q float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := int(math.Ceil(q/100*float64(len(s)))) - 1
	return s[min(max(i, 0), len(s)-1)]
}

func ms(d time.Duration) string {
	if d >= 10*time.Second {
		return secs(d)
	}
	return fmt.Sprintf("%.2f s", d.Seconds())
}
