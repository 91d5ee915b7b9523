//go:build e2e

package e2e

import (
	"fmt"
	"testing"
	"time"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// The Networks of every form the upgrade tests make with an earlier version and expect
// the build under test to keep: test/e2e's upgrade from the last build before grants, and
// test/node's upgrade of the Pods from the previous release.

// UpgradeNames are the Networks of the upgrade test, one per form.
var UpgradeNames = []string{"kept", "shared", "existing", "imported", "dual", "routed"}

// UpgradeGrants are the allow fields the Networks that need a grant lack.
var UpgradeGrants = map[string]string{"kept": "allow.retain", "shared": "allow.sharedWith", "existing": "allow.existingRouters", "imported": "allow.import"}

// UpgradeSpecs are the specs of UpgradeNames, in fields the previous version knows.
func UpgradeSpecs(router, sharedWith, imported string) map[string]samplecrdv1.NetworkSpec {
	cidr := func(c string) samplecrdv1.SubnetFields { return samplecrdv1.SubnetFields{CIDR: c} }
	v6 := samplecrdv1.NetworkSubnet{Name: "v6", SubnetFields: samplecrdv1.SubnetFields{CIDR: "2001:db8:88::/64"}}
	v6.IPv6AddressMode, v6.IPv6RAMode = samplecrdv1.IPv6ModeSLAAC, samplecrdv1.IPv6ModeSLAAC
	return map[string]samplecrdv1.NetworkSpec{
		"kept":     {SubnetFields: cidr("10.88.0.0/24"), DeletionPolicy: samplecrdv1.DeletionPolicyRetain},
		"shared":   {SubnetFields: cidr("10.88.1.0/24"), SharedWith: []samplecrdv1.ProjectID{samplecrdv1.ProjectID(sharedWith)}},
		"existing": {SubnetFields: cidr("10.88.2.0/24"), Router: &samplecrdv1.NetworkRouter{Existing: &samplecrdv1.NeutronRef{Name: router}}},
		"imported": {Import: &samplecrdv1.NetworkImport{NetworkID: imported}},
		"dual":     {Subnets: []samplecrdv1.NetworkSubnet{{Name: "v4", SubnetFields: cidr("10.88.3.0/24")}, v6}},
		"routed":   {SubnetFields: cidr("10.88.4.0/24"), Router: &samplecrdv1.NetworkRouter{ExternalNetwork: &samplecrdv1.NeutronRef{Name: PublicNetworkName}}},
	}
}

// WaitMade waits until the Network is Ready with all its spec asks for in its status: a
// network, its subnets, its router with its subnets attached, its shares.
func WaitMade(t testing.TB, ns, name string) *samplecrdv1.Network {
	t.Helper()
	return WaitNetwork(t, ns, name, 180*time.Second, "Ready, with all its spec asks for", func(n *samplecrdv1.Network) error {
		s := n.Status
		switch {
		case !n.IsReady() || s.NetworkID == "":
			return fmt.Errorf("%s, network %q", DescribeReady(n), s.NetworkID)
		case len(n.Spec.Subnets) == 0 && s.SubnetID == "", len(s.Subnets) != len(n.Spec.Subnets):
			return fmt.Errorf("subnet %q, items %+v", s.SubnetID, s.Subnets)
		case n.Spec.Router != nil && (s.Router == nil || len(s.Router.SubnetIDs) == 0):
			return fmt.Errorf("router %+v", s.Router)
		case len(s.SharedWith) != len(n.Spec.SharedWith):
			return fmt.Errorf("shared with %v", s.SharedWith)
		}
		return nil
	})
}

// CreateOutsideNetwork creates, as the cloud's admin and not through the controller, a
// network of project (shared with every project when shared) with one subnet per cidr,
// and deletes it at the end of the test.
func CreateOutsideNetwork(t testing.TB, name, project string, shared bool, cidrs ...string) (NeutronNetwork, []NeutronSubnet) {
	t.Helper()
	var net struct{ Network NeutronNetwork }
	MustNeutron(t, "POST", "v2.0/networks", map[string]any{"network": map[string]any{
		"name": name, "project_id": project, "shared": shared}}, &net, 201)
	t.Cleanup(func() { DeleteNeutronNetworkTree(t, net.Network.ID) })
	var subnets []NeutronSubnet
	for _, cidr := range cidrs {
		var sub struct{ Subnet NeutronSubnet }
		MustNeutron(t, "POST", "v2.0/subnets", map[string]any{"subnet": map[string]any{
			"network_id": net.Network.ID, "project_id": project, "cidr": cidr, "ip_version": 4}}, &sub, 201)
		subnets = append(subnets, sub.Subnet)
	}
	n, _ := GetNeutronNetwork(t, net.Network.ID)
	return n, subnets
}
