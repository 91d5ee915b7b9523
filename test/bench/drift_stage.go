package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/client/clientset/versioned"
)

// driftResult is what the drift checks of -drift-n Networks on a one-minute period cost a
// controller with the default flags (its sweep every 5 minutes), over a window after its
// start: the Neutron calls and status writes, and the check rounds it logged.
type driftResult struct {
	n      int
	window time.Duration
	calls  callCounts
	// rounds are the check rounds logged in the window ("Drift checks done"), and listed
	// those of them that listed the project.
	rounds, listed  int
	writes, written int
}

// runDrift creates the Networks with a controller whose checks are off, then runs one with
// the default flags over them for -drift-window.
func runDrift(ctx context.Context, b *bench) (*driftResult, error) {
	res := &driftResult{n: b.o.driftN, window: b.o.driftWindow}
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

	if p, err = b.startSettled(ctx, clusterID, "drift-measure", "-v=2"); err != nil {
		return nil, err
	}
	from, err := b.markNow(p)
	if err != nil {
		return nil, err
	}
	started := time.Now()
	logf("drift: controller pid %d with the default flags; counting for %s", p.pid(), res.window)
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-time.After(res.window):
	}
	to, err := b.markNow(p)
	if err != nil {
		return nil, err
	}
	if res.calls, err = b.log.countOps(from.offset, to.offset); err != nil {
		return nil, err
	}
	res.writes, res.written = b.tracker.writesBetween(started, time.Now())
	log, err := os.ReadFile(p.logPath)
	if err != nil {
		return nil, err
	}
	for _, line := range bytes.Split(log, []byte("\n")) {
		if bytes.Contains(line, []byte("Drift checks done")) {
			res.rounds++
			if !bytes.Contains(line, []byte("listed=0")) {
				res.listed++
			}
		}
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

// printDrift prints the drift checks' cost per Network and hour: measured for the one-minute
// period; for 10 minutes and the default 5, one measured round's calls times their rounds
// per hour, as for the global resync before per-Network periods (its sweep listed the
// same way every 5 minutes and wrote no status).
func (r *results) printDrift(w io.Writer) {
	d := r.drift
	if d == nil {
		return
	}
	hours := d.window.Hours()
	calls := d.calls.total()
	fmt.Fprintf(w, "\nDrift checks: %d Networks on a one-minute period (spec.driftCheck.period 1m), one project, controller defaults (sweep every 5m); a %s window after its start:\n",
		d.n, d.window)
	fmt.Fprintf(w, "  Neutron calls %d (%s) in %d check rounds, %d of which listed the project; API status writes %d, on %d Networks\n",
		calls, d.calls, d.rounds, d.listed, d.writes, d.written)
	perRound := 0.0
	if d.listed > 0 {
		perRound = float64(calls) / float64(d.listed)
	}
	perHour := func(rounds float64) float64 { return perRound * rounds / float64(d.n) }
	fmt.Fprintf(w, "  calls per Network per hour: period 1m %.3f (measured), 10m %.3f, default 5m %.3f; the global resync before per-Network periods %.3f\n",
		float64(calls)/hours/float64(d.n), perHour(6), perHour(12), perHour(12))
	fmt.Fprintf(w, "  status writes per Network per hour: period 1m %.1f (measured), 10m 6, default 5m 12; the global resync before 0\n",
		float64(d.writes)/hours/float64(d.n))
}
