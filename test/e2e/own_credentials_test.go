//go:build e2e

package e2e

import (
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// The controller's own Keystone user is disabled for longer than a token lives, then
// enabled again: its Networks wait with KeystoneUnavailable meanwhile, the metric behind
// NetworkControllerOwnCredentialsRefused says so, and everything recovers without a
// restart. The user is one of the test's own: the tests beside it keep theirs.
func TestOwnUserDisabledAndEnabled(t *testing.T) {
	t.Parallel()
	ks := LocalKeystone(t).WithOwnUsers(t, MemberCloud)
	ns := NewNamespace(t)
	userID := ks.UserID(t, MemberCloud)
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns}, Args: ks.ControllerArgs(MemberCloud), Env: ks.ControllerEnv()})
	CreateNetwork(t, ns, "before", "10.166.0.0/24", "")
	WaitReady(t, ns, "before", 90*time.Second)

	ks.SetUserEnabled(t, userID, false)
	enabled := false
	t.Cleanup(func() {
		if !enabled {
			ks.SetUserEnabled(t, userID, true)
		}
	})
	// Neutron takes the token it has until it runs out; the renewal is what Keystone
	// refuses.
	time.Sleep(ks.TokenLifetime + 5*time.Second)
	CreateNetwork(t, ns, "during", "10.166.1.0/24", "")
	n := WaitReason(t, ns, "during", 90*time.Second, metav1.ConditionFalse, samplecrdv1.ReasonKeystoneUnavailable)
	t.Logf("while the user is disabled: %s", DescribeReady(n))
	Eventually(t, 30*time.Second, 500*time.Millisecond, "network_controller_own_credentials_refused to be 1", func() error {
		if v, err := ctrl.Metric("network_controller_own_credentials_refused"); err != nil || v != 1 {
			return fmt.Errorf("network_controller_own_credentials_refused = %v (%v)", v, err)
		}
		return nil
	})

	ks.SetUserEnabled(t, userID, true)
	enabled = true
	start := time.Now()
	WaitReady(t, ns, "during", 3*time.Minute)
	t.Logf("Ready %s after the user was enabled again", time.Since(start).Round(time.Second))
	if v, err := ctrl.Metric("network_controller_own_credentials_refused"); err != nil || v != 0 {
		t.Errorf("network_controller_own_credentials_refused = %v (%v) after recovery, want 0", v, err)
	}
	if ctrl.Exited() {
		t.Fatal("the controller exited")
	}
	if err := ExpectStatus(ctrl.HealthURL+"/readyz", 200); err != nil {
		t.Errorf("readyz after recovery: %v", err)
	}
	for _, name := range []string{"before", "during"} {
		DeleteNetwork(t, ns, name)
	}
	for _, name := range []string{"before", "during"} {
		WaitGone(t, ns, name, 90*time.Second)
	}
}
