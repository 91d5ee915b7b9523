//go:build e2e

package e2e

import (
	"fmt"
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
