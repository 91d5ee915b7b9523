package reconcile_test

import (
	"slices"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

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
// of the powers granted (grantCases) and their withdrawal (enforcementCases), and of
// the network's QoS policy (qosCases) and its grant (qosGrantCases), and of its DNS domain
// (dnsCases).
func TestSync(t *testing.T) {
	cases := slices.Concat(specCases(), deletionCases(), repairCases(), tenancyCases(), subnetOptionCases(), subnetPoolCases(), subnetListCases(),
		retentionCases(), importCases(), sharingCases(), routerCases(), routerFenceCases(), grantCases(), enforcementCases(), delegationCases(), pauseCases(),
		qosCases(), qosGrantCases(), dnsCases(), driftCheckCases())
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
			passes := 1
			if tc.retry != "" {
				passes = 2
			}
			if n := countOf(f.Writes(), writeStatus); n > passes {
				t.Errorf("%d status writes in %d passes: a pass writes status once, at its end", n, passes)
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

// countOf counts the entries of list equal to s.
func countOf(list []string, s string) int {
	n := 0
	for _, e := range list {
		if e == s {
			n++
		}
	}
	return n
}
