package reconcile_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	. "github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
	neutronfake "github.com/samplecrd/network-controller/pkg/neutron/fake"
	"github.com/samplecrd/network-controller/pkg/subnetplan"
)

// subnetListCases are Networks of the list form (spec.subnets): a subnet per item, made,
// changed and removed item by item, each found again by the item's name; and a Network
// moved from the one-subnet form keeps its subnet.
func subnetListCases() []syncCase {
	v4, v6 := cidrItem("v4", "10.50.0.0/24"), slaac(cidrItem("v6", "2001:db8:50::/64"))
	return []syncCase{{
		name:       "new dual-stack Network: one network, a subnet per item, each named after its item",
		object:     listNetwork("dual", v4, v6),
		want:       succeeds,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantCalls:  []string{"create network", "tag network", "create subnet", "create subnet"},
		wantEvents: []string{"Normal NetworkCreated", "Normal SubnetCreated", "Normal SubnetCreated", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, owner neutron.Owner) {
			wantSubnetNames(t, f, owner.SubnetName("v4"), owner.SubnetName("v6"))
			bodies := f.Neutron.Bodies("create subnet")
			if len(bodies) != 2 || !strings.Contains(bodies[0], `"cidr":"10.50.0.0/24"`) ||
				!strings.Contains(bodies[1], `"cidr":"2001:db8:50::/64","ip_version":6,"ipv6_address_mode":"slaac","ipv6_ra_mode":"slaac"`) {
				t.Errorf("create subnet bodies %q, want the IPv4 item's, then the IPv6 item's with its modes", bodies)
			}
		},
		wantObject: wantSubnetsReady(map[string]string{"v4": "10.50.0.0/24", "v6": "2001:db8:50::/64"}),
	}, {
		name:       "one-subnet Network moved to the list form: the same subnet, renamed for its item, nothing created",
		object:     WithGeneration(movedToList(RealizedNetwork("moved", "10.50.0.0/24", ""), v4), 2),
		neutron:    func(d *neutronfake.Driver, o neutron.Owner) { PutRealized(d, o, "10.50.0.0/24", "10.50.0.1") },
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"relabel subnet"},
		wantEvents: []string{"Normal SubnetKept", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, owner neutron.Owner) {
			if s := f.Neutron.Subnets(); len(s) != 1 || s[0].ID != "subnet-of-moved" || s[0].Name != owner.SubnetName("v4") {
				t.Errorf("Neutron subnets %+v, want subnet-of-moved named %s", s, owner.SubnetName("v4"))
			}
		},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			wantSubnetsReady(map[string]string{"v4": "10.50.0.0/24"})(t, got)
			if got.Status.SubnetID != "" || got.Status.Subnets[0].SubnetID != "subnet-of-moved" {
				t.Errorf("status subnetID %q, subnets %+v: want the one-subnet form's fields empty and v4 on subnet-of-moved", got.Status.SubnetID, got.Status.Subnets)
			}
		},
	}, {
		name:       "item added: its subnet created on the same network, the others untouched",
		object:     WithGeneration(withItems(realizedListNetwork("grow", v4), v4, v6), 2),
		neutron:    putRealizedList(v4),
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"create subnet"},
		wantEvents: []string{"Normal SubnetCreated", "Normal Provisioned"},
		wantObject: wantSubnetsReady(map[string]string{"v4": "10.50.0.0/24", "v6": "2001:db8:50::/64"}),
	}, {
		name:       "item changed in place: one PUT on its subnet",
		object:     WithGeneration(withItems(realizedListNetwork("change", v4, v6), withDNS(v4, "10.50.0.53"), v6), 2),
		neutron:    putRealizedList(v4, v6),
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"update subnet"},
		wantEvents: []string{"Normal SubnetUpdated", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, owner neutron.Owner) {
			wantBodies(t, f, "update subnet", `{"dns_nameservers":["10.50.0.53"]}`)
		},
		wantObject: wantSubnetsReady(map[string]string{"v4": "10.50.0.0/24", "v6": "2001:db8:50::/64"}),
	}, {
		name:       "item removed: its subnet deleted, and it leaves status",
		object:     WithGeneration(withItems(realizedListNetwork("shrink", v4, v6), v4), 2),
		neutron:    putRealizedList(v4, v6),
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"delete subnet"},
		wantEvents: []string{"Normal SubnetDeleted", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, owner neutron.Owner) {
			wantSubnetNames(t, f, owner.SubnetName("v4"))
		},
		wantObject: wantSubnetsReady(map[string]string{"v4": "10.50.0.0/24"}),
	}, {
		name:   "item removed while a port holds an address on its subnet: SubnetInUse naming the port, the item stays in status, the new item made all the same",
		object: WithGeneration(withItems(realizedListNetwork("held", v4, v6), v4, cidrItem("c", "10.50.2.0/24")), 2),
		neutron: func(d *neutronfake.Driver, o neutron.Owner) {
			putRealizedList(v4, v6)(d, o)
			d.PutPort(neutron.Port{ID: "vm-port", NetworkID: "net-of-held", DeviceOwner: "compute:nova", DeviceID: "vm-1",
				FixedIPs: []neutron.FixedIP{{SubnetID: itemSubnetID("held", "v6"), IPAddress: "2001:db8:50::7"}}})
		},
		want:       retries,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"delete subnet", "list ports", "create subnet"},
		wantEvents: []string{"Normal SubnetCreated", "Warning SubnetInUse"},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			WantNotReady(samplecrdv1.ReasonSubnetInUse, "vm-port (device owner compute:nova, device vm-1)")(t, got)
			var items []string
			for _, s := range got.Status.Subnets {
				items = append(items, s.Name)
			}
			if !slices.Equal(items, []string{"v4", "c", "v6"}) {
				t.Errorf("status.subnets items %q, want v4 and c, then v6 until its subnet is gone", items)
			}
		},
	}, {
		name:   "item added again with another range while a port holds the old one: the new subnet made, the old named in SubnetInUse, the item listed once",
		object: WithGeneration(withItems(realizedListNetwork("again", v4, v6), v4, slaac(cidrItem("v6", "2001:db8:51::/64"))), 3),
		neutron: func(d *neutronfake.Driver, o neutron.Owner) {
			putRealizedList(v4, v6)(d, o)
			d.PutPort(neutron.Port{ID: "vm-port", NetworkID: "net-of-again", DeviceOwner: "compute:nova", DeviceID: "vm-1",
				FixedIPs: []neutron.FixedIP{{SubnetID: itemSubnetID("again", "v6"), IPAddress: "2001:db8:50::7"}}})
		},
		want:       retries,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"delete subnet", "list ports", "create subnet"},
		wantEvents: []string{"Normal SubnetCreated", "Warning SubnetInUse"},
		wantObject: func(t *testing.T, got *samplecrdv1.Network) {
			WantNotReady(samplecrdv1.ReasonSubnetInUse, itemSubnetID("again", "v6"))(t, got)
			if len(got.Status.Subnets) != 2 || statusCIDR(got, "v6") != "2001:db8:51::/64" {
				t.Errorf("status.subnets %+v, want v4 and v6 once, on its new range", got.Status.Subnets)
			}
		},
	}, {
		name:   "pool item: the pool looked up by name, the range Neutron allocated in status",
		object: listNetwork("pooled", poolItem("v6", samplecrdv1.SubnetPoolRef{Name: "ipv6-pool"}, 64)),
		neutron: func(d *neutronfake.Driver, _ neutron.Owner) {
			d.PutSubnetPool(neutron.SubnetPool{ID: "pool-6", Name: "ipv6-pool", IPVersion: 6, Prefixes: []string{"2001:db8:a000::/40"}, Shared: true})
		},
		want:       succeeds,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantCalls:  []string{"create network", "tag network", "list subnet pools", "create subnet"},
		wantEvents: []string{"Normal NetworkCreated", "Normal SubnetCreated", "Normal Provisioned"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			body := f.Neutron.Bodies("create subnet")[0]
			if !strings.Contains(body, `"subnetpool_id":"pool-6","prefixlen":64,"ip_version":6`) || strings.Contains(body, `"cidr"`) ||
				strings.Contains(body, `"gateway_ip"`) || strings.Contains(body, `"allocation_pools"`) {
				t.Errorf("create subnet sent %s, want the pool, the prefix length and the pool's version, and no cidr, gateway or pools", body)
			}
		},
		wantObject: wantSubnetsReady(map[string]string{"v6": "2001:db8:a000::/64"}),
	}, {
		name:       "pool item naming a pool the project cannot use: InvalidSpec naming it, nothing created on the network",
		object:     listNetwork("nopool", poolItem("v6", samplecrdv1.SubnetPoolRef{Name: "missing"}, 64)),
		want:       stops,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantCalls:  []string{"create network", "tag network", "list subnet pools"},
		wantEvents: []string{"Normal NetworkCreated", "Warning InvalidSpec"},
		wantObject: WantNotReady(samplecrdv1.ReasonInvalidSpec, `no subnet pool "missing" that this project can use`),
	}, {
		name:       "two items overlap (a CRD without its rules): stopped before any Neutron call, naming both",
		object:     listNetwork("overlap", v4, cidrItem("wide", "10.50.0.0/16")),
		want:       stops,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantEvents: []string{"Warning InvalidSpec"},
		wantObject: WantNotReady(samplecrdv1.ReasonInvalidSpec, "subnets v4 (10.50.0.0/24) and wide (10.50.0.0/16) overlap"),
	}}
}

func cidrItem(name, cidr string) samplecrdv1.NetworkSubnet {
	return samplecrdv1.NetworkSubnet{Name: name, SubnetFields: samplecrdv1.SubnetFields{CIDR: cidr}}
}

func poolItem(name string, pool samplecrdv1.SubnetPoolRef, prefixLength int32) samplecrdv1.NetworkSubnet {
	return samplecrdv1.NetworkSubnet{Name: name, SubnetPool: &pool, PrefixLength: &prefixLength}
}

func slaac(item samplecrdv1.NetworkSubnet) samplecrdv1.NetworkSubnet {
	item.IPv6AddressMode, item.IPv6RAMode = samplecrdv1.IPv6ModeSLAAC, samplecrdv1.IPv6ModeSLAAC
	return item
}

func statusCIDR(n *samplecrdv1.Network, item string) string {
	for _, s := range n.Status.Subnets {
		if s.Name == item {
			return s.CIDR
		}
	}
	return ""
}

func withDNS(item samplecrdv1.NetworkSubnet, servers ...string) samplecrdv1.NetworkSubnet {
	item.DNSNameservers = servers
	return item
}

func listNetwork(name string, items ...samplecrdv1.NetworkSubnet) *samplecrdv1.Network {
	return withItems(NewNetwork(name, "", ""), items...)
}

func withItems(n *samplecrdv1.Network, items ...samplecrdv1.NetworkSubnet) *samplecrdv1.Network {
	n.Spec.Subnets = items
	return n
}

// movedToList is n with its one subnet described as the items instead.
func movedToList(n *samplecrdv1.Network, items ...samplecrdv1.NetworkSubnet) *samplecrdv1.Network {
	n.Spec.SubnetFields = samplecrdv1.SubnetFields{}
	return withItems(n, items...)
}

// realizedListNetwork is a Network of the list form whose status says it is Ready with
// the Neutron resources putRealizedList makes.
func realizedListNetwork(name string, items ...samplecrdv1.NetworkSubnet) *samplecrdv1.Network {
	n := WithFinalizer(listNetwork(name, items...))
	n.Status = samplecrdv1.NetworkStatus{ObservedGeneration: 1, NetworkID: "net-of-" + name}
	var cidrs []string
	for _, item := range items {
		cidrs = append(cidrs, item.CIDR)
		plan := mustPlan(item)
		n.Status.Subnets = append(n.Status.Subnets, samplecrdv1.SubnetStatus{Name: item.Name, CIDR: item.CIDR,
			SubnetID: itemSubnetID(name, item.Name), Gateway: plan.Gateway.String(), EnableDHCP: ptr.To(true)})
	}
	n.Status.CIDRs = strings.Join(cidrs, ",")
	SetReadyCondition(&n.Status, 1, metav1.ConditionTrue, samplecrdv1.ReasonProvisioned, "Neutron network net-of-"+name)
	return n
}

// putRealizedList stores the network and the subnet of each item as the controller made
// them.
func putRealizedList(items ...samplecrdv1.NetworkSubnet) func(*neutronfake.Driver, neutron.Owner) {
	return func(d *neutronfake.Driver, owner neutron.Owner) {
		netID := "net-of-" + owner.Name
		d.PutNetwork(neutron.Network{ID: netID, Name: owner.ResourceName(), Description: neutron.ClusterDescription(owner.ClusterID), Tags: owner.Tags()})
		for _, item := range items {
			plan := mustPlan(item)
			var pools []neutron.Pool
			for _, p := range plan.AllocationPools {
				pools = append(pools, neutron.Pool{Start: p.Start.String(), End: p.End.String()})
			}
			d.PutSubnet(neutron.Subnet{ID: itemSubnetID(owner.Name, item.Name), NetworkID: netID, Name: owner.SubnetName(item.Name),
				Description: neutron.ClusterDescription(owner.ClusterID), CIDR: item.CIDR, IPVersion: plan.IPVersion,
				GatewayIP: plan.Gateway.String(), AllocationPools: pools, EnableDHCP: true,
				IPv6Modes: neutron.IPv6Modes{AddressMode: plan.IPv6AddressMode, RAMode: plan.IPv6RAMode}})
		}
	}
}

func mustPlan(item samplecrdv1.NetworkSubnet) subnetplan.Subnet {
	plan, err := subnetplan.Plan(subnetplan.Spec{CIDR: item.CIDR, EnableDHCP: true,
		IPv6AddressMode: string(item.IPv6AddressMode), IPv6RAMode: string(item.IPv6RAMode)})
	if err != nil {
		panic(err)
	}
	return plan
}

func itemSubnetID(network, item string) string { return fmt.Sprintf("subnet-%s-of-%s", item, network) }

// wantSubnetNames checks the Neutron names of the subnets, in any order.
func wantSubnetNames(t *testing.T, f *Fixture, names ...string) {
	t.Helper()
	var got []string
	for _, s := range f.Neutron.Subnets() {
		got = append(got, s.Name)
	}
	slices.Sort(got)
	slices.Sort(names)
	if !slices.Equal(got, names) {
		t.Errorf("Neutron subnets are named %q, want %q", got, names)
	}
}

// wantSubnetsReady checks that the Network is Ready with exactly these items (name to
// CIDR) in status.subnets, each with a subnet ID and DHCP.
func wantSubnetsReady(cidrs map[string]string) func(*testing.T, *samplecrdv1.Network) {
	return func(t *testing.T, got *samplecrdv1.Network) {
		t.Helper()
		c := ReadyCondition(t, got)
		if c.Status != metav1.ConditionTrue || c.Reason != samplecrdv1.ReasonProvisioned || c.ObservedGeneration != got.Generation {
			t.Errorf("Ready = %s/%s for generation %d, want True/Provisioned for %d", c.Status, c.Reason, c.ObservedGeneration, got.Generation)
		}
		if len(got.Status.Subnets) != len(cidrs) {
			t.Errorf("status.subnets = %+v, want %d items", got.Status.Subnets, len(cidrs))
		}
		for _, s := range got.Status.Subnets {
			if cidrs[s.Name] != s.CIDR || s.SubnetID == "" || s.EnableDHCP == nil || !*s.EnableDHCP {
				t.Errorf("status.subnets item %+v, want CIDR %q, a subnet ID and DHCP on", s, cidrs[s.Name])
			}
		}
		if !strings.Contains(c.Message, "subnets") && len(cidrs) > 1 {
			t.Errorf("Ready message %q, want it to name the subnets", c.Message)
		}
		WantProgressConditions(t, got)
	}
}
