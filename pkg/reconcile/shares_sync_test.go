package reconcile_test

import (
	"slices"
	"testing"

	"k8s.io/utils/ptr"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials/grants"
	. "github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
	neutronfake "github.com/samplecrd/network-controller/pkg/neutron/fake"
)

// sharingCases share a Network's network with the projects of spec.sharedWith, one RBAC
// policy each, and keep them so: in the create, after a change of the list, after a
// policy deleted or made by hand, after a lost reply. They also turn port security on and
// off in place. The network's sharing mark (neutron.SharingTag) rides on the create's tag
// call and stays until the last policy is gone. A project compares as Neutron compares it,
// in every mode of the grants: re-spelt in capitals, or listed in two spellings, it is one
// share with the policy it has, and a kept one gets nothing new.
func sharingCases() []syncCase {
	off := false
	return []syncCase{{
		name:       "new Network shared with two projects, port security off: in the create, the tag call and one policy each",
		object:     WithPortSecurity(WithSharedWith(NewNetwork("shared", "10.40.0.0/24", ""), "team-b", "team-c"), &off),
		want:       succeeds,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantCalls:  []string{"create network", "tag network", "create subnet", "create rbac policy", "create rbac policy"},
		wantEvents: []string{"Normal NetworkCreated", "Normal SubnetCreated", "Normal NetworkShared", "Normal NetworkShared", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, owner neutron.Owner) {
			net := f.Neutron.Networks()[0]
			if !neutron.SharingMarked(net) || net.PortSecurityEnabled == nil || *net.PortSecurityEnabled {
				t.Errorf("network %+v: want the sharing mark and port security off", net)
			}
			wantShares(t, f.Neutron, net.ID, "team-b", "team-c")
		},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			if projects := sharedProjects(got); !slices.Equal(projects, []string{"team-b", "team-c"}) {
				t.Errorf("status.sharedWith lists %v, want team-b and team-c", got.Status.SharedWith)
			}
			if got.Status.PortSecurityEnabled == nil || *got.Status.PortSecurityEnabled {
				t.Errorf("status.portSecurityEnabled = %v, want false", got.Status.PortSecurityEnabled)
			}
		},
	}, {
		name:   "shared Network in step with Neutron: nothing at all, the policies known from the fill",
		object: WithSharesInStatus(WithSharedWith(RealizedNetwork("steady", "10.40.0.0/24", ""), "team-b")),
		neutron: PutShared(func(d *neutronfake.Driver, netID string) {
			d.PutShare(neutron.RBACPolicy{ID: "rbac-b", ObjectID: netID, TargetProject: "team-b"})
		}),
		want: succeeds,
	}, {
		name:   "a project dropped from the list: its policy deleted, the other kept",
		object: WithGeneration(WithSharesInStatus(WithSharedWith(RealizedNetwork("narrowed", "10.40.0.0/24", ""), "team-b")), 2),
		neutron: PutShared(func(d *neutronfake.Driver, netID string) {
			d.PutShare(neutron.RBACPolicy{ID: "rbac-b", ObjectID: netID, TargetProject: "team-b"})
			d.PutShare(neutron.RBACPolicy{ID: "rbac-c", ObjectID: netID, TargetProject: "team-c"})
		}),
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"delete rbac policy"},
		wantEvents: []string{"Normal NetworkUnshared", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantShares(t, f.Neutron, "net-of-narrowed", "team-b")
		},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			if len(got.Status.SharedWith) != 1 || got.Status.SharedWith[0] != (samplecrdv1.ProjectShare{ProjectID: "team-b", RBACPolicyID: "rbac-b"}) {
				t.Errorf("status.sharedWith = %v, want only team-b's rbac-b", got.Status.SharedWith)
			}
		},
	}, {
		name:   "sharedWith removed: the last policy deleted, then the sharing mark",
		object: WithGeneration(RealizedNetwork("unshared", "10.40.0.0/24", ""), 2),
		neutron: PutShared(func(d *neutronfake.Driver, netID string) {
			d.PutShare(neutron.RBACPolicy{ID: "rbac-b", ObjectID: netID, TargetProject: "team-b"})
		}),
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"delete rbac policy", "tag network"},
		wantEvents: []string{"Normal NetworkUnshared", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, owner neutron.Owner) {
			wantShares(t, f.Neutron, "net-of-unshared")
			if net := f.Neutron.Networks()[0]; neutron.SharingMarked(net) || !owner.HasTags(net.Tags) {
				t.Errorf("network tags %v: want the owner's, without the sharing mark", net.Tags)
			}
		},
	}, {
		name:       "a policy deleted by hand: made again",
		object:     WithSharesInStatus(WithSharedWith(RealizedNetwork("repaired", "10.40.0.0/24", ""), "team-b")),
		neutron:    PutShared(func(*neutronfake.Driver, string) {}),
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"create rbac policy"},
		wantEvents: []string{"Normal NetworkShared"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantShares(t, f.Neutron, "net-of-repaired", "team-b")
		},
	}, {
		name:   "a policy made by hand for a project the spec does not list: deleted",
		object: WithSharesInStatus(WithSharedWith(RealizedNetwork("intruded", "10.40.0.0/24", ""), "team-b")),
		neutron: PutShared(func(d *neutronfake.Driver, netID string) {
			d.PutShare(neutron.RBACPolicy{ID: "rbac-b", ObjectID: netID, TargetProject: "team-b"})
			d.PutShare(neutron.RBACPolicy{ID: "rbac-x", ObjectID: netID, TargetProject: "team-x"})
		}),
		want:       succeeds,
		wantCalls:  []string{"delete rbac policy"},
		wantEvents: []string{"Normal NetworkUnshared"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantShares(t, f.Neutron, "net-of-intruded", "team-b")
		},
	}, {
		name:       "an unshared Network gains sharedWith: its policies listed once, the mark, then the policy",
		object:     WithGeneration(WithSharedWith(RealizedNetwork("gains", "10.40.0.0/24", ""), "team-b"), 2),
		neutron:    PutRealizedWith("10.40.0.0/24", nil),
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"list rbac policies", "tag network", "create rbac policy"},
		wantEvents: []string{"Normal NetworkShared", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantShares(t, f.Neutron, "net-of-gains", "team-b")
			if !neutron.SharingMarked(f.Neutron.Networks()[0]) {
				t.Error("the network lacks the sharing mark")
			}
		},
	}, {
		name:      "a policy create whose reply was lost: the retry lists the policies and finds it, nothing made twice",
		object:    WithGeneration(WithSharedWith(RealizedNetwork("lost", "10.40.0.0/24", ""), "team-b"), 2),
		neutron:   PutShared(func(*neutronfake.Driver, string) {}),
		before:    loseReply(&neutron.Error{Op: "create rbac policy", Kind: neutron.KindUnavailable, Code: 502, Message: "Bad Gateway"}),
		want:      retries,
		retry:     succeeds,
		wantCalls: []string{"create rbac policy", "list rbac policies"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantShares(t, f.Neutron, "net-of-lost", "team-b")
		},
		wantWrites: []string{writeStatus, writeStatus},
		wantEvents: []string{"Warning NeutronUnavailable", "Normal Provisioned"},
	}, {
		name:       "a kept share re-spelt in capitals, warned: the policy kept, nothing made",
		object:     withShareInStatus(WithGeneration(WithSharedWith(RealizedNetwork("respelt", "10.40.0.0/24", ""), "TEAM-B"), 2), "team-b", "rbac-b"),
		neutron:    putShareOf("rbac-b", "team-b"),
		before:     grant(grants.Powers{}),
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantEvents: []string{"Warning KeptWithoutGrant", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantPolicies(t, f.Neutron, "net-of-respelt", "rbac-b team-b")
		},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			WantReady("10.40.0.1")(t, got)
			wantCondition(t, got, samplecrdv1.ConditionGrantMissing, samplecrdv1.ReasonKeptWithoutGrant, "spec.sharedWith project team-b (allow.sharedWith)")
			wantSharesStatus(t, got, "team-b rbac-b")
		},
	}, {
		name:       "a kept share re-spelt in capitals, granted: the policy kept, nothing made",
		object:     withShareInStatus(WithGeneration(WithSharedWith(RealizedNetwork("respelt", "10.40.0.0/24", ""), "TEAM-B"), 2), "team-b", "rbac-b"),
		neutron:    putShareOf("rbac-b", "team-b"),
		before:     grant(grants.Powers{SharedWith: []string{"team-b"}, Identities: []string{"ops"}}),
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantEvents: []string{"Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantPolicies(t, f.Neutron, "net-of-respelt", "rbac-b team-b")
		},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			WantReady("10.40.0.1")(t, got)
			wantSharesStatus(t, got, "team-b rbac-b")
		},
	}, {
		name:       "a kept share whose policy Neutron holds in capitals, warned: the same share, nothing made",
		object:     withShareInStatus(WithSharedWith(RealizedNetwork("capital", "10.40.0.0/24", ""), "team-b"), "TEAM-B", "rbac-b"),
		neutron:    putShareOf("rbac-b", "TEAM-B"),
		before:     grant(grants.Powers{}),
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantEvents: []string{"Warning KeptWithoutGrant"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantPolicies(t, f.Neutron, "net-of-capital", "rbac-b TEAM-B")
		},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			WantReady("10.40.0.1")(t, got)
			wantSharesStatus(t, got, "TEAM-B rbac-b")
		},
	}, {
		name:       "a kept share listed twice in two spellings, warned: its one policy kept, nothing made",
		object:     withShareInStatus(WithGeneration(WithSharedWith(RealizedNetwork("twice", "10.40.0.0/24", ""), "team-b", "TEAM-B"), 2), "team-b", "rbac-b"),
		neutron:    putShareOf("rbac-b", "team-b"),
		before:     grant(grants.Powers{}),
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantEvents: []string{"Warning KeptWithoutGrant", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantPolicies(t, f.Neutron, "net-of-twice", "rbac-b team-b")
		},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			WantReady("10.40.0.1")(t, got)
			wantSharesStatus(t, got, "team-b rbac-b")
		},
	}, {
		name:       "a new Network listing a project twice in two spellings, granted: one policy, in lower case",
		object:     WithSharedWith(NewNetwork("twice", "10.40.0.0/24", ""), "TEAM-B", "team-b"),
		before:     grant(grants.Powers{SharedWith: []string{"team-b"}, Identities: []string{"ops"}}),
		want:       succeeds,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantCalls:  []string{"create network", "tag network", "create subnet", "create rbac policy"},
		wantEvents: []string{"Normal NetworkCreated", "Normal SubnetCreated", "Normal NetworkShared", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantShares(t, f.Neutron, f.Neutron.Networks()[0].ID, "team-b")
		},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			if projects := sharedProjects(got); !slices.Equal(projects, []string{"team-b"}) {
				t.Errorf("status.sharedWith lists %v, want team-b once", got.Status.SharedWith)
			}
		},
	}, {
		name:       "port security turned on in the spec: one PUT with only port_security_enabled",
		object:     WithGeneration(WithPortSecurity(RealizedNetwork("secured", "10.40.0.0/24", ""), ptr.To(true)), 2),
		neutron:    putRealizedNetworkWith(func(n *neutron.Network) { n.PortSecurityEnabled = ptr.To(false) }),
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"update network"},
		wantEvents: []string{"Normal NetworkUpdated", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			wantBodies(t, f, "update network", `{"port_security_enabled":true}`)
		},
	}}
}

// putRealizedNetworkWith is PutRealized of 10.40.0.0/24, with the network changed by change.
func putRealizedNetworkWith(change func(*neutron.Network)) func(*neutronfake.Driver, neutron.Owner) {
	return func(d *neutronfake.Driver, owner neutron.Owner) {
		PutRealizedWith("10.40.0.0/24", nil)(d, owner)
		net := d.Networks()[0]
		change(&net)
		d.PutNetwork(net)
	}
}

// putShareOf is PutShared with one policy, id, sharing the network with project.
func putShareOf(id, project string) func(*neutronfake.Driver, neutron.Owner) {
	return PutShared(func(d *neutronfake.Driver, netID string) {
		d.PutShare(neutron.RBACPolicy{ID: id, ObjectID: netID, TargetProject: project})
	})
}

// withShareInStatus records in n's status its share with project by policy, as a pass
// left it.
func withShareInStatus(n *samplecrdv1.Network, project, policy string) *samplecrdv1.Network {
	n.Status.SharedWith = append(n.Status.SharedWith, samplecrdv1.ProjectShare{ProjectID: project, RBACPolicyID: policy})
	return n
}

// wantPolicies checks the RBAC policies that share netID, each "<id> <target>": which
// policies, not only which projects, so that one deleted and made again shows.
func wantPolicies(t *testing.T, d *neutronfake.Driver, netID string, policies ...string) {
	t.Helper()
	var got []string
	for _, p := range d.Shares() {
		if p.ObjectID == netID {
			got = append(got, p.ID+" "+p.TargetProject)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, policies) {
		t.Errorf("network %s has RBAC policies %q, want %q", netID, got, policies)
	}
}

// wantSharesStatus checks status.sharedWith, each "<project> <policy>".
func wantSharesStatus(t *testing.T, n *samplecrdv1.Network, shares ...string) {
	t.Helper()
	var got []string
	for _, s := range n.Status.SharedWith {
		got = append(got, s.ProjectID+" "+s.RBACPolicyID)
	}
	if !slices.Equal(got, shares) {
		t.Errorf("status.sharedWith = %q, want %q", got, shares)
	}
}

func wantShares(t *testing.T, d *neutronfake.Driver, netID string, projects ...string) {
	t.Helper()
	var got []string
	for _, p := range d.Shares() {
		if p.ObjectID == netID {
			got = append(got, p.TargetProject)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, projects) {
		t.Errorf("network %s is shared with %v, want %v", netID, got, projects)
	}
}

func sharedProjects(n *samplecrdv1.Network) []string {
	var out []string
	for _, s := range n.Status.SharedWith {
		out = append(out, s.ProjectID)
	}
	return out
}

func ptrTo[T any](v T) *T { return &v }
