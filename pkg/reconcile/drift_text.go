package reconcile

import (
	"fmt"
	"strings"

	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronstore"
)

// DriftText says how observed differs from a settled Network's spec, as changes has it
// (observed's Network non-nil unless it was deleted), or "" when it does not. With
// repair, each finding says what the repair does ("…; restoring mtu from 1400 to
// 1450"), as the NeutronDrift Event of a check under Repair has it; without, it says
// both values and nothing of a repair ("…: mtu is 1400 in Neutron, 1450 in the spec"),
// as the Drifted condition of a check under Report has it.
func DriftText(changes neutron.Changes, observed neutron.Observed, rec neutronstore.Recorded, repair bool) string {
	var drift []string
	add := func(fact, action string, diffs []neutron.Difference) {
		switch {
		case repair && len(diffs) > 0:
			drift = append(drift, fact+"; "+action+" "+neutron.Describe(diffs))
		case repair:
			drift = append(drift, fact+"; "+action)
		case len(diffs) > 0:
			drift = append(drift, fact+": "+heldText(diffs))
		default:
			drift = append(drift, fact)
		}
	}
	if n := len(changes.DeleteNetworks); n > 0 {
		add(fmt.Sprintf("%d Neutron networks belong to this Network", n+1), "deleting all but "+observed.Network.ID, nil)
	}
	if observed.Network == nil {
		add(fmt.Sprintf("Neutron network %s was deleted outside the controller", rec.NetworkID), "recreating it", nil)
		return strings.Join(drift, "; ")
	}
	if observed.Network.ID != rec.NetworkID {
		add(fmt.Sprintf("Neutron network %s was deleted outside the controller", rec.NetworkID), "keeping "+observed.Network.ID, nil)
	}
	if len(changes.NetworkDiffs) > 0 {
		add(fmt.Sprintf("Neutron network %s was changed outside the controller", observed.Network.ID), "restoring", changes.NetworkDiffs)
	} else if changes.RetagNetwork {
		add(fmt.Sprintf("Neutron network %s lost tags of the controller outside it", observed.Network.ID), "restoring them", nil)
	}
	for _, project := range changes.Share {
		add(fmt.Sprintf("Neutron network %s is no longer shared with project %s (its RBAC policy was deleted outside the controller)", observed.Network.ID, project), "sharing it again", nil)
	}
	for _, p := range changes.Unshare {
		add(fmt.Sprintf("Neutron network %s is shared with project %s outside the spec (RBAC policy %s)", observed.Network.ID, p.TargetProject, p.ID), "deleting the policy", nil)
	}
	if n := len(changes.DeleteSubnets); n > 0 {
		add(fmt.Sprintf("%d duplicate Neutron subnets of this Network are on network %s", n, observed.Network.ID), "deleting them", nil)
	}
	if changes.Immutable != "" {
		drift = append(drift, changes.Immutable)
		return strings.Join(drift, "; ")
	}
	for _, ch := range changes.Subnets {
		recorded := rec.Subnets[ch.Want.Item]
		switch {
		case ch.Got == nil:
			add(fmt.Sprintf("Neutron subnet %s%s was deleted outside the controller", orNone(recorded), ofItem(ch.Want.Item)), "recreating it", nil)
		case ch.Got.ID != recorded:
			add(fmt.Sprintf("Neutron subnet %s%s was deleted outside the controller", orNone(recorded), ofItem(ch.Want.Item)), "keeping "+ch.Got.ID, nil)
		}
		if ch.Got != nil && len(ch.Diffs) > 0 {
			add(fmt.Sprintf("Neutron subnet %s was changed outside the controller", ch.Got.ID), "restoring", ch.Diffs)
		}
	}
	for _, s := range changes.RemoveSubnets {
		add(fmt.Sprintf("Neutron subnet %s (%s) is not in the spec", s.ID, s.CIDR), "deleting it", nil)
	}
	rc := changes.Router
	switch {
	case rc.Create:
		add("the Network's router was deleted outside the controller", "making a new one", nil)
	case rc.Gateway != nil && rc.GatewayDiff != nil:
		add(fmt.Sprintf("router %s was changed outside the controller", rc.Target.ID), "restoring", []neutron.Difference{*rc.GatewayDiff})
	case rc.Gateway != nil:
		add(fmt.Sprintf("router %s was changed outside the controller", rc.Target.ID), "restoring its gateway", nil)
	}
	if rc.Target != nil {
		for _, item := range rc.Attach {
			add(fmt.Sprintf("the subnet%s is not attached to router %s (its interface was removed outside the controller)", ofItem(item), rc.Target.ID), "attaching it again", nil)
		}
	}
	for _, i := range rc.Detach {
		add(fmt.Sprintf("subnet %s is attached to router %s outside the spec", i.SubnetID, i.RouterID), "detaching it", nil)
	}
	for _, r := range rc.Delete {
		add(fmt.Sprintf("router %s of this Network is not in the spec", r.ID), "deleting it", nil)
	}
	return strings.Join(drift, "; ")
}

// heldText says each difference with both values, e.g. "mtu is 1400 in Neutron, 1450 in
// the spec".
func heldText(diffs []neutron.Difference) string {
	parts := make([]string, len(diffs))
	for i, d := range diffs {
		parts[i] = fmt.Sprintf("%s is %s in Neutron, %s in the spec", d.Attribute, d.Observed, d.Desired)
	}
	return strings.Join(parts, ", ")
}

func orNone(id string) string {
	if id == "" {
		return "(none recorded)"
	}
	return id
}
