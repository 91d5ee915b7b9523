package main

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"
)

// printNoisy prints the idle samples, the noisy-neighbour rounds and the restarts with a
// user, with per-round figures and medians by queue mode.
func (r *results) printNoisy(w io.Writer) {
	ns := r.noisy
	if ns == nil {
		return
	}
	o := r.opts
	fmt.Fprintf(w, "\nIdle: %d Networks created one at a time, time to Ready: p50 %s, p99 %s (nearest rank: below 100 samples, the largest)\n",
		len(ns.idle), ms(percentile(ns.idle, 50)), ms(percentile(ns.idle, 99)))

	fmt.Fprintf(w, "\nNoisy neighbour: namespace A applies %d Networks at once; namespace B creates %d, one every %s, meanwhile.\n",
		o.noisyN, o.noisyB, o.noisyInterval)
	fmt.Fprintln(w, "B's queue wait: from its create returning to the controller's first write (the finalizer);")
	fmt.Fprintln(w, "B's time to Ready: from just before its create to Ready=True; one item: workers × A's total / A's Networks.")
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "round\tqueue\tA total\tB wait p50\tB wait p99\tB Ready p50\tB Ready p99\tone item\tA total fair/fifo\t")
	byMode := map[string]*modeFigures{}
	var aRatios []float64
	for i, rounds := range ns.rounds {
		totals := map[string]time.Duration{}
		for _, nr := range rounds {
			f := byMode[nr.mode]
			if f == nil {
				f = &modeFigures{}
				byMode[nr.mode] = f
			}
			f.add(nr)
			totals[nr.mode] = nr.aTotal
		}
		for j, nr := range rounds {
			aRatio := ""
			if j == len(rounds)-1 && totals["fair"] > 0 && totals["fifo"] > 0 {
				rt := ratio(totals["fair"], totals["fifo"])
				aRatios = append(aRatios, rt)
				aRatio = fmt.Sprintf("%.2fx", rt)
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", i+1, nr.mode, secs(nr.aTotal),
				ms(percentile(nr.bWait, 50)), ms(percentile(nr.bWait, 99)),
				ms(percentile(nr.bReady, 50)), ms(percentile(nr.bReady, 99)), ms(nr.itemTime), aRatio)
		}
	}
	for _, mode := range queueModes {
		if f := byMode[mode]; f != nil {
			fmt.Fprintf(tw, "median\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\t\n", mode, secs(medianOf(f.aTotal)),
				ms(medianOf(f.waitP50)), ms(medianOf(f.waitP99)), ms(medianOf(f.readyP50)), ms(medianOf(f.readyP99)), ms(medianOf(f.item)))
		}
	}
	fmt.Fprintf(tw, "\t\t\t\t\t\t\t\t%.2fx\t\n", median(aRatios))
	tw.Flush()

	fmt.Fprintf(w, "\nRestart over %d realized Networks, a user creates one more in the same namespace as soon as /readyz answers; its time to Ready:\n\n", o.noisyN)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "round\tfair\tfifo\t")
	ready := map[string][]time.Duration{}
	for i, samples := range ns.restarts {
		row := map[string]time.Duration{}
		for _, s := range samples {
			row[s.mode] = s.ready
			ready[s.mode] = append(ready[s.mode], s.ready)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t\n", i+1, ms(row["fair"]), ms(row["fifo"]))
	}
	fmt.Fprintf(tw, "median\t%s\t%s\t\n", ms(medianOf(ready["fair"])), ms(medianOf(ready["fifo"])))
	tw.Flush()
}

// modeFigures collects one queue mode's figures over the rounds.
type modeFigures struct {
	aTotal, waitP50, waitP99, readyP50, readyP99, item []time.Duration
}

func (f *modeFigures) add(nr noisyRound) {
	f.aTotal = append(f.aTotal, nr.aTotal)
	f.waitP50 = append(f.waitP50, percentile(nr.bWait, 50))
	f.waitP99 = append(f.waitP99, percentile(nr.bWait, 99))
	f.readyP50 = append(f.readyP50, percentile(nr.bReady, 50))
	f.readyP99 = append(f.readyP99, percentile(nr.bReady, 99))
	f.item = append(f.item, nr.itemTime)
}

// medianOf is the median of durations.
func medianOf(d []time.Duration) time.Duration {
	v := make([]float64, len(d))
	for i, x := range d {
		v[i] = float64(x)
	}
	return time.Duration(median(v))
}
