package fake

import (
	"context"
	"errors"
	"net/netip"
	"slices"
	"strings"
	"testing"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

var ctx = context.Background()

// withNetworks returns a fake holding the pools and one network of project per name.
func withNetworks(t *testing.T, project string, pools []neutron.SubnetPool, names ...string) (*Driver, map[string]string) {
	t.Helper()
	d := New()
	for _, p := range pools {
		d.PutSubnetPool(p)
	}
	ids := map[string]string{}
	for _, name := range names {
		d.PutNetwork(neutron.Network{ID: name, Name: name, ProjectID: project})
		ids[name] = name
	}
	d.CreateIn(project)
	return d, ids
}

func fromPool(network, pool string, version, length int) neutron.SubnetRequest {
	return neutron.SubnetRequest{NetworkID: network, Name: network + "-sub", SubnetPoolID: pool, PrefixLength: length, IPVersion: version}
}

func wantError(t *testing.T, err error, kind neutron.Kind, code int, typ, message string) {
	t.Helper()
	var ne *neutron.Error
	if !errors.As(err, &ne) || ne.Kind != kind || ne.Code != code || ne.Type != typ || !strings.Contains(ne.Message, message) {
		t.Errorf("err = %v, want kind %v, %d %s: %q", err, kind, code, typ, message)
	}
}

// Prefixes come from the pool in order, each the first free one of the length asked for,
// past those the pool already gave out (on any network), and come back when their subnet
// is deleted; a full pool answers as Neutron 21 does.
func TestCreateSubnetAllocatesFromThePool(t *testing.T) {
	pool := neutron.SubnetPool{ID: "v4", Name: "ipv4-pool", ProjectID: "admin", IPVersion: 4, Prefixes: []string{"10.224.0.0/24"}, Shared: true}
	d, _ := withNetworks(t, "p1", []neutron.SubnetPool{pool}, "a", "b", "c", "d", "e")

	var created []neutron.Subnet
	for _, step := range []struct {
		network string
		length  int
		want    string
	}{
		{"a", 26, "10.224.0.0/26"},
		// The /25 at .0 holds the /26: the next /25.
		{"b", 25, "10.224.0.128/25"},
		{"c", 26, "10.224.0.64/26"},
	} {
		s, err := d.CreateSubnet(ctx, fromPool(step.network, "v4", 4, step.length))
		if err != nil {
			t.Fatalf("/%d on %s: %v", step.length, step.network, err)
		}
		if s.CIDR != step.want || s.SubnetPoolID != "v4" || s.IPVersion != 4 || s.NetworkID != step.network || s.ProjectID != "p1" || s.Name != step.network+"-sub" {
			t.Errorf("/%d on %s: subnet %+v, want %s from pool v4, IPv4, in project p1", step.length, step.network, s, step.want)
		}
		created = append(created, s)
	}

	_, err := d.CreateSubnet(ctx, fromPool("d", "v4", 4, 28))
	wantError(t, err, neutron.KindConflict, 500, "SubnetAllocationError", "Failed to allocate subnet: Insufficient prefix space to allocate subnet size /28.")
	// Shorter than the pool's prefix: never room.
	_, err = d.CreateSubnet(ctx, fromPool("d", "v4", 4, 16))
	wantError(t, err, neutron.KindConflict, 500, "SubnetAllocationError", "size /16")

	if err := d.DeleteSubnet(ctx, created[2].ID); err != nil {
		t.Fatal(err)
	}
	s, err := d.CreateSubnet(ctx, fromPool("d", "v4", 4, 27))
	if err != nil || s.CIDR != "10.224.0.64/27" {
		t.Errorf("after freeing 10.224.0.64/26: %+v, %v; want 10.224.0.64/27", s, err)
	}
	// A given CIDR from the pool: only a free one inside it.
	s, err = d.CreateSubnet(ctx, neutron.SubnetRequest{NetworkID: "e", SubnetPoolID: "v4", CIDR: "10.224.0.96/27", IPVersion: 4})
	if err != nil || s.CIDR != "10.224.0.96/27" || s.SubnetPoolID != "v4" {
		t.Errorf("given free CIDR: %+v, %v", s, err)
	}
	for _, taken := range []string{"10.224.0.64/28", "10.9.0.0/28"} {
		_, err = d.CreateSubnet(ctx, neutron.SubnetRequest{NetworkID: "e", SubnetPoolID: "v4", CIDR: taken, IPVersion: 4})
		wantError(t, err, neutron.KindConflict, 500, "SubnetAllocationError", "Cannot allocate requested subnet from the available set of prefixes")
	}

	want := []string{"create subnet", "create subnet", "create subnet", "create subnet", "create subnet", "delete subnet", "create subnet", "create subnet", "create subnet", "create subnet"}
	if got := d.Calls(); !slices.Equal(got, want) {
		t.Errorf("calls = %q, want %q", got, want)
	}
	if bodies := d.Bodies("create subnet"); len(bodies) != 5 || bodies[0] != `{"network_id":"a","name":"a-sub","description":"","subnetpool_id":"v4","prefixlen":26,"ip_version":4}` {
		t.Errorf("create bodies = %q, want the first one with subnetpool_id and prefixlen and no cidr", bodies)
	}
}

// Requests the pool cannot take, whatever room it has, are refused as Neutron 21 refuses
// them; a pool the project may not see does not exist for it.
func TestCreateSubnetFromPoolRefusals(t *testing.T) {
	pools := []neutron.SubnetPool{
		{ID: "v6", Name: "ipv6-pool", ProjectID: "admin", IPVersion: 6, Prefixes: []string{"2001:db8:a000::/40"}, Shared: true},
		{ID: "other-v4", Name: "theirs", ProjectID: "p2", IPVersion: 4, Prefixes: []string{"10.230.0.0/16"}},
		{ID: "own-v4", Name: "mine", ProjectID: "p1", IPVersion: 4, Prefixes: []string{"10.231.0.0/16"}},
	}
	d, _ := withNetworks(t, "p1", pools, "a", "b")

	_, err := d.CreateSubnet(ctx, fromPool("a", "missing", 4, 64))
	wantError(t, err, neutron.KindNotFound, 404, "SubnetPoolNotFound", "Subnet pool missing could not be found.")
	_, err = d.CreateSubnet(ctx, fromPool("a", "other-v4", 4, 24))
	wantError(t, err, neutron.KindNotFound, 404, "SubnetPoolNotFound", "Subnet pool other-v4 could not be found.")
	_, err = d.CreateSubnet(ctx, fromPool("a", "v6", 4, 64))
	wantError(t, err, neutron.KindRejected, 400, "BadRequest", "Cannot allocate IPv4 subnet from IPv6 subnet pool.")
	_, err = d.CreateSubnet(ctx, fromPool("a", "v6", 0, 64))
	wantError(t, err, neutron.KindRejected, 400, "HTTPBadRequest", "Invalid input for ip_version.")
	_, err = d.CreateSubnet(ctx, fromPool("a", "v6", 6, 129))
	wantError(t, err, neutron.KindRejected, 400, "AddrFormatError", "invalid IPNetwork ::/129")

	if s, err := d.CreateSubnet(ctx, fromPool("a", "own-v4", 4, 24)); err != nil || s.CIDR != "10.231.0.0/24" {
		t.Errorf("from its own private pool: %+v, %v", s, err)
	}
	if s, err := d.CreateSubnet(ctx, fromPool("a", "v6", 6, 64)); err != nil || s.CIDR != "2001:db8:a000::/64" || s.IPVersion != 6 {
		t.Errorf("from the shared IPv6 pool: %+v, %v", s, err)
	}
	// One network's subnets of one IP version come from one pool, or none.
	_, err = d.CreateSubnet(ctx, neutron.SubnetRequest{NetworkID: "a", CIDR: "10.9.0.0/24", IPVersion: 4})
	wantError(t, err, neutron.KindRejected, 400, "NetworkSubnetPoolAffinityError", "must be allocated from the same subnet pool")
	if _, err := d.CreateSubnet(ctx, neutron.SubnetRequest{NetworkID: "b", CIDR: "10.9.0.0/24", IPVersion: 4}); err != nil {
		t.Fatal(err)
	}
	_, err = d.CreateSubnet(ctx, fromPool("b", "own-v4", 4, 24))
	wantError(t, err, neutron.KindRejected, 400, "NetworkSubnetPoolAffinityError", "must be allocated from the same subnet pool")
	if s, err := d.CreateSubnet(ctx, fromPool("b", "v6", 6, 64)); err != nil || s.CIDR != "2001:db8:a000:1::/64" {
		t.Errorf("IPv6 from a pool beside IPv4 without: %+v, %v; want the next /64", s, err)
	}
}

// A project lists its own pools and the shared ones, by IDs or name but never by project;
// an admin (no project) lists them all.
func TestListSubnetPools(t *testing.T) {
	pools := []neutron.SubnetPool{
		{ID: "shared", Name: "ipv6-pool", ProjectID: "admin", IPVersion: 6, Prefixes: []string{"2001:db8:a000::/40"}, Shared: true},
		{ID: "theirs", Name: "pool", ProjectID: "p2", IPVersion: 4, Prefixes: []string{"10.230.0.0/16"}},
		{ID: "mine", Name: "pool", ProjectID: "p1", IPVersion: 4, Prefixes: []string{"10.231.0.0/16"}},
	}
	d, _ := withNetworks(t, "p1", pools)
	ids := func(f neutron.Filter) []string {
		t.Helper()
		got, err := d.ListSubnetPools(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, p := range got {
			out = append(out, p.ID)
		}
		slices.Sort(out)
		return out
	}
	for _, tc := range []struct {
		filter neutron.Filter
		want   []string
	}{
		{neutron.Filter{}, []string{"mine", "shared"}},
		{neutron.Filter{ProjectID: "p1"}, []string{"mine", "shared"}},
		{neutron.Filter{Name: "pool"}, []string{"mine"}},
		{neutron.Filter{IDs: []string{"shared", "theirs"}}, []string{"shared"}},
	} {
		if got := ids(tc.filter); !slices.Equal(got, tc.want) {
			t.Errorf("%+v: pools %v, want %v", tc.filter, got, tc.want)
		}
	}
	d.CreateIn("")
	if got := ids(neutron.Filter{}); !slices.Equal(got, []string{"mine", "shared", "theirs"}) {
		t.Errorf("as admin: pools %v, want all", got)
	}
	d.FailWith("list subnet pools", errors.New("boom"))
	if _, err := d.ListSubnetPools(ctx, neutron.Filter{}); err == nil {
		t.Error("an injected failure of list subnet pools was not returned")
	}
	if calls := d.Calls(); len(calls) != 6 || calls[0] != "list subnet pools" {
		t.Errorf("calls = %q, want 6 times list subnet pools", calls)
	}
}

// A port with an address on a subnet keeps the subnet, and any port but DHCP's keeps its
// network, as in Neutron: 409 in use until the port is gone.
func TestPortsKeepSubnetsAndNetworks(t *testing.T) {
	d, _ := withNetworks(t, "p1", nil, "n1", "n2")
	s1, err := d.CreateSubnet(ctx, neutron.SubnetRequest{NetworkID: "n1", CIDR: "10.0.0.0/24", IPVersion: 4})
	if err != nil {
		t.Fatal(err)
	}
	s2, err := d.CreateSubnet(ctx, neutron.SubnetRequest{NetworkID: "n1", CIDR: "10.0.1.0/24", IPVersion: 4})
	if err != nil {
		t.Fatal(err)
	}
	d.PutPort(neutron.Port{ID: "vm", NetworkID: "n1", DeviceOwner: "compute:nova", FixedIPs: []neutron.FixedIP{{SubnetID: s1.ID, IPAddress: "10.0.0.5"}}})
	d.PutPort(neutron.Port{ID: "dhcp", NetworkID: "n1", DeviceOwner: "network:dhcp",
		FixedIPs: []neutron.FixedIP{{SubnetID: s1.ID, IPAddress: "10.0.0.2"}, {SubnetID: s2.ID, IPAddress: "10.0.1.2"}}})

	err = d.DeleteSubnet(ctx, s1.ID)
	wantError(t, err, neutron.KindInUse, 409, "SubnetInUse", "Unable to complete operation on subnet "+s1.ID+": One or more ports have an IP allocation from this subnet.")
	err = d.DeleteNetwork(ctx, "n1")
	wantError(t, err, neutron.KindInUse, 409, "NetworkInUse", "Unable to complete operation on network n1. There are one or more ports still in use on the network, id for these ports is: vm.")
	if len(d.Subnets()) != 2 || len(d.Networks()) != 2 {
		t.Fatalf("a refused delete removed something: %d subnets, %d networks", len(d.Subnets()), len(d.Networks()))
	}

	// DHCP's address does not keep a subnet: the port gives it up.
	if err := d.DeleteSubnet(ctx, s2.ID); err != nil {
		t.Errorf("deleting a subnet only DHCP uses: %v", err)
	}
	if dhcp := portByID(d, "dhcp"); len(dhcp.FixedIPs) != 1 || dhcp.FixedIPs[0].SubnetID != s1.ID {
		t.Errorf("DHCP port after its subnet went: %+v, want only its address on %s", dhcp, s1.ID)
	}

	// A router interface keeps the subnet too.
	d.DeletePort("vm")
	d.PutPort(neutron.Port{ID: "router", NetworkID: "n1", DeviceOwner: "network:router_interface", DeviceID: "r1", FixedIPs: []neutron.FixedIP{{SubnetID: s1.ID, IPAddress: "10.0.0.1"}}})
	wantError(t, d.DeleteSubnet(ctx, s1.ID), neutron.KindInUse, 409, "SubnetInUse", s1.ID)
	d.DeletePort("router")

	// Only DHCP's port is left: the network goes with its subnets and that port.
	if err := d.DeleteNetwork(ctx, "n1"); err != nil {
		t.Fatalf("deleting a network only DHCP uses: %v", err)
	}
	if len(d.Subnets()) != 0 || len(d.Ports()) != 0 || len(d.Networks()) != 1 {
		t.Errorf("left: subnets %+v, ports %+v, networks %+v; want only n2", d.Subnets(), d.Ports(), d.Networks())
	}
}

func portByID(d *Driver, id string) neutron.Port {
	for _, p := range d.Ports() {
		if p.ID == id {
			return p
		}
	}
	return neutron.Port{}
}

// Ports are listed by subnet (an address on it), networks and project (the network's).
func TestListPorts(t *testing.T) {
	d := New()
	d.PutNetwork(neutron.Network{ID: "n1", ProjectID: "p1"})
	d.PutNetwork(neutron.Network{ID: "n2", ProjectID: "p2"})
	d.PutPort(neutron.Port{ID: "a", NetworkID: "n1", FixedIPs: []neutron.FixedIP{{SubnetID: "s1", IPAddress: "10.0.0.5"}, {SubnetID: "s2", IPAddress: "2001:db8::5"}}})
	d.PutPort(neutron.Port{ID: "b", NetworkID: "n1", FixedIPs: []neutron.FixedIP{{SubnetID: "s2", IPAddress: "2001:db8::6"}}})
	d.PutPort(neutron.Port{ID: "c", NetworkID: "n2"})
	for _, tc := range []struct {
		filter neutron.Filter
		want   []string
	}{
		{neutron.Filter{}, []string{"a", "b", "c"}},
		{neutron.Filter{SubnetID: "s1"}, []string{"a"}},
		{neutron.Filter{SubnetID: "s2", NetworkIDs: []string{"n1", "n2"}}, []string{"a", "b"}},
		{neutron.Filter{NetworkIDs: []string{"n2"}}, []string{"c"}},
		{neutron.Filter{ProjectID: "p1"}, []string{"a", "b"}},
		{neutron.Filter{ProjectID: "p2", SubnetID: "s1"}, nil},
	} {
		ports, err := d.ListPorts(ctx, tc.filter)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range ports {
			got = append(got, p.ID)
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%+v: ports %v, want %v", tc.filter, got, tc.want)
		}
	}
	if calls := d.Calls(); len(calls) != 6 || calls[5] != "list ports" {
		t.Errorf("calls = %q, want list ports six times", calls)
	}
}

// The first free prefix skips pool prefixes too small for it and whatever is taken, by
// whole blocks, up to the very end of the address space.
func TestFirstFree(t *testing.T) {
	prefixes := func(ss ...string) []netip.Prefix {
		var out []netip.Prefix
		for _, s := range ss {
			out = append(out, netip.MustParsePrefix(s))
		}
		return out
	}
	for _, tc := range []struct {
		pool, taken []netip.Prefix
		bits        int
		want        string
	}{
		{prefixes("10.224.0.0/26", "10.225.0.0/24"), nil, 25, "10.225.0.0/25"},
		{prefixes("10.224.0.0/24"), prefixes("10.224.0.16/28"), 27, "10.224.0.32/27"},
		{prefixes("10.224.0.0/24"), prefixes("10.0.0.0/8"), 26, ""},
		{prefixes("2001:db8:a000::/40"), prefixes("2001:db8:a000::/64", "2001:db8:a000:2::/64"), 64, "2001:db8:a000:1::/64"},
		{prefixes("2001:db8:a000::/40"), prefixes("2001:db8:a000::/64"), 56, "2001:db8:a000:100::/56"},
		{prefixes("ffff:ffff:ffff:ffff:ffff:ffff:ffff:fff0/124"), prefixes("ffff:ffff:ffff:ffff:ffff:ffff:ffff:fff0/125", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:fff8/126"), 126, "ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffc/126"},
		{prefixes("255.255.255.0/24"), prefixes("255.255.255.0/25", "255.255.255.128/26", "255.255.255.192/26"), 26, ""},
	} {
		got, ok := firstFree(tc.pool, tc.bits, tc.taken)
		if (tc.want == "") == ok || (ok && got.String() != tc.want) {
			t.Errorf("firstFree(%v, /%d, taken %v) = %v, %v; want %q", tc.pool, tc.bits, tc.taken, got, ok, tc.want)
		}
	}
}
