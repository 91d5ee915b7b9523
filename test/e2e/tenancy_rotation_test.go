//go:build e2e

package e2e

import (
	"strings"
	"testing"
	"time"
)

// Credentials rotate without a restart. team-a's user changes its password and then its
// Secret; team-b's user makes a new application credential, puts it in its Secret and
// deletes the old one. Each Secret change makes the controller log in with the new
// credentials at once (Keystone's request log shows the token before anything else asks
// for Neutron), creates, gateway changes and deletes go on, and no Network ever shows an
// authentication error. The tenants' users are the test's own, and so is the Keystone
// whose request log it reads: the tests beside it keep theirs.
func TestTenantCredentialsRotateWithoutRestart(t *testing.T) {
	t.Parallel()
	ks, _ := OwnKeystone(t, LocalKeystone(t).WithOwnUsers(t, TenantA, TenantB))
	nsA, nsB := NewNamespace(t), NewNamespace(t)
	teamA := ks.CloudsYAMLOf(t, TenantA)
	oldCred := ks.NewApplicationCredential(t, "team-b-user", "e2e-rotation-old-"+RandomSuffix(6))
	t.Cleanup(func() { _ = oldCred.delete() }) // gone already when the test got that far
	PutCredentialsSecret(t, nsA, "openstack", map[string]string{"clouds.yaml": teamA})
	PutCredentialsSecret(t, nsB, "openstack", map[string]string{"clouds.yaml": oldCred.CloudsYAML(ks.AuthURL, TenantB)})
	notReady := []*statusRecorder{recordNotReady(t, nsA), recordNotReady(t, nsB)}

	_, startLine := ks.ControllerTokenRequests(t, 0)
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{nsA, nsB}, Args: ks.ControllerArgs(MemberCloud), Env: ks.ControllerEnv()})
	CreateTenantNetwork(t, nsA, "a1", "10.170.0.0/24", "openstack", TenantA)
	CreateTenantNetwork(t, nsB, "b1", "10.171.0.0/24", "openstack", TenantB)
	a1, b1 := WaitReady(t, nsA, "a1", 90*time.Second), WaitReady(t, nsB, "b1", 90*time.Second)

	// team-a: a new password in Keystone, then in the Secret. Keystone refuses the old
	// one from now on, so a token issued now was asked for with the new one.
	newPassword := "e2e-" + RandomSuffix(24)
	ks.ChangePassword(t, TenantA, newPassword)
	rotateSecret(t, ks, ctrl, nsA, map[string]string{"clouds.yaml": editAuth(t, teamA, TenantA, "password", newPassword)})
	keepWorking(t, nsA, "a", "10.170", "openstack", TenantA)

	// team-b: a new application credential in the Secret, then the old one deleted.
	newCred := ks.NewApplicationCredential(t, "team-b-user", "e2e-rotation-new-"+RandomSuffix(6))
	t.Cleanup(func() { _ = newCred.delete() })
	rotateSecret(t, ks, ctrl, nsB, map[string]string{"clouds.yaml": newCred.CloudsYAML(ks.AuthURL, TenantB)})
	oldCred.Delete(t)
	keepWorking(t, nsB, "b", "10.171", "openstack", TenantB)

	if ctrl.Exited() {
		t.Fatalf("the controller exited during the rotation:\n%s", LastLines(ctrl.Logs(), 30))
	}
	for _, status := range []string{"401", "404"} {
		if refused, _ := ks.ControllerTokenAnswers(t, startLine, status); len(refused) > 0 {
			t.Errorf("Keystone answered %s to %d token requests of the controller: %v", status, len(refused), refused)
		}
	}
	for _, r := range notReady {
		if bad := r.notReady(); len(bad) > 0 {
			t.Errorf("Networks were Ready=False during the rotation:\n%s", strings.Join(bad, "\n"))
		}
	}
	logs := ctrl.Logs()
	for _, secret := range append(ks.SecretsOf(t, TenantA), newPassword, oldCred.Secret, newCred.Secret) {
		if strings.Contains(logs, secret) {
			t.Error("the controller's log shows a password or application credential secret")
		}
	}

	DeleteNetwork(t, nsA, "a1")
	DeleteNetwork(t, nsB, "b1")
	for _, n := range []struct{ ns, name string }{{nsA, "a1"}, {nsB, "b1"}} {
		WaitGone(t, n.ns, n.name, 90*time.Second)
	}
	WaitNeutronEmpty(t, OwnerOf(ctrl.ClusterID, a1), 30*time.Second)
	WaitNeutronEmpty(t, OwnerOf(ctrl.ClusterID, b1), 30*time.Second)
}

// rotateSecret writes the Secret ns/openstack and waits for the controller to log in to
// Keystone with what it now holds. Nothing else is going on, so that token is the
// Secret's doing.
func rotateSecret(t *testing.T, ks Keystone, ctrl *Controller, ns string, data map[string]string) {
	t.Helper()
	_, mark := ks.ControllerTokenRequests(t, 0)
	changed := time.Now()
	PutCredentialsSecret(t, ns, "openstack", data)
	tok := ks.WaitControllerToken(t, mark, 60*time.Second)
	t.Logf("Secret %s/openstack changed at %s; Keystone issued the controller a token at %s (its log has whole seconds)",
		ns, changed.UTC().Format("15:04:05.000"), tok.At.UTC().Format(time.TimeOnly))
	if ctrl.Exited() {
		t.Fatalf("the controller exited:\n%s", LastLines(ctrl.Logs(), 30))
	}
}

// keepWorking creates a Network prefix+"2" on the Secret, changes the gateway of
// prefix+"1" (in net+".0.0/24") and deletes prefix+"2" again.
func keepWorking(t *testing.T, ns, prefix, net, secret, cloud string) {
	t.Helper()
	CreateTenantNetwork(t, ns, prefix+"2", net+".1.0/24", secret, cloud)
	WaitReady(t, ns, prefix+"2", 90*time.Second)
	SetGateway(t, ns, prefix+"1", net+".0.254")
	waitGateway(t, ns, prefix+"1", net+".0.254")
	DeleteNetwork(t, ns, prefix+"2")
	WaitGone(t, ns, prefix+"2", 90*time.Second)
}
