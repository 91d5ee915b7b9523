package main

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"time"
)

type results struct {
	opts    options
	started time.Time
	rounds  []roundResult
	dual    []roundResult // the dual-stack rounds
	routed  []roundResult // the routed rounds
	restart *restartResult
	resync  *resyncResult
	drift   *driftResult
	noisy   *noisyResult
	tenants *tenantsResult
	scale   *scaleResult
	shards  *shardResult
}

func secs(d time.Duration) string { return fmt.Sprintf("%.1f s", d.Seconds()) }

func ratio(a, b time.Duration) float64 {
	if b <= 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}

// median of the values; the mean of the middle two for an even count.
func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

// printRounds prints the timings and call counts of the rounds.
func (r *results) printRounds(w io.Writer) { printRounds(w, r.opts, r.started, r.rounds) }

// printRestart prints the restart measurement.
func (r *results) printRestart(w io.Writer) {
	o := r.opts
	if rs := r.restart; rs != nil {
		fmt.Fprintf(w, "\nRestart with %d realized Networks (one controller created them in %s: %d Neutron calls (%s), its own metric %s):\n",
			rs.n, secs(rs.create.dur), rs.create.calls.total(), rs.create.calls, metricCount(rs.create.metric.total()))
		fmt.Fprintf(w, "  Neutron calls from the new process's start until quiet: %d (%s); controller's own metric: %s\n",
			rs.calls.total(), rs.calls, metricCount(rs.metric.total()))
		fmt.Fprintf(w, "  by operation (controller's count): %s\n", rs.metric.perNetwork(1))
		fmt.Fprintln(w, "  (the bench polls /readyz until its first 200; a /readyz that asks Neutron adds that call)")
		last := "no Neutron call at all"
		if rs.lastCall >= 0 {
			last = fmt.Sprintf("last Neutron call %s after start (%s after /readyz)", secs(rs.lastCall), secs(rs.lastCall-rs.readyAfter))
		}
		fmt.Fprintf(w, "  /readyz (informer synced) %s after start; %s; then %s without a call\n",
			secs(rs.readyAfter), last, o.quiet)
		fmt.Fprintf(w, "\nPeak RSS (VmHWM) with %d realized Networks: %s after the restart (the controller that created them: %s)\n",
			rs.n, mib(rs.peakRSS), mib(rs.creatorPeak))
	}
}

// printTenants prints the tenants stage.
func (r *results) printTenants(w io.Writer) {
	ts := r.tenants
	if ts == nil {
		return
	}
	c, rs := ts.create, ts.restart
	fmt.Fprintf(w, "\nTenants: %d Networks across %d projects, Neutron behind Keystone: the controller's own project and %d tenants' (a credentials Secret each):\n",
		ts.n, ts.projects, ts.projects-1)
	fmt.Fprintf(w, "  create: %s (%.1f Networks/s); Neutron calls %d, per Network %s; tokens %d\n",
		secs(c.dur), float64(ts.n)/c.dur.Seconds(), c.calls.total(), c.calls.perNetwork(ts.n), ts.createTokens)
	last := "no Neutron call at all"
	if rs.lastCall >= 0 {
		last = fmt.Sprintf("last Neutron call %s after start", secs(rs.lastCall))
	}
	fmt.Fprintf(w, "  restart: Neutron calls until quiet %d (%s; at most 1 + 2×%d = %d); tokens %d (at most %d); /readyz %s after start, %s\n",
		rs.calls.total(), rs.calls, ts.projects, 1+2*ts.projects, ts.restartTokens, ts.projects, secs(rs.readyAfter), last)
	fmt.Fprintf(w, "  peak RSS after the restart: %s\n", mib(rs.peakRSS))
}

// printCommand prints the command that made the results.
func (r *results) printCommand(w io.Writer) {
	o := r.opts
	fmt.Fprintln(w)
	command := fmt.Sprintf("hack/bench.sh -n %d -workers %d -rounds %d -dual-rounds %d -dual-n %d -routed-rounds %d -routed-n %d -restart-n %d -resync-n %d -resync-ports %d -resync-period %s -drift-n %d -drift-rounds %d -tenants %d -tenants-n %d -noisy-rounds %d -noisy-n %d -noisy-b %d -noisy-interval %s -idle-samples %d -scale-n %d -scale-at %s -shard-n %d -shard-replicas %d",
		o.n, o.workers, o.rounds, o.dualRounds, o.dualN, o.routedRounds, o.routedN, o.restartN, o.resyncN, o.resyncPorts, o.resyncPeriod, o.driftN, o.driftRounds, o.tenants, o.tenantsN, o.noisyRounds, o.noisyN, o.noisyB, o.noisyInterval, o.idleSamples, o.scaleN, o.scaleAt.String(), o.shardN, o.shardReplicas)
	for _, f := range []struct{ name, value string }{{"controller-args", o.controllerArgs}, {"baseline-args", o.baselineArgs}} {
		if f.value != "" {
			command += fmt.Sprintf(" -%s %q", f.name, f.value)
		}
	}
	if o.routedExternal != "" && o.routedExternal != "public" {
		command += fmt.Sprintf(" -routed-external %q", o.routedExternal)
	}
	if plainSubnets {
		command += " -plain-subnets"
	}
	switch {
	case o.baseline != "" && o.baselineCommit != "":
		command = fmt.Sprintf("BASELINE=%s %s", strings.TrimPrefix(o.baselineCommit, "commit "), command)
	case o.baseline != "":
		command += " -baseline " + o.baseline
	}
	fmt.Fprintln(w, "command: "+command)
}

// perNetwork formats counts divided by n, most frequent first, e.g. "GET 8.20, POST 2.00",
// or "none".
func perNetwork[V int | float64](counts map[string]V, n int) string {
	if len(counts) == 0 {
		return "none"
	}
	keys := mostFirst(counts)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %.2f", k, float64(counts[k])/float64(n))
	}
	return strings.Join(parts, ", ")
}

// mostFirst returns the keys of counts, the largest count first, equal counts by name.
func mostFirst[V int | float64](counts map[string]V) []string {
	return slices.SortedFunc(maps.Keys(counts), func(a, b string) int {
		return cmp.Or(cmp.Compare(counts[b], counts[a]), strings.Compare(a, b))
	})
}
