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

// Finding 8: one namespace's orphans, within its own limit, do not fill a budget the
// project's other namespaces share: the others' orphans are collected with them, and the
// project is not halted.
func TestOrphanBreakerOneNamespaceDoesNotHaltTheProject(t *testing.T) {
	for _, tc := range []breakerCase{{
		name:          "10 orphans of a namespace of 10 networks, at its limit, and 1 of another: both collected",
		orphans:       map[string]int{"team-a": 10, "team-b": 1},
		wantCollected: []string{"team-a", "team-b"},
	}, {
		name:          "20 orphans of a namespace of 200 networks, at its limit, and 1 orphan each of two others: all collected",
		orphans:       map[string]int{"big": 20, "team-b": 1, "team-c": 1},
		live:          map[string]int{"big": 180},
		wantCollected: []string{"big", "team-b", "team-c"},
	}, {
		name:          "two namespaces at their limits: both collected",
		orphans:       map[string]int{"team-a": 10, "team-b": 10},
		wantCollected: []string{"team-a", "team-b"},
	}} {
		t.Run(tc.name, tc.run)
	}
}

// A namespace past its own limit halts alone: the others' orphans are collected, and the
// halt names it and no other.
func TestOrphanBreakerHaltsANamespaceAlone(t *testing.T) {
	for _, tc := range []breakerCase{{
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
		name:          "one namespace past its limit, another at its limit, a third with 1 orphan: the first halts alone",
		orphans:       map[string]int{"team-a": 11, "team-b": 10, "team-c": 1},
		wantCollected: []string{"team-b", "team-c"},
		wantHalted:    1,
		wantEvent:     []string{"than one pass may collect: team-a (11 of its 11 networks, limit 10);"},
		unwanted:      []string{"team-b", "team-c"},
	}} {
		t.Run(tc.name, tc.run)
	}
}

// A reused cluster ID (an etcd restore, a copied -cluster-id) makes a live cluster's
// networks look like orphans here, in many namespaces at once or in networks whose names
// name none: more orphans than the project's limit outside the namespace with the most.
// Nothing is collected in the project.
func TestOrphanBreakerHaltsTheProjectForAReusedClusterID(t *testing.T) {
	for _, tc := range []breakerCase{{
		name:       "12 namespaces of 2 networks each, each within its limit",
		orphans:    map[string]int{"n00": 2, "n01": 2, "n02": 2, "n03": 2, "n04": 2, "n05": 2, "n06": 2, "n07": 2, "n08": 2, "n09": 2, "n10": 2, "n11": 2},
		live:       map[string]int{"n00": 5},
		wantHalted: 1,
		wantEvent: []string{"Warning OrphanCollectionHalted", "Orphan collection halted in ", "24 of its 29 networks of cluster ID " + networktest.ClusterID + " have no Network object",
			"in 12 namespaces each within its own limit", "the 22 beyond the namespace with the most (n00, 2) are more than one pass may collect there (10); nothing is collected there",
			"If another cluster uses cluster ID"},
	}, {
		name: "with a large namespace too: that one is named besides",
		orphans: map[string]int{"n00": 2, "n01": 2, "n02": 2, "n03": 2, "n04": 2, "n05": 2, "n06": 2, "n07": 2, "n08": 2, "n09": 2, "n10": 2, "n11": 2,
			"large": 40},
		wantHalted: 1,
		wantEvent:  []string{"24 of its 64 networks", "the 22 beyond", "namespaces over their own limits besides: large (40 of its 40 networks, limit 10)"},
	}, {
		name:       "11 networks whose names name no namespace",
		orphans:    map[string]int{"": 11},
		live:       map[string]int{"team-a": 5},
		wantHalted: 1,
		wantEvent:  []string{"11 of its 16 networks", "11 in networks whose names name none", "the 11 beyond the namespace with the most"},
	}, {
		name:       "two namespaces at their limits and a third's 1 orphan: 11 beyond the one with the most",
		orphans:    map[string]int{"team-a": 10, "team-b": 10, "team-c": 1},
		wantHalted: 1,
		wantEvent:  []string{"21 of its 21 networks", "in 3 namespaces", "the 11 beyond the namespace with the most (team-a, 10)"},
	}, {
		name:          "few orphans in several namespaces: all collected, nothing halted",
		orphans:       map[string]int{"team-a": 3, "team-b": 3, "team-c": 3, "": 2},
		live:          map[string]int{"team-a": 30},
		wantCollected: []string{"team-a", "team-b", "team-c", ""},
	}} {
		t.Run(tc.name, tc.run)
	}
}

// breakerCase is one resync pass over orphans in the controller's own project.
type breakerCase struct {
	name string
	// orphans and live are the networks of each namespace in the project: of no Network,
	// and of a Network in the cache. Orphans of namespace "" have names naming none.
	orphans, live map[string]int
	// wantCollected are the namespaces whose orphans are all collected; the others keep
	// every one.
	wantCollected []string
	wantHalted    float64
	// wantEvent are fragments of the one OrphanCollectionHalted Event (nil: no Event);
	// unwanted must not be in it.
	wantEvent, unwanted []string
}

func (tc breakerCase) run(t *testing.T) {
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
			owner := neutron.Owner{ClusterID: networktest.ClusterID, Namespace: namespace, Name: fmt.Sprintf("gone-%d", i), UID: fmt.Sprintf("gone-%s-%d", namespace, i)}
			if namespace == "" {
				putNamed(f, owner, fmt.Sprintf("made-elsewhere-%d", i))
				continue
			}
			putOwned(f, owner)
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
			t.Errorf("namespace %q: %d of its %d orphans left, want %d", namespace, left[namespace], n, want)
		}
	}
	if live := len(f.Neutron.Networks()) - sum(left); live != sum(tc.live) {
		t.Errorf("%d networks of live Networks left, want all %d", live, sum(tc.live))
	}
	if v := networktest.Series(t, f.Metrics, "network_controller_orphan_collection_halted")[""].GetGauge().GetValue(); v != tc.wantHalted {
		t.Errorf("orphan_collection_halted = %v, want %v", v, tc.wantHalted)
	}
	events := f.Events()
	if tc.wantEvent == nil {
		if len(events) > 0 {
			t.Errorf("Events %q, want none", events)
		}
		return
	}
	if len(events) != 1 {
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
}

// putOwned puts the owner's network into the fake Neutron of f, made an hour ago.
func putOwned(f *fixture, owner neutron.Owner) {
	putNamed(f, owner, owner.ResourceName())
}

// putNamed is putOwned with the network named name.
func putNamed(f *fixture, owner neutron.Owner, name string) {
	f.Neutron.PutNetwork(neutron.Network{ID: "net-" + owner.UID, Name: name, Description: neutron.ClusterDescription(owner.ClusterID),
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
