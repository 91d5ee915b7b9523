package reconcile_test

import (
	"slices"
	"testing"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials/grants"
	. "github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
	neutronfake "github.com/samplecrd/network-controller/pkg/neutron/fake"
	"github.com/samplecrd/network-controller/pkg/reconcile"
)

// grantCases fence the namespaces that share the controller's own cloud: deletionPolicy
// Retain, spec.import, spec.sharedWith and spec.router.existing each need a grant of a
// ClusterIdentity selecting the namespace. Without it a new Network is refused with
// nothing made, and a grant taken away is undone at the next pass.
func grantCases() []syncCase {
	return []syncCase{{
		name:        "Retain without a grant: NotGranted, nothing made",
		object:      withDeletionPolicy(NewNetwork("kept", "10.31.0.0/24", ""), samplecrdv1.DeletionPolicyRetain),
		before:      grant(grants.Powers{}),
		want:        stops,
		wantWrites:  []string{writeFinalizer, writeStatus},
		wantEvents:  []string{"Warning NotGranted"},
		wantObject:  WantNotReady(samplecrdv1.ReasonNotGranted, "deletionPolicy Retain (allow.retain)"),
		wantNeutron: wantNeutronEmpty,
	}, {
		name:       "Retain granted: made as before",
		object:     withDeletionPolicy(NewNetwork("kept", "10.31.0.0/24", ""), samplecrdv1.DeletionPolicyRetain),
		before:     grant(grants.Powers{Retain: true, Identities: []string{"ops"}}),
		want:       succeeds,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantCalls:  []string{"create network", "tag network", "create subnet"},
		wantEvents: []string{"Normal NetworkCreated", "Normal SubnetCreated", "Normal Provisioned"},
		wantObject: WantReady("10.31.0.1"),
	}, {
		name:        "sharedWith a project the identity does not list: NotGranted naming it and the identity, nothing made",
		object:      WithSharedWith(NewNetwork("shared", "10.31.1.0/24", ""), "team-b", "team-c"),
		before:      grant(grants.Powers{SharedWith: []string{"team-b"}, Identities: []string{"ops"}}),
		want:        stops,
		wantWrites:  []string{writeFinalizer, writeStatus},
		wantEvents:  []string{"Warning NotGranted"},
		wantObject:  WantNotReady(samplecrdv1.ReasonNotGranted, "(ops) do not allow spec.sharedWith project team-c (allow.sharedWith)"),
		wantNeutron: wantNeutronEmpty,
	}, {
		name:       "import without a grant: NotGranted before any lookup, no finalizer",
		object:     ImportedNetwork("foreign", samplecrdv1.NetworkImport{NetworkID: "ext-1"}, ""),
		neutron:    func(d *neutronfake.Driver, _ neutron.Owner) { PutForeign(d, "ext-1", "app", "10.60.0.0/24") },
		before:     grant(grants.Powers{}),
		want:       stops,
		wantWrites: []string{writeStatus},
		wantEvents: []string{"Warning NotGranted"},
		wantObject: WantNotReady(samplecrdv1.ReasonNotGranted, "no ClusterIdentity selects it, so it may not use spec.import (allow.import)"),
	}, {
		name:       "router.existing names a router of the project no identity lists: NotGranted, nothing made or attached",
		object:     WithRouter(NewNetwork("routed", "10.31.2.0/24", ""), Existing("edge")),
		neutron:    func(d *neutronfake.Driver, _ neutron.Owner) { d.PutRouter(neutron.Router{ID: "edge-id", Name: "edge"}) },
		before:     grant(grants.Powers{ExistingRouters: []samplecrdv1.NeutronRef{{Name: "other"}, {ID: "other-id"}}}),
		want:       stops,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantCalls:  []string{"list routers"},
		wantEvents: []string{"Warning NotGranted"},
		wantObject: WantNotReady(samplecrdv1.ReasonNotGranted, `spec.router.existing router edge-id "edge" (allow.existingRouters)`),
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantNetworks(t, f, 0)
			wantAttached(t, f.Neutron, "edge-id", 0)
		},
	}, {
		name:   "router.existing by ID, the identity lists the router by name: attached",
		object: WithRouter(NewNetwork("routed", "10.31.2.0/24", ""), existingID("0b9c7e2a-1d3f-4a5b-8c6d-7e8f9a0b1c2d")),
		neutron: func(d *neutronfake.Driver, _ neutron.Owner) {
			d.PutRouter(neutron.Router{ID: "0b9c7e2a-1d3f-4a5b-8c6d-7e8f9a0b1c2d", Name: "edge"})
		},
		before:     grant(grants.Powers{ExistingRouters: []samplecrdv1.NeutronRef{{Name: "edge"}}}),
		want:       succeeds,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantCalls:  []string{"list routers", "create network", "tag network", "create subnet", "add router interface"},
		wantEvents: []string{"Normal NetworkCreated", "Normal SubnetCreated", "Normal SubnetAttached", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantAttached(t, f.Neutron, "0b9c7e2a-1d3f-4a5b-8c6d-7e8f9a0b1c2d", 1)
		},
	}, {
		name:   "the sharing grant taken away, enforced: the policy deleted, then NotGranted",
		object: WithSharesInStatus(WithSharedWith(RealizedNetwork("was-shared", "10.40.0.0/24", ""), "team-b")),
		neutron: PutShared(func(d *neutronfake.Driver, netID string) {
			d.PutShare(neutron.RBACPolicy{ID: "rbac-b", ObjectID: netID, TargetProject: "team-b"})
		}),
		before:     enforce(grants.Powers{}),
		want:       stops,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"delete rbac policy", "tag network"},
		wantEvents: []string{"Normal NetworkUnshared", "Warning NotGranted"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantShares(t, f.Neutron, "net-of-was-shared")
		},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			WantNotReady(samplecrdv1.ReasonNotGranted, "team-b (allow.sharedWith)")(t, got)
			if len(got.Status.SharedWith) != 0 {
				t.Errorf("status.sharedWith = %v, want none", got.Status.SharedWith)
			}
		},
	}, {
		name:       "the router grant taken away, enforced: the subnet detached from the operator's router, then NotGranted",
		object:     withExistingRouterInStatus(WithRouter(RealizedNetwork("was-routed", "10.61.0.0/24", ""), Existing("tenant-router"))),
		neutron:    putOnTenantRouter("was-routed"),
		before:     enforce(grants.Powers{}),
		want:       stops,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"remove router interface", "tag network"},
		wantEvents: []string{"Normal SubnetDetached", "Warning NotGranted"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantAttached(t, f.Neutron, "tenant-router-id", 0)
		},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			WantNotReady(samplecrdv1.ReasonNotGranted, `router tenant-router-id "tenant-router"`)(t, got)
			if got.Status.Router != nil {
				t.Errorf("status.router = %+v, want none", got.Status.Router)
			}
		},
	}, {
		name:   "a Retain Network deleted after its grant was taken away, enforced: the deletion waits, Neutron untouched, the two ways out named",
		object: Deleting(withDeletionPolicy(RealizedNetwork("was-kept", "10.30.0.0/24", ""), samplecrdv1.DeletionPolicyRetain)),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			PutRealized(d, owner, "10.30.0.0/24", "10.30.0.1")
			AddTags(d, "net-of-was-kept", neutron.RetainTag)
		},
		before:      enforce(grants.Powers{}),
		want:        stops,
		wantWrites:  []string{writeStatus},
		wantEvents:  []string{"Warning RetainNotGranted"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) { wantNetworks(t, f, 1) },
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			WantNotReady(samplecrdv1.ReasonRetainNotGranted, "allow.retain: the network is then kept), or set spec.deletionPolicy to Delete")(t, got)
			if !slices.Contains(got.Finalizers, samplecrdv1.FinalizerName) {
				t.Error("finalizer removed; want it kept while the deletion waits")
			}
		},
	}, {
		name:        "a namespace -own-cloud-namespace-selector leaves out: CredentialsRefRequired naming the selector, nothing made",
		object:      NewNetwork("outsider", "10.31.4.0/24", ""),
		before:      grant(grants.Powers{OwnCloudRefusedBy: "own-cloud=yes"}),
		want:        stops,
		wantWrites:  []string{writeStatus},
		wantEvents:  []string{"Warning CredentialsRefRequired"},
		wantObject:  WantNotReady(samplecrdv1.ReasonCredentialsRefRequired, `-own-cloud-namespace-selector "own-cloud=yes"`),
		wantNeutron: wantNeutronEmpty,
	}, {
		name:   "a namespace left out of the own cloud deletes what its Networks made there",
		object: Deleting(RealizedNetwork("left-out", "10.30.3.0/24", "")),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			PutRealized(d, owner, "10.30.3.0/24", "10.30.3.1")
		},
		before:      grant(grants.Powers{OwnCloudRefusedBy: "own-cloud=yes"}),
		want:        succeeds,
		wantWrites:  []string{writeFinalizer},
		wantCalls:   []string{"delete network"},
		wantEvents:  []string{"Normal NeutronDeleted"},
		wantNeutron: wantNeutronEmpty,
		wantObject:  wantFinalizerRemoved,
	}, {
		name:    "a router of its own past the namespace's routersPerNamespace: NotGranted naming the bound, nothing made",
		object:  WithRouter(NewNetwork("third", "10.31.5.0/24", ""), External("public")),
		neutron: func(d *neutronfake.Driver, _ neutron.Owner) { d.PutExternalNetwork(Public) },
		before: func(f *Fixture) {
			grant(grants.Powers{RoutersPerNamespace: ptrTo(int32(2))})(f)
			for _, name := range []string{"first", "second"} {
				f.Put(WithRouterInStatus(WithRouter(RealizedNetwork(name, "10.31.6.0/24", ""), External("public"))))
			}
		},
		want:        stops,
		wantWrites:  []string{writeFinalizer, writeStatus},
		wantEvents:  []string{"Warning NotGranted"},
		wantObject:  WantNotReady(samplecrdv1.ReasonNotGranted, "past the namespace's 2 (allow.routersPerNamespace)"),
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) { wantNetworks(t, f, 1); wantRouters(t, f, 0) },
	}, {
		name:    "a router of its own within routersPerNamespace: made as before",
		object:  WithRouter(NewNetwork("second", "10.31.5.0/24", ""), External("public")),
		neutron: func(d *neutronfake.Driver, _ neutron.Owner) { d.PutExternalNetwork(Public) },
		before: func(f *Fixture) {
			grant(grants.Powers{RoutersPerNamespace: ptrTo(int32(2))})(f)
			f.Put(WithRouterInStatus(WithRouter(RealizedNetwork("first", "10.31.6.0/24", ""), External("public"))))
		},
		want:        succeeds,
		wantWrites:  []string{writeFinalizer, writeStatus},
		wantCalls:   []string{"list networks", "create network", "tag network", "create subnet", "create router", "add router interface"},
		wantEvents:  []string{"Normal NetworkCreated", "Normal SubnetCreated", "Normal RouterCreated", "Normal SubnetAttached", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) { wantRouters(t, f, 1) },
	}}
}

// grant gives the Fixture's namespaces powers, as identities selecting them would.
func grant(powers grants.Powers) func(*Fixture) {
	return func(f *Fixture) { f.Grants.Powers = powers }
}

// enforce is grant, with the Reconciler withdrawing what the powers do not allow
// (-grant-enforcement=enforce) instead of keeping it.
func enforce(powers grants.Powers) func(*Fixture) {
	return func(f *Fixture) {
		f.Grants.Powers = powers
		cfg := f.ReconcilerConfig()
		cfg.GrantEnforcement = grants.Enforce
		f.Reconciler = reconcile.New(cfg)
	}
}

func wantNetworks(t *testing.T, f *Fixture, n int) {
	t.Helper()
	if nets := f.Neutron.Networks(); len(nets) != n {
		t.Errorf("Neutron holds networks %+v, want %d", nets, n)
	}
}

func wantRouters(t *testing.T, f *Fixture, n int) {
	t.Helper()
	if routers := f.Neutron.Routers(); len(routers) != n {
		t.Errorf("Neutron holds routers %+v, want %d", routers, n)
	}
}
