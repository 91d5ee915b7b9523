package resync

import (
	"context"

	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials"
	"github.com/samplecrd/network-controller/pkg/metrics"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronstore"
)

// countAddresses counts the addresses of the list form's subnets, with one list of ports
// per project that has such Networks; projects without them cost nothing.
func (s *Resyncer) countAddresses(ctx context.Context, filled []credentials.Project, stale map[neutron.Place]bool, objects []*samplecrdv1.Network) {
	networkIDs := map[neutron.Place][]string{}
	for _, network := range objects {
		if len(network.Spec.Subnets) == 0 || network.Status.NetworkID == "" || network.DeletionTimestamp != nil {
			continue
		}
		_, place, resolved := s.cfg.Tenants.CachedFor(cache.MetaObjectToName(network), network.Spec.CloudCredentialsRef == nil)
		if resolved && !stale[place] && credentials.PinnedTo(network, place, s.cfg.Tenants.OwnPlace()) {
			networkIDs[place] = append(networkIDs[place], network.Status.NetworkID)
		}
	}
	for _, p := range filled {
		if err := p.Store.CountAddresses(ctx, networkIDs[p.Place]); err != nil {
			klog.FromContext(ctx).Info("Could not count the addresses of a project's subnets", "place", p.Place.String(), "err", err)
		}
	}
}

// addressesChanged reports whether the last count differs from what the Network's status
// says of its subnets: its worker writes the new counts (the resync writes no status).
func addressesChanged(network *samplecrdv1.Network, store *neutronstore.Store) bool {
	if store == nil || !network.IsReady() {
		return false
	}
	for _, item := range network.Status.Subnets {
		a, ok := store.AddressesOf(item.SubnetID)
		if ok && (item.Addresses == nil || item.Addresses.Used != a.Used || item.Addresses.Total != a.Total) {
			return true
		}
	}
	return false
}

// subnetUse lists the subnets of every Network's list form as its status counts them.
func (s *Resyncer) subnetUse() []metrics.SubnetUse {
	var out []metrics.SubnetUse
	for _, obj := range s.cfg.Networks.List() {
		network, ok := obj.(*samplecrdv1.Network)
		if !ok {
			continue
		}
		for _, item := range network.Status.Subnets {
			if item.Addresses != nil {
				out = append(out, metrics.SubnetUse{Namespace: network.Namespace, Network: network.Name, Subnet: item.Name,
					Used: item.Addresses.Used, Total: item.Addresses.Total})
			}
		}
	}
	return out
}
