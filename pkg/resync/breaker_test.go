package resync

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// The breaker counts per namespace: one namespace's force-removals halt the collection of
// its own orphans only. A reused cluster ID, which makes every namespace's networks look
// like orphans, still halts the whole project: small namespaces, each within its own
// limit, are over the project's together.
func TestOrphanBreakerCountsPerNamespace(t *testing.T) {
	for _, tc := range []struct {
		name string
		// orphans and live are the networks of each namespace in the controller's own
		// project: of no Network, and of a Network in the cache.
		orphans, live map[string]int
		// wantCollected are the namespaces whose orphans are all collected; the others
		// keep every one.
		wantCollected []string
		wantHalted    float64
		// wantEvent are fragments of the one OrphanCollectionHalted Event; unwanted must
		// not be in it.
		wantEvent, unwanted []string
	}{{
		name:          "one namespace's 30 force-removals halt it alone; another's 2 orphans are collected",
		orphans:       map[string]int{"team-a": 30, "team-b": 2},
		live:          map[string]int{"team-b": 5},
		wantCollected: []string{"team-b"},
		wantHalted:    1,
		wantEvent: []string{"Warning OrphanCollectionHalted", "without a Network object than one pass may collect: team-a (30 of its 30 networks, limit 10);",
			"the other namespaces' orphans there are collected"},
		unwanted: []string{"team-b"},
	}, {
		name:          "a namespace of many networks may have more orphans: 15 of its 200, with 15 of another's 20 halted",
		orphans:       map[string]int{"big": 15, "small": 15},
		live:          map[string]int{"big": 185, "small": 5},
		wantCollected: []string{"big"},
		wantHalted:    1,
		wantEvent:     []string{"than one pass may collect: small (15 of its 20 networks, limit 10);"},
		unwanted:      []string{"big ("},
	}, {
		name:       "a reused cluster ID: 12 namespaces of 2 networks each, none over its limit, all over the project's together",
		orphans:    map[string]int{"n00": 2, "n01": 2, "n02": 2, "n03": 2, "n04": 2, "n05": 2, "n06": 2, "n07": 2, "n08": 2, "n09": 2, "n10": 2, "n11": 2},
		wantHalted: 1,
		wantEvent: []string{"24 of its 24 networks of cluster ID " + networktest.ClusterID + " have no Network object, in namespaces each within its own limit",
			"more than one pass may collect there (10); nothing is collected there", "If another cluster uses cluster ID"},
	}, {
		name: "a reused cluster ID with a large namespace too: that one is named besides",
		orphans: map[string]int{"n00": 2, "n01": 2, "n02": 2, "n03": 2, "n04": 2, "n05": 2, "n06": 2, "n07": 2, "n08": 2, "n09": 2, "n10": 2, "n11": 2,
			"large": 40},
		wantHalted: 1,
		wantEvent:  []string{"24 of its 64 networks", "namespaces over their own limits besides: large (40 of its 40 networks, limit 10)"},
	}, {
		name:          "few orphans in several namespaces: all collected, nothing halted",
		orphans:       map[string]int{"team-a": 3, "team-b": 3, "team-c": 3},
		live:          map[string]int{"team-a": 30},
		wantCollected: []string{"team-a", "team-b", "team-c"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixtureWithConfig(t, func(c *Config) {
				c.EventTarget = &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: "network-controller", Namespace: "ops"}}
			})
			for namespace, n := range tc.live {
				for i := range n {
					network := networktest.NewNetworkIn(namespace, fmt.Sprintf("live-%d", i), "10.50.0.0/24")
					f.Put(network)
					putOwned(f, networktest.OwnerOf(network))
				}
			}
			for namespace, n := range tc.orphans {
				for i := range n {
					putOwned(f, neutron.Owner{ClusterID: networktest.ClusterID, Namespace: namespace, Name: fmt.Sprintf("gone-%d", i), UID: fmt.Sprintf("gone-%s-%d", namespace, i)})
				}
			}
			f.StartLeading()

			f.resync.Once(f.Ctx)

			left := orphansLeft(f)
			for namespace, n := range tc.orphans {
				want := n
				if slices.Contains(tc.wantCollected, namespace) {
					want = 0
				}
				if left[namespace] != want {
					t.Errorf("namespace %s: %d of its %d orphans left, want %d", namespace, left[namespace], n, want)
				}
			}
			if live := len(f.Neutron.Networks()) - sum(left); live != sum(tc.live) {
				t.Errorf("%d networks of live Networks left, want all %d", live, sum(tc.live))
			}
			if v := networktest.Series(t, f.Metrics, "network_controller_orphan_collection_halted")[""].GetGauge().GetValue(); v != tc.wantHalted {
				t.Errorf("orphan_collection_halted = %v, want %v", v, tc.wantHalted)
			}
			events := f.Events()
			if tc.wantEvent == nil && len(events) > 0 {
				t.Errorf("Events %q, want none", events)
			}
			if tc.wantEvent != nil && len(events) != 1 {
				t.Fatalf("Events %q, want one OrphanCollectionHalted", events)
			}
			for _, want := range tc.wantEvent {
				if !strings.Contains(events[0], want) {
					t.Errorf("Event %q lacks %q", events[0], want)
				}
			}
			for _, unwanted := range tc.unwanted {
				if strings.Contains(events[0], unwanted) {
					t.Errorf("Event %q names %q, whose orphans were collected", events[0], unwanted)
				}
			}
		})
	}
}

// putOwned puts the owner's network into the fake Neutron of f, made an hour ago.
func putOwned(f *fixture, owner neutron.Owner) {
	f.Neutron.PutNetwork(neutron.Network{ID: "net-" + owner.UID, Name: owner.ResourceName(), Description: neutron.ClusterDescription(owner.ClusterID),
		Tags: owner.Tags(), CreatedAt: networktest.AnHourAgo})
}

// orphansLeft counts, by namespace, the networks in f's Neutron of UIDs putOwned gave orphans.
func orphansLeft(f *fixture) map[string]int {
	left := map[string]int{}
	for _, n := range f.Neutron.Networks() {
		if uid, _ := neutron.OwnerUID(n); strings.HasPrefix(uid, "gone-") {
			left[namespaceOf(n)]++
		}
	}
	return left
}

func sum(m map[string]int) int {
	total := 0
	for _, n := range m {
		total += n
	}
	return total
}
