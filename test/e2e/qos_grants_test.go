//go:build e2e

package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// createDefaultQoSPolicy creates, as the cloud's admin, the default QoS policy of project
// (qos-default's is_default: Neutron gives it to every network made there without one),
// and deletes it at the end of the test (the test deletes the Networks using it first).
func createDefaultQoSPolicy(t *testing.T, name, project string) string {
	t.Helper()
	var out struct {
		Policy struct {
			ID        string `json:"id"`
			IsDefault *bool  `json:"is_default"`
		} `json:"policy"`
	}
	MustNeutron(t, http.MethodPost, "v2.0/qos/policies", map[string]any{"policy": map[string]any{"name": name, "project_id": project, "is_default": true}},
		&out, http.StatusCreated)
	t.Cleanup(func() {
		MustNeutron(t, http.MethodDelete, "v2.0/qos/policies/"+out.Policy.ID, nil, nil, http.StatusNoContent, http.StatusNotFound)
	})
	if out.Policy.IsDefault == nil || !*out.Policy.IsDefault {
		t.Fatalf("QoS policy %s of project %s is not its default (is_default %v): this Neutron lacks the qos-default extension", out.Policy.ID, project, out.Policy.IsDefault)
	}
	return out.Policy.ID
}

// waitQoSInNeutron waits until the Network is Ready for its latest generation with
// status.qosPolicyID status, and its Neutron network has the policy inNeutron.
func waitQoSInNeutron(t *testing.T, ns, name, status, inNeutron string) *samplecrdv1.Network {
	t.Helper()
	n := WaitNetwork(t, ns, name, 60*time.Second, "Ready with status.qosPolicyID "+status, func(n *samplecrdv1.Network) error {
		if !n.IsReady() || n.Status.QoSPolicyID != status {
			return fmt.Errorf("%s status.qosPolicyID=%q", DescribeReady(n), n.Status.QoSPolicyID)
		}
		return nil
	})
	Eventually(t, 30*time.Second, 500*time.Millisecond, "network "+n.Status.NetworkID+" on QoS policy "+inNeutron, func() error {
		if got := neutronQoS(t, n.Status.NetworkID); got != inNeutron {
			return fmt.Errorf("QoS policy is %q", got)
		}
		return nil
	})
	return n
}

// On the real Neutron and Keystone, in a project of the test's own whose admin made a
// default QoS policy (a bandwidth cap): the controller's own cloud is a project the
// namespaces share, so spec.qosPolicy is refused (NotGranted, nothing made) until a
// ClusterIdentity grants the policy, then Ready with it. A Network without spec.qosPolicy
// gets the default from Neutron; removing spec.qosPolicy gives the network that default
// back, not none. A policy whose grant went is kept in warn mode (GrantMissing) and, with
// -grant-enforcement=enforce, set back to the default.
func TestQoSPolicyGrantAndTheProjectsDefault(t *testing.T) {
	t.Parallel()
	ks := LocalKeystone(t).WithOwnUsers(t, MemberCloud)
	project := ks.ProjectID(t, MemberCloud)
	sfx := RandomSuffix(6)
	gold := createQoSPolicy(t, "gold-"+sfx, project)
	limit := createDefaultQoSPolicy(t, "limit-"+sfx, project)
	t.Logf("project %s: QoS policy gold-%s %s, default policy limit-%s %s", project, sfx, gold, sfx, limit)
	ns := NewNamespace(t)
	identity := GrantPowers(t, ns, samplecrdv1.IdentityAllow{})
	clusterID := NewClusterID(t)
	args := append(ks.ControllerArgs(MemberCloud), "-retry-max-delay=3s")
	controller := StartController(t, ControllerOptions{Namespaces: []string{ns}, ClusterID: clusterID, Args: args, Env: ks.ControllerEnv()})

	// Not granted: refused before anything is made.
	CreateNetworkWithSpec(t, ns, "qos", samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: "10.86.0.0/24"},
		QoSPolicy: &samplecrdv1.NeutronRef{Name: "gold-" + sfx}})
	refused := WaitReason(t, ns, "qos", 90*time.Second, metav1.ConditionFalse, samplecrdv1.ReasonNotGranted)
	if msg := refused.ReadyCondition().Message; refused.Status.NetworkID != "" || !strings.Contains(msg, "allow.qosPolicies") || !strings.Contains(msg, gold) {
		t.Errorf("refused: network %q, message %q; want nothing made and the policy and allow.qosPolicies named", refused.Status.NetworkID, msg)
	}
	t.Logf("no grant: %s", refused.ReadyCondition().Message)

	// A Network that names no policy gets the project's default from Neutron.
	CreateNetwork(t, ns, "plain", "10.86.1.0/24", "")
	plain := waitQoSInNeutron(t, ns, "plain", "", limit)
	t.Logf("a new network without spec.qosPolicy: network %s has the default %s", plain.Status.NetworkID, limit)

	// Granted by id, the spec naming it by name.
	SetGrant(t, identity, samplecrdv1.IdentityAllow{QoSPolicies: []samplecrdv1.NeutronRef{{ID: gold}}})
	qos := waitQoSInNeutron(t, ns, "qos", gold, gold)
	t.Logf("granted: network %s has %s", qos.Status.NetworkID, gold)

	// Removed: the project's default, as a new network has, never none.
	PatchSpecField(t, ns, "qos", "qosPolicy", "null")
	waitQoSInNeutron(t, ns, "qos", "", limit)
	WaitEvent(t, ns, "qos", "Normal", "NetworkUpdated", "qos policy from "+gold+" to "+limit, 30*time.Second)
	t.Logf("spec.qosPolicy removed: network %s is back on the default %s", qos.Status.NetworkID, limit)

	// Set again, then the grant goes: warn keeps it and says so.
	PatchSpecField(t, ns, "qos", "qosPolicy", `{"id":"`+gold+`"}`)
	waitQoSInNeutron(t, ns, "qos", gold, gold)
	SetGrant(t, identity, samplecrdv1.IdentityAllow{})
	kept := waitGrantMissing(t, ns, "qos", "allow.qosPolicies")
	if got := neutronQoS(t, qos.Status.NetworkID); !kept.IsReady() || got != gold {
		t.Errorf("warn: %s, network on %q; want Ready and %s kept", DescribeReady(kept), got, gold)
	}
	t.Logf("warn: network %s keeps %s, Ready %s", qos.Status.NetworkID, gold, DescribeReady(kept))

	// Enforced: set back to the default, NotGranted.
	controller.Stop()
	StartController(t, ControllerOptions{Namespaces: []string{ns}, ClusterID: clusterID, Args: append(args, "-grant-enforcement=enforce"), Env: ks.ControllerEnv()})
	withdrawn := WaitReason(t, ns, "qos", 90*time.Second, metav1.ConditionFalse, samplecrdv1.ReasonNotGranted)
	Eventually(t, 30*time.Second, 500*time.Millisecond, "the withdrawn policy's network on the default", func() error {
		if got := neutronQoS(t, qos.Status.NetworkID); got != limit {
			return fmt.Errorf("QoS policy is %q", got)
		}
		return nil
	})
	t.Logf("enforce: network %s is back on the default %s: %s", qos.Status.NetworkID, limit, withdrawn.ReadyCondition().Message)

	// The networks go before their policies do.
	for _, name := range []string{"qos", "plain"} {
		DeleteNetwork(t, ns, name)
		WaitGone(t, ns, name, 60*time.Second)
	}
}
