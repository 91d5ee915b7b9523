package main

import (
	"fmt"
	"io"
	"text/tabwriter"
)

func kib(b float64) string { return fmt.Sprintf("%.2f KiB", b/1024) }

// printScale prints the scale stage: per size, then the slope between the sizes.
func (r *results) printScale(w io.Writer) {
	s := r.scale
	if s == nil {
		return
	}
	last := s.points[len(s.points)-1]
	fmt.Fprintf(w, "\nScale: one controller grows to %d Networks and is restarted (SIGTERM, then a new process) at each size:\n", last.n)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "Networks\tcreated\tin\tper s\tNeutron calls each\tcreator peak RSS\t")
	prev := 0
	for _, pt := range s.points {
		fmt.Fprintf(tw, "%d\t%d\t%s\t%.1f\t%.2f\t%s\t\n", pt.n, pt.n-prev, secs(pt.create.dur),
			float64(pt.n-prev)/pt.create.dur.Seconds(), float64(pt.create.calls.total())/float64(pt.n-prev), mib(pt.creatorPeak))
		prev = pt.n
	}
	tw.Flush()

	fmt.Fprintln(w, "\n  restarts (calls: Neutron's log from the start until quiet; drained: as many reconciliations as Networks; then -quiet without a Neutron call):")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "build\tNetworks\tcalls\t/readyz\tdrained\tlast call\tRSS\tpeak RSS\tlive heap\tRSS each\theap each\t")
	for _, pt := range s.points {
		if pt.baseline != nil {
			restartRow(tw, "baseline", pt.n, *pt.baseline)
		}
		restartRow(tw, "controller", pt.n, pt.restart)
	}
	tw.Flush()

	if len(s.points) > 1 {
		first := s.points[0]
		slope := func(build string, a, b scaleRestart) {
			dn := float64(last.n - first.n)
			heap := "-"
			if a.heapOK && b.heapOK {
				heap = kib(float64(b.heap-a.heap) / dn)
			}
			fmt.Fprintf(w, "  %s, %d to %d Networks: RSS %s per Network, live heap %s per Network\n",
				build, first.n, last.n, kib(float64(b.rss-a.rss)/dn), heap)
		}
		if first.baseline != nil && last.baseline != nil {
			slope("baseline", *first.baseline, *last.baseline)
		}
		slope("controller", first.restart, last.restart)
	}
	fmt.Fprintf(w, "  delete: %d Networks in %s (%.1f per s); Neutron calls %d, per Network %s\n", last.n, secs(s.delete.dur),
		float64(last.n)/s.delete.dur.Seconds(), s.delete.calls.total(), s.delete.calls.perNetwork(last.n))
	for _, pt := range s.points {
		if pt.restart.profile != "" {
			fmt.Fprintf(w, "  heap profile at %d: go tool pprof -top -sample_index=inuse_space %s\n", pt.n, pt.restart.profile)
		}
	}
}

func restartRow(w io.Writer, build string, n int, r scaleRestart) {
	drained := "-"
	if r.drainedAfter >= 0 {
		drained = secs(r.drainedAfter)
	}
	lastCall := "none"
	if r.lastCall >= 0 {
		lastCall = secs(r.lastCall)
	}
	heap, heapEach := "-", "-"
	if r.heapOK {
		heap, heapEach = mib(r.heap), kib(float64(r.heap)/float64(n))
	}
	fmt.Fprintf(w, "%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", build, n, r.calls.total(), secs(r.readyAfter), drained, lastCall,
		mib(r.rss), mib(r.peakRSS), heap, kib(float64(r.rss)/float64(n)), heapEach)
}
