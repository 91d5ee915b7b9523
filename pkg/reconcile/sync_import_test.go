package reconcile_test

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials/grants"
	. "github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
	neutronfake "github.com/samplecrd/network-controller/pkg/neutron/fake"
)

// withImportProblem gives the Network the Ready=False condition of an import problem, for
// its generation.
func withImportProblem(n *samplecrdv1.Network, reason string) *samplecrdv1.Network {
	n.Status.ObservedGeneration = n.Generation
	SetReadyCondition(&n.Status, n.Generation, metav1.ConditionFalse, reason, "looked up before")
	return n
}

// foundBefore is n as a look of an earlier generation left it: the network it found,
// networkID, in its status.
func foundBefore(n *samplecrdv1.Network, networkID string) *samplecrdv1.Network {
	n.Status.NetworkID = networkID
	return n
}

// wantNotFollowed checks that an import whose network found is gone says so, and names,
// without importing it, the network that took its name.
func wantNotFollowed(found, newcomer string) func(*testing.T, *samplecrdv1.Network) {
	return func(t *testing.T, got *samplecrdv1.Network) {
		t.Helper()
		WantNotReady(samplecrdv1.ReasonImportedNetworkDeleted, "imported Neutron network "+found+` (named "app") is gone`)(t, got)
		if c := ReadyCondition(t, got); !strings.Contains(c.Message, "not follow Neutron network "+newcomer) {
			t.Errorf("Ready message %q does not say that %s is not followed", c.Message, newcomer)
		}
		if got.Status.NetworkID != found || got.Status.SubnetID != "" {
			t.Errorf("status names network %q subnet %q, want still %q and no subnet", got.Status.NetworkID, got.Status.SubnetID, found)
		}
	}
}

// wantForeignUntouched checks that the networks the controller did not create are as
// PutForeign made them.
func wantForeignUntouched(t *testing.T, f *Fixture, _ neutron.Owner) {
	t.Helper()
	for _, n := range f.Neutron.Networks() {
		if len(n.Tags) != 0 || n.Description != "" {
			t.Errorf("network %s now has tags %q and description %q: an import must not change it", n.ID, n.Tags, n.Description)
		}
	}
}

// importCases resolve spec.import: by ID or name, the subnet by cidr or the only one, each
// problem with its own reason (terminal for the workqueue: the Neutron resync looks again),
// never a write to Neutron, and no lookup for an import already Ready. A network once
// found is followed by its ID: never another that takes its name, granted or kept.
func importCases() []syncCase {
	return []syncCase{{
		name:        "import by ID: Ready with the network's only subnet, read-only, no finalizer",
		object:      ImportedNetwork("by-id", samplecrdv1.NetworkImport{NetworkID: "ext-1"}, ""),
		neutron:     func(d *neutronfake.Driver, _ neutron.Owner) { PutForeign(d, "ext-1", "app", "10.60.0.0/24") },
		want:        succeeds,
		wantWrites:  []string{writeStatus},
		wantCalls:   []string{"list networks", "list subnets"},
		wantEvents:  []string{"Normal Imported"},
		wantNeutron: wantForeignUntouched,
		wantObject:  WantImported("ext-1", "ext-1-0", "10.60.0.1"),
	}, {
		name:   "import by name, cidr chooses one of two subnets",
		object: ImportedNetwork("by-name", samplecrdv1.NetworkImport{NetworkName: "public"}, "10.62.0.0/24"),
		neutron: func(d *neutronfake.Driver, _ neutron.Owner) {
			PutForeign(d, "shared-1", "public", "10.61.0.0/24", "10.62.0.0/24")
		},
		want:        succeeds,
		wantWrites:  []string{writeStatus},
		wantCalls:   []string{"list networks", "list subnets"},
		wantEvents:  []string{"Normal Imported"},
		wantNeutron: wantForeignUntouched,
		wantObject:  WantImported("shared-1", "shared-1-1", "10.62.0.1"),
	}, {
		name:       "a name no network has: ImportNotFound, not retried",
		object:     ImportedNetwork("missing", samplecrdv1.NetworkImport{NetworkName: "later"}, ""),
		want:       stops,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"list networks"},
		wantEvents: []string{"Warning ImportNotFound"},
		wantObject: WantNotReady(samplecrdv1.ReasonImportNotFound, `no Neutron network named "later" is visible`),
	}, {
		name:   "a name two networks have: ImportAmbiguous with both IDs",
		object: ImportedNetwork("twins", samplecrdv1.NetworkImport{NetworkName: "twin"}, ""),
		neutron: func(d *neutronfake.Driver, _ neutron.Owner) {
			PutForeign(d, "twin-a", "twin", "10.63.0.0/24")
			PutForeign(d, "twin-b", "twin", "10.64.0.0/24")
		},
		want:        stops,
		wantWrites:  []string{writeStatus},
		wantCalls:   []string{"list networks"},
		wantEvents:  []string{"Warning ImportAmbiguous"},
		wantNeutron: wantForeignUntouched,
		wantObject:  WantNotReady(samplecrdv1.ReasonImportAmbiguous, "twin-a, twin-b"),
	}, {
		name:   "two subnets and no cidr: ImportSubnetAmbiguous with both",
		object: ImportedNetwork("unchosen", samplecrdv1.NetworkImport{NetworkID: "dual"}, ""),
		neutron: func(d *neutronfake.Driver, _ neutron.Owner) {
			PutForeign(d, "dual", "dual", "10.65.0.0/24", "10.66.0.0/24")
		},
		want:        stops,
		wantWrites:  []string{writeStatus},
		wantCalls:   []string{"list networks", "list subnets"},
		wantEvents:  []string{"Warning ImportSubnetAmbiguous"},
		wantNeutron: wantForeignUntouched,
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			WantNotReady(samplecrdv1.ReasonImportSubnetAmbiguous, "dual-0 (10.65.0.0/24), dual-1 (10.66.0.0/24); set spec.cidr")(t, got)
			if got.Status.NetworkID != "dual" {
				t.Errorf("status.networkID = %q, want the network found", got.Status.NetworkID)
			}
		},
	}, {
		name:        "a cidr the network has no subnet of: ImportSubnetNotFound",
		object:      ImportedNetwork("wrong-cidr", samplecrdv1.NetworkImport{NetworkID: "ext-2"}, "10.99.0.0/24"),
		neutron:     func(d *neutronfake.Driver, _ neutron.Owner) { PutForeign(d, "ext-2", "app", "10.67.0.0/24") },
		want:        stops,
		wantWrites:  []string{writeStatus},
		wantCalls:   []string{"list networks", "list subnets"},
		wantEvents:  []string{"Warning ImportSubnetNotFound"},
		wantObject:  WantNotReady(samplecrdv1.ReasonImportSubnetNotFound, "has no subnet 10.99.0.0/24"),
		wantNeutron: wantForeignUntouched,
	}, {
		name:   "a network of this cluster's: ImportManagedNetwork, left alone",
		object: ImportedNetwork("grab", samplecrdv1.NetworkImport{NetworkID: "net-of-owned"}, ""),
		neutron: func(d *neutronfake.Driver, _ neutron.Owner) {
			PutRealized(d, OwnerOf(NewNetwork("owned", "", "")), "10.68.0.0/24", "10.68.0.1")
		},
		want:       stops,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"list networks"},
		wantEvents: []string{"Warning ImportManagedNetwork"},
		wantObject: WantNotReady(samplecrdv1.ReasonImportManagedNetwork, "carries the cluster's marks"),
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			if n := f.Neutron.Networks(); len(n) != 1 || n[0].Name != OwnerOf(NewNetwork("owned", "", "")).ResourceName() {
				t.Errorf("networks = %+v, want the cluster's network as it was", n)
			}
		},
	}, {
		name:    "Neutron unavailable during the lookup: retried with backoff",
		object:  ImportedNetwork("down", samplecrdv1.NetworkImport{NetworkID: "ext-3"}, ""),
		neutron: func(d *neutronfake.Driver, _ neutron.Owner) { PutForeign(d, "ext-3", "app", "10.69.0.0/24") },
		before: failWith(&neutron.Error{Op: "list networks", Kind: neutron.KindUnavailable, Code: 503,
			Message: "Service Unavailable"}),
		want:       retries,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"list networks"},
		wantEvents: []string{"Warning NeutronUnavailable"},
		wantObject: WantNotReady(samplecrdv1.ReasonNeutronUnavailable, "list networks"),
	}, {
		name:        "an import by name whose network was replaced by another of that name, granted: not followed, ImportedNetworkDeleted names both",
		object:      foundBefore(ImportedNetwork("replaced", samplecrdv1.NetworkImport{NetworkName: "app"}, ""), "ext-old"),
		neutron:     func(d *neutronfake.Driver, _ neutron.Owner) { PutForeign(d, "ext-new", "app", "10.60.0.0/24") },
		before:      grant(grants.Powers{Import: true, Identities: []string{"ops"}}),
		want:        stops,
		wantWrites:  []string{writeStatus},
		wantCalls:   []string{"list networks"},
		wantEvents:  []string{"Warning ImportedNetworkDeleted"},
		wantNeutron: wantForeignUntouched,
		wantObject:  wantNotFollowed("ext-old", "ext-new"),
	}, {
		name:        "a kept import by name whose network was replaced by another of that name, warned: not followed, nothing new acquired",
		object:      foundBefore(ImportedNetwork("replaced", samplecrdv1.NetworkImport{NetworkName: "app"}, ""), "ext-old"),
		neutron:     func(d *neutronfake.Driver, _ neutron.Owner) { PutForeign(d, "ext-new", "app", "10.60.0.0/24") },
		before:      grant(grants.Powers{}),
		want:        stops,
		wantWrites:  []string{writeStatus},
		wantCalls:   []string{"list networks"},
		wantEvents:  []string{"Warning KeptWithoutGrant", "Warning ImportedNetworkDeleted"},
		wantNeutron: wantForeignUntouched,
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			wantNotFollowed("ext-old", "ext-new")(t, got)
			wantCondition(t, got, samplecrdv1.ConditionGrantMissing, samplecrdv1.ReasonKeptWithoutGrant, "spec.import (allow.import)")
		},
	}, {
		name:   "an import by name whose network now has a twin of its name: still that one, by ID",
		object: foundBefore(ImportedNetwork("twinned", samplecrdv1.NetworkImport{NetworkName: "app"}, ""), "ext-old"),
		neutron: func(d *neutronfake.Driver, _ neutron.Owner) {
			PutForeign(d, "ext-old", "app", "10.60.0.0/24")
			PutForeign(d, "ext-new", "app", "10.61.0.0/24")
		},
		want:        succeeds,
		wantWrites:  []string{writeStatus},
		wantCalls:   []string{"list networks", "list subnets"},
		wantEvents:  []string{"Normal Imported"},
		wantNeutron: wantForeignUntouched,
		wantObject:  WantImported("ext-old", "ext-old-0", "10.60.0.1"),
	}, {
		name:        "an import Ready for its generation: no Neutron call, no write (the resync looks again)",
		object:      ReadyImport("settled", "ext-4"),
		neutron:     func(d *neutronfake.Driver, _ neutron.Owner) { PutForeign(d, "ext-4", "app", "10.60.0.0/24") },
		want:        succeeds,
		wantNeutron: wantForeignUntouched,
	}, {
		name:        "an import whose name matched nothing for this generation: no Neutron call (the resync looks again)",
		object:      withImportProblem(ImportedNetwork("waiting", samplecrdv1.NetworkImport{NetworkName: "later"}, ""), samplecrdv1.ReasonImportNotFound),
		want:        succeeds,
		wantNeutron: wantForeignUntouched,
	}, {
		name:        "an import deleted: no Neutron call, no write",
		object:      Deleting(ReadyImport("leaving", "ext-5")),
		neutron:     func(d *neutronfake.Driver, _ neutron.Owner) { PutForeign(d, "ext-5", "app", "10.60.0.0/24") },
		want:        succeeds,
		wantNeutron: wantForeignUntouched,
	}, {
		name:        "an import deleted with the finalizer put on by hand: removed, no Neutron call",
		object:      WithFinalizer(Deleting(ReadyImport("held", "ext-6"))),
		neutron:     func(d *neutronfake.Driver, _ neutron.Owner) { PutForeign(d, "ext-6", "app", "10.60.0.0/24") },
		want:        succeeds,
		wantWrites:  []string{writeFinalizer},
		wantNeutron: wantForeignUntouched,
	}}
}
