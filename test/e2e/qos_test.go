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

// createQoSPolicy creates, as the cloud's admin, a QoS policy of project, and deletes it
// at the end of the test (the test deletes the Networks using it first).
func createQoSPolicy(t *testing.T, name, project string) string {
	t.Helper()
	var out struct {
		Policy struct {
			ID string `json:"id"`
		} `json:"policy"`
	}
	MustNeutron(t, http.MethodPost, "v2.0/qos/policies", map[string]any{"policy": map[string]any{"name": name, "project_id": project}}, &out, http.StatusCreated)
	t.Cleanup(func() {
		MustNeutron(t, http.MethodDelete, "v2.0/qos/policies/"+out.Policy.ID, nil, nil, http.StatusNoContent, http.StatusNotFound)
	})
	return out.Policy.ID
}

// neutronQoS reads the QoS policy of a Neutron network, "" for none.
func neutronQoS(t *testing.T, networkID string) string {
	t.Helper()
	if id := NeutronNetworkAttribute(t, networkID, "qos_policy_id"); id != nil {
		return *id
	}
	return ""
}

// waitQoS waits until the Network is Ready for its latest generation with
// status.qosPolicyID want, and its Neutron network has that policy.
func waitQoS(t *testing.T, ns, name, want string) *samplecrdv1.Network {
	t.Helper()
	n := WaitNetwork(t, ns, name, 60*time.Second, "Ready with QoS policy "+want, func(n *samplecrdv1.Network) error {
		if !n.IsReady() || n.Status.QoSPolicyID != want {
			return fmt.Errorf("%s status.qosPolicyID=%q", DescribeReady(n), n.Status.QoSPolicyID)
		}
		return nil
	})
	if got := neutronQoS(t, n.Status.NetworkID); got != want {
		t.Errorf("Neutron network %s has QoS policy %q, want %q", n.Status.NetworkID, got, want)
	}
	return n
}

// spec.qosPolicy on the real Neutron, with the controller as the project's member user
// and the policies granted (allow.qosPolicies: the project is the controller's own, which
// namespaces share): set by name, changed to another by id, put back after a change by
// hand, removed; a name no policy has, or two have, and another project's policy until
// Neutron shares it with the project, each get their reason and no network; import
// refuses it at admission.
func TestQoSPolicy(t *testing.T) {
	t.Parallel()
	ks := LocalKeystone(t)
	project := ks.ProjectID(t, MemberCloud)
	sfx := RandomSuffix(6)
	gold := createQoSPolicy(t, "gold-"+sfx, project)
	silver := createQoSPolicy(t, "silver-"+sfx, project)
	createQoSPolicy(t, "twin-"+sfx, project)
	createQoSPolicy(t, "twin-"+sfx, project)
	foreign := createQoSPolicy(t, "foreign-"+sfx, "other-project-"+sfx)

	ns := NewNamespace(t)
	GrantPowers(t, ns, samplecrdv1.IdentityAllow{QoSPolicies: []samplecrdv1.NeutronRef{{Name: "gold-" + sfx}, {ID: silver}, {ID: foreign}}})
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns}, Args: append(ks.ControllerArgs(MemberCloud), "-neutron-resync-period=2s"), Env: ks.ControllerEnv()})
	spec := func(cidr string, ref samplecrdv1.NeutronRef) samplecrdv1.NetworkSpec {
		return samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: cidr}, QoSPolicy: &ref}
	}

	// Set by name.
	CreateNetworkWithSpec(t, ns, "qos", spec("10.74.0.0/24", samplecrdv1.NeutronRef{Name: "gold-" + sfx}))
	first := waitQoS(t, ns, "qos", gold)
	t.Logf("created with QoS policy gold-%s: network %s has %s", sfx, first.Status.NetworkID, gold)

	// Changed in place, by id.
	PatchSpecField(t, ns, "qos", "qosPolicy", `{"name":null,"id":"`+silver+`"}`)
	changed := waitQoS(t, ns, "qos", silver)
	if changed.Status.NetworkID != first.Status.NetworkID {
		t.Errorf("the change made network %s, want the same %s", changed.Status.NetworkID, first.Status.NetworkID)
	}
	WaitEvent(t, ns, "qos", "Normal", "NetworkUpdated", "qos policy from "+gold+" to "+silver, 30*time.Second)

	// Changed by hand in Neutron: the resync puts it back.
	ChangeByHandAndWaitRepair(t, ctrl, ns, "qos", first.Status.NetworkID, "qos_policy_id", gold,
		func() string { return neutronQoS(t, first.Status.NetworkID) }, silver, "qos policy")

	// Removed: the network has none.
	PatchSpecField(t, ns, "qos", "qosPolicy", "null")
	waitQoS(t, ns, "qos", "")

	// A name no policy has, a name two have, and another project's policy not shared with
	// the project: a reason each, and nothing made.
	CreateNetworkWithSpec(t, ns, "qos-missing", spec("10.74.1.0/24", samplecrdv1.NeutronRef{Name: "platinum-" + sfx}))
	CreateNetworkWithSpec(t, ns, "qos-twins", spec("10.74.2.0/24", samplecrdv1.NeutronRef{Name: "twin-" + sfx}))
	CreateNetworkWithSpec(t, ns, "qos-foreign", spec("10.74.3.0/24", samplecrdv1.NeutronRef{ID: foreign}))
	for name, want := range map[string]struct{ reason, text string }{
		"qos-missing": {samplecrdv1.ReasonReferenceNotFound, `spec.qosPolicy names QoS policy "platinum-` + sfx + `"`},
		"qos-twins":   {samplecrdv1.ReasonReferenceAmbiguous, "sees 2 of that name; name it by id"},
		"qos-foreign": {samplecrdv1.ReasonReferenceNotFound, "QoS policy " + foreign + ", which project " + project + " cannot see"},
	} {
		n := WaitReason(t, ns, name, 60*time.Second, metav1.ConditionFalse, want.reason)
		if msg := n.ReadyCondition().Message; !strings.Contains(msg, want.text) {
			t.Errorf("%s: Ready message %q does not say %q", name, msg, want.text)
		}
		if n.Status.NetworkID != "" {
			t.Errorf("%s: status.networkID = %s, want none made", name, n.Status.NetworkID)
		}
		t.Logf("%s: %s: %s", name, want.reason, n.ReadyCondition().Message)
	}

	// Neutron shares the other project's policy with the project: the next resync looks
	// again and uses it.
	MustNeutron(t, http.MethodPost, "v2.0/rbac-policies", map[string]any{"rbac_policy": map[string]any{
		"object_type": "qos_policy", "object_id": foreign, "action": "access_as_shared", "target_tenant": project}}, nil, http.StatusCreated)
	waitQoS(t, ns, "qos-foreign", foreign)
	t.Logf("qos-foreign: Ready with %s once shared with project %s", foreign, project)

	// Import refuses it at admission.
	_, nets := Clients(t)
	_, err := nets.SamplecrdV1().Networks(ns).Create(Ctx(t, 30*time.Second), &samplecrdv1.Network{
		ObjectMeta: metav1.ObjectMeta{Name: "qos-import", Namespace: ns},
		Spec: samplecrdv1.NetworkSpec{Import: &samplecrdv1.NetworkImport{NetworkName: "public"},
			QoSPolicy: &samplecrdv1.NeutronRef{Name: "gold-" + sfx}},
	}, metav1.CreateOptions{})
	if err == nil || !strings.Contains(err.Error(), "spec.qosPolicy: Forbidden: qosPolicy cannot be set together with import") {
		t.Errorf("import with qosPolicy: %v, want refused naming spec.qosPolicy", err)
	}

	// The networks go before their policies do.
	for _, name := range []string{"qos", "qos-foreign", "qos-missing", "qos-twins"} {
		DeleteNetwork(t, ns, name)
		WaitGone(t, ns, name, 60*time.Second)
	}
}
