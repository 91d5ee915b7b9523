//go:build e2e

package e2e

import (
	"errors"
	"net/netip"
	"slices"
	"testing"
	"time"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// The local cloud's shared subnet pools serve a project's member user as a real cloud's
// do: it sees them (another project's, shared), allocates a subnet of the prefix length it
// asks for from each on a network it made, and the controller's driver lists pools, pool
// subnets and ports as that member. A port the tenant makes keeps its subnet and network
// (409 in use) until it is deleted.
func TestLocalSubnetPoolsServeMembers(t *testing.T) {
	t.Parallel()
	ks := LocalKeystone(t)
	// No namespace, but Neutron must not be stopped by an outage test meanwhile.
	shareCluster(t)
	pools := []LocalSubnetPool{SubnetPool(t, 6), SubnetPool(t, 4)}
	member := ks.DriverAs(t, TenantA)
	project := member.Place().ProjectID
	ctx := Ctx(t, 3*time.Minute)

	for _, pool := range pools {
		seen, err := member.ListSubnetPools(ctx, neutron.Filter{Name: pool.Name, ProjectID: project})
		if err != nil {
			t.Fatalf("listing subnet pool %s as %s: %v", pool.Name, TenantA, err)
		}
		want := neutron.SubnetPool{ID: pool.ID, Name: pool.Name, ProjectID: pool.ProjectID, IPVersion: pool.IPVersion, Prefixes: pool.Prefixes, Shared: true}
		if len(seen) != 1 || !equalPools(seen[0], want) || seen[0].ProjectID == project {
			t.Fatalf("%s sees pools %+v named %s, want the admin's shared %+v (another project than its own %s)", TenantA, seen, pool.Name, want, project)
		}
	}

	net, err := member.CreateNetwork(ctx, neutron.NetworkRequest{Name: "e2e-pools-" + RandomSuffix(8), Description: t.Name()})
	if err != nil {
		t.Fatalf("creating a network as %s: %v", TenantA, err)
	}
	t.Cleanup(func() { DeleteNeutronNetworkTree(t, net.ID) })

	var subnets []neutron.Subnet
	for i, length := range []int{64, 26} {
		pool := pools[i]
		s, err := member.CreateSubnet(ctx, neutron.SubnetRequest{NetworkID: net.ID, Name: net.Name + "-" + pool.Name,
			SubnetPoolID: pool.ID, PrefixLength: length, IPVersion: pool.IPVersion})
		if err != nil {
			t.Fatalf("allocating a /%d from %s as %s: %v", length, pool.Name, TenantA, err)
		}
		prefix, err := netip.ParsePrefix(s.CIDR)
		if err != nil || prefix.Bits() != length || !inPool(prefix, pool) || s.SubnetPoolID != pool.ID || s.ProjectID != project || s.IPVersion != pool.IPVersion {
			t.Fatalf("subnet from %s: %+v, want a /%d inside %v from pool %s in project %s", pool.Name, s, length, pool.Prefixes, pool.ID, project)
		}
		t.Logf("%s allocated %s from %s", TenantA, s.CIDR, pool.Name)
		if !slices.ContainsFunc(SubnetsAllocatedFrom(t, pool.ID), func(a NeutronSubnet) bool { return a.ID == s.ID && a.CIDR == s.CIDR }) {
			t.Errorf("the admin does not list subnet %s (%s) among those allocated from %s", s.ID, s.CIDR, pool.Name)
		}
		subnets = append(subnets, s)
	}
	listed, err := member.ListSubnets(ctx, neutron.Filter{NetworkIDs: []string{net.ID}})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range subnets {
		if !slices.ContainsFunc(listed, func(l neutron.Subnet) bool {
			return l.ID == s.ID && l.SubnetPoolID == s.SubnetPoolID && l.CIDR == s.CIDR
		}) {
			t.Errorf("the network's subnets as listed %+v lack %s from pool %s", listed, s.ID, s.SubnetPoolID)
		}
	}

	// The tenant's port on the IPv6 subnet: found by its address on the subnet, and
	// keeping the subnet and the network.
	v6, v4 := subnets[0], subnets[1]
	port := ks.CreatePortAs(t, TenantA, net.ID, v6.ID)
	if len(port.FixedIPs) != 1 || port.FixedIPs[0].SubnetID != v6.ID || !netip.MustParsePrefix(v6.CIDR).Contains(netip.MustParseAddr(port.FixedIPs[0].IPAddress)) {
		t.Fatalf("port %+v, want one address in %s", port, v6.CIDR)
	}
	for _, tc := range []struct {
		subnet string
		want   []neutron.Port
	}{
		{v6.ID, []neutron.Port{{ID: port.ID, NetworkID: net.ID, DeviceID: port.DeviceID, FixedIPs: port.FixedIPs}}},
		{v4.ID, nil},
	} {
		ports, err := member.ListPorts(ctx, neutron.Filter{ProjectID: project, NetworkIDs: []string{net.ID}, SubnetID: tc.subnet})
		if err != nil {
			t.Fatalf("listing the ports of subnet %s as %s: %v", tc.subnet, TenantA, err)
		}
		if !slices.EqualFunc(ports, tc.want, equalPorts) {
			t.Errorf("ports with an address on %s: %+v, want %+v", tc.subnet, ports, tc.want)
		}
	}
	wantInUse(t, member.DeleteSubnet(ctx, v6.ID), "SubnetInUse")
	wantInUse(t, member.DeleteNetwork(ctx, net.ID), "NetworkInUse")

	ks.DeletePortAs(t, TenantA, port.ID)
	for _, s := range subnets {
		if err := member.DeleteSubnet(ctx, s.ID); err != nil {
			t.Fatalf("deleting subnet %s as %s once the port is gone: %v", s.ID, TenantA, err)
		}
		if slices.ContainsFunc(SubnetsAllocatedFrom(t, s.SubnetPoolID), func(a NeutronSubnet) bool { return a.ID == s.ID }) {
			t.Errorf("subnet %s is still allocated from pool %s after its delete", s.ID, s.SubnetPoolID)
		}
	}
	if err := member.DeleteNetwork(ctx, net.ID); err != nil {
		t.Fatalf("deleting network %s as %s: %v", net.ID, TenantA, err)
	}
}

func equalPools(a, b neutron.SubnetPool) bool {
	return a.ID == b.ID && a.Name == b.Name && a.ProjectID == b.ProjectID && a.IPVersion == b.IPVersion && a.Shared == b.Shared && slices.Equal(a.Prefixes, b.Prefixes)
}

func equalPorts(a, b neutron.Port) bool {
	return a.ID == b.ID && a.NetworkID == b.NetworkID && a.DeviceOwner == b.DeviceOwner && a.DeviceID == b.DeviceID && slices.Equal(a.FixedIPs, b.FixedIPs)
}

func inPool(p netip.Prefix, pool LocalSubnetPool) bool {
	return slices.ContainsFunc(pool.Prefixes, func(s string) bool {
		outer := netip.MustParsePrefix(s)
		return outer.Bits() <= p.Bits() && outer.Contains(p.Addr())
	})
}

func wantInUse(t *testing.T, err error, typ string) {
	t.Helper()
	var ne *neutron.Error
	if !errors.As(err, &ne) || ne.Kind != neutron.KindInUse || ne.Code != 409 || ne.Type != typ {
		t.Errorf("delete while the tenant's port is there: %v, want 409 %s, kind InUse", err, typ)
	}
}
