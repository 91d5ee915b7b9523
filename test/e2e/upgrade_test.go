//go:build e2e

package e2e

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials/grants"
)

// The upgrade to grant enforcement, on the real parts. The last version before grants
// (CommitBeforeGrants) makes Networks of every form in the controller's own project:
// Retain, sharedWith, router.existing, import, dual stack and routed (a router of its own
// on the external network). This build takes over with no ClusterIdentity, in the default
// mode (warn): nothing in Neutron goes, and the four that need a grant stay Ready and say
// which (GrantMissing). The operator grants all but sharedWith: everything else is Ready
// without GrantMissing. With -grant-enforcement=enforce only the share is withdrawn, and
// the Retain Network, deleted, leaves its Neutron network.
func TestUpgradeFromBeforeGrants(t *testing.T) {
	t.Parallel()
	previous := BuildPrevious(t, CommitBeforeGrants)
	ks := LocalKeystone(t)
	PublicNetwork(t)
	project, teamB := ks.ProjectID(t, MemberCloud), ks.ProjectID(t, TenantB)
	ns, sfx := NewNamespace(t), RandomSuffix(6)
	edge := ks.CreateRouterAs(t, MemberCloud, "edge-"+sfx)
	outside, _ := CreateOutsideNetwork(t, "outside-"+sfx, project, false, "10.88.9.0/24")
	clusterID := NewClusterID(t)
	// The same cluster ID and namespace for every version, as a Deployment's rollout keeps them.
	base := ControllerOptions{Namespaces: []string{ns}, ClusterID: clusterID,
		Args: append(ks.ControllerArgs(MemberCloud), "-retry-max-delay=3s"), Env: ks.ControllerEnv()}

	// Before grants.
	old := StartController(t, PreviousControllerOptions(previous, base)).WaitConnected()
	for name, spec := range UpgradeSpecs(edge.Name, teamB, outside.ID) {
		CreateNetworkWithSpec(t, ns, name, spec)
	}
	before, rec := map[string]*samplecrdv1.Network{}, NeutronRecord{}
	for _, name := range UpgradeNames {
		before[name] = WaitMade(t, ns, name)
		rec.AddNetwork(t, before[name])
		t.Logf("%s made %s: network %s, subnets %s %v, router %+v, shared with %v", CommitBeforeGrants, name,
			before[name].Status.NetworkID, before[name].Status.SubnetID, before[name].Status.Subnets, before[name].Status.Router, before[name].Status.SharedWith)
	}
	kept, share := before["kept"], "shared share with "+teamB
	// Released at the end, it no longer carries the cluster's marks that cleanup looks for.
	t.Cleanup(func() { DeleteNeutronNetworkTree(t, kept.Status.NetworkID) })
	for _, what := range []string{share, "existing interface on router " + edge.ID, "routed router", "imported network", "dual subnet v6"} {
		if _, ok := rec[what]; !ok {
			t.Fatalf("%s did not make %s; Neutron holds:\n%s", CommitBeforeGrants, what, rec)
		}
	}
	t.Logf("Neutron as %s left it:\n%s", CommitBeforeGrants, rec)
	old.Stop()

	// This build, no grant, warn: everything kept; what needs a grant says so. An eager
	// resync and orphan collection would delete, within the minute, what it took for
	// another's.
	resync := []string{"-neutron-resync-period=5s", "-orphan-grace-period=0s"}
	started := time.Now()
	warn := StartController(t, withArgs(base, resync...)).WaitConnected()
	for name, grant := range UpgradeGrants {
		n := waitGrantMissing(t, ns, name, grant)
		if !n.IsReady() {
			t.Errorf("warn: %s is %s; want Ready kept beside GrantMissing", name, DescribeReady(n))
		}
		t.Logf("warn: %s: %s; GrantMissing: %s", name, DescribeReady(n), meta.FindStatusCondition(n.Status.Conditions, samplecrdv1.ConditionGrantMissing).Message)
	}
	waitResyncs(t, warn, 2, 60*time.Second)
	for _, name := range []string{"dual", "routed"} {
		waitReadyWithoutGrantMissing(t, ns, name, "warn")
	}
	wantWithoutGrant(t, warn, map[string]float64{grants.PowerRetain: 1, grants.PowerSharedWith: 1, grants.PowerExistingRouter: 1, grants.PowerImport: 1})
	Consistently(t, time.Until(started.Add(time.Minute)), 5*time.Second, "Neutron as the previous version left it", func() error {
		if gone := rec.Gone(t); len(gone) > 0 {
			return fmt.Errorf("gone: %q", gone)
		}
		return nil
	})
	if gone := rec.Gone(t); len(gone) > 0 {
		t.Fatalf("warn: a minute after the upgrade Neutron lost %q", gone)
	}
	t.Logf("warn: a minute after the upgrade, all %d recorded Neutron resources are still there", len(rec))

	// The operator grants all but sharedWith. Made while a controller runs, the identity
	// goes at cleanup before it would stop; the test stops it first, and the enforcing
	// controller, started after, stops before the identity goes.
	GrantPowers(t, ns, samplecrdv1.IdentityAllow{Retain: true, Import: true, ExistingRouters: []samplecrdv1.NeutronRef{{ID: edge.ID}}})
	for _, name := range UpgradeNames {
		if name != "shared" {
			waitReadyWithoutGrantMissing(t, ns, name, "granted")
		}
	}
	n := waitGrantMissing(t, ns, "shared", UpgradeGrants["shared"])
	t.Logf("granted: shared is %s, still GrantMissing", DescribeReady(n))
	wantWithoutGrant(t, warn, map[string]float64{grants.PowerRetain: 0, grants.PowerSharedWith: 1, grants.PowerExistingRouter: 0, grants.PowerImport: 0})
	if gone := rec.Gone(t); len(gone) > 0 {
		t.Errorf("granted: Neutron lost %q", gone)
	}
	warn.Stop()

	// Enforce: only the share is withdrawn.
	enforce := StartController(t, withArgs(base, append(resync, "-grant-enforcement=enforce")...)).WaitConnected()
	Eventually(t, 90*time.Second, time.Second, "the share to be withdrawn", func() error {
		if gone := rec.Gone(t); !slices.Contains(gone, share) {
			return fmt.Errorf("gone so far: %q", gone)
		}
		return nil
	})
	n = WaitReason(t, ns, "shared", 90*time.Second, metav1.ConditionFalse, samplecrdv1.ReasonNotGranted)
	t.Logf("enforce: shared is NotGranted: %s", n.ReadyCondition().Message)
	waitResyncs(t, enforce, 2, 60*time.Second)
	for _, name := range UpgradeNames {
		if name != "shared" {
			waitReadyWithoutGrantMissing(t, ns, name, "enforce")
		}
	}
	if gone := rec.Gone(t); !slices.Equal(gone, []string{share}) {
		t.Errorf("enforce: Neutron lost %q; want only %q", gone, share)
	} else {
		t.Logf("enforce: of the %d recorded Neutron resources only %q is gone", len(rec), share)
	}

	// The granted Retain Network, deleted, is released: its network stays, unmarked.
	DeleteNetwork(t, ns, "kept")
	WaitGone(t, ns, "kept", 60*time.Second)
	WaitEvent(t, ns, "kept", "Normal", "NeutronRetained", kept.Status.NetworkID, 30*time.Second)
	net, _ := wantKeptWithoutMarks(t, clusterID, kept)
	t.Logf("enforce: deleted, kept left network %s (%q, tags %v) in Neutron", net.ID, net.Name, net.Tags)
	for _, name := range UpgradeNames {
		if name != "kept" {
			DeleteNetwork(t, ns, name)
			WaitGone(t, ns, name, 90*time.Second)
		}
	}
	if _, found := GetNeutronNetwork(t, outside.ID); !found {
		t.Errorf("the imported network %s was deleted with its import", outside.ID)
	}
}

// waitReadyWithoutGrantMissing waits until the Network is Ready and lacks no grant.
func waitReadyWithoutGrantMissing(t testing.TB, ns, name, phase string) {
	t.Helper()
	n := WaitNetwork(t, ns, name, 90*time.Second, "Ready without GrantMissing", func(n *samplecrdv1.Network) error {
		if c := meta.FindStatusCondition(n.Status.Conditions, samplecrdv1.ConditionGrantMissing); !n.IsReady() || c != nil {
			return fmt.Errorf("%s, GrantMissing %+v", DescribeReady(n), c)
		}
		return nil
	})
	t.Logf("%s: %s: %s, no GrantMissing", phase, name, DescribeReady(n))
}

// wantWithoutGrant waits until network_controller_networks_without_grant counts want by
// power.
func wantWithoutGrant(t testing.TB, c *Controller, want map[string]float64) {
	t.Helper()
	got := map[string]float64{}
	Eventually(t, 30*time.Second, time.Second, fmt.Sprintf("network_controller_networks_without_grant %v", want), func() error {
		for power, v := range want {
			var err error
			if got[power], err = c.Metric("network_controller_networks_without_grant", "power="+power); err != nil || got[power] != v {
				return fmt.Errorf("power %s: %v, %v", power, got[power], err)
			}
		}
		return nil
	})
	t.Logf("network_controller_networks_without_grant: %v", got)
}

// withArgs returns opts with args after its own.
func withArgs(opts ControllerOptions, args ...string) ControllerOptions {
	opts.Args = slices.Concat(opts.Args, args)
	return opts
}
