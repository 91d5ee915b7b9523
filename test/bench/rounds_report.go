package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
	"time"
)

// callsLine sums the phases' calls and divides by the Networks they handled.
func callsLine(ps []phase, perRound int) (string, float64, opCounts) {
	c := callCounts{}
	metric := opCounts{}
	for _, p := range ps {
		c.add(p.calls)
		if p.metric == nil {
			metric = nil
		}
		for k, v := range p.metric {
			if metric != nil {
				metric[k] += v
			}
		}
	}
	n := perRound * len(ps)
	return fmt.Sprintf("%.2f (%s)", float64(c.total())/float64(n), c.perNetwork(n)), float64(c.total()) / float64(n), metric
}

func metricText(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return fmt.Sprintf("%.2f", v)
}

func metricCount(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return fmt.Sprintf("%.0f", v)
}

// buildLabel names a build in the header: "commit abc1234", or its binary.
func buildLabel(commit, binary string) string {
	if commit != "" {
		return commit
	}
	return binary
}

// printRounds prints the timings and call counts of the rounds: the controller against
// the raw loop and, with a baseline, the baseline too and the two builds against each
// other.
func printRounds(w io.Writer, o options, started time.Time, rounds []roundResult) {
	commit := o.commit
	if commit == "" {
		commit = "unknown commit"
	}
	withBaseline := len(rounds) > 0 && rounds[0].baseline != nil
	if withBaseline {
		commit += ", baseline " + buildLabel(o.baselineCommit, o.baseline)
	}
	fmt.Fprintf(w, "\nnetwork-controller bench, %s, %s: N=%d, workers=%d, rounds=%d\n",
		started.Format("2006-01-02 15:04 MST"), commit, o.n, o.workers, len(rounds))
	if len(rounds) == 0 {
		return
	}
	fmt.Fprintln(w)
	if withBaseline {
		printBaselineTimes(w, rounds)
	} else {
		printTimes(w, rounds)
	}
	printCalls(w, o.n, o.workers, rounds, withBaseline)
}

// printTimes is the table of the rounds without a baseline.
func printTimes(w io.Writer, rounds []roundResult) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "round\tcreate raw\tcreate controller\tratio\tdelete raw\tdelete controller\tratio\t")
	var createRatios, deleteRatios []float64
	for i, rr := range rounds {
		cr := ratio(rr.controller.create.dur, rr.raw.create.dur)
		dr := ratio(rr.controller.delete.dur, rr.raw.delete.dur)
		createRatios, deleteRatios = append(createRatios, cr), append(deleteRatios, dr)
		fmt.Fprintf(tw, "%d\t%s\t%s\t%.2fx\t%s\t%s\t%.2fx\t\n", i+1,
			secs(rr.raw.create.dur), secs(rr.controller.create.dur), cr,
			secs(rr.raw.delete.dur), secs(rr.controller.delete.dur), dr)
	}
	fmt.Fprintf(tw, "median\t\t\t%.2fx\t\t\t%.2fx\t\n", median(createRatios), median(deleteRatios))
	tw.Flush()
	fmt.Fprintln(w, "(controller: from the first API create to the last Network Ready=True, and from the first")
	fmt.Fprintln(w, " API delete to the last Network gone; raw: the same work as gophercloud calls)")
}

// printBaselineTimes prints, for create and then delete, a table of the rounds with both
// builds' ratios to the raw loop and the controller's time over the baseline's, and the
// medians of each column of ratios.
func printBaselineTimes(w io.Writer, rounds []roundResult) {
	var medians [2][3]float64
	for i, what := range []string{"create", "delete"} {
		pick := func(s stageResult) time.Duration {
			if what == "create" {
				return s.create.dur
			}
			return s.delete.dur
		}
		if i > 0 {
			fmt.Fprintln(w)
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "round\tfirst\t%s raw\tcontroller\tratio\tbaseline\tratio\tcontroller/baseline\t\n", what)
		var ctlRatios, baseRatios, between []float64
		for j, rr := range rounds {
			raw, ctl, base := pick(rr.raw), pick(rr.controller), pick(*rr.baseline)
			ctlRatios = append(ctlRatios, ratio(ctl, raw))
			baseRatios = append(baseRatios, ratio(base, raw))
			between = append(between, ratio(ctl, base))
			first := "controller"
			if rr.baselineFirst {
				first = "baseline"
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%.2fx\t%s\t%.2fx\t%.2fx\t\n", j+1, first, secs(raw), secs(ctl), ctlRatios[j], secs(base), baseRatios[j], between[j])
		}
		medians[i] = [3]float64{median(ctlRatios), median(baseRatios), median(between)}
		fmt.Fprintf(tw, "median\t\t\t\t%.2fx\t\t%.2fx\t%.2fx\t\n", medians[i][0], medians[i][1], medians[i][2])
		tw.Flush()
	}
	fmt.Fprintln(w, "(each build: from the first API create to the last Network Ready=True, and from the first")
	fmt.Fprintln(w, " API delete to the last Network gone; raw: the same work as gophercloud calls, first in each")
	fmt.Fprintln(w, " round; controller/baseline: the two builds' times in the same round, then their median)")
	fmt.Fprintf(w, "\ncontroller vs baseline, medians: create %.2fx vs %.2fx of the raw loop (controller/baseline %.2fx); delete %.2fx vs %.2fx (controller/baseline %.2fx)\n",
		medians[0][0], medians[0][1], medians[0][2], medians[1][0], medians[1][1], medians[1][2])
}

// callRow is one row of the tables of calls and times: the raw loop or a build, and its
// phases over the rounds.
type callRow struct {
	name           string
	create, delete []phase
}

// printCalls prints the Neutron calls per Network of the raw loop and of each build, for
// rounds of n Networks each, and where each build's time went.
func printCalls(w io.Writer, n, workers int, rounds []roundResult, withBaseline bool) {
	rows := []callRow{{name: "raw loop"}, {name: "controller"}}
	if withBaseline {
		rows = append(rows, callRow{name: "baseline"})
	}
	for _, rr := range rounds {
		for i, s := range []stageResult{rr.raw, rr.controller} {
			rows[i].create, rows[i].delete = append(rows[i].create, s.create), append(rows[i].delete, s.delete)
		}
		if withBaseline {
			rows[2].create, rows[2].delete = append(rows[2].create, rr.baseline.create), append(rows[2].delete, rr.baseline.delete)
		}
	}
	fmt.Fprintf(w, "\nNeutron calls per Network, counted in neutron-server's request log over all rounds:\n\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\tcreate\tdelete\tcreate + delete\tcontroller's own metric (create + delete)")
	var metricLines []string
	for _, row := range rows {
		cText, cTotal, cMetric := callsLine(row.create, n)
		dText, dTotal, dMetric := callsLine(row.delete, n)
		all := float64(n * len(row.create))
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.2f\t%s\n", row.name, cText, dText, cTotal+dTotal, metricText((cMetric.total()+dMetric.total())/all))
		if cMetric == nil {
			continue
		}
		prefix := ""
		if withBaseline {
			prefix = row.name + " "
		}
		metricLines = append(metricLines,
			fmt.Sprintf("  %screate: %s", prefix, cMetric.perNetwork(int(all))),
			fmt.Sprintf("  %sdelete: %s", prefix, dMetric.perNetwork(int(all))))
	}
	tw.Flush()
	if len(metricLines) > 0 {
		fmt.Fprintln(w, "\nThe controller's own count per Network, by operation:")
		fmt.Fprintln(w, strings.Join(metricLines, "\n"))
	}
	fmt.Fprintln(w, "\nPer Network: reconciles the controller deferred over its project's Neutron budget, and its CPU time:")
	for _, row := range rows[1:] {
		fmt.Fprintf(w, "  %s: deferred create %s, delete %s; CPU create %s, delete %s\n", row.name,
			metricText(deferredPer(row.create, n)), metricText(deferredPer(row.delete, n)),
			cpuPer(row.create, n), cpuPer(row.delete, n))
	}
	printBreakdown(w, n, workers, rows)
}

// deferredPer is the phases' deferred reconciles per Network; NaN when unknown.
func deferredPer(ps []phase, perRound int) float64 {
	sum := 0.0
	for _, p := range ps {
		sum += p.deferred
	}
	return sum / float64(perRound*len(ps))
}

// cpuPer is the controller's CPU time per Network in the phases; "-" when unknown.
func cpuPer(ps []phase, perRound int) string {
	var sum time.Duration
	for _, p := range ps {
		if p.cpu < 0 {
			return "-"
		}
		sum += p.cpu
	}
	return fmt.Sprintf("%.1f ms", float64(sum)/float64(time.Millisecond)/float64(perRound*len(ps)))
}
