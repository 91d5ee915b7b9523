package main

import (
	"fmt"
	"io"
)

// printDual prints the dual-stack rounds: times against the raw loop, Neutron calls per
// Network by method and by operation, and what bulk subnet create gave the raw loop.
func (r *results) printDual(w io.Writer) { printDual(w, r.opts, r.dual) }

func printDual(w io.Writer, o options, rounds []roundResult) {
	if len(rounds) == 0 {
		return
	}
	n := o.dualN
	fmt.Fprintf(w, "\nDual stack: %d Networks per round of the list form, an IPv4 /24 item and an IPv6 /64 item (slaac), workers=%d, rounds=%d\n\n",
		n, o.workers, len(rounds))
	printTimes(w, rounds)
	fmt.Fprintln(w, "(raw: POST network, PUT its tags, POST subnet for each of the two, one after the other; DELETE network)")
	printCalls(w, n, o.workers, rounds, false)

	var raw, ctl []phase
	var bulk *stageResult
	bulkRound := 0
	for i, rr := range rounds {
		raw = append(raw, rr.raw.create, rr.raw.delete)
		ctl = append(ctl, rr.controller.create, rr.controller.delete)
		if rr.bulk != nil && bulk == nil {
			bulk, bulkRound = rr.bulk, i+1
		}
	}
	rawText, _ := opsLine(raw, n*len(rounds))
	ctlText, ctlPer := opsLine(ctl, n*len(rounds))
	fmt.Fprintln(w, "\nNeutron calls per Network by operation (neutron-server's log), create + delete:")
	fmt.Fprintf(w, "  raw loop:   %s\n", rawText)
	fmt.Fprintf(w, "  controller: %s\n", ctlText)
	if bulk == nil {
		return
	}
	one := rounds[bulkRound-1].raw
	bulkText, bulkPer := opsLine([]phase{bulk.create, bulk.delete}, n)
	oneText, onePer := opsLine([]phase{one.create, one.delete}, n)
	fmt.Fprintf(w, "\nNeutron's bulk subnet create, once (round %d: the raw loop again right after its run one by one, with one POST /v2.0/subnets of both subnets):\n", bulkRound)
	fmt.Fprintf(w, "  calls per Network: bulk %s; one by one %s\n", bulkText, oneText)
	fmt.Fprintf(w, "  create: bulk %s, one by one %s (%.2fx); delete: bulk %s, one by one %s (%.2fx)\n",
		secs(bulk.create.dur), secs(one.create.dur), ratio(bulk.create.dur, one.create.dur),
		secs(bulk.delete.dur), secs(one.delete.dur), ratio(bulk.delete.dur, one.delete.dur))
	fmt.Fprintf(w, "  with bulk create (which the controller does not use) a dual-stack Network would take %.2f Neutron calls per lifecycle instead of the controller's %.2f\n",
		ctlPer-(onePer-bulkPer), ctlPer)
}

// opsLine sums the phases' calls by operation and divides them by n Networks: "5.00
// (create subnet 2.00, create network 1.00, ...)", and the total per Network.
func opsLine(ps []phase, n int) (string, float64) {
	c := callCounts{}
	for _, p := range ps {
		c.add(p.ops)
	}
	per := float64(c.total()) / float64(n)
	return fmt.Sprintf("%.2f (%s)", per, c.perNetwork(n)), per
}
