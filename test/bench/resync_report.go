package main

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// printResync prints the resync stage: the restart over the list-form Networks, then each
// resync of the measured controller, the first and the settled one.
func (r *results) printResync(w io.Writer) {
	rs := r.resync
	if rs == nil {
		return
	}
	fmt.Fprintf(w, "\nNeutron resync with %d list-form Networks (one IPv4 /24 item each, 144 addresses in its pools) and a port on %d of their subnets:\n",
		rs.n, rs.ports)
	fmt.Fprintf(w, "  creating them with one controller (its resync off): %s, %d Neutron calls (per Network: %s)\n",
		secs(rs.create.dur), rs.create.calls.total(), rs.create.ops.perNetwork(rs.n))
	last := "no Neutron call"
	if rs.restart.lastCall >= 0 {
		last = fmt.Sprintf("last Neutron call %s after start", secs(rs.restart.lastCall))
	}
	fmt.Fprintf(w, "  restart over them (default -neutron-resync-period): Neutron calls from the start until quiet: %d (%s); /readyz %s after start, %s\n",
		rs.restart.calls.total(), rs.restart.ops, secs(rs.restart.readyAfter), last)
	fmt.Fprintf(w, "  then a controller with -neutron-resync-period=%s (its startup: %s), each resync:\n\n",
		rs.period, rs.startup)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  pass\tNeutron calls\tby operation (Neutron's log)\twall\tNeutron's time\trequeued\twrites until the next (Networks)")
	for i, p := range rs.passes {
		writes := "-"
		if p.writes >= 0 {
			writes = fmt.Sprintf("%d (%d)", p.writes, p.written)
		}
		mark := ""
		switch {
		case i == 0:
			mark = " first"
		case i == rs.settled:
			mark = " settled"
		}
		fmt.Fprintf(tw, "  %d%s\t%d\t%s\t%s\t%s\t%d\t%s\n", i+1, mark, p.calls.total(), p.ops, wallText(p), secs(p.neutron), p.requeued, writes)
	}
	tw.Flush()
	fmt.Fprintln(w, "  (wall: from Neutron's start of the first request of the pass to the controller's \"Neutron resync done\"; a")
	fmt.Fprintln(w, "   pass's calls are those from the end of the one before, so they would show any of the reconciles it caused;")
	fmt.Fprintln(w, "   writes: updates of the Networks the bench's watch saw from the pass's last Neutron answer, the ports list after")
	fmt.Fprintln(w, "   which it hands Networks to the workers, to the next pass's)")
	if len(rs.passes) == 0 {
		return
	}
	first := rs.passes[0]
	ports := orDash(first.portsQuery)
	if first.portsQuery == "unfiltered" && rs.n > 100 {
		ports += " (over 100 Networks the controller lists its project's ports; a noauth Neutron gives it no project to filter by)"
	}
	fmt.Fprintf(w, "  the list of ports: %s\n", ports)
	fmt.Fprintf(w, "  first resync: %d Neutron calls (%s; the controller's own metric: %s), %s; it requeued %d Networks\n",
		first.calls.total(), first.ops, countsText(first.metric), wallText(first), first.requeued)
	if rs.settled < 0 {
		fmt.Fprintln(w, "  no resync requeued nothing before the bench gave up")
	} else {
		s := rs.passes[rs.settled]
		fmt.Fprintf(w, "  writes to the Networks from the first's ports list to the settled one's: %d, to %d Networks\n", rs.firstWrites, rs.firstWritten)
		fmt.Fprintf(w, "  settled resync (pass %d): %d Neutron calls (%s; the controller's own metric: %s), %s; requeued %d; writes until the next: %d\n",
			rs.settled+1, s.calls.total(), s.ops, countsText(s.metric), wallText(s), s.requeued, s.writes)
	}
	fmt.Fprintf(w, "  status at the end: %d of %d Networks show their subnets' addresses, %d addresses used in all (%d ports made)\n",
		rs.counted, rs.n, rs.used, rs.ports)
	fmt.Fprintf(w, "  peak RSS (VmHWM): the resyncing controller %s; the restarted one %s; the one that created them %s\n",
		mib(rs.peakRSS), mib(rs.restart.peakRSS), mib(rs.creatorPeak))
}

func wallText(p resyncPass) string {
	if p.wall() <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f s", p.wall().Seconds())
}

// countsText formats the controller's own counts as whole numbers, most first; "-" when
// unknown.
func countsText(c opCounts) string {
	if c == nil {
		return "-"
	}
	whole := callCounts{}
	for k, v := range c {
		whole[k] = int(v)
	}
	return whole.String()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
