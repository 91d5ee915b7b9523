//go:build e2e

package e2e

import (
	"slices"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// One project in two regions, each with a Neutron of its own: a Network per region is
// made in its region's Neutron and nowhere else, the resync keeps each store to its
// region (nothing recreated, adopted or collected across), and a Secret whose region
// changes under a realised Network is refused (pinned), then accepted again once it
// points back.
func TestTwoRegions(t *testing.T) {
	t.Parallel()
	ks := LocalKeystone(t)
	ns := NewNamespace(t)
	PutCredentialsSecret(t, ns, "one", map[string]string{"clouds.yaml": ks.CloudsYAMLInRegion(t, TenantA, RegionOne)})
	PutCredentialsSecret(t, ns, "two", map[string]string{"clouds.yaml": ks.CloudsYAMLInRegion(t, TenantA, RegionTwo)})
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns}, Env: ks.ControllerEnv(),
		Args: append(ks.ControllerArgs(MemberCloud), "-neutron-resync-period=2s", "-orphan-grace-period=1s")})
	CreateTenantNetwork(t, ns, "in-one", "10.171.0.0/24", "one", TenantA)
	CreateTenantNetwork(t, ns, "in-two", "10.171.1.0/24", "two", TenantA)
	one := WaitReady(t, ns, "in-one", 90*time.Second)
	two := WaitReady(t, ns, "in-two", 90*time.Second)
	if one.Status.Region != RegionOne || two.Status.Region != RegionTwo || one.Status.ProjectID != two.Status.ProjectID {
		t.Errorf("status: in-one project %s region %q, in-two project %s region %q; want one project, regions %s and %s",
			one.Status.ProjectID, one.Status.Region, two.Status.ProjectID, two.Status.Region, RegionOne, RegionTwo)
	}

	checkPlaces := func(what string) {
		t.Helper()
		regionTwo := ids(ks.RegionTwoNetworks(t))
		if !NetworkExists(t, one.Status.NetworkID) || slices.Contains(regionTwo, one.Status.NetworkID) {
			t.Errorf("%s: in-one's network %s should be in region one only (region two holds %v)", what, one.Status.NetworkID, regionTwo)
		}
		if !slices.Contains(regionTwo, two.Status.NetworkID) || NetworkExists(t, two.Status.NetworkID) {
			t.Errorf("%s: in-two's network %s should be in region two only (region two holds %v)", what, two.Status.NetworkID, regionTwo)
		}
		if nets, _, err := NeutronOf(t, OwnerOf(ctrl.ClusterID, two)); err != nil || len(nets) != 0 {
			t.Errorf("%s: region one holds networks of in-two: %v (%v)", what, ids(nets), err)
		}
	}
	checkPlaces("created")
	for range 3 {
		ctrl.WaitNewLogLine(60*time.Second, "Neutron resync done")
	}
	checkPlaces("after three resyncs")
	for _, name := range []string{"in-one", "in-two"} {
		if n := GetNetwork(t, ns, name); !n.IsReady() {
			t.Errorf("%s after the resyncs: %s", name, DescribeReady(n))
		}
	}

	// in-one's Secret now leads to region two: refused, nothing made there.
	PutCredentialsSecret(t, ns, "one", map[string]string{"clouds.yaml": ks.CloudsYAMLInRegion(t, TenantA, RegionTwo)})
	moved := WaitReason(t, ns, "in-one", 60*time.Second, metav1.ConditionFalse, samplecrdv1.ReasonCredentialsRegionChanged)
	t.Logf("in-one with its Secret in the other region: %s", DescribeReady(moved))
	for _, n := range ks.RegionTwoNetworks(t) {
		if n.ownedBy(OwnerOf(ctrl.ClusterID, one)) {
			t.Errorf("region two holds network %s of in-one", n.ID)
		}
	}
	PutCredentialsSecret(t, ns, "one", map[string]string{"clouds.yaml": ks.CloudsYAMLInRegion(t, TenantA, RegionOne)})
	if again := WaitReady(t, ns, "in-one", 60*time.Second); again.Status.NetworkID != one.Status.NetworkID {
		t.Errorf("in-one's network changed from %s to %s", one.Status.NetworkID, again.Status.NetworkID)
	}

	for _, name := range []string{"in-one", "in-two"} {
		DeleteNetwork(t, ns, name)
	}
	for _, name := range []string{"in-one", "in-two"} {
		WaitGone(t, ns, name, 90*time.Second)
	}
	if NetworkExists(t, one.Status.NetworkID) || slices.Contains(ids(ks.RegionTwoNetworks(t)), two.Status.NetworkID) {
		t.Error("a network is left after its Network was deleted")
	}
}
