package reconcile_test

import (
	"testing"
	"time"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	. "github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
	neutronfake "github.com/samplecrd/network-controller/pkg/neutron/fake"
)

// repairCases find Neutron other than the last run of the controller left it, or than the
// index says: after a crash between two steps of a create, a create of a deposed leader,
// a reply Neutron never delivered, or a change made in Neutron by hand. Each is repaired
// without creating anything twice.
func repairCases() []syncCase {
	return []syncCase{{
		name:   "crash after POST network, before tagging: found by the fill, tagged, not duplicated",
		object: WithFinalizer(NewNetwork("crashed", "10.4.0.0/24", "")),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			d.PutNetwork(neutron.Network{ID: "left-behind", Name: owner.ResourceName(), Description: neutron.ClusterDescription(owner.ClusterID), CreatedAt: AnHourAgo})
		},
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"tag network", "create subnet"},
		wantEvents: []string{"Normal NetworkAdopted", "Normal SubnetCreated", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, owner neutron.Owner) {
			nets := f.Neutron.Networks()
			if len(nets) != 1 || nets[0].ID != "left-behind" || !owner.HasTags(nets[0].Tags) {
				t.Errorf("networks = %+v, want only left-behind, tagged", nets)
			}
		},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			if got.Status.NetworkID != "left-behind" {
				t.Errorf("status.networkID = %q, want left-behind", got.Status.NetworkID)
			}
		},
	}, {
		name:   "crash after tagging, before the subnet: continued from the index, no lookup",
		object: WithFinalizer(NewNetwork("tagged", "10.4.1.0/24", "")),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			d.PutNetwork(neutron.Network{ID: "tagged-net", Description: neutron.ClusterDescription(owner.ClusterID), Tags: owner.Tags(), CreatedAt: AnHourAgo})
		},
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"create subnet"},
		wantEvents: []string{"Normal SubnetCreated", "Normal Provisioned"},
		wantObject: WantReady("10.4.1.1"),
	}, {
		// Neutron finishes a request whose sender was killed, so a create the last process
		// sent can land after this one's fill. The create sent again is refused as
		// overlapping: no fault of the spec, so it is retried, and the retry finds the subnet.
		name:   "a killed process's subnet create landed after the fill: refused as overlapping, retried, found",
		object: WithFinalizer(NewNetwork("landed", "10.4.7.0/24", "")),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			d.PutNetwork(neutron.Network{ID: "landed-net", Description: neutron.ClusterDescription(owner.ClusterID), Tags: owner.Tags(), CreatedAt: AnHourAgo})
		},
		before: func(f *Fixture) {
			owner := OwnerOf(NewNetwork("landed", "", ""))
			f.Neutron.PutSubnet(neutron.Subnet{ID: "landed-subnet", NetworkID: "landed-net", Name: owner.ResourceName(),
				Description: neutron.ClusterDescription(owner.ClusterID), CIDR: "10.4.7.0/24", IPVersion: 4, GatewayIP: "10.4.7.1",
				AllocationPools: []neutron.Pool{{Start: "10.4.7.2", End: "10.4.7.254"}}, EnableDHCP: true})
		},
		want:  retries,
		retry: succeeds,
		wantFirst: func(t *testing.T, got *samplecrdv1.Network) {
			if c := got.ReadyCondition(); c == nil || c.Reason != samplecrdv1.ReasonNeutronConflict {
				t.Errorf("Ready = %+v, want reason %s (retried), not a rejected spec", c, samplecrdv1.ReasonNeutronConflict)
			}
		},
		wantWrites: []string{writeStatus, writeStatus},
		wantCalls:  []string{"create subnet", "list subnets"},
		wantEvents: []string{"Warning NeutronConflict", "Normal Provisioned"},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			if got.Status.SubnetID != "landed-subnet" {
				t.Errorf("status.subnetID = %q, want landed-subnet", got.Status.SubnetID)
			}
		},
	}, {
		name:   "a deposed leader's create landed after the fill: one lookup by name, adopted",
		object: WithFinalizer(NewNetwork("late", "10.4.6.0/24", "")),
		before: func(f *Fixture) {
			owner := OwnerOf(NewNetwork("late", "", ""))
			f.Neutron.PutNetwork(neutron.Network{ID: "late-net", Name: owner.ResourceName(), Description: neutron.ClusterDescription(owner.ClusterID), CreatedAt: AnHourAgo})
		},
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"list networks", "tag network", "list subnets", "create subnet"},
		wantEvents: []string{"Normal NetworkAdopted", "Normal SubnetCreated", "Normal Provisioned"},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			if got.Status.NetworkID != "late-net" {
				t.Errorf("status.networkID = %q, want late-net", got.Status.NetworkID)
			}
		},
	}, {
		name:       "finalizer on but nothing in Neutron: one lookup by name, then create",
		object:     WithFinalizer(NewNetwork("interrupted", "10.4.2.0/24", "")),
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"list networks", "create network", "tag network", "create subnet"},
		wantEvents: []string{"Normal NetworkCreated", "Normal SubnetCreated", "Normal Provisioned"},
	}, {
		name:   "network deleted in Neutron by hand: looked up, then recreated",
		object: RealizedNetwork("vanished", "10.4.3.0/24", ""),
		want:   succeeds, wantWrites: []string{writeStatus},
		wantCalls:  []string{"list networks", "create network", "tag network", "create subnet"},
		wantEvents: []string{"Normal NetworkCreated", "Normal SubnetCreated"},
	}, {
		name:   "subnet deleted in Neutron by hand: the network's subnets listed, then recreated",
		object: RealizedNetwork("subnetless", "10.4.4.0/24", ""),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			d.PutNetwork(neutron.Network{ID: "net-of-subnetless", Description: neutron.ClusterDescription(owner.ClusterID), Tags: owner.Tags(), CreatedAt: AnHourAgo})
		},
		want: succeeds, wantWrites: []string{writeStatus},
		wantCalls:  []string{"list subnets", "create subnet"},
		wantEvents: []string{"Normal SubnetCreated"},
	}, {
		name:   "two networks of one owner (split brain), one never tagged: the one status names is kept",
		object: RealizedNetwork("doubled", "10.4.5.0/24", ""),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			d.PutNetwork(neutron.Network{ID: "an-older-duplicate", Name: owner.ResourceName(), Description: neutron.ClusterDescription(owner.ClusterID), CreatedAt: AnHourAgo.Add(-time.Hour)})
			PutRealized(d, owner, "10.4.5.0/24", "10.4.5.1")
		},
		want:       succeeds,
		wantCalls:  []string{"delete network"},
		wantEvents: []string{"Warning DuplicateDeleted"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			if nets := f.Neutron.Networks(); len(nets) != 1 || nets[0].ID != "net-of-doubled" {
				t.Errorf("networks = %+v, want only net-of-doubled", nets)
			}
		},
	}, {
		name:       "reply to POST network lost: the retry finds the network by name, nothing created twice",
		object:     NewNetwork("lost-reply", "10.21.0.0/24", ""),
		before:     loseReply(&neutron.Error{Op: "create network", Kind: neutron.KindUnavailable, Code: 502, Message: "Bad Gateway"}),
		want:       retries,
		retry:      succeeds,
		wantWrites: []string{writeFinalizer, writeStatus, writeStatus},
		wantCalls:  []string{"create network", "list networks", "tag network", "list subnets", "create subnet"},
		wantEvents: []string{"Warning NeutronUnavailable", "Normal NetworkAdopted", "Normal SubnetCreated", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			if n := len(f.Neutron.Networks()); n != 1 {
				t.Errorf("Neutron holds %d networks, want 1", n)
			}
		},
		wantObject: WantReady("10.21.0.1"),
	}, {
		// Sent again, the create would be refused as overlapping the subnet that exists.
		name:   "reply to POST subnet lost: the retry lists the network's subnets, not created twice",
		object: NewNetwork("lost-subnet", "10.22.0.0/24", ""),
		before: loseReply(&neutron.Error{Op: "create subnet", Kind: neutron.KindUnavailable, Message: "connection reset by peer"}),
		want:   retries,
		retry:  succeeds,
		wantFirst: func(t *testing.T, got *samplecrdv1.Network) {
			if got.Status.NetworkID == "" {
				t.Error("status.networkID not recorded while the subnet step failed")
			}
		},
		wantWrites: []string{writeFinalizer, writeStatus, writeStatus},
		wantCalls:  []string{"create network", "tag network", "create subnet", "list subnets"},
		wantEvents: []string{"Normal NetworkCreated", "Warning NeutronUnavailable", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			if n := len(f.Neutron.Subnets()); n != 1 {
				t.Errorf("Neutron holds %d subnets, want 1", n)
			}
		},
		wantObject: WantReady("10.22.0.1"),
	}}
}
