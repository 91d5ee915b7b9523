//go:build e2e

package e2e

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// An application credential that Keystone says expires in three days: the Network stays
// Ready and says so beside it, with a Warning Event and the metrics; a Secret rotated to
// one that does not expire clears it, without a restart.
func TestCredentialsExpiryWarning(t *testing.T) {
	t.Parallel()
	ks, _ := OwnKeystone(t, LocalKeystone(t).WithOwnUsers(t, MemberCloud, TenantB))
	soon := time.Now().Add(3 * 24 * time.Hour).UTC().Truncate(time.Second)
	ns, ctrl := StartTenantController(t, ks, ks.ApplicationCredentialCloudsYAML(t, &soon))
	CreateTenantNetwork(t, ns, "expiring", "10.186.0.0/24", "openstack", TenantB)

	n := WaitNetwork(t, ns, "expiring", 90*time.Second, "Ready=True and CredentialsExpiring=True", func(n *samplecrdv1.Network) error {
		if c := n.ReadyCondition(); c == nil || c.Status != metav1.ConditionTrue || !meta.IsStatusConditionTrue(n.Status.Conditions, samplecrdv1.ConditionCredentialsExpiring) {
			return fmt.Errorf("%s; conditions %+v", DescribeReady(n), n.Status.Conditions)
		}
		return nil
	})
	message := meta.FindStatusCondition(n.Status.Conditions, samplecrdv1.ConditionCredentialsExpiring).Message
	t.Logf("CredentialsExpiring: %s", message)
	if !strings.Contains(message, "application credential") || !strings.Contains(message, "expires at "+soon.Format(time.RFC3339)) {
		t.Errorf("CredentialsExpiring says %q, want the application credential and %s", message, soon.Format(time.RFC3339))
	}
	WaitEvent(t, ns, "expiring", "Warning", samplecrdv1.ReasonCredentialsExpiring, "expires at", 30*time.Second)
	if v, err := ctrl.Metric("network_controller_credentials_expiring"); err != nil || v != 1 {
		t.Errorf("network_controller_credentials_expiring = %v (%v), want 1", v, err)
	}
	if v, err := ctrl.Metric("network_controller_credentials_expiry_timestamp_seconds", "namespace="+ns, "secret=openstack", "kind=application_credential"); err != nil || int64(v) != soon.Unix() {
		t.Errorf("network_controller_credentials_expiry_timestamp_seconds of the Secret = %v (%v), want %d", v, err, soon.Unix())
	}

	PutCredentialsSecret(t, ns, "openstack", map[string]string{"clouds.yaml": ks.ApplicationCredentialCloudsYAML(t, nil)})
	WaitNetwork(t, ns, "expiring", 60*time.Second, "CredentialsExpiring gone, Ready=True", func(n *samplecrdv1.Network) error {
		if c := n.ReadyCondition(); c == nil || c.Status != metav1.ConditionTrue || meta.FindStatusCondition(n.Status.Conditions, samplecrdv1.ConditionCredentialsExpiring) != nil {
			return fmt.Errorf("%s; conditions %+v", DescribeReady(n), n.Status.Conditions)
		}
		return nil
	})
	Eventually(t, 30*time.Second, 200*time.Millisecond, "no credentials expiring", func() error {
		if v, err := ctrl.Metric("network_controller_credentials_expiring"); err != nil || v != 0 {
			return fmt.Errorf("network_controller_credentials_expiring = %v (%v)", v, err)
		}
		return nil
	})
}

// A ClusterIdentity's application credential that expires in three days: the delegated
// Network is told that the identity's credentials expire and when, never which Keystone
// user or application credential they are (the operator's); the log and the metric say.
func TestCredentialsExpiryWarningOfAClusterIdentity(t *testing.T) {
	t.Parallel()
	ks, _ := OwnKeystone(t, LocalKeystone(t).WithOwnUsers(t, MemberCloud, TenantB))
	soon := time.Now().Add(3 * 24 * time.Hour).UTC().Truncate(time.Second)
	cloudsYAML := ks.ApplicationCredentialCloudsYAML(t, &soon)
	credentialID := regexp.MustCompile(`application_credential_id: (\S+)`).FindStringSubmatch(cloudsYAML)
	if credentialID == nil {
		t.Fatalf("no application_credential_id in the clouds.yaml made:\n%s", cloudsYAML)
	}
	ops, ns := NewNamespace(t), NewNamespace(t)
	label := "e2e-expiry-" + RandomSuffix(6)
	MustKubectl(t, "label", "namespace", ns, label+"=yes")
	PutCredentialsSecret(t, ops, "team-b", map[string]string{"clouds.yaml": cloudsYAML})
	identity := DelegateProject(t, map[string]string{label: "yes"}, ops, "team-b", TenantB, samplecrdv1.IdentityAllow{})
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns}, Args: ks.ControllerArgs(MemberCloud), Env: ks.ControllerEnv()})
	CreateDelegatedNetwork(t, ns, "expiring", "10.186.1.0/24", identity)

	n := WaitNetwork(t, ns, "expiring", 90*time.Second, "Ready=True and CredentialsExpiring=True", func(n *samplecrdv1.Network) error {
		if c := n.ReadyCondition(); c == nil || c.Status != metav1.ConditionTrue || !meta.IsStatusConditionTrue(n.Status.Conditions, samplecrdv1.ConditionCredentialsExpiring) {
			return fmt.Errorf("%s; conditions %+v", DescribeReady(n), n.Status.Conditions)
		}
		return nil
	})
	want := "the credentials of ClusterIdentity " + identity + " expire at " + soon.Format(time.RFC3339)
	event := WaitEvent(t, ns, "expiring", "Warning", samplecrdv1.ReasonCredentialsExpiring, want, 30*time.Second)
	message := meta.FindStatusCondition(n.Status.Conditions, samplecrdv1.ConditionCredentialsExpiring).Message
	t.Logf("CredentialsExpiring: %s", message)
	for _, said := range []string{message, event.Message} {
		if !strings.HasPrefix(said, want) || strings.Contains(said, credentialID[1]) || strings.Contains(said, "Keystone user") || strings.Contains(said, "application credential") {
			t.Errorf("the tenant is told %q, want %q and nothing of the operator's Keystone user or application credential", said, want)
		}
	}
	if !strings.Contains(ctrl.Logs(), "(ID "+credentialID[1]+")") {
		t.Errorf("the controller's log does not name application credential %s", credentialID[1])
	}
	if v, err := ctrl.Metric("network_controller_credentials_expiry_timestamp_seconds", "identity="+identity, "kind=application_credential"); err != nil || int64(v) != soon.Unix() {
		t.Errorf("network_controller_credentials_expiry_timestamp_seconds of the identity = %v (%v), want %d", v, err, soon.Unix())
	}
}
