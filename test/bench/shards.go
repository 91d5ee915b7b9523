package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"sync"
	"text/tabwriter"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// shardNamespaceCount is how many namespaces the shard stage spreads its Networks over:
// shards are sets of namespaces, so one namespace would put every Network in one shard.
const shardNamespaceCount = 30

// shardStageLabel marks the shard stage's Networks, so that one list finds them in every
// namespace.
const shardStageLabel = "network-controller-bench/stage"

// shardNamespaces are the shard stage's namespaces. The part that differs comes first: the
// hash spreads a name's first characters over the shards, its last ones hardly.
func shardNamespaces(base string) []string {
	out := make([]string, shardNamespaceCount)
	for i := range out {
		out[i] = fmt.Sprintf("s%02d-%s", i, base)
	}
	return out
}

// shardRun is one configuration of the shard stage: how many replicas, the time from the
// first create to every Network Ready, each replica's peak RSS, and Neutron's calls.
type shardRun struct {
	replicas, shards int
	ready            time.Duration
	peakRSS          []int64
	calls            callCounts
}

type shardResult struct {
	n    int
	runs []shardRun
}

// runShardStage creates -shard-n Networks over the stage's namespaces with one replica,
// and again with -shard-replicas replicas holding as many shards, each time from none to
// all Ready and back; the two runs are side by side in the report.
func runShardStage(ctx context.Context, b *bench) (*shardResult, error) {
	res := &shardResult{n: b.o.shardN}
	for _, replicas := range []int{1, b.o.shardReplicas} {
		run, err := b.shardRun(ctx, replicas)
		if err != nil {
			return nil, err
		}
		res.runs = append(res.runs, run)
		b.cleanup(ctx, fmt.Sprintf("after the shard stage's run with %d replicas", replicas))
	}
	return res, nil
}

func (b *bench) shardRun(ctx context.Context, replicas int) (shardRun, error) {
	run := shardRun{replicas: replicas}
	clusterID := fmt.Sprintf("bench-%s-shards-%d", b.runID, replicas)
	ctl := b.ctl
	if replicas > 1 {
		run.shards = replicas
		ctl.extraArgs = append(append([]string(nil), ctl.extraArgs...), "-leader-elect=true", "-shards="+strconv.Itoa(replicas),
			"-leader-elect-namespace="+b.o.namespace, "-leader-elect-lease-name="+clusterID)
	}
	var procs []*controllerProcess
	defer func() {
		for _, p := range procs {
			if err := p.stop(30 * time.Second); err != nil {
				logf("shards: %v", err)
			}
		}
	}()
	for i := range replicas {
		p, err := startController(ctl, clusterID, fmt.Sprintf("shards-%d-%d", replicas, i))
		if err != nil {
			return run, err
		}
		procs = append(procs, p)
		if _, err := p.waitReady(ctx, b.o.timeout); err != nil {
			return run, err
		}
	}
	if replicas > 1 {
		if err := waitShardsHeld(ctx, procs, replicas, b.o.timeout); err != nil {
			return run, err
		}
	}
	if err := b.log.waitQuiet(ctx, b.o.settle, b.o.timeout); err != nil {
		return run, err
	}
	from, err := b.log.offset()
	if err != nil {
		return run, err
	}
	logf("shards: %d replica(s) create %d Networks in %d namespaces", replicas, b.o.shardN, shardNamespaceCount)
	start := time.Now()
	stage := "shards-" + strconv.Itoa(replicas)
	if err := b.createShardNetworks(ctx, stage); err != nil {
		return run, err
	}
	if err := b.waitShardNetworks(ctx, stage, b.o.shardN, procs); err != nil {
		return run, err
	}
	run.ready = time.Since(start)
	if err := b.log.waitQuiet(ctx, b.o.settle, b.o.timeout); err != nil {
		return run, err
	}
	to, err := b.log.offset()
	if err != nil {
		return run, err
	}
	if run.calls, err = b.log.count(from, to); err != nil {
		return run, err
	}
	for _, p := range procs {
		rss, err := p.peakRSS()
		if err != nil {
			return run, err
		}
		run.peakRSS = append(run.peakRSS, rss)
	}
	logf("shards: %d replica(s): all Ready in %s, %.2f Neutron calls per Network, peak RSS %v", replicas, secs(run.ready),
		float64(run.calls.total())/float64(b.o.shardN), run.peakRSS)
	for _, ns := range shardNamespaces(b.o.namespace) {
		if err := b.nets.SamplecrdV1().Networks(ns).DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{}); err != nil {
			return run, fmt.Errorf("deleting the Networks of %s: %w", ns, err)
		}
	}
	return run, b.waitShardNetworks(ctx, stage, 0, procs)
}

// waitShardsHeld waits until the replicas' metrics say every one of shards is held.
func waitShardsHeld(ctx context.Context, procs []*controllerProcess, shards int, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		held := 0.0
		for _, p := range procs {
			if v, err := p.metricSum("network_controller_shard_held"); err == nil {
				held += v
			}
		}
		if int(held) == shards {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d of %d shards held after %s", int(held), shards, timeout)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// createShardNetworks creates -shard-n one-subnet Networks, in turn over the namespaces.
func (b *bench) createShardNetworks(ctx context.Context, stage string) error {
	namespaces := shardNamespaces(b.o.namespace)
	items := make(chan int)
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for i := range items {
				n := &samplecrdv1.Network{
					ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("shard-%d", i), Namespace: namespaces[i%len(namespaces)],
						Labels: map[string]string{shardStageLabel: stage}},
					Spec: samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: fmt.Sprintf("10.%d.%d.0/24", 64+i/256, i%256)}},
				}
				if _, err := b.nets.SamplecrdV1().Networks(n.Namespace).Create(ctx, n, metav1.CreateOptions{}); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = fmt.Errorf("creating Network %s/%s: %w", n.Namespace, n.Name, err)
					}
					mu.Unlock()
				}
			}
		})
	}
	for i := range b.o.shardN {
		items <- i
	}
	close(items)
	wg.Wait()
	return firstErr
}

// waitShardNetworks waits until want of the stage's Networks are Ready (want > 0) or none
// is left (want 0), while every replica runs.
func (b *bench) waitShardNetworks(ctx context.Context, stage string, want int, procs []*controllerProcess) error {
	deadline := time.Now().Add(b.o.timeout)
	for {
		list, err := b.nets.SamplecrdV1().Networks(metav1.NamespaceAll).List(ctx, metav1.ListOptions{LabelSelector: shardStageLabel + "=" + stage})
		if err != nil {
			return fmt.Errorf("listing the shard stage's Networks: %w", err)
		}
		count := len(list.Items)
		if want > 0 {
			count = 0
			for i := range list.Items {
				if list.Items[i].IsReady() {
					count++
				}
			}
		}
		if count == want {
			return nil
		}
		for _, p := range procs {
			if err := p.alive(); err != nil {
				return err
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d of the shard stage's Networks, want %d, after %s", count, want, b.o.timeout)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// printShards prints the shard stage's runs side by side.
func (r *results) printShards(w io.Writer) {
	s := r.shards
	if s == nil {
		return
	}
	fmt.Fprintf(w, "\nShards: %d one-subnet Networks over %d namespaces, created from none until all Ready (polled each second):\n", s.n, shardNamespaceCount)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "replicas\tshards\tall Ready in\tper s\tNeutron calls each\tpeak RSS per replica\t")
	for _, run := range s.runs {
		rss := ""
		for i, b := range run.peakRSS {
			if i > 0 {
				rss += ", "
			}
			rss += mib(b)
		}
		shards := "-"
		if run.shards > 0 {
			shards = strconv.Itoa(run.shards)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%.1f\t%.2f\t%s\t\n", run.replicas, shards, secs(run.ready), float64(s.n)/run.ready.Seconds(),
			float64(run.calls.total())/float64(s.n), rss)
	}
	tw.Flush()
}
