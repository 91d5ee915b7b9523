package main

import (
	"context"
	"fmt"
	"io"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/client/clientset/versioned"
)

// driftResult is what the drift checks of -drift-n Networks on a one-minute period cost a
// controller with the default flags (its sweep every 5 minutes), over whole check rounds.
type driftResult struct {
	n int
	// rounds are the check rounds measured: from the first that listed the project to as
	// many rounds later, and how long they took.
	rounds int
	span   time.Duration
	// calls are the Neutron calls of the rounds (their lists), writes and written the
	// status writes their passes made, and the Networks written.
	calls           callCounts
	writes, written int
}

// runDrift creates the Networks with a controller whose checks are off, then runs one with
// the default flags over them and measures -drift-rounds rounds of their checks.
func runDrift(ctx context.Context, b *bench) (*driftResult, error) {
	res := &driftResult{n: b.o.driftN, rounds: b.o.driftRounds}
	clusterID := fmt.Sprintf("bench-%s-drift", b.runID)
	names := networkNames("drift-"+b.runID, res.n)
	p, err := b.startSettled(ctx, clusterID, "drift-create", "-neutron-resync-period=0")
	if err != nil {
		return nil, err
	}
	m0, err := b.markNow(p)
	if err != nil {
		return nil, err
	}
	create, _, err := b.driveNetworks(ctx, p, m0, names, createDriftNetworks(time.Minute), b.tracker.waitReady)
	if err != nil {
		return nil, err
	}
	logf("drift: %d Networks with a one-minute check period Ready after %s", res.n, secs(create.dur))
	if err := b.stopRunning(); err != nil {
		return nil, err
	}

	if p, err = b.startSettled(ctx, clusterID, "drift-measure", "-v=2", "-logging-format=json"); err != nil {
		return nil, err
	}
	logf("drift: controller pid %d with the default flags; measuring %d rounds of checks that list the project", p.pid(), res.rounds)
	follow := &jsonLog{path: p.logPath}
	var first mark
	var firstAt time.Time
	for k := 0; k <= res.rounds; {
		e, err := follow.waitFor(ctx, p, "Drift checks done", 3*time.Minute)
		if err != nil {
			return nil, err
		}
		if e.Listed == 0 {
			continue
		}
		now, err := b.markNow(p)
		if err != nil {
			return nil, err
		}
		if k == 0 {
			first, firstAt = now, e.at()
		} else {
			logf("drift: round %d of %d listed the project and checked %d Networks", k, res.rounds, e.Networks)
		}
		if k == res.rounds {
			res.span = e.at().Sub(firstAt)
			if res.calls, err = b.log.countOps(first.offset, now.offset); err != nil {
				return nil, err
			}
			res.writes, res.written = b.tracker.writesBetween(firstAt, e.at())
		}
		k++
	}
	return res, b.stopRunning()
}

// createDriftNetworks creates the bench's one-subnet Networks with a drift check period.
func createDriftNetworks(period time.Duration) func(context.Context, versioned.Interface, string, []string) error {
	return func(ctx context.Context, client versioned.Interface, namespace string, names []string) error {
		return parallel(ctx, len(names), apiWorkers, func(ctx context.Context, i int) error {
			spec := samplecrdv1.NetworkSpec{SubnetFields: subnetFields(benchSubnetOf(i)),
				DriftCheck: &samplecrdv1.DriftCheck{Period: &metav1.Duration{Duration: period}}}
			return createNetworkSpec(ctx, client, namespace, names[i], spec)
		})
	}
}

// printDrift prints the drift checks' cost per Network and hour: measured on a one-minute
// period; for 10 minutes and the default 5, a measured round's lists times their rounds
// per hour, and one status write per check. The global resync before per-Network periods
// listed the same way every 5 minutes and wrote no status.
func (r *results) printDrift(w io.Writer) {
	d := r.drift
	if d == nil {
		return
	}
	calls := float64(d.calls.total()) / float64(d.rounds)
	writes := float64(d.writes) / float64(d.rounds)
	fmt.Fprintf(w, "\nDrift checks: %d Networks on a one-minute period (spec.driftCheck.period 1m), one project, controller defaults (sweep every 5m); %d rounds in %s:\n",
		d.n, d.rounds, secs(d.span))
	fmt.Fprintf(w, "  per round: %.1f Neutron calls (%s over the rounds), %.0f status writes (%d on %d Networks over the rounds)\n",
		calls, d.calls, writes, d.writes, d.written)
	perHour := func(rounds float64) float64 { return calls * rounds / float64(d.n) }
	fmt.Fprintf(w, "  Neutron calls per Network per hour: period 1m %.3f, 10m %.3f, default 5m %.3f; the global resync before per-Network periods %.3f\n",
		perHour(60), perHour(6), perHour(12), perHour(12))
	fmt.Fprintf(w, "  status writes per Network per hour: period 1m %.1f, 10m %.1f, default 5m %.1f; the global resync before 0\n",
		writes*60/float64(d.n), writes*6/float64(d.n), writes*12/float64(d.n))
}
