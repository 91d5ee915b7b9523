package resync

import (
	"slices"
	"strings"
	"testing"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/networktest"
)

// The Neutron resync looks at every import with one list of networks and one of subnets,
// and hands what changed to the worker, which records it without a call of its own: a
// network deleted under its import, a name that now exists. An import whose network is as
// its status says is not queued, even when another network takes its name: an import
// follows the network it found by ID.
func TestNeutronResyncRechecksImports(t *testing.T) {
	deletedUnder := networktest.ReadyImport("deleted-under", "ext-gone")
	unchanged := networktest.ReadyImport("unchanged", "ext-stays")
	missing := networktest.ImportedNetwork("missing", samplecrdv1.NetworkImport{NetworkName: "made-later"}, "")
	doubled := networktest.ImportedNetwork("doubled", samplecrdv1.NetworkImport{NetworkName: "made-twice"}, "")
	f := newFixture(t, deletedUnder, unchanged, missing, doubled)
	networktest.PutForeign(f.Neutron, "ext-gone", "gone", "10.60.0.0/24")
	networktest.PutForeign(f.Neutron, "ext-stays", "stays", "10.60.0.0/24")
	networktest.PutForeign(f.Neutron, "twin-1", "made-twice", "10.70.0.0/24")
	f.StartLeading()
	if err := f.Sync(missing); !networktest.IsTerminal(err) {
		t.Fatalf("sync of missing: %v, want ImportNotFound, not retried", err)
	}
	if err := f.Sync(doubled); err != nil {
		t.Fatalf("sync of doubled: %v", err)
	}
	f.Refresh("default", "missing")
	f.Refresh("default", "doubled")

	// Meanwhile, in Neutron: one network deleted, one made with the missing name, a
	// second one with the name doubled had once.
	if err := f.Neutron.DeleteNetwork(f.Ctx, "ext-gone"); err != nil {
		t.Fatal(err)
	}
	networktest.PutForeign(f.Neutron, "later-1", "made-later", "10.71.0.0/24")
	networktest.PutForeign(f.Neutron, "twin-2", "made-twice", "10.72.0.0/24")
	f.Neutron.ClearCalls()
	f.Client.ClearActions()
	_ = f.Events()

	f.resync.Once(f.Ctx)
	wantResync := []string{"list networks", "list subnets", "list networks", "list subnets"}
	if got := f.Neutron.Calls(); !slices.Equal(got, wantResync) {
		t.Errorf("resync calls = %q, want the fill's two lists and one list each of networks and subnets for all imports", got)
	}
	if n := len(f.queued); n != 2 {
		t.Errorf("queue length = %d, want the 2 imports that changed", n)
	}
	f.drain()
	if got := f.Neutron.Calls(); !slices.Equal(got, wantResync) {
		t.Errorf("calls after the workers = %q, want no call beyond the resync's", got)
	}
	networktest.WantNotReady(samplecrdv1.ReasonImportedNetworkDeleted, "ext-gone is gone")(t, f.Refresh("default", "deleted-under"))
	networktest.WantImported("later-1", "later-1-0", "10.71.0.1")(t, f.Refresh("default", "missing"))
	networktest.WantImported("twin-1", "twin-1-0", "10.70.0.1")(t, f.Refresh("default", "doubled"))
	networktest.WantImported("ext-stays", "ext-stays-0", "10.60.0.1")(t, f.Refresh("default", "unchanged"))
	events := f.Events()
	for _, e := range []string{"Warning ImportedNetworkDeleted", "Normal Imported"} {
		if !slices.Contains(networktest.EventKinds(events), e) {
			t.Errorf("Events %q lack %q", events, e)
		}
	}
	if slices.ContainsFunc(f.Neutron.Calls(), func(op string) bool { return !strings.HasPrefix(op, "list ") }) {
		t.Errorf("imports wrote to Neutron: %q", f.Neutron.Calls())
	}

	// Nothing changed since: the next resync queues nothing.
	f.resync.Once(f.Ctx)
	if n := len(f.queued); n != 0 {
		t.Errorf("queue length after a quiet resync = %d, want 0", n)
	}
}
