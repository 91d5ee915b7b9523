package reconcile_test

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials/grants"
	. "github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
	neutronfake "github.com/samplecrd/network-controller/pkg/neutron/fake"
)

// enforcementCases roll grants out in modes: in warn mode (the default, grant) a power in
// effect that no grant allows any more is kept, and the Network says so beside Ready; in
// enforce mode it is withdrawn. No mode removes the Retain mark, and a pause holds the
// tenant's changes, not the operator's withdrawal.
func enforcementCases() []syncCase {
	sharedWithTeamB := func() *samplecrdv1.Network {
		return WithSharesInStatus(WithSharedWith(RealizedNetwork("was-shared", "10.40.0.0/24", ""), "team-b"))
	}
	putShareOfTeamB := PutShared(func(d *neutronfake.Driver, netID string) {
		d.PutShare(neutron.RBACPolicy{ID: "rbac-b", ObjectID: netID, TargetProject: "team-b"})
	})
	routedOnTenantRouter := func() *samplecrdv1.Network {
		return withExistingRouterInStatus(WithRouter(RealizedNetwork("was-routed", "10.61.0.0/24", ""), Existing("tenant-router")))
	}
	retained := func(d *neutronfake.Driver, owner neutron.Owner) {
		PutRealized(d, owner, "10.30.0.0/24", "10.30.0.1")
		AddTags(d, "net-of-was-kept", neutron.RetainTag)
	}
	return []syncCase{{
		name:       "the sharing grant taken away, warned: the policy kept, Ready stays, GrantMissing names it",
		object:     sharedWithTeamB(),
		neutron:    putShareOfTeamB,
		before:     grant(grants.Powers{}),
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantEvents: []string{"Warning KeptWithoutGrant"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantShares(t, f.Neutron, "net-of-was-shared", "team-b")
		},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			WantReady("10.40.0.1")(t, got)
			wantCondition(t, got, samplecrdv1.ConditionGrantMissing, samplecrdv1.ReasonKeptWithoutGrant, "spec.sharedWith project team-b (allow.sharedWith). -grant-enforcement is warn")
		},
	}, {
		name:       "the router grant taken away, warned: the subnet stays attached, GrantMissing names the router",
		object:     routedOnTenantRouter(),
		neutron:    putOnTenantRouter("was-routed"),
		before:     grant(grants.Powers{}),
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantEvents: []string{"Warning KeptWithoutGrant"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantAttached(t, f.Neutron, "tenant-router-id", 1)
		},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			wantCondition(t, got, samplecrdv1.ConditionGrantMissing, samplecrdv1.ReasonKeptWithoutGrant, `router tenant-router-id "tenant-router" (allow.existingRouters)`)
			if got.Status.Router == nil {
				t.Error("status.router is gone, want the kept router")
			}
		},
	}, {
		name:       "the Retain grant taken away, enforced: the Retain mark stays, GrantMissing says Retain is kept in every mode",
		object:     withDeletionPolicy(RealizedNetwork("was-kept", "10.30.0.0/24", ""), samplecrdv1.DeletionPolicyRetain),
		neutron:    retained,
		before:     enforce(grants.Powers{}),
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantEvents: []string{"Warning KeptWithoutGrant"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			if nets := f.Neutron.Networks(); len(nets) != 1 || !neutron.Retained(nets[0]) {
				t.Errorf("Neutron holds %+v, want the one network with its Retain mark", nets)
			}
		},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			WantReady("10.30.0.1")(t, got)
			wantCondition(t, got, samplecrdv1.ConditionGrantMissing, samplecrdv1.ReasonKeptWithoutGrant, "Retain is kept in every mode")
		},
	}, {
		name:        "a Retain Network deleted after its grant was taken away, warned: the deletion waits too",
		object:      Deleting(withDeletionPolicy(RealizedNetwork("was-kept", "10.30.0.0/24", ""), samplecrdv1.DeletionPolicyRetain)),
		neutron:     retained,
		before:      grant(grants.Powers{}),
		want:        stops,
		wantWrites:  []string{writeStatus},
		wantEvents:  []string{"Warning RetainNotGranted"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) { wantNetworks(t, f, 1) },
		wantObject:  WantNotReady(samplecrdv1.ReasonRetainNotGranted, "the deletion waits, and the Neutron network is untouched"),
	}, {
		name:   "a Retain Network deleted after its grant was given back: kept and released, GrantMissing gone",
		object: Deleting(withGrantMissing(withDeletionPolicy(RealizedNetwork("was-kept", "10.30.0.0/24", ""), samplecrdv1.DeletionPolicyRetain))),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			retained(d, owner)
		},
		before:      grant(grants.Powers{Retain: true, Identities: []string{"ops"}}),
		want:        succeeds,
		wantWrites:  []string{writeFinalizer},
		wantCalls:   []string{"relabel network", "relabel subnet", "tag network"},
		wantEvents:  []string{"Normal NeutronRetained"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) { wantNetworks(t, f, 1) },
		wantObject:  wantFinalizerRemoved,
	}, {
		name:       "an import in effect whose grant was taken away, warned: still reported, GrantMissing names it",
		object:     importedInStatus(ImportedNetwork("foreign", samplecrdv1.NetworkImport{NetworkID: "ext-1"}, "")),
		neutron:    func(d *neutronfake.Driver, _ neutron.Owner) { PutForeign(d, "ext-1", "app", "10.60.0.0/24") },
		before:     grant(grants.Powers{}),
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"list networks", "list subnets"},
		wantEvents: []string{"Warning KeptWithoutGrant", "Normal Imported"},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			WantImported("ext-1", "ext-1-0", "10.60.0.1")(t, got)
			wantCondition(t, got, samplecrdv1.ConditionGrantMissing, samplecrdv1.ReasonKeptWithoutGrant, "spec.import (allow.import)")
		},
	}, {
		name:       "an import in effect whose grant was taken away, enforced: NotGranted",
		object:     importedInStatus(ImportedNetwork("foreign", samplecrdv1.NetworkImport{NetworkID: "ext-1"}, "")),
		neutron:    func(d *neutronfake.Driver, _ neutron.Owner) { PutForeign(d, "ext-1", "app", "10.60.0.0/24") },
		before:     enforce(grants.Powers{}),
		want:       stops,
		wantWrites: []string{writeStatus},
		wantEvents: []string{"Warning NotGranted"},
		wantObject: WantNotReady(samplecrdv1.ReasonNotGranted, "spec.import (allow.import)"),
	}, {
		name:       "paused, the sharing grant taken away, enforced: the policy deleted all the same, Ready NotGranted, Paused stays",
		object:     withAnnotation(sharedWithTeamB(), samplecrdv1.ReconcilePaused),
		neutron:    putShareOfTeamB,
		before:     enforce(grants.Powers{}),
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"delete rbac policy"},
		wantEvents: []string{"Normal NetworkUnshared", "Normal Paused"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantShares(t, f.Neutron, "net-of-was-shared")
		},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			WantNotReady(samplecrdv1.ReasonNotGranted, "withdrawn (-grant-enforcement is enforce), whatever the spec or a pause says")(t, got)
			wantCondition(t, got, samplecrdv1.ConditionPaused, samplecrdv1.ReasonPaused, "")
			if len(got.Status.SharedWith) != 0 {
				t.Errorf("status.sharedWith = %v, want none", got.Status.SharedWith)
			}
		},
	}, {
		name:       "paused, the router grant taken away, enforced: the subnet detached all the same",
		object:     withAnnotation(routedOnTenantRouter(), samplecrdv1.ReconcilePaused),
		neutron:    putOnTenantRouter("was-routed"),
		before:     enforce(grants.Powers{}),
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"remove router interface"},
		wantEvents: []string{"Normal SubnetDetached", "Normal Paused"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantAttached(t, f.Neutron, "tenant-router-id", 0)
		},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			WantNotReady(samplecrdv1.ReasonNotGranted, "spec.router.existing router tenant-router-id")(t, got)
			if got.Status.Router != nil {
				t.Errorf("status.router = %+v, want none", got.Status.Router)
			}
		},
	}, {
		name:       "paused, the sharing grant taken away, warned: no Neutron call, GrantMissing beside Paused",
		object:     withAnnotation(sharedWithTeamB(), samplecrdv1.ReconcilePaused),
		neutron:    putShareOfTeamB,
		before:     grant(grants.Powers{}),
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantEvents: []string{"Warning KeptWithoutGrant", "Normal Paused"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantShares(t, f.Neutron, "net-of-was-shared", "team-b")
		},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			wantCondition(t, got, samplecrdv1.ConditionGrantMissing, samplecrdv1.ReasonKeptWithoutGrant, "team-b")
		},
	}, {
		name:       "paused, its powers granted: no Neutron call, as before",
		object:     withAnnotation(sharedWithTeamB(), samplecrdv1.ReconcilePaused),
		neutron:    putShareOfTeamB,
		before:     enforce(grants.Powers{SharedWith: []string{"team-b"}}),
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantEvents: []string{"Normal Paused"},
	}, {
		name:       "a namespace left out of the own cloud, enforced: its share withdrawn, then CredentialsRefRequired",
		object:     sharedWithTeamB(),
		neutron:    putShareOfTeamB,
		before:     enforce(grants.Powers{OwnCloudRefusedBy: "own-cloud=yes"}),
		want:       stops,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"delete rbac policy"},
		wantEvents: []string{"Normal NetworkUnshared", "Warning CredentialsRefRequired"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantShares(t, f.Neutron, "net-of-was-shared")
		},
		wantObject: WantNotReady(samplecrdv1.ReasonCredentialsRefRequired, "own-cloud=yes"),
	}, {
		name:   "the identity no longer selects the namespace, warned: its share kept and reported, NamespaceNotSelected",
		object: withIdentity(sharedWithTeamB(), "team-a-prod"),
		before: func(f *Fixture) {
			f.Grants.Former = map[string]grants.Delegation{"team-a-prod": {Identity: "team-a-prod", Secret: cache.NewObjectName("ops", "team-a-prod"), Cloud: "c"}}
		},
		want:       stops,
		wantWrites: []string{writeStatus},
		wantEvents: []string{"Warning KeptWithoutGrant", "Warning NamespaceNotSelected"},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			WantNotReady(samplecrdv1.ReasonNamespaceNotSelected, "team-a-prod")(t, got)
			wantCondition(t, got, samplecrdv1.ConditionGrantMissing, samplecrdv1.ReasonKeptWithoutGrant, "team-b")
		},
	}, {
		name:   "the identity no longer selects the namespace, enforced: withdrawn with the identity's Secret (missing here: its reason)",
		object: withIdentity(sharedWithTeamB(), "team-a-prod"),
		before: func(f *Fixture) {
			enforce(grants.Powers{})(f)
			f.Grants.Former = map[string]grants.Delegation{"team-a-prod": {Identity: "team-a-prod", Secret: cache.NewObjectName("ops", "team-a-prod"), Cloud: "c"}}
		},
		want:       stops,
		wantWrites: []string{writeStatus},
		wantEvents: []string{"Warning CredentialsSecretNotFound"},
		wantObject: WantNotReady(samplecrdv1.ReasonCredentialsSecretNotFound, "ClusterIdentity team-a-prod cannot be used"),
	}, {
		name:       "the grant given back: GrantMissing removed, nothing called",
		object:     withGrantMissing(sharedWithTeamB()),
		neutron:    putShareOfTeamB,
		before:     grant(grants.Powers{SharedWith: []string{"team-b"}}),
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			if c := meta.FindStatusCondition(got.Status.Conditions, samplecrdv1.ConditionGrantMissing); c != nil {
				t.Errorf("GrantMissing = %+v, want none", c)
			}
		},
	}}
}

// withGrantMissing gives n the GrantMissing condition an earlier pass wrote.
func withGrantMissing(n *samplecrdv1.Network) *samplecrdv1.Network {
	meta.SetStatusCondition(&n.Status.Conditions, metav1.Condition{Type: samplecrdv1.ConditionGrantMissing, Status: metav1.ConditionTrue,
		Reason: samplecrdv1.ReasonKeptWithoutGrant, Message: "kept before", ObservedGeneration: n.Generation})
	return n
}

// importedInStatus is n as a pass that imported it left it: the network's ID in status.
func importedInStatus(n *samplecrdv1.Network) *samplecrdv1.Network {
	n.Status.NetworkID = n.Spec.Import.NetworkID
	return n
}

// The metric of powers kept without a grant counts each Network once per power, as its
// last pass left it, and forgets a Network that is gone.
func TestNetworksWithoutGrantAreCountedPerPower(t *testing.T) {
	shared := WithSharesInStatus(WithSharedWith(RealizedNetwork("was-shared", "10.40.0.0/24", ""), "team-b"))
	f := New(t, shared)
	PutShared(func(d *neutronfake.Driver, netID string) {
		d.PutShare(neutron.RBACPolicy{ID: "rbac-b", ObjectID: netID, TargetProject: "team-b"})
	})(f.Neutron, OwnerOf(shared))
	f.StartLeading()
	grant(grants.Powers{})(f)
	if err := f.Sync(shared); err != nil {
		t.Fatal(err)
	}
	if got := f.Reconciler.CountWithoutGrant(); got[grants.PowerSharedWith] != 1 || len(got) != 1 {
		t.Errorf("counts = %v, want sharedWith 1 alone", got)
	}
	grant(grants.Powers{SharedWith: []string{"team-b"}})(f)
	if err := f.Sync(f.Refresh(shared.Namespace, shared.Name)); err != nil {
		t.Fatal(err)
	}
	if got := f.Reconciler.CountWithoutGrant(); len(got) != 0 {
		t.Errorf("counts = %v after the grant came back, want none", got)
	}
	grant(grants.Powers{})(f)
	if err := f.Sync(f.Refresh(shared.Namespace, shared.Name)); err != nil {
		t.Fatal(err)
	}
	f.Reconciler.Forget(cache.MetaObjectToName(shared))
	if got := f.Reconciler.CountWithoutGrant(); len(got) != 0 {
		t.Errorf("counts = %v after the Network was forgotten, want none", got)
	}
}
