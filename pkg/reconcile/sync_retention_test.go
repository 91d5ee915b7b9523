package reconcile_test

import (
	"context"
	"slices"
	"testing"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	. "github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
	neutronfake "github.com/samplecrd/network-controller/pkg/neutron/fake"
)

// retentionCases carry out spec.deletionPolicy: Retain keeps the Neutron side and removes the
// cluster's marks in order (the network's description and name, its subnet's, then its
// tags), never deleting; a release cut off between two steps is finished from where it
// stopped; the policy in the spec when the finalizer runs wins; the policy is mirrored in
// the tags the create writes anyway.
func retentionCases() []syncCase {
	return []syncCase{{
		name:   "Retain: network relabeled, then its subnet, then its tags; nothing deleted",
		object: Deleting(withDeletionPolicy(RealizedNetwork("kept", "10.30.0.0/24", ""), samplecrdv1.DeletionPolicyRetain)),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			PutRealized(d, owner, "10.30.0.0/24", "10.30.0.1")
			AddTags(d, "net-of-kept", neutron.RetainTag, ForeignTag)
		},
		want:        succeeds,
		wantWrites:  []string{writeFinalizer},
		wantCalls:   []string{"relabel network", "relabel subnet", "tag network"},
		wantEvents:  []string{"Normal NeutronRetained"},
		wantNeutron: WantReleased("net-of-kept", "subnet-of-kept", "default/kept"),
		wantObject:  wantFinalizerRemoved,
	}, {
		name:   "Retain in the spec, Delete in the tags (changed just before the delete): the spec wins",
		object: Deleting(withDeletionPolicy(RealizedNetwork("changed-late", "10.30.1.0/24", ""), samplecrdv1.DeletionPolicyRetain)),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			PutRealized(d, owner, "10.30.1.0/24", "10.30.1.1")
			AddTags(d, "net-of-changed-late", ForeignTag)
		},
		want:        succeeds,
		wantWrites:  []string{writeFinalizer},
		wantCalls:   []string{"relabel network", "relabel subnet", "tag network"},
		wantEvents:  []string{"Normal NeutronRetained"},
		wantNeutron: WantReleased("net-of-changed-late", "subnet-of-changed-late", "default/changed-late"),
	}, {
		name:   "Delete in the spec, Retain in the tags (changed just before the delete): the spec wins, one DELETE",
		object: Deleting(withDeletionPolicy(RealizedNetwork("doomed-late", "10.30.2.0/24", ""), samplecrdv1.DeletionPolicyDelete)),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			PutRealized(d, owner, "10.30.2.0/24", "10.30.2.1")
			AddTags(d, "net-of-doomed-late", neutron.RetainTag)
		},
		want:        succeeds,
		wantWrites:  []string{writeFinalizer},
		wantCalls:   []string{"delete network"},
		wantEvents:  []string{"Normal NeutronDeleted"},
		wantNeutron: wantNeutronEmpty,
	}, {
		// The fill lists by the cluster's description, which the network no longer has:
		// the owner's tags find it.
		name:   "Retain, cut off after the network's relabel: found by its tags, subnet relabeled, tags removed",
		object: Deleting(withDeletionPolicy(RealizedNetwork("halfway", "10.30.3.0/24", ""), samplecrdv1.DeletionPolicyRetain)),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			PutRealized(d, owner, "10.30.3.0/24", "10.30.3.1")
			relabelInFake(d, "net-of-halfway", "default/halfway")
			AddTags(d, "net-of-halfway", neutron.RetainTag, ForeignTag)
		},
		want:        succeeds,
		wantWrites:  []string{writeFinalizer},
		wantCalls:   []string{"list networks", "list subnets", "relabel subnet", "tag network"},
		wantEvents:  []string{"Normal NeutronRetained"},
		wantNeutron: WantReleased("net-of-halfway", "subnet-of-halfway", "default/halfway"),
	}, {
		name:   "Retain, cut off after the subnet's relabel: found by its tags, tags removed",
		object: Deleting(withDeletionPolicy(RealizedNetwork("nearly", "10.30.4.0/24", ""), samplecrdv1.DeletionPolicyRetain)),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			PutRealized(d, owner, "10.30.4.0/24", "10.30.4.1")
			relabelInFake(d, "net-of-nearly", "default/nearly")
			relabelInFake(d, "subnet-of-nearly", "default/nearly")
			AddTags(d, "net-of-nearly", neutron.RetainTag, ForeignTag)
		},
		want:        succeeds,
		wantWrites:  []string{writeFinalizer},
		wantCalls:   []string{"list networks", "list subnets", "tag network"},
		wantEvents:  []string{"Normal NeutronRetained"},
		wantNeutron: WantReleased("net-of-nearly", "subnet-of-nearly", "default/nearly"),
	}, {
		name:   "Retain, cut off after the tags, before the finalizer: one lookup, nothing to change",
		object: Deleting(withDeletionPolicy(RealizedNetwork("done", "10.30.5.0/24", ""), samplecrdv1.DeletionPolicyRetain)),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			PutRealized(d, owner, "10.30.5.0/24", "10.30.5.1")
			relabelInFake(d, "net-of-done", "default/done")
			relabelInFake(d, "subnet-of-done", "default/done")
			SetTags(d, "net-of-done", ForeignTag)
		},
		want:        succeeds,
		wantWrites:  []string{writeFinalizer},
		wantCalls:   []string{"list networks"},
		wantEvents:  []string{"Normal NeutronRetained"},
		wantNeutron: WantReleased("net-of-done", "subnet-of-done", "default/done"),
	}, {
		name:   "Retain, the subnet's relabel applied but its reply lost: retried, continued, nothing deleted",
		object: Deleting(withDeletionPolicy(RealizedNetwork("lost", "10.30.6.0/24", ""), samplecrdv1.DeletionPolicyRetain)),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			PutRealized(d, owner, "10.30.6.0/24", "10.30.6.1")
			AddTags(d, "net-of-lost", neutron.RetainTag, ForeignTag)
		},
		before:      loseReply(&neutron.Error{Op: "relabel subnet", Kind: neutron.KindUnavailable, Code: 503, Message: "Service Unavailable"}),
		want:        retries,
		retry:       succeeds,
		wantWrites:  []string{writeStatus, writeFinalizer},
		wantCalls:   []string{"relabel network", "relabel subnet", "relabel subnet", "tag network"},
		wantEvents:  []string{"Warning NeutronUnavailable", "Normal NeutronRetained"},
		wantNeutron: WantReleased("net-of-lost", "subnet-of-lost", "default/lost"),
		wantObject:  wantFinalizerRemoved,
	}, {
		name:       "new Network with Retain: the policy rides in the create's tag call",
		object:     withDeletionPolicy(NewNetwork("keeper", "10.30.7.0/24", ""), samplecrdv1.DeletionPolicyRetain),
		want:       succeeds,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantCalls:  []string{"create network", "tag network", "create subnet"},
		wantEvents: []string{"Normal NetworkCreated", "Normal SubnetCreated", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, owner neutron.Owner) {
			if nets := f.Neutron.Networks(); len(nets) != 1 || !owner.HasTags(nets[0].Tags) || !neutron.Retained(nets[0]) {
				t.Errorf("networks = %+v, want one with the owner's tags and %s", nets, neutron.RetainTag)
			}
		},
		wantObject: WantReady("10.30.7.1"),
	}, {
		name:   "deletionPolicy changed to Retain on a Ready Network: one tag call, other tags kept",
		object: WithGeneration(withDeletionPolicy(RealizedNetwork("switched", "10.30.8.0/24", ""), samplecrdv1.DeletionPolicyRetain), 2),
		neutron: func(d *neutronfake.Driver, owner neutron.Owner) {
			PutRealized(d, owner, "10.30.8.0/24", "10.30.8.1")
			AddTags(d, "net-of-switched", ForeignTag)
		},
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"tag network"},
		wantEvents: []string{"Normal NetworkUpdated", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, owner neutron.Owner) {
			n := f.Neutron.Networks()[0]
			if !owner.HasTags(n.Tags) || !neutron.Retained(n) || !slices.Contains(n.Tags, ForeignTag) {
				t.Errorf("tags = %v, want the owner's, %s and %s", n.Tags, neutron.RetainTag, ForeignTag)
			}
		},
		wantObject: WantReady("10.30.8.1"),
	}}
}

func withDeletionPolicy(n *samplecrdv1.Network, policy samplecrdv1.DeletionPolicy) *samplecrdv1.Network {
	n.Spec.DeletionPolicy = policy
	return n
}

// relabelInFake gives a network or subnet of the fake Neutron the name and empty
// description a release gives it: the state a release cut off after that step leaves.
func relabelInFake(d *neutronfake.Driver, id, name string) {
	label := neutron.Label{Name: name}
	if _, err := d.RelabelNetwork(context.Background(), id, label); err == nil {
		return
	}
	if _, err := d.RelabelSubnet(context.Background(), id, label); err != nil {
		panic(err)
	}
}

func wantFinalizerRemoved(t *testing.T, got *samplecrdv1.Network) {
	t.Helper()
	if slices.Contains(got.Finalizers, samplecrdv1.FinalizerName) {
		t.Error("finalizer still present")
	}
}
