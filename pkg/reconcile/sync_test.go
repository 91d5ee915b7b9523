package reconcile_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	core "k8s.io/client-go/testing"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	. "github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
	neutronfake "github.com/samplecrd/network-controller/pkg/neutron/fake"
	"github.com/samplecrd/network-controller/pkg/reconcile"
)

// networktest builds a Reconciler, so the tests built on it are an external test package,
// which imports it with a dot (the case Go's style guide allows) to read as its Networks.

// Expected outcomes of one Sync.
const (
	succeeds  = "succeeds"  // nil error: done
	stops     = "stops"     // a Failure recorded in status, terminal: waits for a change
	retries   = "retries"   // a Failure recorded in status, not terminal: retried with backoff
	conflicts = "conflicts" // an API write conflict, retried quietly
)

// syncCase is one Sync, or one and its retry: the object in the informer
// cache and the API, what Neutron holds when the controller starts leading (the index is
// filled from it), and exactly which API writes, Neutron calls and Events the calls make.
// An extra write or call fails the case.
type syncCase struct {
	name    string
	object  *samplecrdv1.Network
	neutron func(d *neutronfake.Driver, owner neutron.Owner)
	// before runs after the index is filled: failures to inject, reactors to add.
	before func(f *Fixture)

	want string
	// retry, when set, is the outcome of a second sync, of the object as the first left it
	// in the API: the retry the workqueue makes after a failure. wantFirst checks that
	// object. The wants below count both syncs together.
	retry     string
	wantFirst func(t *testing.T, got *samplecrdv1.Network)

	wantWrites  []string // "patch networks" (finalizer), "update networks/status"
	wantCalls   []string
	wantEvents  []string // "Type Reason"
	wantNeutron func(t *testing.T, f *Fixture, owner neutron.Owner)
	wantObject  func(t *testing.T, got *samplecrdv1.Network)
}

const (
	writeFinalizer = "patch networks"
	writeStatus    = "update networks/status"
)

// TestSync runs the cases of a Network's life (specCases, deletionCases), of the repairs
// after a crash, a lost reply or a change made in Neutron by hand (repairCases), of
// credentials (tenancyCases, delegationCases), of the subnets (subnetOptionCases,
// subnetPoolCases, subnetListCases), of the deletion policy (retentionCases), of imports
// (importCases), of sharing (sharingCases), of routers (routerCases, routerFenceCases) and
// of the powers granted (grantCases) and their withdrawal (enforcementCases).
func TestSync(t *testing.T) {
	cases := slices.Concat(specCases(), deletionCases(), repairCases(), tenancyCases(), subnetOptionCases(), subnetPoolCases(), subnetListCases(),
		retentionCases(), importCases(), sharingCases(), routerCases(), routerFenceCases(), grantCases(), enforcementCases(), delegationCases(), pauseCases())
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := New(t, tc.object)
			owner := OwnerOf(tc.object)
			if tc.neutron != nil {
				tc.neutron(f.Neutron, owner)
			}
			f.StartLeading()
			if tc.before != nil {
				tc.before(f)
			}

			checkOutcome(t, "sync", tc.want, f.Sync(tc.object))
			if tc.retry != "" {
				first := f.Refresh(tc.object.Namespace, tc.object.Name)
				if tc.wantFirst != nil {
					tc.wantFirst(t, first)
				}
				checkOutcome(t, "retry", tc.retry, f.Sync(first))
			}

			if got := f.Writes(); !slices.Equal(got, tc.wantWrites) {
				t.Errorf("API writes = %q, want %q", got, tc.wantWrites)
			}
			if got := f.Neutron.Calls(); !slices.Equal(got, tc.wantCalls) {
				t.Errorf("Neutron calls = %q, want %q", got, tc.wantCalls)
			}
			if got := EventKinds(f.Events()); !slices.Equal(got, tc.wantEvents) {
				t.Errorf("Events = %q, want %q", got, tc.wantEvents)
			}
			if tc.wantNeutron != nil {
				tc.wantNeutron(t, f, owner)
			}
			if tc.wantObject != nil {
				got, err := f.Client.SamplecrdV1().Networks(tc.object.Namespace).Get(f.Ctx, tc.object.Name, metav1.GetOptions{})
				if err != nil {
					t.Fatalf("reading the Network back: %v", err)
				}
				tc.wantObject(t, got)
			}
		})
	}
}

// failWith makes every call of err.Op fail with err.
func failWith(err *neutron.Error) func(*Fixture) {
	return func(f *Fixture) { f.Neutron.FailWith(err.Op, err) }
}

// loseReply makes the next call of err.Op carry the operation out, then fail with err.
func loseReply(err *neutron.Error) func(*Fixture) {
	return func(f *Fixture) { f.Neutron.LoseReply(err.Op, err) }
}

// checkOutcome checks that err is the outcome want; which names the call.
func checkOutcome(t *testing.T, which, want string, err error) {
	t.Helper()
	failure, recorded := reconcile.RecordedFailure(err)
	switch {
	case !slices.Contains([]string{succeeds, stops, retries, conflicts}, want):
		t.Fatalf("the case expects %s to end as %q, which is no outcome", which, want)
	case want == succeeds && err != nil:
		t.Errorf("%s error = %v, want nil", which, err)
	case want == stops && !(recorded && failure.Terminal):
		t.Errorf("%s error = %v, want a terminal error", which, err)
	case want == retries && !(recorded && !failure.Terminal):
		t.Errorf("%s error = %v, want a reported, retryable error", which, err)
	case want == conflicts && !apierrors.IsConflict(err):
		t.Errorf("%s error = %v, want a write conflict", which, err)
	}
}

// specCases realize a spec, or change Neutron to a changed spec, or fail to.
func specCases() []syncCase {
	return []syncCase{{
		name:       "new Network: finalizer, Reconciling, POST network, PUT tags, POST subnet, Ready",
		object:     NewNetwork("fresh", "192.168.0.0/16", "192.168.0.1"),
		want:       succeeds,
		wantWrites: []string{writeFinalizer, writeStatus, writeStatus},
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
		wantWrites: []string{writeStatus, writeStatus},
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
		wantWrites:  []string{writeFinalizer, writeStatus, writeStatus},
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
		wantWrites:  []string{writeStatus, writeStatus},
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
		wantWrites: []string{writeFinalizer, writeStatus, writeStatus},
		wantCalls:  []string{"create network"},
		wantEvents: []string{"Warning InvalidSpec"},
		wantObject: WantNotReady(samplecrdv1.ReasonInvalidSpec, "Requested MTU is too big, maximum is 1450"),
	}, {
		name:       "Neutron unreachable: condition, Event, retry",
		object:     NewNetwork("flaky", "10.2.0.0/24", ""),
		before:     failWith(&neutron.Error{Op: "create network", Kind: neutron.KindUnavailable, Message: "connection refused"}),
		want:       retries,
		wantWrites: []string{writeFinalizer, writeStatus, writeStatus},
		wantCalls:  []string{"create network"},
		wantEvents: []string{"Warning NeutronUnavailable"},
		wantObject: WantNotReady(samplecrdv1.ReasonNeutronUnavailable, "connection refused"),
	}, {
		name:       "subnet rejected by Neutron: terminal, status keeps the network",
		object:     NewNetwork("rejected", "10.3.0.0/24", ""),
		before:     failWith(&neutron.Error{Op: "create subnet", Kind: neutron.KindRejected, Code: 400, Message: "Invalid input"}),
		want:       stops,
		wantWrites: []string{writeFinalizer, writeStatus, writeStatus},
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
		name:   "Reconciling mark conflicts (the cache behind a deferred run's mark): the create goes on",
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
		want:       succeeds,
		wantWrites: []string{writeFinalizer, writeStatus, writeStatus},
		wantCalls:  []string{"create network", "tag network", "create subnet"},
		wantEvents: []string{"Normal NetworkCreated", "Normal SubnetCreated", "Normal Provisioned"},
		wantObject: WantReady("10.10.1.1"),
	}, {
		name:       "longest valid name and namespace: Neutron fields within 255 characters",
		object:     NewNetworkIn(strings.Repeat("n", 63), strings.Repeat("a", 253), "10.11.0.0/24"),
		want:       succeeds,
		wantWrites: []string{writeFinalizer, writeStatus, writeStatus},
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

// deletionCases remove the Neutron side of a Network being deleted, then its finalizer.
func deletionCases() []syncCase {
	return []syncCase{{
		name:   "deletion: one DELETE of the network, then the finalizer",
		object: Deleting(RealizedNetwork("doomed", "10.5.0.0/24", "")),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			PutRealized(d, owner, "10.5.0.0/24", "10.5.0.1")
		},
		want:        succeeds,
		wantWrites:  []string{writeFinalizer},
		wantCalls:   []string{"delete network"},
		wantEvents:  []string{"Normal NeutronDeleted"},
		wantNeutron: wantNeutronEmpty,
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			if slices.Contains(got.Finalizers, samplecrdv1.FinalizerName) {
				t.Error("finalizer still present after the Neutron side is gone")
			}
		},
	}, {
		name:   "deletion while ports use the network: SubnetInUse naming the ports, finalizer kept, retried",
		object: Deleting(RealizedNetwork("busy", "10.6.0.0/24", "")),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			PutRealized(d, owner, "10.6.0.0/24", "10.6.0.1")
			d.PutPort(neutron.Port{ID: "vm-port", NetworkID: "net-of-busy", DeviceOwner: "compute:nova", DeviceID: "vm-1",
				FixedIPs: []neutron.FixedIP{{SubnetID: "subnet-of-busy", IPAddress: "10.6.0.7"}}})
		},
		want:       retries,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"delete network", "list ports"},
		wantEvents: []string{"Warning SubnetInUse"},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			WantNotReady(samplecrdv1.ReasonSubnetInUse, "Ports using it: vm-port (device owner compute:nova, device vm-1)")(t, got)
			if !slices.Contains(got.Finalizers, samplecrdv1.FinalizerName) {
				t.Error("finalizer removed although the network could not be deleted")
			}
		},
	}, {
		name:   "deletion without status: the network found in the index",
		object: Deleting(WithFinalizer(NewNetwork("nostatus", "10.7.0.0/24", ""))),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			d.PutNetwork(neutron.Network{ID: "n1", Name: owner.ResourceName(), Description: neutron.ClusterDescription(owner.ClusterID), Tags: owner.Tags(), CreatedAt: AnHourAgo})
			d.PutSubnet(neutron.Subnet{ID: "s1", NetworkID: "n1", Description: neutron.ClusterDescription(owner.ClusterID)})
		},
		want:       succeeds,
		wantWrites: []string{writeFinalizer},
		wantCalls:  []string{"delete network"},
		wantEvents: []string{"Normal NeutronDeleted"},
	}, {
		name:   "deletion of a Network whose create landed after the fill: one lookup by name",
		object: Deleting(WithFinalizer(NewNetwork("untagged", "10.7.1.0/24", ""))),
		before: func(f *Fixture) {
			owner := OwnerOf(NewNetwork("untagged", "", ""))
			f.Neutron.PutNetwork(neutron.Network{ID: "n2", Name: owner.ResourceName(), Description: neutron.ClusterDescription(owner.ClusterID), CreatedAt: AnHourAgo})
		},
		want:       succeeds,
		wantWrites: []string{writeFinalizer},
		wantCalls:  []string{"list networks", "delete network"},
		wantEvents: []string{"Normal NeutronDeleted"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			if n := len(f.Neutron.Networks()); n != 0 {
				t.Errorf("%d networks left", n)
			}
		},
	}}
}

func wantNeutronEmpty(t *testing.T, f *Fixture, _ neutron.Owner) {
	t.Helper()
	if n, s := len(f.Neutron.Networks()), len(f.Neutron.Subnets()); n != 0 || s != 0 {
		t.Errorf("Neutron still holds %d networks and %d subnets", n, s)
	}
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
