//go:build e2e

package e2e

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials/lockout"
)

// Hostile Secrets in two namespaces name the controller's own user and another team's
// user with wrong passwords, three Secrets each, each then rewritten with another guess.
// The local Keystone locks a user out at 3 refusals in a row; the controller sends one
// guess per user (the last refusal that is safe is kept for the credentials that work),
// and none after it is killed and started again, so both users still authenticate, and
// the team's Networks and the controller's own keep becoming Ready.
func TestHostileSecretsLockNoUserOut(t *testing.T) {
	t.Parallel()
	ks, _ := OwnKeystone(t, LocalKeystone(t).WithOwnUsers(t, MemberCloud, TenantA))
	team, own, hostileA, hostileB := NewNamespace(t), NewNamespace(t), NewNamespace(t), NewNamespace(t)
	victims := map[string]string{TenantA: ks.CloudsYAMLOf(t, TenantA), MemberCloud: ks.CloudsYAMLOf(t, MemberCloud)}
	PutCredentialsSecret(t, team, "openstack", map[string]string{"clouds.yaml": victims[TenantA]})

	_, logStart := ks.ControllerTokenAnswers(t, 0, "401")
	opts := ControllerOptions{
		ClusterID:  NewClusterID(t),
		Namespaces: []string{team, own, hostileA, hostileB},
		Args:       ks.ControllerArgs(MemberCloud),
		Env:        ks.ControllerEnv(),
	}
	ctrl := StartController(t, opts)
	CreateTenantNetwork(t, team, "before", "10.190.0.0/24", "openstack", TenantA)
	WaitReady(t, team, "before", 90*time.Second)

	type guess struct{ ns, name, cloud string }
	var guesses []guess
	for _, ns := range []string{hostileA, hostileB} {
		for cloud := range victims {
			for i := range 3 {
				guesses = append(guesses, guess{ns, fmt.Sprintf("%s-%d", cloud, i), cloud})
			}
		}
	}
	wrongPassword := func(g guess) map[string]string {
		return map[string]string{"clouds.yaml": editAuth(t, victims[g.cloud], g.cloud, "password", "guess-"+RandomSuffix(12))}
	}
	for i, g := range guesses {
		PutCredentialsSecret(t, g.ns, g.name, wrongPassword(g))
		CreateTenantNetwork(t, g.ns, g.name, fmt.Sprintf("10.191.%d.0/24", i), g.name, g.cloud)
	}
	refusedOrHeld := func(n *samplecrdv1.Network) error {
		c := n.ReadyCondition()
		if c == nil || !slices.Contains([]string{samplecrdv1.ReasonPasswordRejected, samplecrdv1.ReasonKeystoneAccountHeld}, c.Reason) {
			return fmt.Errorf("Ready is %s", DescribeReady(n))
		}
		return nil
	}
	for _, g := range guesses {
		WaitNetwork(t, g.ns, g.name, 90*time.Second, "PasswordRejected or KeystoneAccountHeld", refusedOrHeld)
	}
	heldBefore, _ := ctrl.Metric("network_controller_keystone_token_requests_held_total", "limit="+lockout.HeldAccount)
	for _, g := range guesses { // new versions, new guesses
		PutCredentialsSecret(t, g.ns, g.name, wrongPassword(g))
	}
	Eventually(t, 90*time.Second, 500*time.Millisecond, "every new guess held back", func() error {
		held, err := ctrl.Metric("network_controller_keystone_token_requests_held_total", "limit="+lockout.HeldAccount)
		if err != nil || held < heldBefore+float64(len(guesses)) {
			return fmt.Errorf("%v token requests held for the account since the rewrite (err %v), want at least %d", held-heldBefore, err, len(guesses))
		}
		return nil
	})
	held := 0
	for _, g := range guesses {
		n := WaitNetwork(t, g.ns, g.name, 60*time.Second, "PasswordRejected or KeystoneAccountHeld", refusedOrHeld)
		if n.ReadyCondition().Reason == samplecrdv1.ReasonKeystoneAccountHeld {
			held++
			WaitEvent(t, g.ns, g.name, "Warning", samplecrdv1.ReasonKeystoneAccountHeld, "not asking Keystone for a token", 30*time.Second)
		}
	}

	refused, _ := ks.ControllerTokenAnswers(t, logStart, "401")
	t.Logf("%d guesses in %d Secrets and %d versions: Keystone refused %d token requests of the controller, %d Networks wait with %s",
		2*len(guesses), len(guesses), 2, len(refused), held, samplecrdv1.ReasonKeystoneAccountHeld)
	// One guess per user; a renewal of the working credentials between the two rounds
	// (a success, which resets Keystone's count) may let one more through.
	if len(refused) < 2 || len(refused) > 2*lockout.MaxRefusalsInARow {
		t.Errorf("Keystone refused %d token requests of the controller, want 2 to %d", len(refused), 2*lockout.MaxRefusalsInARow)
	}
	if held == 0 {
		t.Errorf("no Network says %s", samplecrdv1.ReasonKeystoneAccountHeld)
	}

	// A crash and a new controller: it reads the counts back, and every hostile Secret,
	// tried anew, is held; Keystone sees no more refusals. (The team's Network goes
	// first: its token, issued after the restart, would reset the count, and the hostile
	// Secrets could rightly be refused once more.)
	DeleteNetwork(t, team, "before")
	WaitGone(t, team, "before", 90*time.Second)
	ctrl.Kill()
	ctrl = StartController(t, opts)
	Eventually(t, 90*time.Second, 200*time.Millisecond, "the counts read back", func() error {
		if !strings.Contains(ctrl.Logs(), "Read counts of refused token requests") {
			return errors.New("not yet")
		}
		return nil
	})
	heldAfterRead, _ := ctrl.Metric("network_controller_keystone_token_requests_held_total", "limit="+lockout.HeldAccount)
	Eventually(t, 90*time.Second, 500*time.Millisecond, "every hostile Secret held again after the restart", func() error {
		held, err := ctrl.Metric("network_controller_keystone_token_requests_held_total", "limit="+lockout.HeldAccount)
		if err != nil || held < heldAfterRead+float64(len(guesses)) {
			return fmt.Errorf("%v token requests held for the account since the counts were read (err %v), want at least %d", held-heldAfterRead, err, len(guesses))
		}
		return nil
	})
	refusedAfter, _ := ks.ControllerTokenAnswers(t, logStart, "401")
	entries := RefusalsOf(t, opts.ClusterID)
	t.Logf("after a crash and a restart: Keystone refused %d token requests of the controller in all (%d before), %d users in the record",
		len(refusedAfter), len(refused), len(entries))
	if len(refusedAfter) != len(refused) {
		t.Errorf("Keystone refused %d token requests after the restart", len(refusedAfter)-len(refused))
	}
	if len(entries) != len(victims) {
		t.Errorf("the record holds %d users, want %d: %v", len(entries), len(victims), entries)
	}
	for key, value := range entries {
		if strings.Contains(key+value, "guess-") || strings.Contains(key+value, "clouds") {
			t.Errorf("the record names a password or a Secret: %s=%s", key, value)
		}
	}
	// Both users still log in (a locked one gets 401 whatever the password).
	for cloud := range victims {
		ks.AuthenticatedAs(t, Ctx(t, 30*time.Second), cloud)
	}
	CreateTenantNetwork(t, team, "after", "10.190.1.0/24", "openstack", TenantA)
	CreateNetwork(t, own, "own", "10.190.2.0/24", "")
	WaitReady(t, team, "after", 90*time.Second)
	WaitReady(t, own, "own", 90*time.Second)
	if logs := ctrl.Logs(); strings.Contains(logs, "guess-") {
		t.Error("the controller's log shows a password")
	}
}

// One namespace floods Keystone: 60 clouds of made-up users in one Secret, a Network on
// each. Another namespace's Network with working credentials is Ready without waiting for
// the flood: the controller's token requests are shared in turns between namespaces.
func TestTokenFloodWaitsBehindItself(t *testing.T) {
	t.Parallel()
	ks, _ := OwnKeystone(t, LocalKeystone(t).WithOwnUsers(t, MemberCloud, TenantA))
	flood, calm := NewNamespace(t), NewNamespace(t)
	const clouds = 60
	template := ks.CloudsYAMLOf(t, TenantA)
	floodYAML := ks.MadeUpUsersCloudsYAML(t, clouds, "password")
	PutCredentialsSecret(t, flood, "openstack", map[string]string{"clouds.yaml": floodYAML})
	PutCredentialsSecret(t, calm, "openstack", map[string]string{"clouds.yaml": template})

	_, logStart := ks.ControllerTokenAnswers(t, 0, "401")
	StartController(t, ControllerOptions{Namespaces: []string{flood, calm}, Args: ks.ControllerArgs(MemberCloud), Env: ks.ControllerEnv()})
	for i := range clouds {
		CreateTenantNetwork(t, flood, fmt.Sprintf("n%d", i), fmt.Sprintf("10.193.%d.0/24", i), "openstack", fmt.Sprintf("c%d", i))
	}
	Eventually(t, 60*time.Second, 100*time.Millisecond, "the flood's first refusals", func() error {
		if refused, _ := ks.ControllerTokenAnswers(t, logStart, "401"); len(refused) < 25 {
			return fmt.Errorf("%d refused so far", len(refused))
		}
		return nil
	})
	start := time.Now()
	CreateTenantNetwork(t, calm, "calm", "10.194.0.0/24", "openstack", TenantA)
	WaitReady(t, calm, "calm", 120*time.Second)
	ready := time.Since(start)
	issued, _ := ks.ControllerTokenRequests(t, logStart)
	refused, _ := ks.ControllerTokenAnswers(t, logStart, "401")
	for i := range clouds {
		WaitReason(t, flood, fmt.Sprintf("n%d", i), 120*time.Second, metav1.ConditionFalse, samplecrdv1.ReasonPasswordRejected)
	}
	refusedAll, _ := ks.ControllerTokenAnswers(t, logStart, "401")
	t.Logf("the calm namespace's Network was Ready %s after it was created, during a flood of %d refused token requests (%d of them before the calm one was issued)",
		ready.Round(time.Millisecond), len(refusedAll), len(refused))
	if len(issued) == 0 || len(refused) >= len(refusedAll) {
		t.Errorf("the calm namespace's token was issued after the whole flood (%d refused before, %d in all)", len(refused), len(refusedAll))
	}
}
