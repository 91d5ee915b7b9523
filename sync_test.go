package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	core "k8s.io/client-go/testing"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
	neutronfake "github.com/samplecrd/network-controller/pkg/neutron/fake"
	"github.com/samplecrd/network-controller/pkg/subnetplan"
)

// Expected outcomes of one syncHandler call.
const (
	succeeds  = "succeeds"  // nil error: done
	stops     = "stops"     // a terminalError: in status already, waiting for a spec change
	retries   = "retries"   // a reportedError: in status already, retried with backoff
	conflicts = "conflicts" // an API write conflict, retried quietly
)

// syncCase is one call of syncHandler: the object in the informer cache and the API, what
// Neutron holds when the controller starts leading (the index is filled from it), and
// exactly which API writes, Neutron calls and Events the call makes. An extra write or
// call fails the case.
type syncCase struct {
	name    string
	object  *samplecrdv1.Network
	neutron func(d *neutronfake.Driver, owner neutron.Owner)
	// before runs after the index is filled: failures to inject, reactors to add.
	before func(f *fixture)

	want        string
	wantWrites  []string // "update networks" (finalizer), "update networks/status"
	wantCalls   []string
	wantEvents  []string // "Type Reason"
	wantNeutron func(t *testing.T, f *fixture, owner neutron.Owner)
	wantObject  func(t *testing.T, got *samplecrdv1.Network)
}

const (
	writeFinalizer = "update networks"
	writeStatus    = "update networks/status"
)

func TestSyncHandler(t *testing.T) {
	old := time.Now().Add(-time.Hour)
	inUse := &neutron.Error{Op: "delete network", Kind: neutron.KindInUse, Code: 409, Type: "NetworkInUse",
		Message: "Unable to complete operation on network. There are one or more ports still in use on the network."}
	unavailable := &neutron.Error{Op: "create network", Kind: neutron.KindUnavailable, Message: "connection refused"}

	cases := []syncCase{{
		name:       "new Network: finalizer, POST network, PUT tags, POST subnet, one status write",
		object:     newNetwork("fresh", "192.168.0.0/16", "192.168.0.1"),
		want:       succeeds,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantCalls:  []string{"create network", "tag network", "create subnet"},
		wantEvents: []string{"Normal NetworkCreated", "Normal SubnetCreated", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *fixture, owner neutron.Owner) {
			nets, subnets := f.neutron.Networks(), f.neutron.Subnets()
			if len(nets) != 1 || len(subnets) != 1 {
				t.Fatalf("Neutron holds %d networks and %d subnets, want 1 and 1", len(nets), len(subnets))
			}
			if !owner.HasTags(nets[0].Tags) || nets[0].Description != neutron.ClusterDescription(owner.ClusterID) || nets[0].Name != "k8s_default_fresh_"+owner.UID {
				t.Errorf("network marks: name %q, description %q, tags %v", nets[0].Name, nets[0].Description, nets[0].Tags)
			}
			s := subnets[0]
			if s.Description != neutron.ClusterDescription(testClusterID) || s.CIDR != "192.168.0.0/16" || s.GatewayIP != "192.168.0.1" || s.IPVersion != 4 {
				t.Errorf("subnet = %+v", s)
			}
			if want := []neutron.Pool{{Start: "192.168.0.2", End: "192.168.255.254"}}; !slices.Equal(s.AllocationPools, want) {
				t.Errorf("pools = %v, want %v", s.AllocationPools, want)
			}
		},
		wantObject: wantReady("192.168.0.1"),
	}, {
		name:   "Ready Network in step with Neutron: nothing at all",
		object: realizedNetwork("steady", "10.1.0.0/24", ""),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			putRealized(d, owner, "10.1.0.0/24", "10.1.0.1")
		},
		want: succeeds,
	}, {
		name:   "gateway changed in spec: one PUT with gateway and pools",
		object: withGeneration(realizedNetwork("gw", "192.168.0.0/16", "192.168.100.1"), 2),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			putRealized(d, owner, "192.168.0.0/16", "192.168.0.1")
		},
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"update subnet"},
		wantEvents: []string{"Normal GatewayUpdated", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *fixture, _ neutron.Owner) {
			s := f.neutron.Subnets()
			want := []neutron.Pool{{Start: "192.168.0.1", End: "192.168.100.0"}, {Start: "192.168.100.2", End: "192.168.255.254"}}
			if len(s) != 1 || s[0].ID != "subnet-of-gw" || s[0].GatewayIP != "192.168.100.1" || !slices.Equal(s[0].AllocationPools, want) {
				t.Errorf("subnets = %+v, want subnet-of-gw updated in place to 192.168.100.1 with pools %v", s, want)
			}
		},
		wantObject: wantReady("192.168.100.1"),
	}, {
		name:       "Neutron unreachable: condition, Event, retry",
		object:     newNetwork("flaky", "10.2.0.0/24", ""),
		before:     func(f *fixture) { f.neutron.FailWith("create network", unavailable) },
		want:       retries,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantCalls:  []string{"create network"},
		wantEvents: []string{"Warning NeutronUnavailable"},
		wantObject: wantNotReady(samplecrdv1.ReasonNeutronUnavailable, "connection refused"),
	}, {
		name:   "subnet rejected by Neutron: terminal, status keeps the network",
		object: newNetwork("rejected", "10.3.0.0/24", ""),
		before: func(f *fixture) {
			f.neutron.FailWith("create subnet", &neutron.Error{Op: "create subnet", Kind: neutron.KindRejected, Code: 400, Message: "Invalid input"})
		},
		want:       stops,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantCalls:  []string{"create network", "tag network", "create subnet"},
		wantEvents: []string{"Normal NetworkCreated", "Warning InvalidSpec"},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			wantNotReady(samplecrdv1.ReasonInvalidSpec, "Invalid input")(t, got)
			if got.Status.NetworkID == "" {
				t.Error("status.networkID not recorded although the network exists")
			}
		},
	}, {
		name:       "spec the controller cannot plan: terminal, no Neutron call",
		object:     newNetwork("bad", "10.0.0.1/24", ""),
		want:       stops,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantEvents: []string{"Warning InvalidSpec"},
		wantObject: wantNotReady(samplecrdv1.ReasonInvalidSpec, "10.0.0.1/24"),
	}, {
		name:   "crash after POST network, before tagging: found by the fill, tagged, not duplicated",
		object: withFinalizer(newNetwork("crashed", "10.4.0.0/24", "")),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			d.PutNetwork(neutron.Network{ID: "left-behind", Name: owner.ResourceName(), Description: neutron.ClusterDescription(owner.ClusterID), CreatedAt: old})
		},
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"tag network", "create subnet"},
		wantEvents: []string{"Normal NetworkAdopted", "Normal SubnetCreated", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *fixture, owner neutron.Owner) {
			nets := f.neutron.Networks()
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
		object: withFinalizer(newNetwork("tagged", "10.4.1.0/24", "")),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			d.PutNetwork(neutron.Network{ID: "tagged-net", Description: neutron.ClusterDescription(owner.ClusterID), Tags: owner.Tags(), CreatedAt: old})
		},
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"create subnet"},
		wantEvents: []string{"Normal SubnetCreated", "Normal Provisioned"},
		wantObject: wantReady("10.4.1.1"),
	}, {
		name:   "a deposed leader's create landed after the fill: one lookup by name, adopted",
		object: withFinalizer(newNetwork("late", "10.4.6.0/24", "")),
		before: func(f *fixture) {
			owner := ownerOf(newNetwork("late", "", ""))
			f.neutron.PutNetwork(neutron.Network{ID: "late-net", Name: owner.ResourceName(), Description: neutron.ClusterDescription(owner.ClusterID), CreatedAt: old})
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
		object:     withFinalizer(newNetwork("interrupted", "10.4.2.0/24", "")),
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"list networks", "create network", "tag network", "create subnet"},
		wantEvents: []string{"Normal NetworkCreated", "Normal SubnetCreated", "Normal Provisioned"},
	}, {
		name:   "network deleted in Neutron by hand: looked up, then recreated",
		object: realizedNetwork("vanished", "10.4.3.0/24", ""),
		want:   succeeds, wantWrites: []string{writeStatus},
		wantCalls:  []string{"list networks", "create network", "tag network", "create subnet"},
		wantEvents: []string{"Normal NetworkCreated", "Normal SubnetCreated"},
	}, {
		name:   "subnet deleted in Neutron by hand: the network's subnets listed, then recreated",
		object: realizedNetwork("subnetless", "10.4.4.0/24", ""),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			d.PutNetwork(neutron.Network{ID: "net-of-subnetless", Description: neutron.ClusterDescription(owner.ClusterID), Tags: owner.Tags(), CreatedAt: old})
		},
		want: succeeds, wantWrites: []string{writeStatus},
		wantCalls:  []string{"list subnets", "create subnet"},
		wantEvents: []string{"Normal SubnetCreated"},
	}, {
		name:   "two networks of one owner (split brain), one never tagged: the one status names is kept",
		object: realizedNetwork("doubled", "10.4.5.0/24", ""),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			d.PutNetwork(neutron.Network{ID: "an-older-duplicate", Name: owner.ResourceName(), Description: neutron.ClusterDescription(owner.ClusterID), CreatedAt: old.Add(-time.Hour)})
			putRealized(d, owner, "10.4.5.0/24", "10.4.5.1")
		},
		want:       succeeds,
		wantCalls:  []string{"delete network"},
		wantEvents: []string{"Warning DuplicateDeleted"},
		wantNeutron: func(t *testing.T, f *fixture, _ neutron.Owner) {
			if nets := f.neutron.Networks(); len(nets) != 1 || nets[0].ID != "net-of-doubled" {
				t.Errorf("networks = %+v, want only net-of-doubled", nets)
			}
		},
	}, {
		name:   "deletion: one DELETE of the network, then the finalizer",
		object: deleting(realizedNetwork("doomed", "10.5.0.0/24", "")),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			putRealized(d, owner, "10.5.0.0/24", "10.5.0.1")
		},
		want:       succeeds,
		wantWrites: []string{writeFinalizer},
		wantCalls:  []string{"delete network"},
		wantEvents: []string{"Normal NeutronDeleted"},
		wantNeutron: func(t *testing.T, f *fixture, _ neutron.Owner) {
			if n, s := len(f.neutron.Networks()), len(f.neutron.Subnets()); n != 0 || s != 0 {
				t.Errorf("Neutron still holds %d networks and %d subnets", n, s)
			}
		},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			if slices.Contains(got.Finalizers, samplecrdv1.FinalizerName) {
				t.Error("finalizer still present after the Neutron side is gone")
			}
		},
	}, {
		name:   "deletion while ports use the network: SubnetInUse, finalizer kept, retried",
		object: deleting(realizedNetwork("busy", "10.6.0.0/24", "")),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			putRealized(d, owner, "10.6.0.0/24", "10.6.0.1")
		},
		before:     func(f *fixture) { f.neutron.FailWith("delete network", inUse) },
		want:       retries,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"delete network"},
		wantEvents: []string{"Warning SubnetInUse"},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			wantNotReady(samplecrdv1.ReasonSubnetInUse, "ports")(t, got)
			if !slices.Contains(got.Finalizers, samplecrdv1.FinalizerName) {
				t.Error("finalizer removed although the network could not be deleted")
			}
		},
	}, {
		name:   "deletion without status: the network found in the index",
		object: deleting(withFinalizer(newNetwork("nostatus", "10.7.0.0/24", ""))),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			d.PutNetwork(neutron.Network{ID: "n1", Name: owner.ResourceName(), Description: neutron.ClusterDescription(owner.ClusterID), Tags: owner.Tags(), CreatedAt: old})
			d.PutSubnet(neutron.Subnet{ID: "s1", NetworkID: "n1", Description: neutron.ClusterDescription(owner.ClusterID)})
		},
		want:       succeeds,
		wantWrites: []string{writeFinalizer},
		wantCalls:  []string{"delete network"},
		wantEvents: []string{"Normal NeutronDeleted"},
	}, {
		name:   "deletion of a Network whose create landed after the fill: one lookup by name",
		object: deleting(withFinalizer(newNetwork("untagged", "10.7.1.0/24", ""))),
		before: func(f *fixture) {
			owner := ownerOf(newNetwork("untagged", "", ""))
			f.neutron.PutNetwork(neutron.Network{ID: "n2", Name: owner.ResourceName(), Description: neutron.ClusterDescription(owner.ClusterID), CreatedAt: old})
		},
		want:       succeeds,
		wantWrites: []string{writeFinalizer},
		wantCalls:  []string{"list networks", "delete network"},
		wantEvents: []string{"Normal NeutronDeleted"},
		wantNeutron: func(t *testing.T, f *fixture, _ neutron.Owner) {
			if n := len(f.neutron.Networks()); n != 0 {
				t.Errorf("%d networks left", n)
			}
		},
	}, {
		name:   "finalizer write conflicts: no Neutron call",
		object: newNetwork("conflicted", "10.10.0.0/24", ""),
		before: func(f *fixture) {
			f.client.PrependReactor("update", "networks", func(core.Action) (bool, runtime.Object, error) {
				return true, nil, apierrors.NewConflict(samplecrdv1.Resource("networks"), "conflicted", errors.New("the object has been modified"))
			})
		},
		want:       conflicts,
		wantWrites: []string{writeFinalizer},
	}, {
		name:       "longest valid name and namespace: Neutron fields within 255 characters",
		object:     newNetworkIn(strings.Repeat("n", 63), strings.Repeat("a", 253), "10.11.0.0/24"),
		want:       succeeds,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantCalls:  []string{"create network", "tag network", "create subnet"},
		wantEvents: []string{"Normal NetworkCreated", "Normal SubnetCreated", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *fixture, _ neutron.Owner) {
			for _, n := range f.neutron.Networks() {
				if len(n.Name) > neutron.MaxFieldLength || len(n.Description) > neutron.MaxFieldLength {
					t.Errorf("network name %d and description %d characters, want at most %d", len(n.Name), len(n.Description), neutron.MaxFieldLength)
				}
			}
		},
	}}

	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, tc.object)
			owner := ownerOf(tc.object)
			if tc.neutron != nil {
				tc.neutron(f.neutron, owner)
			}
			f.startLeading()
			if tc.before != nil {
				tc.before(f)
			}

			err := f.sync(tc.object)

			checkOutcome(t, tc.want, err)
			if got := f.writes(); !slices.Equal(got, tc.wantWrites) {
				t.Errorf("API writes = %q, want %q", got, tc.wantWrites)
			}
			if got := f.neutron.Calls(); !slices.Equal(got, tc.wantCalls) {
				t.Errorf("Neutron calls = %q, want %q", got, tc.wantCalls)
			}
			if got := eventKinds(f.events()); !slices.Equal(got, tc.wantEvents) {
				t.Errorf("Events = %q, want %q", got, tc.wantEvents)
			}
			if tc.wantNeutron != nil {
				tc.wantNeutron(t, f, owner)
			}
			if tc.wantObject != nil {
				got, err := f.client.SamplecrdV1().Networks(tc.object.Namespace).Get(f.ctx, tc.object.Name, metav1.GetOptions{})
				if err != nil {
					t.Fatalf("reading the Network back: %v", err)
				}
				tc.wantObject(t, got)
			}
		})
	}
}

func checkOutcome(t *testing.T, want string, err error) {
	t.Helper()
	var (
		reported *reportedError
		terminal *terminalError
	)
	switch {
	case want == succeeds && err != nil:
		t.Errorf("sync error = %v, want nil", err)
	case want == stops && !errors.As(err, &terminal):
		t.Errorf("sync error = %v, want a terminal error", err)
	case want == stops && terminal.reason != samplecrdv1.ReasonInvalidSpec:
		t.Errorf("terminal error reason = %q, want %q", terminal.reason, samplecrdv1.ReasonInvalidSpec)
	case want == retries && !errors.As(err, &reported):
		t.Errorf("sync error = %v, want a reported, retryable error", err)
	case want == conflicts && !apierrors.IsConflict(err):
		t.Errorf("sync error = %v, want a write conflict", err)
	}
}

// realizedNetwork is a Network whose status says it is Ready with the Neutron resources
// putRealized makes.
func realizedNetwork(name, cidr, gateway string) *samplecrdv1.Network {
	n := withFinalizer(newNetwork(name, cidr, gateway))
	plan, err := subnetplan.Plan(cidr, "")
	if err != nil {
		panic(err)
	}
	n.Status = samplecrdv1.NetworkStatus{
		ObservedGeneration: 1, NetworkID: "net-of-" + name, SubnetID: "subnet-of-" + name, Gateway: plan.Gateway.String(),
	}
	setReady(&n.Status, 1, metav1.ConditionTrue, samplecrdv1.ReasonProvisioned,
		fmt.Sprintf("Neutron network %s with subnet %s (%s, gateway %s)", n.Status.NetworkID, n.Status.SubnetID, cidr, plan.Gateway))
	return n
}

// putRealized stores the network and subnet that realizedNetwork's status names.
func putRealized(d *neutronfake.Driver, owner neutron.Owner, cidr, gateway string) {
	netID := "net-of-" + owner.Name
	d.PutNetwork(neutron.Network{ID: netID, Name: owner.ResourceName(), Description: neutron.ClusterDescription(owner.ClusterID), Tags: owner.Tags()})
	d.PutSubnet(neutron.Subnet{ID: "subnet-of-" + owner.Name, NetworkID: netID, Name: owner.ResourceName(),
		Description: neutron.ClusterDescription(owner.ClusterID), CIDR: cidr, IPVersion: 4, GatewayIP: gateway})
}

func withFinalizer(n *samplecrdv1.Network) *samplecrdv1.Network {
	n.Finalizers = []string{samplecrdv1.FinalizerName}
	return n
}

func withGeneration(n *samplecrdv1.Network, generation int64) *samplecrdv1.Network {
	n.Generation = generation
	return n
}

func deleting(n *samplecrdv1.Network) *samplecrdv1.Network {
	now := metav1.Now()
	n.DeletionTimestamp = &now
	return n
}

func wantReady(gateway string) func(*testing.T, *samplecrdv1.Network) {
	return func(t *testing.T, got *samplecrdv1.Network) {
		t.Helper()
		c := readyCondition(t, got)
		if c.Status != metav1.ConditionTrue || c.Reason != samplecrdv1.ReasonProvisioned || c.ObservedGeneration != got.Generation {
			t.Errorf("Ready = %s/%s for generation %d, want True/Provisioned for %d", c.Status, c.Reason, c.ObservedGeneration, got.Generation)
		}
		if got.Status.NetworkID == "" || got.Status.SubnetID == "" || got.Status.Gateway != gateway || got.Status.ObservedGeneration != got.Generation {
			t.Errorf("status = %+v, want both IDs, gateway %s, observedGeneration %d", got.Status, gateway, got.Generation)
		}
	}
}

func wantNotReady(reason, inMessage string) func(*testing.T, *samplecrdv1.Network) {
	return func(t *testing.T, got *samplecrdv1.Network) {
		t.Helper()
		c := readyCondition(t, got)
		if c.Status != metav1.ConditionFalse || c.Reason != reason || !strings.Contains(c.Message, inMessage) {
			t.Errorf("Ready = %s/%s %q, want False/%s mentioning %q", c.Status, c.Reason, c.Message, reason, inMessage)
		}
	}
}

// eventKinds reduces recorded Events ("Type Reason message") to "Type Reason".
func eventKinds(events []string) []string {
	var out []string
	for _, e := range events {
		fields := strings.Fields(e)
		if len(fields) >= 2 {
			out = append(out, fields[0]+" "+fields[1])
		}
	}
	return out
}
