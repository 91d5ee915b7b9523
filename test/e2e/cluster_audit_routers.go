//go:build e2e

package e2e

import (
	"fmt"
	"maps"
	"net/netip"
	"slices"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// The audit of a Network's router and router interfaces, its
// sharing and its port security (see cluster_audit.go).

// auditRouter compares the routing of an object with Neutron: own, the routers of the
// cluster that name its UID (the router the controller makes for it), and, when the
// object has exactly one network n, the router interfaces on n, n's router mark and, once
// the object is Ready, status.router. Only a router the spec asks for may exist, only
// the subnets the spec attaches may be attached, and only to that router, which must be
// the one status names.
func (a *ClusterAudit) auditRouter(key string, o *samplecrdv1.Network, n *NeutronNetwork, subnetsOf map[string][]NeutronSubnet,
	own []NeutronRouter, s AuditState) {
	want := o.Spec.Router
	var target *NeutronRouter
	switch {
	case want == nil || want.ExternalNetwork == nil:
		for _, r := range own {
			a.Leaked = append(a.Leaked, fmt.Sprintf("%s: router %s (name %q) is the Network's own, but %s",
				key, r.ID, r.Name, routerSpecText(want)))
		}
	case len(own) == 0:
		a.Missing = append(a.Missing, fmt.Sprintf("%s has no router of its own, %s", key, routerSpecText(want)))
	case len(own) > 1:
		a.Duplicates = append(a.Duplicates, fmt.Sprintf("%s has %d routers %v of its own", key, len(own), ids(own)))
	default:
		target = &own[0]
		ext := s.externalNetworkID(*want.ExternalNetwork)
		if target.Gateway == nil || ext == "" || target.Gateway.NetworkID != ext {
			a.Mismatched = append(a.Mismatched, fmt.Sprintf("%s: router %s has gateway %+v, want one on external network %s (%s)",
				key, target.ID, target.Gateway, refText(want.ExternalNetwork), noneIfEmpty(ext)))
		}
	}
	if want != nil && want.Existing != nil {
		if target = s.router(*want.Existing); target == nil {
			a.Missing = append(a.Missing, fmt.Sprintf("%s: %s, which Neutron does not have (or several)", key, routerSpecText(want)))
		}
	}
	if n == nil {
		return // no network, or several: Missing or Duplicates says so
	}
	subs := subnetsOf[n.ID]
	attach := map[string]bool{} // the subnets spec.router attaches, by ID
	if want != nil {
		for _, sub := range subs {
			if len(o.Spec.Subnets) == 0 {
				attach[sub.ID] = true
				continue
			}
			for _, item := range o.Spec.Subnets {
				if prefixEqual(sub.CIDR, item.CIDR) && (len(want.Subnets) == 0 || slices.Contains(want.Subnets, item.Name)) {
					attach[sub.ID] = true
				}
			}
		}
	}
	recorded := ""
	if o.Status.Router != nil {
		recorded = o.Status.Router.RouterID
	}
	attached := map[string]bool{} // subnets attached to target, as they should be
	for _, p := range s.Interfaces[n.ID] {
		for _, ip := range p.FixedIPs {
			switch {
			case target == nil || p.DeviceID != target.ID || p.DeviceID != recorded:
				a.Leaked = append(a.Leaked, fmt.Sprintf("%s: subnet %s is attached (port %s) to router %s, which is not the Network's router: %s, status.router names %s",
					key, ip.SubnetID, p.ID, p.DeviceID, routerSpecText(want), noneIfEmpty(recorded)))
			case !attach[ip.SubnetID]:
				a.Leaked = append(a.Leaked, fmt.Sprintf("%s: subnet %s is attached (port %s) to router %s, but spec.router.subnets %v does not attach it",
					key, ip.SubnetID, p.ID, p.DeviceID, want.Subnets))
			default:
				attached[ip.SubnetID] = true
			}
		}
	}
	if target != nil {
		for _, sub := range subs {
			if attach[sub.ID] && !attached[sub.ID] {
				a.Missing = append(a.Missing, fmt.Sprintf("%s: subnet %s (%s) is not attached to router %s", key, sub.ID, sub.CIDR, target.ID))
			}
		}
	}
	switch marked := slices.Contains(n.Tags, neutron.RouterTag); {
	case want != nil && !marked:
		a.Mismatched = append(a.Mismatched, fmt.Sprintf("%s: network %s lacks the tag %s, though the spec has a router", key, n.ID, neutron.RouterTag))
	case want == nil && marked:
		a.Mismatched = append(a.Mismatched, fmt.Sprintf("%s: network %s still carries the tag %s, though the spec has no router", key, n.ID, neutron.RouterTag))
	}
	if !o.IsReady() {
		return
	}
	st := o.Status.Router
	switch {
	case want == nil && st != nil:
		a.Mismatched = append(a.Mismatched, fmt.Sprintf("%s: status.router %+v, but the spec has no router", key, *st))
	case want != nil && st == nil:
		a.Mismatched = append(a.Mismatched, fmt.Sprintf("%s: Ready without status.router, %s", key, routerSpecText(want)))
	case want != nil && target != nil:
		if st.RouterID != target.ID || st.Owned != (want.ExternalNetwork != nil) || !sameSet(st.SubnetIDs, slices.Collect(maps.Keys(attached))) ||
			!sameSet(st.ExternalGatewayAddresses, target.GatewayAddresses()) {
			a.Mismatched = append(a.Mismatched, fmt.Sprintf("%s: status.router %+v, Neutron has router %s (owned %v) with subnets %v attached and gateway %v",
				key, *st, target.ID, want.ExternalNetwork != nil, slices.Sorted(maps.Keys(attached)), target.GatewayAddresses()))
		}
	}
}

// routerSpecText says what spec.router asks for, for findings.
func routerSpecText(r *samplecrdv1.NetworkRouter) string {
	switch {
	case r == nil:
		return "the spec has no router"
	case r.ExternalNetwork != nil:
		return "spec.router.externalNetwork names " + refText(r.ExternalNetwork)
	default:
		return "spec.router.existing names " + refText(r.Existing)
	}
}

func refText(r *samplecrdv1.NeutronRef) string {
	if r == nil {
		return "nothing"
	}
	return neutron.RefText(r.ID, r.Name)
}

// externalNetworkID returns the ID of the external network ref names, "" when there is
// none or several.
func (s AuditState) externalNetworkID(ref samplecrdv1.NeutronRef) string {
	if ref.ID != "" {
		return ref.ID
	}
	if found := s.External[ref.Name]; len(found) == 1 {
		return found[0]
	}
	return ""
}

// router returns the router ref names, nil when there is none or several.
func (s AuditState) router(ref samplecrdv1.NeutronRef) *NeutronRouter {
	var found []NeutronRouter
	for _, r := range s.Routers {
		if (ref.ID != "" && r.ID == ref.ID) || (ref.ID == "" && r.Name == ref.Name) {
			found = append(found, r)
		}
	}
	if len(found) != 1 {
		return nil
	}
	return &found[0]
}

// auditSharing compares the RBAC policies on an object's one network n with
// spec.sharedWith: one access_as_shared policy per project listed and no other, the
// sharing mark on n while it has any, and, once the object is Ready, status.sharedWith.
func (a *ClusterAudit) auditSharing(key string, o *samplecrdv1.Network, n NeutronNetwork, policies []NeutronRBACPolicy) {
	want := make([]string, 0, len(o.Spec.SharedWith))
	for _, p := range o.Spec.SharedWith {
		want = append(want, string(p))
	}
	byProject := map[string][]NeutronRBACPolicy{}
	var inNeutron []string // project=policy of the policies that share n as the spec says
	for _, p := range policies {
		if p.Action != "access_as_shared" || !slices.Contains(want, p.TargetProject) {
			a.Leaked = append(a.Leaked, fmt.Sprintf("%s: RBAC policy %s (%s for project %s) on network %s, but spec.sharedWith is %v",
				key, p.ID, p.Action, p.TargetProject, n.ID, want))
			continue
		}
		byProject[p.TargetProject] = append(byProject[p.TargetProject], p)
		inNeutron = append(inNeutron, p.TargetProject+"="+p.ID)
	}
	for _, project := range want {
		switch got := byProject[project]; {
		case len(got) == 0:
			a.Missing = append(a.Missing, fmt.Sprintf("%s: network %s is not shared with project %s", key, n.ID, project))
		case len(got) > 1:
			a.Duplicates = append(a.Duplicates, fmt.Sprintf("%s: network %s is shared with project %s by %d RBAC policies %v", key, n.ID, project, len(got), ids(got)))
		}
	}
	switch marked := slices.Contains(n.Tags, neutron.SharingTag); {
	case (len(want) > 0 || len(policies) > 0) && !marked:
		a.Mismatched = append(a.Mismatched, fmt.Sprintf("%s: network %s has %d RBAC policies and spec.sharedWith %v, but lacks the tag %s",
			key, n.ID, len(policies), want, neutron.SharingTag))
	case len(want) == 0 && len(policies) == 0 && marked:
		a.Mismatched = append(a.Mismatched, fmt.Sprintf("%s: network %s still carries the tag %s, though it is shared with no one", key, n.ID, neutron.SharingTag))
	}
	if !o.IsReady() {
		return
	}
	var inStatus []string
	for _, sh := range o.Status.SharedWith {
		inStatus = append(inStatus, sh.ProjectID+"="+sh.RBACPolicyID)
	}
	if !sameSet(inStatus, inNeutron) {
		a.Mismatched = append(a.Mismatched, fmt.Sprintf("%s: status.sharedWith %v, Neutron has %v", key, inStatus, inNeutron))
	}
}

// auditPortSecurity compares an object's one network's port security (got, as Neutron
// reports it) with spec.portSecurityEnabled when set and, once the object is Ready, with
// status.portSecurityEnabled.
func (a *ClusterAudit) auditPortSecurity(key string, o *samplecrdv1.Network, n NeutronNetwork, got *bool) {
	if want := o.Spec.PortSecurityEnabled; want != nil && (got == nil || *got != *want) {
		a.Mismatched = append(a.Mismatched, fmt.Sprintf("%s: network %s has port security %s, spec %v", key, n.ID, boolText(got), *want))
	}
	if o.IsReady() && boolText(o.Status.PortSecurityEnabled) != boolText(got) {
		a.Mismatched = append(a.Mismatched, fmt.Sprintf("%s: status.portSecurityEnabled %s, network %s has %s",
			key, boolText(o.Status.PortSecurityEnabled), n.ID, boolText(got)))
	}
}

// prefixEqual reports whether a and b are the same prefix, however written.
func prefixEqual(a, b string) bool {
	x, errX := netip.ParsePrefix(a)
	y, errY := netip.ParsePrefix(b)
	return errX == nil && errY == nil && x == y
}

func noneIfEmpty(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func boolText(b *bool) string {
	if b == nil {
		return "unset"
	}
	return fmt.Sprint(*b)
}
