//go:build e2e

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// The walking skeleton, driven with kubectl as a user would: apply example/, see
// every Network Ready with the Neutron subnet it describes, change a gateway, delete.
func TestWalkingSkeleton(t *testing.T) {
	t.Parallel()
	ns := NewNamespace(t)
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns}})

	MustKubectl(t, "apply", "-n", ns, "-f", "example/")

	// IPv4 example.
	v4 := WaitReady(t, ns, "example-network", 60*time.Second)
	if c := v4.ReadyCondition(); c.Reason != samplecrdv1.ReasonProvisioned {
		t.Errorf("Ready reason = %s, want %s", c.Reason, samplecrdv1.ReasonProvisioned)
	}
	if v4.Status.Gateway != "192.168.0.1" {
		t.Errorf("status.gateway = %q, want 192.168.0.1", v4.Status.Gateway)
	}
	sub, ok := GetSubnet(t, v4.Status.SubnetID)
	if !ok {
		t.Fatalf("Neutron subnet %s of status.subnetID does not exist", v4.Status.SubnetID)
	}
	if sub.CIDR != "192.168.0.0/16" || sub.GatewayIP != "192.168.0.1" || sub.IPVersion != 4 || sub.NetworkID != v4.Status.NetworkID {
		t.Errorf("Neutron subnet = cidr %s gateway %s ip_version %d network %s; want 192.168.0.0/16, 192.168.0.1, 4, %s",
			sub.CIDR, sub.GatewayIP, sub.IPVersion, sub.NetworkID, v4.Status.NetworkID)
	}
	if !NetworkExists(t, v4.Status.NetworkID) {
		t.Errorf("Neutron network %s of status.networkID does not exist", v4.Status.NetworkID)
	}
	// kubectl shows the printer columns.
	out := MustKubectl(t, "get", "networks", "-n", ns, "example-network")
	if !strings.Contains(out, "192.168.0.0/16") || !strings.Contains(out, "True") || !strings.Contains(out, "Provisioned") {
		t.Errorf("kubectl get networks does not show cidr, Ready and reason:\n%s", out)
	}

	// IPv6 example.
	v6 := WaitReady(t, ns, "example-network-ipv6", 60*time.Second)
	sub6, ok := GetSubnet(t, v6.Status.SubnetID)
	if !ok {
		t.Fatalf("Neutron subnet %s of the IPv6 example does not exist", v6.Status.SubnetID)
	}
	if sub6.CIDR != "2001:db8:1::/64" || sub6.IPVersion != 6 || sub6.GatewayIP != "2001:db8:1::1" {
		t.Errorf("IPv6 Neutron subnet = cidr %s ip_version %d gateway %s; want 2001:db8:1::/64, 6, 2001:db8:1::1",
			sub6.CIDR, sub6.IPVersion, sub6.GatewayIP)
	}

	// The example with DNS servers and a route: Neutron's subnet has exactly them, and
	// kubectl get -o wide shows the DNS servers and DHCP.
	dns := WaitReady(t, ns, "example-network-dns", 60*time.Second)
	subDNS, ok := GetSubnet(t, dns.Status.SubnetID)
	if want := `dns=[10.30.0.2 10.30.0.3] routes=[172.16.0.0/12>10.30.0.254] dhcp=true ipv6modes=""/""`; !ok || subDNS.Options() != want {
		t.Errorf("Neutron subnet %s of the DNS example (found %v) has %s, want %s", dns.Status.SubnetID, ok, subDNS.Options(), want)
	}
	wide := MustKubectl(t, "get", "networks", "-n", ns, "example-network-dns", "-o", "wide")
	for _, want := range []string{"DNS", "DHCP", `["10.30.0.2","10.30.0.3"]`, "true"} {
		if !strings.Contains(wide, want) {
			t.Errorf("kubectl get networks -o wide does not show %s:\n%s", want, wide)
		}
	}

	// The isolated example: no gateway, and only the pool it names.
	isolated := WaitReady(t, ns, "example-network-isolated", 60*time.Second)
	if sub, ok := GetSubnet(t, isolated.Status.SubnetID); !ok || sub.GatewayIP != "" || sub.Pools() != "10.40.0.100-10.40.0.199" {
		t.Errorf("Neutron subnet %s of the isolated example (found %v): gateway %q, pools %s; want none and 10.40.0.100-10.40.0.199",
			isolated.Status.SubnetID, ok, sub.GatewayIP, sub.Pools())
	}

	// The dual-stack example: one network, a subnet per item, and kubectl shows both CIDRs.
	dual := waitItemsReady(t, ns, "example-network-dual-stack", 1, map[string]string{"ipv4": "10.60.0.0/24", "ipv6": "2001:db8:60::/64"})
	if sub, _ := GetSubnet(t, statusItem(t, dual, "ipv6").SubnetID); sub.IPv6AddressMode != "slaac" {
		t.Errorf("the dual-stack example's IPv6 subnet has address mode %q, want slaac", sub.IPv6AddressMode)
	}
	if out := MustKubectl(t, "get", "networks", "-n", ns, "example-network-dual-stack"); !strings.Contains(out, "10.60.0.0/24,2001:db8:60::/64") {
		t.Errorf("kubectl get networks does not show both CIDRs of the dual-stack example:\n%s", out)
	}

	// Change the gateway with kubectl: Neutron follows, in place.
	MustKubectl(t, "patch", "network", "-n", ns, "example-network", "--type=merge", "-p", `{"spec":{"gateway":"192.168.0.254"}}`)
	v4b := WaitNetwork(t, ns, "example-network", 60*time.Second, "gateway 192.168.0.254 in status", func(n *samplecrdv1.Network) error {
		if !n.IsReady() || n.Status.Gateway != "192.168.0.254" {
			return fmt.Errorf("%s, status.gateway=%s", DescribeReady(n), n.Status.Gateway)
		}
		return nil
	})
	if v4b.Status.SubnetID != v4.Status.SubnetID || v4b.Status.NetworkID != v4.Status.NetworkID {
		t.Errorf("gateway change replaced resources: network %s -> %s, subnet %s -> %s",
			v4.Status.NetworkID, v4b.Status.NetworkID, v4.Status.SubnetID, v4b.Status.SubnetID)
	}
	sub, _ = GetSubnet(t, v4.Status.SubnetID)
	if sub.GatewayIP != "192.168.0.254" {
		t.Errorf("Neutron subnet gateway = %s after the change, want 192.168.0.254", sub.GatewayIP)
	}
	WaitEvent(t, ns, "example-network", "Normal", "GatewayUpdated", "", 30*time.Second)

	// Delete with kubectl: the object and its Neutron side go.
	owner4, owner6 := OwnerOf(ctrl.ClusterID, v4), OwnerOf(ctrl.ClusterID, v6)
	MustKubectl(t, "delete", "-n", ns, "-f", "example/", "--wait=true", "--timeout=60s")
	WaitGone(t, ns, "example-network", 60*time.Second)
	WaitGone(t, ns, "example-network-ipv6", 60*time.Second)
	WaitGone(t, ns, "example-network-dns", 60*time.Second)
	WaitGone(t, ns, "example-network-dual-stack", 60*time.Second)
	if NetworkExists(t, dual.Status.NetworkID) {
		t.Errorf("the dual-stack example's Neutron network %s still exists after the Network was deleted", dual.Status.NetworkID)
	}
	if NetworkExists(t, v4.Status.NetworkID) || NetworkExists(t, v6.Status.NetworkID) {
		t.Errorf("Neutron networks %s / %s still exist after the Networks were deleted", v4.Status.NetworkID, v6.Status.NetworkID)
	}
	if _, ok := GetSubnet(t, v4.Status.SubnetID); ok {
		t.Errorf("Neutron subnet %s still exists after the Network was deleted", v4.Status.SubnetID)
	}
	WaitNeutronEmpty(t, owner4, 10*time.Second)
	WaitNeutronEmpty(t, owner6, 10*time.Second)
	if _, err := TryGetNetwork(t, ns, "example-network"); !apierrors.IsNotFound(err) {
		t.Errorf("Network still readable after deletion: %v", err)
	}
}
