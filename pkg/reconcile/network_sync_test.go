package reconcile_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	. "github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
	neutronfake "github.com/samplecrd/network-controller/pkg/neutron/fake"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	core "k8s.io/client-go/testing"
)

// specCases realize a spec, or change Neutron to a changed spec, or fail to.
func specCases() []syncCase {
	return []syncCase{{
		name:       "new Network: finalizer, Reconciling, POST network, PUT tags, POST subnet, Ready",
		object:     NewNetwork("fresh", "192.168.0.0/16", "192.168.0.1"),
		want:       succeeds,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantCalls:  []string{"create network", "tag network", "create subnet"},
		wantEvents: []string{"Normal NetworkCreated", "Normal SubnetCreated", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, owner neutron.Owner) {
			nets, subnets := f.Neutron.Networks(), f.Neutron.Subnets()
			if len(nets) != 1 || len(subnets) != 1 {
				t.Fatalf("Neutron holds %d networks and %d subnets, want 1 and 1", len(nets), len(subnets))
			}
			if !owner.HasTags(nets[0].Tags) || nets[0].Description != neutron.ClusterDescription(owner.ClusterID) || nets[0].Name != "k8s_default_fresh_"+owner.UID {
				t.Errorf("network marks: name %q, description %q, tags %v", nets[0].Name, nets[0].Description, nets[0].Tags)
			}
			s := subnets[0]
			if s.Description != neutron.ClusterDescription(ClusterID) || s.CIDR != "192.168.0.0/16" || s.GatewayIP != "192.168.0.1" || s.IPVersion != 4 {
				t.Errorf("subnet = %+v", s)
			}
			if want := []neutron.Pool{{Start: "192.168.0.2", End: "192.168.255.254"}}; !slices.Equal(s.AllocationPools, want) {
				t.Errorf("pools = %v, want %v", s.AllocationPools, want)
			}
		},
		wantObject: WantReady("192.168.0.1"),
	}, {
		name:   "Ready Network in step with Neutron: nothing at all",
		object: RealizedNetwork("steady", "10.1.0.0/24", ""),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			PutRealized(d, owner, "10.1.0.0/24", "10.1.0.1")
		},
		want: succeeds,
	}, {
		name:   "gateway changed in spec: one PUT with gateway and pools",
		object: WithGeneration(RealizedNetwork("gw", "192.168.0.0/16", "192.168.100.1"), 2),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			PutRealized(d, owner, "192.168.0.0/16", "192.168.0.1")
		},
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"update subnet"},
		wantEvents: []string{"Normal GatewayUpdated", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			s := f.Neutron.Subnets()
			want := []neutron.Pool{{Start: "192.168.0.1", End: "192.168.100.0"}, {Start: "192.168.100.2", End: "192.168.255.254"}}
			if len(s) != 1 || s[0].ID != "subnet-of-gw" || s[0].GatewayIP != "192.168.100.1" || !slices.Equal(s[0].AllocationPools, want) {
				t.Errorf("subnets = %+v, want subnet-of-gw updated in place to 192.168.100.1 with pools %v", s, want)
			}
		},
		wantObject: WantReady("192.168.100.1"),
	}, {
		name:        "new Network with an MTU: created with it, status shows it",
		object:      withMTU(NewNetwork("jumbo", "10.12.0.0/24", ""), 1400),
		want:        succeeds,
		wantWrites:  []string{writeFinalizer, writeStatus},
		wantCalls:   []string{"create network", "tag network", "create subnet"},
		wantEvents:  []string{"Normal NetworkCreated", "Normal SubnetCreated", "Normal Provisioned"},
		wantNeutron: wantNetworkMTU("", 1400),
		wantObject:  wantReadyWithMTU("10.12.0.1", 1400),
	}, {
		name:   "MTU changed in spec: one PUT of the network, same ID",
		object: WithGeneration(withMTU(RealizedNetwork("resized", "10.13.0.0/24", ""), 1300), 2),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			PutRealized(d, owner, "10.13.0.0/24", "10.13.0.1")
			n := d.Networks()[0]
			n.MTU = 1500
			d.PutNetwork(n)
		},
		want:        succeeds,
		wantWrites:  []string{writeStatus},
		wantCalls:   []string{"update network"},
		wantEvents:  []string{"Normal NetworkUpdated", "Normal Provisioned"},
		wantNeutron: wantNetworkMTU("net-of-resized", 1300),
		wantObject:  wantReadyWithMTU("10.13.0.1", 1300),
	}, {
		name:   "MTU Neutron refuses: terminal, with Neutron's reason",
		object: withMTU(NewNetwork("too-big", "10.14.0.0/24", ""), 9000),
		before: failWith(&neutron.Error{Op: "create network", Kind: neutron.KindRejected, Code: 400, Type: "InvalidInput",
			Message: "Invalid input for operation: Requested MTU is too big, maximum is 1450."}),
		want:       stops,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantCalls:  []string{"create network"},
		wantEvents: []string{"Warning InvalidSpec"},
		wantObject: WantNotReady(samplecrdv1.ReasonInvalidSpec, "Requested MTU is too big, maximum is 1450"),
	}, {
		name:       "Neutron unreachable: condition, Event, retry",
		object:     NewNetwork("flaky", "10.2.0.0/24", ""),
		before:     failWith(&neutron.Error{Op: "create network", Kind: neutron.KindUnavailable, Message: "connection refused"}),
		want:       retries,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantCalls:  []string{"create network"},
		wantEvents: []string{"Warning NeutronUnavailable"},
		wantObject: WantNotReady(samplecrdv1.ReasonNeutronUnavailable, "connection refused"),
	}, {
		name:       "subnet rejected by Neutron: terminal, status keeps the network",
		object:     NewNetwork("rejected", "10.3.0.0/24", ""),
		before:     failWith(&neutron.Error{Op: "create subnet", Kind: neutron.KindRejected, Code: 400, Message: "Invalid input"}),
		want:       stops,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantCalls:  []string{"create network", "tag network", "create subnet"},
		wantEvents: []string{"Normal NetworkCreated", "Warning InvalidSpec"},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			WantNotReady(samplecrdv1.ReasonInvalidSpec, "Invalid input")(t, got)
			if got.Status.NetworkID == "" {
				t.Error("status.networkID not recorded although the network exists")
			}
		},
	}, {
		name:       "spec the controller cannot plan: terminal, no Neutron call",
		object:     NewNetwork("bad", "10.0.0.1/24", ""),
		want:       stops,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantEvents: []string{"Warning InvalidSpec"},
		wantObject: WantNotReady(samplecrdv1.ReasonInvalidSpec, "10.0.0.1/24"),
	}, {
		name:   "finalizer write conflicts: no Neutron call",
		object: NewNetwork("conflicted", "10.10.0.0/24", ""),
		before: func(f *Fixture) {
			f.Client.PrependReactor("patch", "networks", func(core.Action) (bool, runtime.Object, error) {
				return true, nil, apierrors.NewConflict(samplecrdv1.Resource("networks"), "conflicted", errors.New("the object has been modified"))
			})
		},
		want:       conflicts,
		wantWrites: []string{writeFinalizer},
	}, {
		// The one status write of the create's pass conflicts (the cache behind a write of
		// someone else's): the retry from the newer object finds all made and writes Ready.
		name:   "Ready write conflicts (the cache behind another write): the retry writes it, nothing made twice",
		object: NewNetwork("behind", "10.10.1.0/24", ""),
		before: func(f *Fixture) {
			conflicted := false
			f.Client.PrependReactor("update", "networks", func(a core.Action) (bool, runtime.Object, error) {
				if a.GetSubresource() != "status" || conflicted {
					return false, nil, nil
				}
				conflicted = true
				return true, nil, apierrors.NewConflict(samplecrdv1.Resource("networks"), "behind", errors.New("the object has been modified"))
			})
		},
		want:       conflicts,
		retry:      succeeds,
		wantWrites: []string{writeFinalizer, writeStatus, writeStatus},
		wantCalls:  []string{"create network", "tag network", "create subnet"},
		wantEvents: []string{"Normal NetworkCreated", "Normal SubnetCreated", "Normal Provisioned"},
		wantObject: WantReady("10.10.1.1"),
	}, {
		name:       "longest valid name and namespace: Neutron fields within 255 characters",
		object:     NewNetworkIn(strings.Repeat("n", 63), strings.Repeat("a", 253), "10.11.0.0/24"),
		want:       succeeds,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantCalls:  []string{"create network", "tag network", "create subnet"},
		wantEvents: []string{"Normal NetworkCreated", "Normal SubnetCreated", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			for _, n := range f.Neutron.Networks() {
				if len(n.Name) > neutron.MaxFieldLength || len(n.Description) > neutron.MaxFieldLength {
					t.Errorf("network name %d and description %d characters, want at most %d", len(n.Name), len(n.Description), neutron.MaxFieldLength)
				}
			}
		},
	}}
}

func withMTU(n *samplecrdv1.Network, mtu int32) *samplecrdv1.Network {
	n.Spec.MTU = &mtu
	return n
}

// wantNetworkMTU checks that Neutron holds one network, with id when id is not empty, whose
// MTU is mtu.
func wantNetworkMTU(id string, mtu int) func(*testing.T, *Fixture, neutron.Owner) {
	return func(t *testing.T, f *Fixture, _ neutron.Owner) {
		t.Helper()
		if nets := f.Neutron.Networks(); len(nets) != 1 || (id != "" && nets[0].ID != id) || nets[0].MTU != mtu {
			t.Errorf("networks = %+v, want one network %s with MTU %d", nets, id, mtu)
		}
	}
}

func wantReadyWithMTU(gateway string, mtu int32) func(*testing.T, *samplecrdv1.Network) {
	return func(t *testing.T, got *samplecrdv1.Network) {
		t.Helper()
		WantReady(gateway)(t, got)
		if got.Status.MTU != mtu {
			t.Errorf("status.mtu = %d, want %d", got.Status.MTU, mtu)
		}
	}
}
