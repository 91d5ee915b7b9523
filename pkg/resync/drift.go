package resync

import (
	"fmt"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
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
	return reconcile.DriftText(reconcile.Diff(desired, observed), observed, rec, true)
}
