package main

import (
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
	neutronfake "github.com/samplecrd/network-controller/pkg/neutron/fake"
)

// importedNetwork is a Network that imports the network ref names, with no status yet.
func importedNetwork(name string, ref samplecrdv1.NetworkImport, cidr string) *samplecrdv1.Network {
	n := newNetwork(name, cidr, "")
	n.Spec.Import = &ref
	return n
}

// putForeign stores a network the controller did not create, with one subnet per cidr
// (IDs <id>-0, <id>-1...).
func putForeign(d *neutronfake.Driver, id, name string, cidrs ...string) {
	d.PutNetwork(neutron.Network{ID: id, Name: name, MTU: 1442, CreatedAt: anHourAgo})
	for i, cidr := range cidrs {
		d.PutSubnet(neutron.Subnet{ID: id + "-" + string(rune('0'+i)), NetworkID: id, CIDR: cidr, IPVersion: 4,
			GatewayIP: strings.TrimSuffix(cidr, "0/24") + "1", EnableDHCP: true})
	}
}

// readyImport is an imported Network whose status says it imports network id with
// subnet <id>-0.
func readyImport(name, id string) *samplecrdv1.Network {
	n := importedNetwork(name, samplecrdv1.NetworkImport{NetworkID: id}, "")
	n.Status = samplecrdv1.NetworkStatus{ObservedGeneration: 1, NetworkID: id, SubnetID: id + "-0", Gateway: "10.60.0.1", MTU: 1442,
		EnableDHCP: ptr.To(true), CIDRs: "10.60.0.0/24"}
	setReadyCondition(&n.Status, 1, metav1.ConditionTrue, samplecrdv1.ReasonImported, "Imported Neutron network "+id+" with subnet "+id+"-0 (10.60.0.0/24, gateway 10.60.0.1)")
	return n
}

// withImportProblem gives the Network the Ready=False condition of an import problem, for
// its generation.
func withImportProblem(n *samplecrdv1.Network, reason string) *samplecrdv1.Network {
	n.Status.ObservedGeneration = n.Generation
	setReadyCondition(&n.Status, n.Generation, metav1.ConditionFalse, reason, "looked up before")
	return n
}

// wantImported checks that the Network reports network id and subnet, read-only: no finalizer.
func wantImported(id, subnetID, gateway string) func(*testing.T, *samplecrdv1.Network) {
	return func(t *testing.T, got *samplecrdv1.Network) {
		t.Helper()
		c := readyCondition(t, got)
		if c.Status != metav1.ConditionTrue || c.Reason != samplecrdv1.ReasonImported {
			t.Errorf("Ready = %s/%s %q, want True/Imported", c.Status, c.Reason, c.Message)
		}
		s := got.Status
		if s.NetworkID != id || s.SubnetID != subnetID || s.Gateway != gateway || s.MTU != 1442 || s.EnableDHCP == nil || !*s.EnableDHCP ||
			s.ObservedGeneration != got.Generation {
			t.Errorf("status = %+v, want network %s, subnet %s, gateway %s, MTU 1442, DHCP on", s, id, subnetID, gateway)
		}
		if len(got.Finalizers) != 0 {
			t.Errorf("finalizers = %q, want none: deleting an import deletes nothing", got.Finalizers)
		}
		wantProgressConditions(t, got)
	}
}

// wantForeignUntouched checks that the networks the controller did not create are as
// putForeign made them.
func wantForeignUntouched(t *testing.T, f *fixture, _ neutron.Owner) {
	t.Helper()
	for _, n := range f.neutron.Networks() {
		if len(n.Tags) != 0 || n.Description != "" {
			t.Errorf("network %s now has tags %q and description %q: an import must not change it", n.ID, n.Tags, n.Description)
		}
	}
}

// importCases resolve spec.import: by ID or name, the subnet by cidr or the only one, each
// problem with its own reason (terminal for the workqueue: the Neutron resync looks again),
// never a write to Neutron, and no lookup for an import already Ready.
func importCases() []syncCase {
	return []syncCase{{
		name:        "import by ID: Ready with the network's only subnet, read-only, no finalizer",
		object:      importedNetwork("by-id", samplecrdv1.NetworkImport{NetworkID: "ext-1"}, ""),
		neutron:     func(d *neutronfake.Driver, _ neutron.Owner) { putForeign(d, "ext-1", "app", "10.60.0.0/24") },
		want:        succeeds,
		wantWrites:  []string{writeStatus},
		wantCalls:   []string{"list networks", "list subnets"},
		wantEvents:  []string{"Normal Imported"},
		wantNeutron: wantForeignUntouched,
		wantObject:  wantImported("ext-1", "ext-1-0", "10.60.0.1"),
	}, {
		name:   "import by name, cidr chooses one of two subnets",
		object: importedNetwork("by-name", samplecrdv1.NetworkImport{NetworkName: "public"}, "10.62.0.0/24"),
		neutron: func(d *neutronfake.Driver, _ neutron.Owner) {
			putForeign(d, "shared-1", "public", "10.61.0.0/24", "10.62.0.0/24")
		},
		want:        succeeds,
		wantWrites:  []string{writeStatus},
		wantCalls:   []string{"list networks", "list subnets"},
		wantEvents:  []string{"Normal Imported"},
		wantNeutron: wantForeignUntouched,
		wantObject:  wantImported("shared-1", "shared-1-1", "10.62.0.1"),
	}, {
		name:       "a name no network has: ImportNotFound, not retried",
		object:     importedNetwork("missing", samplecrdv1.NetworkImport{NetworkName: "later"}, ""),
		want:       stops,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"list networks"},
		wantEvents: []string{"Warning ImportNotFound"},
		wantObject: wantNotReady(samplecrdv1.ReasonImportNotFound, `no Neutron network named "later" is visible`),
	}, {
		name:   "a name two networks have: ImportAmbiguous with both IDs",
		object: importedNetwork("twins", samplecrdv1.NetworkImport{NetworkName: "twin"}, ""),
		neutron: func(d *neutronfake.Driver, _ neutron.Owner) {
			putForeign(d, "twin-a", "twin", "10.63.0.0/24")
			putForeign(d, "twin-b", "twin", "10.64.0.0/24")
		},
		want:        stops,
		wantWrites:  []string{writeStatus},
		wantCalls:   []string{"list networks"},
		wantEvents:  []string{"Warning ImportAmbiguous"},
		wantNeutron: wantForeignUntouched,
		wantObject:  wantNotReady(samplecrdv1.ReasonImportAmbiguous, "twin-a, twin-b"),
	}, {
		name:   "two subnets and no cidr: ImportSubnetAmbiguous with both",
		object: importedNetwork("unchosen", samplecrdv1.NetworkImport{NetworkID: "dual"}, ""),
		neutron: func(d *neutronfake.Driver, _ neutron.Owner) {
			putForeign(d, "dual", "dual", "10.65.0.0/24", "10.66.0.0/24")
		},
		want:        stops,
		wantWrites:  []string{writeStatus},
		wantCalls:   []string{"list networks", "list subnets"},
		wantEvents:  []string{"Warning ImportSubnetAmbiguous"},
		wantNeutron: wantForeignUntouched,
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			wantNotReady(samplecrdv1.ReasonImportSubnetAmbiguous, "dual-0 (10.65.0.0/24), dual-1 (10.66.0.0/24); set spec.cidr")(t, got)
			if got.Status.NetworkID != "dual" {
				t.Errorf("status.networkID = %q, want the network found", got.Status.NetworkID)
			}
		},
	}, {
		name:        "a cidr the network has no subnet of: ImportSubnetNotFound",
		object:      importedNetwork("wrong-cidr", samplecrdv1.NetworkImport{NetworkID: "ext-2"}, "10.99.0.0/24"),
		neutron:     func(d *neutronfake.Driver, _ neutron.Owner) { putForeign(d, "ext-2", "app", "10.67.0.0/24") },
		want:        stops,
		wantWrites:  []string{writeStatus},
		wantCalls:   []string{"list networks", "list subnets"},
		wantEvents:  []string{"Warning ImportSubnetNotFound"},
		wantObject:  wantNotReady(samplecrdv1.ReasonImportSubnetNotFound, "has no subnet 10.99.0.0/24"),
		wantNeutron: wantForeignUntouched,
	}, {
		name:   "a network of this cluster's: ImportManagedNetwork, left alone",
		object: importedNetwork("grab", samplecrdv1.NetworkImport{NetworkID: "net-of-owned"}, ""),
		neutron: func(d *neutronfake.Driver, _ neutron.Owner) {
			putRealized(d, ownerOf(newNetwork("owned", "", "")), "10.68.0.0/24", "10.68.0.1")
		},
		want:       stops,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"list networks"},
		wantEvents: []string{"Warning ImportManagedNetwork"},
		wantObject: wantNotReady(samplecrdv1.ReasonImportManagedNetwork, "carries the cluster's marks"),
		wantNeutron: func(t *testing.T, f *fixture, _ neutron.Owner) {
			if n := f.neutron.Networks(); len(n) != 1 || n[0].Name != ownerOf(newNetwork("owned", "", "")).ResourceName() {
				t.Errorf("networks = %+v, want the cluster's network as it was", n)
			}
		},
	}, {
		name:    "Neutron unavailable during the lookup: retried with backoff",
		object:  importedNetwork("down", samplecrdv1.NetworkImport{NetworkID: "ext-3"}, ""),
		neutron: func(d *neutronfake.Driver, _ neutron.Owner) { putForeign(d, "ext-3", "app", "10.69.0.0/24") },
		before: failWith(&neutron.Error{Op: "list networks", Kind: neutron.KindUnavailable, Code: 503,
			Message: "Service Unavailable"}),
		want:       retries,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"list networks"},
		wantEvents: []string{"Warning NeutronUnavailable"},
		wantObject: wantNotReady(samplecrdv1.ReasonNeutronUnavailable, "list networks"),
	}, {
		name:        "an import Ready for its generation: no Neutron call, no write (the resync looks again)",
		object:      readyImport("settled", "ext-4"),
		neutron:     func(d *neutronfake.Driver, _ neutron.Owner) { putForeign(d, "ext-4", "app", "10.60.0.0/24") },
		want:        succeeds,
		wantNeutron: wantForeignUntouched,
	}, {
		name:        "an import whose name matched nothing for this generation: no Neutron call (the resync looks again)",
		object:      withImportProblem(importedNetwork("waiting", samplecrdv1.NetworkImport{NetworkName: "later"}, ""), samplecrdv1.ReasonImportNotFound),
		want:        succeeds,
		wantNeutron: wantForeignUntouched,
	}, {
		name:        "an import deleted: no Neutron call, no write",
		object:      deleting(readyImport("leaving", "ext-5")),
		neutron:     func(d *neutronfake.Driver, _ neutron.Owner) { putForeign(d, "ext-5", "app", "10.60.0.0/24") },
		want:        succeeds,
		wantNeutron: wantForeignUntouched,
	}, {
		name:        "an import deleted with the finalizer put on by hand: removed, no Neutron call",
		object:      withFinalizer(deleting(readyImport("held", "ext-6"))),
		neutron:     func(d *neutronfake.Driver, _ neutron.Owner) { putForeign(d, "ext-6", "app", "10.60.0.0/24") },
		want:        succeeds,
		wantWrites:  []string{writeFinalizer},
		wantNeutron: wantForeignUntouched,
	}}
}

// The Neutron resync looks at every import with one list of networks and one of subnets,
// and hands what changed to the worker, which records it without a call of its own: a
// network deleted under its import, a name that now exists, a name now taken twice. An
// import whose network is as its status says is not queued.
func TestNeutronResyncRechecksImports(t *testing.T) {
	deletedUnder := readyImport("deleted-under", "ext-gone")
	unchanged := readyImport("unchanged", "ext-stays")
	missing := importedNetwork("missing", samplecrdv1.NetworkImport{NetworkName: "made-later"}, "")
	doubled := importedNetwork("doubled", samplecrdv1.NetworkImport{NetworkName: "made-twice"}, "")
	f := newFixture(t, deletedUnder, unchanged, missing, doubled)
	putForeign(f.neutron, "ext-gone", "gone", "10.60.0.0/24")
	putForeign(f.neutron, "ext-stays", "stays", "10.60.0.0/24")
	putForeign(f.neutron, "twin-1", "made-twice", "10.70.0.0/24")
	f.startLeading()
	if err := f.sync(missing); !isTerminal(err) {
		t.Fatalf("sync of missing: %v, want ImportNotFound, not retried", err)
	}
	if err := f.sync(doubled); err != nil {
		t.Fatalf("sync of doubled: %v", err)
	}
	f.refresh("default", "missing")
	f.refresh("default", "doubled")

	// Meanwhile, in Neutron: one network deleted, one made with the missing name, a
	// second one with the name doubled had once.
	if err := f.neutron.DeleteNetwork(f.ctx, "ext-gone"); err != nil {
		t.Fatal(err)
	}
	putForeign(f.neutron, "later-1", "made-later", "10.71.0.0/24")
	putForeign(f.neutron, "twin-2", "made-twice", "10.72.0.0/24")
	f.neutron.ClearCalls()
	f.client.ClearActions()
	_ = f.events()

	f.controller.resync.Once(f.ctx)
	wantResync := []string{"list networks", "list subnets", "list networks", "list subnets"}
	if got := f.neutron.Calls(); !slices.Equal(got, wantResync) {
		t.Errorf("resync calls = %q, want the fill's two lists and one list each of networks and subnets for all imports", got)
	}
	if n := f.controller.workqueue.Len(); n != 3 {
		t.Errorf("queue length = %d, want the 3 imports that changed", n)
	}
	for f.controller.workqueue.Len() > 0 {
		f.controller.processNextWorkItem(f.ctx)
	}
	if got := f.neutron.Calls(); !slices.Equal(got, wantResync) {
		t.Errorf("calls after the workers = %q, want no call beyond the resync's", got)
	}
	wantNotReady(samplecrdv1.ReasonImportedNetworkDeleted, "ext-gone is gone")(t, f.refresh("default", "deleted-under"))
	wantImported("later-1", "later-1-0", "10.71.0.1")(t, f.refresh("default", "missing"))
	wantNotReady(samplecrdv1.ReasonImportAmbiguous, "twin-1, twin-2")(t, f.refresh("default", "doubled"))
	wantImported("ext-stays", "ext-stays-0", "10.60.0.1")(t, f.refresh("default", "unchanged"))
	events := f.events()
	for _, e := range []string{"Warning ImportedNetworkDeleted", "Normal Imported", "Warning ImportAmbiguous"} {
		if !slices.Contains(eventKinds(events), e) {
			t.Errorf("Events %q lack %q", events, e)
		}
	}
	if slices.ContainsFunc(f.neutron.Calls(), func(op string) bool { return !strings.HasPrefix(op, "list ") }) {
		t.Errorf("imports wrote to Neutron: %q", f.neutron.Calls())
	}

	// Nothing changed since: the next resync queues nothing.
	f.controller.resync.Once(f.ctx)
	if n := f.controller.workqueue.Len(); n != 0 {
		t.Errorf("queue length after a quiet resync = %d, want 0", n)
	}
}
