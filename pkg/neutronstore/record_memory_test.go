package neutronstore

import (
	"encoding/json"
	"fmt"
	"runtime"
	"testing"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// The index's memory and the record's CPU, on Networks as Neutron lists them: each a
// network and one subnet, decoded from JSON as the driver decodes a reply, so that every
// string is an allocation of its own until the index packs it.
//
//	go test ./pkg/neutronstore -run '^$' -bench 'Index|Record' -benchmem

const (
	benchCluster = "4c1d2e0f-8b7a-4e55-a2c3-9d8e7f6a5b4c"
	benchProject = "0f3b8e2d9a7c4b61a5e3d2c1b0a98765"
)

// neutronLists returns count networks, each with one subnet, as Neutron's lists return them.
func neutronLists(tb testing.TB, count int) ([]neutron.Network, []neutron.Subnet) {
	type reply struct {
		Networks []neutron.Network `json:"networks"`
		Subnets  []neutron.Subnet  `json:"subnets"`
	}
	var nets, subnets []map[string]any
	for i := range count {
		uid := fmt.Sprintf("2e89393f-c031-4978-%04x-d7aa0a%06x", i%0x10000, i)
		netID := fmt.Sprintf("30649742-6f2d-4cbb-%04x-75bfd1%06x", i%0x10000, i)
		name := fmt.Sprintf("k8s_team-%d_web-%d_%s", i%50, i, uid)
		created := fmt.Sprintf("2026-12-02T03:%02d:%02dZ", i/60%60, i%60)
		nets = append(nets, map[string]any{
			"id": netID, "name": name, "description": neutron.ClusterDescription(benchCluster),
			"tags":       []string{neutron.ClusterTag(benchCluster), ownerTag(uid)},
			"created_at": created, "mtu": 1442, "port_security_enabled": true, "qos_policy_id": nil,
			"project_id": benchProject,
		})
		third, fourth := i/256%256, i%256
		subnets = append(subnets, map[string]any{
			"id": fmt.Sprintf("e58b59e8-436a-4b59-%04x-3a997c%06x", i%0x10000, i), "network_id": netID,
			"project_id": benchProject, "name": name, "description": neutron.ClusterDescription(benchCluster),
			"tags": []string{}, "cidr": fmt.Sprintf("10.%d.%d.0/24", third, fourth), "ip_version": 4,
			"gateway_ip":       fmt.Sprintf("10.%d.%d.1", third, fourth),
			"allocation_pools": []map[string]string{{"start": fmt.Sprintf("10.%d.%d.2", third, fourth), "end": fmt.Sprintf("10.%d.%d.254", third, fourth)}},
			"dns_nameservers":  []string{}, "host_routes": []any{}, "enable_dhcp": true,
			"ipv6_address_mode": nil, "ipv6_ra_mode": nil, "subnetpool_id": nil, "created_at": created,
		})
	}
	body, err := json.Marshal(map[string]any{"networks": nets, "subnets": subnets})
	if err != nil {
		tb.Fatal(err)
	}
	var r reply
	if err := json.Unmarshal(body, &r); err != nil {
		tb.Fatal(err)
	}
	return r.Networks, r.Subnets
}

// fill refills x with lists of count Networks, which are garbage once it returns, as a
// reply is once the store has it.
func fill(tb testing.TB, x *index, count int) {
	nets, subnets := neutronLists(tb, count)
	x.Refill(x.Revision(), nets, subnets)
}

func newBenchIndex() *index {
	return newIndex(neutron.ClusterDescription(benchCluster), neutron.ClusterTag(benchCluster), neutron.RetainTag, benchProject)
}

// heapInUse returns the bytes of live heap objects after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkIndexMemory reports the heap the index holds per Network at 10,000 Networks:
// what remains once the listed networks and subnets are dropped.
func BenchmarkIndexMemory(b *testing.B) {
	const count = 10000
	for range b.N {
		before := heapInUse()
		x := newBenchIndex()
		fill(b, x, count)
		after := heapInUse()
		if x.Len() != count {
			b.Fatalf("the index holds %d networks, want %d", x.Len(), count)
		}
		b.ReportMetric(float64(int64(after)-int64(before))/count, "heap-B/network")
	}
}

// BenchmarkRecordPack and BenchmarkRecordUnpack time one Network's record: packed at each
// change the store records, unpacked at each read of a pass.
func BenchmarkRecordPack(b *testing.B) {
	nets, subnets := neutronLists(b, 1)
	shared := newBenchIndex().shared
	b.ReportAllocs()
	for range b.N {
		packRecord(shared, nets[0], subnets)
	}
}

func BenchmarkRecordUnpack(b *testing.B) {
	nets, subnets := neutronLists(b, 1)
	shared := newBenchIndex().shared
	rec := packRecord(shared, nets[0], subnets)
	b.ReportAllocs()
	for range b.N {
		rec.network(shared)
		rec.subnets(shared)
	}
}
