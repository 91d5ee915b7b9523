package main

import (
	"fmt"
	"io"
)

// routedMinimum is the fewest Neutron calls that give a routed Network's lifecycle: create
// network, create subnet, create router with its gateway, add router interface; remove
// router interface, delete router, delete network.
const routedMinimum = 7

// Operations of a routed lifecycle beyond the minimum, as operationOf names them.
const (
	opTagNetwork   = "tag network"   // the controller's ownership tags on its network
	opListPorts    = "list ports"    // before a routed delete, for others' ports
	opListNetworks = "list networks" // the external network's lookup by name
)

// printRouted prints the routed rounds: times against the raw loop, Neutron calls per
// Network by method and by operation, per lifecycle against the API's minimum.
func (r *results) printRouted(w io.Writer) { printRouted(w, r.opts, r.routed) }

func printRouted(w io.Writer, o options, rounds []roundResult) {
	if len(rounds) == 0 {
		return
	}
	n := o.routedN
	fmt.Fprintf(w, "\nRouted: %d one-subnet Networks per round, each with a router of its own whose gateway is on external network %s (spec.router.externalNetwork.name), workers=%d, rounds=%d\n",
		n, o.routedExternal, o.workers, len(rounds))
	if o.baseline != "" {
		fmt.Fprintf(w, "(the current build only: the baseline, %s, is not run in this stage, since a build older than spec.router would make these networks without routers)\n",
			buildLabel(o.baselineCommit, o.baseline))
	}
	fmt.Fprintln(w)
	printTimes(w, rounds)
	fmt.Fprintln(w, "(raw: once per round GET the external network by name; per network POST network, PUT its tags, POST subnet,")
	fmt.Fprintln(w, " POST router with its gateway, PUT add_router_interface; GET the network's ports, PUT remove_router_interface,")
	fmt.Fprintln(w, " DELETE router, DELETE network: the controller's calls, at its concurrency)")
	printCalls(w, n, o.workers, rounds, false)

	var rawC, rawD, ctlC, ctlD []phase
	for _, rr := range rounds {
		rawC, rawD = append(rawC, rr.raw.create), append(rawD, rr.raw.delete)
		ctlC, ctlD = append(ctlC, rr.controller.create), append(ctlD, rr.controller.delete)
	}
	all := n * len(rounds)
	fmt.Fprintln(w, "\nNeutron calls per Network by operation (neutron-server's log):")
	for _, row := range []struct {
		name           string
		create, delete []phase
	}{{"raw loop", rawC, rawD}, {"controller", ctlC, ctlD}} {
		c, _ := opsLine(row.create, all)
		d, _ := opsLine(row.delete, all)
		fmt.Fprintf(w, "  %-11s create %s\n  %-11s delete %s\n", row.name+":", c, "", d)
	}
	fmt.Fprintln(w, "\nPer lifecycle (create + delete):")
	for _, row := range []struct {
		name string
		ps   []phase
	}{{"raw loop", append(rawC, rawD...)}, {"controller", append(ctlC, ctlD...)}} {
		l := routedLifecycleOf(row.ps, n, len(rounds))
		fmt.Fprintf(w, "  %-11s %.2f per Network (%.2f counting the external network's lookup, %.1f per round); %.2f without the tags' PUT (%.2f) and the ports' list before the delete (%.2f)\n",
			row.name+":", l.perNetwork, l.perNetwork+l.lookupsPerRound/float64(n), l.lookupsPerRound, l.perNetwork-l.tags-l.ports, l.tags, l.ports)
	}
	fmt.Fprintf(w, "  API minimum for the same result: %d (create network, create subnet, create router with its gateway, add router interface;\n", routedMinimum)
	fmt.Fprintln(w, "  remove router interface, delete router, delete network). The controller's two more: PUT the network's tags")
	fmt.Fprintln(w, "  (k8s-cluster and k8s-uid for people and tools, and k8s-router=managed, by which a store fill after a restart knows")
	fmt.Fprintln(w, "  to list routers; Neutron takes no tags in a create), and GET the network's ports before a delete (to refuse,")
	fmt.Fprintln(w, "  naming them, when someone else's port is on it, before detaching anything). The lookup of the external network by")
	fmt.Fprintln(w, "  name (list networks) is not per Network: the raw loop makes it once per round; the controller once per process")
	fmt.Fprintln(w, "  start (its workers take turns for it) and remembers the answer, which each resync's list of external networks")
	fmt.Fprintln(w, "  refreshes.")
}

// routedLifecycle is a routed lifecycle's Neutron calls: per Network without the external
// network's lookups, those per round, and per Network the two calls beyond the minimum.
type routedLifecycle struct {
	perNetwork      float64
	lookupsPerRound float64
	tags, ports     float64
}

// routedLifecycleOf sums the phases' calls by operation over rounds rounds of n Networks.
// The external network's lookup is the only list of networks a routed round makes.
func routedLifecycleOf(ps []phase, n, rounds int) routedLifecycle {
	c := callCounts{}
	for _, p := range ps {
		c.add(p.ops)
	}
	all := float64(n * rounds)
	return routedLifecycle{
		perNetwork:      float64(c.total()-c[opListNetworks]) / all,
		lookupsPerRound: float64(c[opListNetworks]) / float64(rounds),
		tags:            float64(c[opTagNetwork]) / all,
		ports:           float64(c[opListPorts]) / all,
	}
}
