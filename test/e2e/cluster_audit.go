//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"net/netip"
	"slices"
	"sort"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	versioned "github.com/samplecrd/network-controller/pkg/client/clientset/versioned"
	"github.com/samplecrd/network-controller/pkg/subnetplan"
)

// ClusterAudit compares the Network objects of some namespaces with everything Neutron
// holds for one cluster ID, by what docs/design.md promises ("Ownership in Neutron")
// rather than by how the controller finds its resources: Neutron is listed in full
// through the admin endpoint and filtered here. A network belongs to the cluster when a
// tag or its description names the cluster ID, and to an object when a tag, its name or
// its description names the object's UID; a subnet belongs to its network. A router
// belongs to the cluster when its description names the cluster ID, and to an object
// when its name names the object's UID; a router interface and an RBAC policy belong to
// the network they are on.
type ClusterAudit struct {
	Live       int // objects without a deletion timestamp
	Networks   int // Neutron networks of the cluster
	Subnets    int // Neutron subnets on those networks
	Routers    int // Neutron routers of the cluster
	Interfaces int // router interfaces on the cluster's networks
	Policies   int // RBAC policies on the cluster's networks

	NotReady []string // live objects not Ready=True for their current generation
	// Missing are live objects without a Neutron network or subnet, a router the spec
	// asks for, a subnet's interface on it, or an RBAC policy of a project spec.sharedWith
	// lists.
	Missing []string
	// Duplicates are live objects with more than one network or router of their own,
	// networks with more than one subnet (for one item), and two RBAC policies for one
	// project.
	Duplicates []string
	// Mismatched are subnets, routers' gateways, port security or the ownership marks
	// not as the spec says, and status not as Neutron has it.
	Mismatched []string
	// Leaked are networks and routers of the cluster that no live object owns or whose
	// object no longer asks for them, router interfaces on the cluster's networks to a
	// router that is not their Network's, and RBAC policies for projects spec.sharedWith
	// does not list or on networks that do not exist.
	Leaked []string
	Stuck  []string // objects with a deletion timestamp
}

// Problems is the number of findings; 0 means Neutron is exactly as desired.
func (a ClusterAudit) Problems() int {
	return len(a.NotReady) + len(a.Missing) + len(a.Duplicates) + len(a.Mismatched) + len(a.Leaked) + len(a.Stuck)
}

// Counts gives the number of findings of each kind on one line.
func (a ClusterAudit) Counts() string {
	return fmt.Sprintf("live objects=%d, Neutron networks=%d subnets=%d routers=%d router interfaces=%d RBAC policies=%d; "+
		"not ready=%d, missing=%d, duplicates=%d, mismatched=%d, leaked=%d, stuck deleting=%d",
		a.Live, a.Networks, a.Subnets, a.Routers, a.Interfaces, a.Policies,
		len(a.NotReady), len(a.Missing), len(a.Duplicates), len(a.Mismatched), len(a.Leaked), len(a.Stuck))
}

// Err is nil when there is no finding, otherwise every finding.
func (a ClusterAudit) Err() error {
	if a.Problems() == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString(a.Counts())
	for _, f := range []struct {
		what  string
		items []string
	}{
		{"not ready", a.NotReady}, {"missing", a.Missing}, {"duplicates", a.Duplicates},
		{"mismatched", a.Mismatched}, {"leaked", a.Leaked}, {"stuck deleting", a.Stuck},
	} {
		for _, item := range f.items {
			fmt.Fprintf(&b, "\n  %s: %s", f.what, item)
		}
	}
	return fmt.Errorf("%s", b.String())
}

// AuditCluster reads the Networks of namespaces and the whole of Neutron and reports how
// they differ for clusterID. An error means something could not be read.
func AuditCluster(ctx context.Context, nets versioned.Interface, clusterID string, namespaces ...string) (ClusterAudit, error) {
	var a ClusterAudit
	listCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	all, err := nets.SamplecrdV1().Networks(metav1.NamespaceAll).List(listCtx, metav1.ListOptions{})
	cancel()
	if err != nil {
		return a, fmt.Errorf("listing Networks: %w", err)
	}
	// The objects of namespaces are audited. A controller sees every namespace, so an
	// object elsewhere (one a failed test left behind) may own a network of the cluster
	// too: that network is not a leak, and the object is not audited.
	var objects, elsewhere []samplecrdv1.Network
	for _, o := range all.Items {
		if slices.Contains(namespaces, o.Namespace) {
			objects = append(objects, o)
		} else if o.DeletionTimestamp == nil {
			elsewhere = append(elsewhere, o)
		}
	}
	neutronState, err := ReadAuditState()
	if err != nil {
		return a, err
	}
	var ours []NeutronNetwork
	for _, n := range neutronState.Networks {
		if n.names(clusterID, "k8s-cluster=") {
			ours = append(ours, n)
		}
	}
	subnetsOf := neutronState.SubnetsOf
	policiesOn := map[string][]NeutronRBACPolicy{} // by network ID
	for _, p := range neutronState.Policies {
		policiesOn[p.ObjectID] = append(policiesOn[p.ObjectID], p)
	}
	a.Networks = len(ours)
	for _, n := range ours {
		a.Subnets += len(subnetsOf[n.ID])
		a.Interfaces += len(neutronState.Interfaces[n.ID])
		a.Policies += len(policiesOn[n.ID])
	}
	var ourRouters []NeutronRouter
	for _, r := range neutronState.Routers {
		if strings.Contains(r.Description, clusterID) {
			ourRouters = append(ourRouters, r)
		}
	}
	a.Routers = len(ourRouters)
	routersOf := func(uid string) []NeutronRouter {
		var out []NeutronRouter
		for _, r := range ourRouters {
			if strings.Contains(r.Name, uid) {
				out = append(out, r)
			}
		}
		return out
	}
	ownedRouters := map[string]bool{} // router IDs a live object owns

	owned := map[string]bool{} // network IDs a live object owns
	for _, o := range objects {
		key := o.Namespace + "/" + o.Name
		if o.DeletionTimestamp != nil {
			a.Stuck = append(a.Stuck, fmt.Sprintf("%s (uid %s) deleting since %s, finalizers %v, %s",
				key, o.UID, o.DeletionTimestamp.Format(time.RFC3339), o.Finalizers, DescribeReady(&o)))
			continue
		}
		a.Live++
		if !o.IsReady() {
			a.NotReady = append(a.NotReady, fmt.Sprintf("%s: %s", key, DescribeReady(&o)))
		}
		var mine []NeutronNetwork
		for _, n := range ours {
			if n.names(string(o.UID), "k8s-uid=") {
				mine = append(mine, n)
				owned[n.ID] = true
			}
		}
		own := routersOf(string(o.UID))
		for _, r := range own {
			ownedRouters[r.ID] = true
		}
		var only *NeutronNetwork
		if len(mine) == 1 {
			only = &mine[0]
		}
		a.auditRouter(key, &o, only, subnetsOf, own, neutronState)
		if only != nil {
			a.auditSharing(key, &o, *only, policiesOn[only.ID])
			a.auditPortSecurity(key, &o, *only, neutronState.PortSecurity[only.ID])
		}
		switch {
		case len(mine) == 0:
			a.Missing = append(a.Missing, fmt.Sprintf("%s (uid %s) has no Neutron network", key, o.UID))
			continue
		case len(mine) > 1:
			a.Duplicates = append(a.Duplicates, fmt.Sprintf("%s (uid %s) has %d networks %v", key, o.UID, len(mine), ids(mine)))
		}
		for _, n := range mine {
			subs := subnetsOf[n.ID]
			if len(o.Spec.Subnets) > 0 {
				a.auditItems(key, &o, n, subs, len(mine) == 1)
				continue
			}
			switch {
			case len(subs) == 0:
				a.Missing = append(a.Missing, fmt.Sprintf("%s: network %s has no subnet", key, n.ID))
				continue
			case len(subs) > 1:
				a.Duplicates = append(a.Duplicates, fmt.Sprintf("%s: network %s has %d subnets", key, n.ID, len(subs)))
			}
			if len(mine) == 1 && len(subs) == 1 {
				if m := auditMismatch(&o, n, subs[0]); m != "" {
					a.Mismatched = append(a.Mismatched, key+": "+m)
				}
			}
		}
	}
	for _, o := range elsewhere {
		for _, n := range ours {
			if n.names(string(o.UID), "k8s-uid=") {
				owned[n.ID] = true
			}
		}
		for _, r := range routersOf(string(o.UID)) {
			ownedRouters[r.ID] = true
		}
	}
	for _, n := range ours {
		if !owned[n.ID] {
			a.Leaked = append(a.Leaked, fmt.Sprintf("network %s (tags %v, description %q, %d subnets, %d router interfaces, %d RBAC policies) has no live object",
				n.ID, n.Tags, n.Description, len(subnetsOf[n.ID]), len(neutronState.Interfaces[n.ID]), len(policiesOn[n.ID])))
		}
	}
	for _, r := range ourRouters {
		if !ownedRouters[r.ID] {
			a.Leaked = append(a.Leaked, fmt.Sprintf("router %s (name %q, gateway %v) has no live object", r.ID, r.Name, r.GatewayAddresses()))
		}
	}
	exists := map[string]bool{}
	for _, n := range neutronState.Networks {
		exists[n.ID] = true
	}
	for _, p := range neutronState.Policies {
		if exists[p.ObjectID] {
			continue
		}
		gone, err := policyOnMissingNetwork(p)
		if err != nil {
			return a, err
		}
		if gone {
			a.Leaked = append(a.Leaked, fmt.Sprintf("RBAC policy %s (%s for project %s, by project %s) is on network %s, which does not exist",
				p.ID, p.Action, p.TargetProject, p.ProjectID, p.ObjectID))
		}
	}
	for _, l := range [][]string{a.NotReady, a.Missing, a.Duplicates, a.Mismatched, a.Leaked, a.Stuck} {
		sort.Strings(l)
	}
	return a, nil
}

// auditItems compares a network of a list-form object with the object's items: one
// subnet per item, of the item's CIDR and planned gateway, named in status.subnets when
// the object has this one network; a subnet of no item is a leak.
func (a *ClusterAudit) auditItems(key string, o *samplecrdv1.Network, n NeutronNetwork, subs []NeutronSubnet, only bool) {
	byCIDR := map[string][]NeutronSubnet{}
	for _, s := range subs {
		cidr := s.CIDR
		if p, err := netip.ParsePrefix(s.CIDR); err == nil {
			cidr = p.String()
		}
		byCIDR[cidr] = append(byCIDR[cidr], s)
	}
	for _, item := range o.Spec.Subnets {
		got := byCIDR[item.CIDR]
		delete(byCIDR, item.CIDR)
		switch {
		case len(got) == 0:
			a.Missing = append(a.Missing, fmt.Sprintf("%s: network %s has no subnet for item %s (%s)", key, n.ID, item.Name, item.CIDR))
			continue
		case len(got) > 1:
			a.Duplicates = append(a.Duplicates, fmt.Sprintf("%s: network %s has %d subnets %v for item %s", key, n.ID, len(got), ids(got), item.Name))
			continue
		}
		plan, err := subnetplan.Plan(subnetplan.Spec{CIDR: item.CIDR, GatewayMode: string(item.GatewayMode), Gateway: item.Gateway})
		if err != nil {
			a.Mismatched = append(a.Mismatched, fmt.Sprintf("%s: item %s does not plan: %v", key, item.Name, err))
			continue
		}
		if gw, _ := netip.ParseAddr(got[0].GatewayIP); gw != plan.Gateway {
			a.Mismatched = append(a.Mismatched, fmt.Sprintf("%s: item %s's subnet %s has gateway %q, want %s", key, item.Name, got[0].ID, got[0].GatewayIP, plan.Gateway))
		}
		st := findItem(o, item.Name)
		if only && (st == nil || st.SubnetID != got[0].ID || o.Status.NetworkID != n.ID) {
			a.Mismatched = append(a.Mismatched, fmt.Sprintf("%s: status names network %s and item %s %+v, Neutron has %s %s",
				key, o.Status.NetworkID, item.Name, st, n.ID, got[0].ID))
		}
	}
	for cidr, extra := range byCIDR {
		a.Leaked = append(a.Leaked, fmt.Sprintf("%s: network %s has subnets %v of %s, which no item has", key, n.ID, ids(extra), cidr))
	}
}

// auditMismatch compares an object's one network and subnet with its spec and status.
func auditMismatch(o *samplecrdv1.Network, n NeutronNetwork, s NeutronSubnet) string {
	// The pools are compared below, as the spec names them or, without them, as planned.
	plan, err := subnetplan.Plan(subnetplan.Spec{CIDR: o.Spec.CIDR, GatewayMode: string(o.Spec.GatewayMode), Gateway: o.Spec.Gateway})
	if err != nil {
		return fmt.Sprintf("spec cidr %q gateway %q does not plan: %v", o.Spec.CIDR, o.Spec.Gateway, err)
	}
	wantGateway := ""
	if plan.Gateway.IsValid() {
		wantGateway = plan.Gateway.String()
	}
	var diffs []string
	if cidr, err := netip.ParsePrefix(s.CIDR); err != nil || cidr != plan.CIDR {
		diffs = append(diffs, fmt.Sprintf("subnet %s has cidr %s, spec %s", s.ID, s.CIDR, o.Spec.CIDR))
	}
	if gw, _ := netip.ParseAddr(s.GatewayIP); gw != plan.Gateway {
		diffs = append(diffs, fmt.Sprintf("subnet %s has gateway %q, want %q (spec %q, mode %q)", s.ID, s.GatewayIP, wantGateway, o.Spec.Gateway, o.Spec.GatewayMode))
	}
	wantPools := SpecPools(o.Spec)
	if wantPools == "" {
		planned := make([]string, 0, len(plan.AllocationPools))
		for _, p := range plan.AllocationPools {
			planned = append(planned, p.String())
		}
		wantPools = sortedPools(planned)
	}
	if s.Pools() != wantPools {
		diffs = append(diffs, fmt.Sprintf("subnet %s has pools %s, want %s", s.ID, s.Pools(), wantPools))
	}
	if o.Status.NetworkID != n.ID || o.Status.SubnetID != s.ID {
		diffs = append(diffs, fmt.Sprintf("status names network %s subnet %s, Neutron has %s %s",
			o.Status.NetworkID, o.Status.SubnetID, n.ID, s.ID))
	}
	if got, want := s.Options(), SpecOptions(o.Spec); got != want {
		diffs = append(diffs, fmt.Sprintf("subnet %s has %s, spec %s", s.ID, got, want))
	}
	if o.Status.Gateway != wantGateway {
		diffs = append(diffs, fmt.Sprintf("status.gateway %q, want %q", o.Status.Gateway, wantGateway))
	}
	return strings.Join(diffs, "; ")
}
