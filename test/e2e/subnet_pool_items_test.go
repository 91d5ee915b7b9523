//go:build e2e

package e2e

import (
	"fmt"
	"net/netip"
	"slices"
	"testing"
	"time"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// A tenant's Network with pool items, as team-a's member user: Neutron allocates each
// item's range from the local cloud's shared pools (one named by name, one by ID) and
// status shows it; the addresses status counts follow the ports the tenant makes and
// deletes; removing an item returns its range to the pool.
func TestPoolItemsAndAddressCounts(t *testing.T) {
	t.Parallel()
	ks := LocalKeystone(t)
	v6pool, v4pool := SubnetPool(t, 6), SubnetPool(t, 4)
	ns := NewNamespace(t)
	PutCredentialsSecret(t, ns, "openstack", map[string]string{"clouds.yaml": ks.CloudsYAMLOf(t, TenantA)})
	StartController(t, ControllerOptions{Namespaces: []string{ns},
		Args: append(ks.ControllerArgs(MemberCloud), "-neutron-resync-period=2s"), Env: ks.ControllerEnv()})

	v6Length, v4Length := int32(64), int32(26)
	v6 := samplecrdv1.NetworkSubnet{Name: "v6", SubnetPool: &samplecrdv1.SubnetPoolRef{Name: IPv6PoolName}, PrefixLength: &v6Length,
		SubnetFields: samplecrdv1.SubnetFields{IPv6AddressMode: samplecrdv1.IPv6ModeSLAAC, IPv6RAMode: samplecrdv1.IPv6ModeSLAAC}}
	v4 := samplecrdv1.NetworkSubnet{Name: "v4", SubnetPool: &samplecrdv1.SubnetPoolRef{ID: v4pool.ID}, PrefixLength: &v4Length}
	CreateNetworkWithSpec(t, ns, "pooled", samplecrdv1.NetworkSpec{Subnets: []samplecrdv1.NetworkSubnet{v6, v4},
		CloudCredentialsRef: &samplecrdv1.CloudCredentialsRef{SecretName: "openstack", CloudName: TenantA}})
	n := WaitNetwork(t, ns, "pooled", 90*time.Second, "Ready with both ranges allocated", func(n *samplecrdv1.Network) error {
		if !n.IsReady() || len(n.Status.Subnets) != 2 {
			return fmt.Errorf("%s, subnets %+v", DescribeReady(n), n.Status.Subnets)
		}
		return nil
	})
	for _, c := range []struct {
		item   string
		pool   LocalSubnetPool
		length int
	}{{"v6", v6pool, 64}, {"v4", v4pool, 26}} {
		item := statusItem(t, n, c.item)
		prefix, err := netip.ParsePrefix(item.CIDR)
		if err != nil || prefix.Bits() != c.length || !inPool(prefix, c.pool) {
			t.Errorf("item %s has CIDR %q, want a /%d of pool %s %v", c.item, item.CIDR, c.length, c.pool.Name, c.pool.Prefixes)
		}
		if !slices.ContainsFunc(SubnetsAllocatedFrom(t, c.pool.ID), func(s NeutronSubnet) bool { return s.ID == item.SubnetID && s.CIDR == item.CIDR }) {
			t.Errorf("item %s's subnet %s (%s) is not among those allocated from %s", c.item, item.SubnetID, item.CIDR, c.pool.Name)
		}
	}

	// The tenant's ports on v4, counted at the next resyncs: a /26 has 61 addresses
	// besides the network, broadcast and gateway addresses.
	v4ID := statusItem(t, n, "v4").SubnetID
	first := ks.CreatePortAs(t, TenantA, n.Status.NetworkID, v4ID)
	second := ks.CreatePortAs(t, TenantA, n.Status.NetworkID, v4ID)
	waitAddresses(t, ns, "pooled", "v4", samplecrdv1.SubnetAddresses{Total: 61, Used: 2, Free: 59})
	if got := GetNetwork(t, ns, "pooled").Status.AddressUse; got != "v4 3% (2/61)" {
		t.Errorf("status.addressUse = %q, want the fullest subnet, v4 3%% (2/61)", got)
	}
	ks.DeletePortAs(t, TenantA, second.ID)
	waitAddresses(t, ns, "pooled", "v4", samplecrdv1.SubnetAddresses{Total: 61, Used: 1, Free: 60})

	// v6 removed: its subnet is deleted, its range back in the pool.
	v6ID := statusItem(t, n, "v6").SubnetID
	patched := patchItems(t, ns, "pooled", v4)
	WaitNetwork(t, ns, "pooled", 60*time.Second, "Ready without v6", func(n *samplecrdv1.Network) error {
		if !n.IsReady() || n.Status.ObservedGeneration < patched.Generation || findItem(n, "v6") != nil {
			return fmt.Errorf("%s, subnets %+v", DescribeReady(n), n.Status.Subnets)
		}
		return nil
	})
	if slices.ContainsFunc(SubnetsAllocatedFrom(t, v6pool.ID), func(s NeutronSubnet) bool { return s.ID == v6ID }) {
		t.Errorf("subnet %s of the removed item is still allocated from %s", v6ID, v6pool.Name)
	}

	// The last port goes, then the Network.
	ks.DeletePortAs(t, TenantA, first.ID)
	DeleteNetwork(t, ns, "pooled")
	WaitGone(t, ns, "pooled", 60*time.Second)
	if slices.ContainsFunc(SubnetsAllocatedFrom(t, v4pool.ID), func(s NeutronSubnet) bool { return s.ID == v4ID }) {
		t.Errorf("subnet %s is still allocated from %s after the Network was deleted", v4ID, v4pool.Name)
	}
}

// waitAddresses waits until status counts want for the Network's item.
func waitAddresses(t *testing.T, ns, name, item string, want samplecrdv1.SubnetAddresses) {
	t.Helper()
	WaitNetwork(t, ns, name, 60*time.Second, fmt.Sprintf("item %s counting %+v", item, want), func(n *samplecrdv1.Network) error {
		if got := findItem(n, item); got == nil || got.Addresses == nil || *got.Addresses != want {
			return fmt.Errorf("item %+v", got)
		}
		return nil
	})
}
