package neutronstore

import (
	"fmt"
	"reflect"
	"testing"
	"time"
	"unsafe"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// TestRecordKeepsEveryFieldOfNetworkAndSubnet fills every field of a network and two
// subnets, recursively, with values no other field has: a field the record left out, or
// read back into another, fails it, with no change to the test when a field is added.
func TestRecordKeepsEveryFieldOfNetworkAndSubnet(t *testing.T) {
	var n neutron.Network
	var subnets []neutron.Subnet
	next := 0
	fillDistinct(t, reflect.ValueOf(&n).Elem(), &next)
	fillDistinct(t, reflect.ValueOf(&subnets).Elem(), &next)
	shared := []string{neutron.ClusterDescription("c"), neutron.ClusterTag("c")}

	rec := packRecord(shared, n, subnets)
	if got := rec.network(shared); !reflect.DeepEqual(got, n) {
		t.Errorf("network\n got %#v\nwant %#v", got, n)
	}
	if got := rec.subnets(shared); !reflect.DeepEqual(got, subnets) {
		t.Errorf("subnets\n got %#v\nwant %#v", got, subnets)
	}
}

// fillDistinct sets v, and every field and element in it, to a value that no other has:
// strings, numbers and times from a counter, true, pointers to such values, and slices
// and maps of two.
func fillDistinct(t *testing.T, v reflect.Value, next *int) {
	t.Helper()
	*next++
	k := *next
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("value %d", k))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(k))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(uint64(k))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(k) + 0.5)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fillDistinct(t, p.Elem(), next)
		v.Set(p)
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice {
			v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		}
		for i := range v.Len() {
			fillDistinct(t, v.Index(i), next)
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		for range 2 {
			key, value := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fillDistinct(t, key, next)
			fillDistinct(t, value, next)
			v.SetMapIndex(key, value)
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Unix(int64(1_700_000_000+k), int64(k)).UTC()))
			return
		}
		for i := range v.NumField() {
			fillDistinct(t, v.Field(i), next)
		}
	default:
		t.Fatalf("fillDistinct cannot fill %s (kind %s): teach it", v.Type(), v.Kind())
	}
}

// TestRecordKeepsNilEmptyAndZones checks what distinct values do not: a nil slice apart
// from an empty one, an unset pointer, a time's zone, and strings that repeat the
// network's or the shared ones.
func TestRecordKeepsNilEmptyAndZones(t *testing.T) {
	shared := []string{neutron.ClusterDescription("c"), neutron.ClusterTag("c"), "project-1"}
	yes, no, qos := true, false, "qos-1"
	created := time.Date(2026, 12, 2, 3, 6, 5, 123456789, time.UTC)
	for _, tc := range []struct {
		name    string
		network neutron.Network
		subnets []neutron.Subnet
	}{{
		name: "every field set",
		network: neutron.Network{ID: "n1", Name: "k8s_team_web_u1", Description: shared[0], Tags: []string{shared[1], ownerTag("u1"), "user tag"},
			CreatedAt: created, MTU: 1442, PortSecurityEnabled: &yes, QoSPolicyID: &qos, ProjectID: shared[2]},
		subnets: []neutron.Subnet{{
			ID: "s1", NetworkID: "n1", ProjectID: shared[2], Name: "k8s_team_web_u1", Description: shared[0], Tags: []string{},
			CIDR: "2001:db8::/64", IPVersion: 6, GatewayIP: "2001:db8::1",
			AllocationPools: []neutron.Pool{{Start: "2001:db8::10", End: "2001:db8::99"}, {Start: "2001:db8::200", End: "2001:db8::253"}},
			DNSNameservers:  []string{"2001:db8::2"}, HostRoutes: []neutron.HostRoute{{Destination: "::/0", NextHop: "2001:db8::254"}},
			EnableDHCP: true, IPv6Modes: neutron.IPv6Modes{AddressMode: "slaac", RAMode: "slaac"}, SubnetPoolID: "pool-1",
			CreatedAt: created.Add(time.Second),
		}, {
			ID: "s2", NetworkID: "another network", ProjectID: "another project", Name: "its own name", Description: "its own description",
			AllocationPools: []neutron.Pool{}, DNSNameservers: []string{}, HostRoutes: []neutron.HostRoute{},
			CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 6, time.FixedZone("", 5*3600+30*60)),
		}},
	}, {
		name:    "nothing set",
		network: neutron.Network{ID: "n2", PortSecurityEnabled: &no},
	}, {
		name:    "a subnet with nothing set",
		network: neutron.Network{ID: "n3", Tags: []string{}},
		subnets: []neutron.Subnet{{}},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			rec := packRecord(shared, tc.network, tc.subnets)
			if got := rec.network(shared); !reflect.DeepEqual(got, tc.network) {
				t.Errorf("network\n got %#v\nwant %#v", got, tc.network)
			}
			if got := rec.subnets(shared); !reflect.DeepEqual(got, tc.subnets) {
				t.Errorf("subnets\n got %#v\nwant %#v", got, tc.subnets)
			}
		})
	}
}

func TestRecordKeepsTheInstantOfALocalTime(t *testing.T) {
	now := time.Now()
	got := packRecord(nil, neutron.Network{ID: "n1", CreatedAt: now}, nil).network(nil).CreatedAt
	if !got.Equal(now) {
		t.Errorf("created %v, want %v", got, now)
	}
}

// The bench's Network: a subnet with two pools, two DNS servers and a host route.
func benchNetwork() (neutron.Network, []neutron.Subnet, []string) {
	shared := []string{neutron.ClusterDescription("bench-220398-r1"), neutron.ClusterTag("bench-220398-r1"), neutron.RetainTag, "fake_project_id"}
	name := "k8s_network-controller-bench_r1-220398-0000_2e89393f-c031-4978-9caa-d7aa0a327f58"
	yes := true
	n := neutron.Network{ID: "30649742-6f2d-4cbb-ad36-75bfd17eba05", Name: fresh(name), Description: fresh(shared[0]),
		Tags:      []string{fresh(shared[1]), ownerTag("2e89393f-c031-4978-9caa-d7aa0a327f58")},
		CreatedAt: time.Date(2026, 12, 2, 3, 4, 37, 0, time.UTC), MTU: 1500, PortSecurityEnabled: &yes, ProjectID: fresh(shared[3])}
	s := neutron.Subnet{ID: "e58b59e8-436a-4b59-b195-3a997c59a661", NetworkID: fresh(n.ID), ProjectID: fresh(shared[3]), Name: fresh(name),
		Description: fresh(shared[0]), Tags: []string{}, CIDR: "10.0.0.0/24", IPVersion: 4, GatewayIP: "10.0.0.1",
		AllocationPools: []neutron.Pool{{Start: "10.0.0.10", End: "10.0.0.99"}, {Start: "10.0.0.200", End: "10.0.0.253"}},
		DNSNameservers:  []string{"10.0.0.2", "10.0.0.3"}, HostRoutes: []neutron.HostRoute{{Destination: "172.16.0.0/12", NextHop: "10.0.0.254"}},
		EnableDHCP: true, CreatedAt: time.Date(2026, 12, 2, 3, 4, 38, 0, time.UTC)}
	return n, []neutron.Subnet{s}, shared
}

func TestRecordHoldsOnlyTheText(t *testing.T) {
	n, subnets, shared := benchNetwork()
	rec := packRecord(shared, n, subnets)
	// The unique text: two IDs, the name, the owner tag and the subnet's addresses.
	text := len(n.ID) + len(subnets[0].ID) + len(n.Name) + len(n.Tags[1]) + len("10.0.0.0/24"+"10.0.0.1"+
		"10.0.0.10"+"10.0.0.99"+"10.0.0.200"+"10.0.0.253"+"10.0.0.2"+"10.0.0.3"+"172.16.0.0/12"+"10.0.0.254")
	// Besides the text: a reference byte and a length for each literal, a byte or two for
	// each other value; about three bytes a field (64 in all with today's 26 fields), so
	// that a field added leaves the bound as tight.
	fields := reflect.TypeFor[neutron.Network]().NumField() + reflect.TypeFor[neutron.Subnet]().NumField()
	if len(rec) > text+3*fields {
		t.Errorf("the record takes %d bytes for %d bytes of text and %d fields", len(rec), text, fields)
	}
	got, gotSubnets := rec.network(shared), rec.subnets(shared)
	if !inRecord(rec, got.ID) || !inRecord(rec, got.Tags[1]) || !inRecord(rec, gotSubnets[0].AllocationPools[1].End) {
		t.Error("unpacked strings are copies, not the record's text")
	}
	if !sameMemory(got.Description, shared[0]) || !sameMemory(got.Tags[0], shared[1]) || !sameMemory(got.ProjectID, shared[3]) {
		t.Error("the shared strings were not shared")
	}
	if !sameMemory(gotSubnets[0].Name, got.Name) || !sameMemory(gotSubnets[0].NetworkID, got.ID) {
		t.Error("the subnet's name and network ID are not the network's")
	}
}

func TestRecordReadsAreTheCallers(t *testing.T) {
	n, subnets, shared := benchNetwork()
	rec := packRecord(shared, n, subnets)
	got, gotSubnets := rec.network(shared), rec.subnets(shared)
	got.Tags[1] = "changed"
	*got.PortSecurityEnabled = false
	gotSubnets[0].DNSNameservers[0] = "changed"
	if again := rec.network(shared); again.Tags[1] != n.Tags[1] || !*again.PortSecurityEnabled {
		t.Errorf("a change to what was read reached the record: %+v", again)
	}
	if again := rec.subnets(shared); again[0].DNSNameservers[0] != "10.0.0.2" {
		t.Errorf("a change to what was read reached the record: %+v", again)
	}
}

func inRecord(rec record, s string) bool {
	start, p := uintptr(unsafe.Pointer(unsafe.StringData(string(rec)))), uintptr(unsafe.Pointer(unsafe.StringData(s)))
	return p >= start && p < start+uintptr(len(rec))
}
