package resync

import (
	"fmt"
	"strings"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronstore"
	"github.com/samplecrd/network-controller/pkg/reconcile"
)

// reasonNeutronDrift is the Event of a Network whose Neutron side was changed by hand.
const reasonNeutronDrift = "NeutronDrift"

// driftOf says how what store holds differs from a Ready Network's spec and status, or
// "". It asks Neutron nothing: the store was just filled.
func driftOf(network *samplecrdv1.Network, store *neutronstore.Store, clusterID string) string {
	if network.DeletionTimestamp != nil || !network.IsReady() {
		return ""
	}
	desired, err := reconcile.Desired(network)
	if err != nil {
		return ""
	}
	if !reconcile.ResolveCached(store, &desired) {
		// What an attribute names was not looked up since the start: its pass does.
		return ""
	}
	rec := reconcile.Recorded(network)
	observed := store.Cached(reconcile.Owner(network, clusterID), rec)
	if observed.Network != nil && desired.Router != nil {
		known := store.CachedRouters(*observed.Network, desired.Router)
		if desired.Router.Existing != nil && known.Existing == nil && known.Known {
			return fmt.Sprintf("router %s, which spec.router.existing names, is not in the project any more", desired.Router.Existing)
		}
		observed.Routers.Existing, observed.Routers.ExternalNetworkID = known.Existing, known.ExternalNetworkID
		if known.ExternalNetworkID == "" && len(known.Owned) > 0 && known.Owned[0].Gateway != nil {
			// Not looked up since the start: the gateway's network is taken as the one named.
			observed.Routers.ExternalNetworkID = known.Owned[0].Gateway.NetworkID
		}
	}
	changes := reconcile.Diff(desired, observed)

	var drift []string
	add := func(format string, args ...any) { drift = append(drift, fmt.Sprintf(format, args...)) }
	if n := len(changes.DeleteNetworks); n > 0 {
		add("%d Neutron networks belong to this Network; deleting all but %s", n+1, observed.Network.ID)
	}
	if observed.Network == nil {
		add("Neutron network %s was deleted outside the controller; recreating it", rec.NetworkID)
		return strings.Join(drift, "; ")
	}
	if observed.Network.ID != rec.NetworkID {
		add("Neutron network %s was deleted outside the controller; keeping %s", rec.NetworkID, observed.Network.ID)
	}
	if len(changes.NetworkDiffs) > 0 {
		add("Neutron network %s was changed outside the controller; restoring %s", observed.Network.ID, neutron.Describe(changes.NetworkDiffs))
	} else if changes.RetagNetwork {
		add("Neutron network %s lost tags of the controller outside it; restoring them", observed.Network.ID)
	}
	for _, project := range changes.Share {
		add("Neutron network %s is no longer shared with project %s (its RBAC policy was deleted outside the controller); sharing it again", observed.Network.ID, project)
	}
	for _, p := range changes.Unshare {
		add("Neutron network %s is shared with project %s outside the spec (RBAC policy %s); deleting the policy", observed.Network.ID, p.TargetProject, p.ID)
	}
	if n := len(changes.DeleteSubnets); n > 0 {
		add("%d duplicate Neutron subnets of this Network are on network %s; deleting them", n, observed.Network.ID)
	}
	if changes.Immutable != "" {
		add("%s", changes.Immutable)
		return strings.Join(drift, "; ")
	}
	for _, ch := range changes.Subnets {
		recorded := rec.Subnets[ch.Want.Item]
		switch {
		case ch.Got == nil:
			add("Neutron subnet %s%s was deleted outside the controller; recreating it", orNone(recorded), ofItem(ch.Want.Item))
		case ch.Got.ID != recorded:
			add("Neutron subnet %s%s was deleted outside the controller; keeping %s", orNone(recorded), ofItem(ch.Want.Item), ch.Got.ID)
		}
		if len(ch.Diffs) > 0 {
			add("Neutron subnet %s was changed outside the controller; restoring %s", ch.Got.ID, neutron.Describe(ch.Diffs))
		}
	}
	for _, s := range changes.RemoveSubnets {
		add("Neutron subnet %s (%s) is not in the spec; deleting it", s.ID, s.CIDR)
	}
	drift = append(drift, routerDrift(changes.Router)...)
	return strings.Join(drift, "; ")
}

func ofItem(item string) string {
	if item == "" {
		return ""
	}
	return " of item " + item
}

func orNone(id string) string {
	if id == "" {
		return "(none recorded)"
	}
	return id
}

// routerDrift says how the router side differs from a Ready Network's spec.
func routerDrift(rc neutron.RouterChanges) []string {
	var drift []string
	switch {
	case rc.Create:
		drift = append(drift, "the Network's router was deleted outside the controller; making a new one")
	case rc.Gateway != nil:
		drift = append(drift, fmt.Sprintf("router %s was changed outside the controller; restoring %s", rc.Target.ID, rc.GatewayDiff))
	}
	if rc.Target != nil {
		for _, item := range rc.Attach {
			drift = append(drift, fmt.Sprintf("the subnet%s is not attached to router %s (its interface was removed outside the controller); attaching it again", ofItem(item), rc.Target.ID))
		}
	}
	for _, i := range rc.Detach {
		drift = append(drift, fmt.Sprintf("subnet %s is attached to router %s outside the spec; detaching it", i.SubnetID, i.RouterID))
	}
	for _, r := range rc.Delete {
		drift = append(drift, fmt.Sprintf("router %s of this Network is not in the spec; deleting it", r.ID))
	}
	return drift
}
