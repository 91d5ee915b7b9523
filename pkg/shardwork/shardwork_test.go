package shardwork

import (
	"context"
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/client/clientset/versioned/fake"
	"github.com/samplecrd/network-controller/pkg/metrics"
	"github.com/samplecrd/network-controller/pkg/scope"
	"github.com/samplecrd/network-controller/pkg/shard"
)

// TestWorkOfAShardTakenAndGivenUp: taking a shard starts the informers of its namespaces
// (and only those), refills the stores, takes its share of the rates and its ownership,
// and starts the controller's work once; giving it up releases all of it after the passes
// of its Networks.
func TestWorkOfAShardTakenAndGivenUp(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	namespaces := scope.Namespaces{"team-a", "team-b", "team-c", "team-d"}
	const count = 2
	client := fake.NewSimpleClientset()
	for _, ns := range namespaces {
		n := &samplecrdv1.Network{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "net"}}
		if _, err := client.SamplecrdV1().Networks(ns).Create(ctx, n, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	s := shard.Of("team-a", count)
	var inShard []string
	for _, ns := range namespaces {
		if s.Holds(ns) {
			inShard = append(inShard, ns)
		}
	}

	var shares []int
	var leading []bool
	unfilled, leads := 0, 0
	var waitedFor []string
	informers := scope.NewShardedInformers(namespaces, count)
	ownership := scope.NewOwnership(namespaces, count)
	cfg := Config{Shards: count, Namespaces: namespaces, Networks: client, Informers: informers, Ownership: ownership, Metrics: metrics.New(),
		Share:      func(held int) { shares = append(shares, held) },
		SetLeading: func(l bool) { leading = append(leading, l) },
		Unfill:     func() { unfilled++ },
		WaitForPasses: func(_ context.Context, matches func(string) bool) {
			for _, ns := range namespaces {
				if matches(ns) {
					waitedFor = append(waitedFor, ns)
				}
			}
		},
		QueuedByNamespace: func() map[string]int { return map[string]int{"team-a": 3} },
	}
	w := &work{cfg: cfg, newInformer: newShardInformerFunc(cfg, nil), lead: func() { leads++ }}

	if err := w.Start(ctx, s); err != nil {
		t.Fatalf("Start: %v", err)
	}
	if !ownership.Now().Owns("team-a") {
		t.Error("the shard's namespace is not owned after Start")
	}
	for _, ns := range namespaces {
		want := 0
		if s.Holds(ns) {
			want = 1
		}
		if got := len(informers.Indexer(ns).ListKeys()); got != want {
			t.Errorf("Networks of %s in the cache after Start: %d, want %d", ns, got, want)
		}
	}
	states := w.states([]shard.Shard{s})
	if st := states[s.Index]; !st.Held || st.Networks != len(inShard) || st.Queued != 3 {
		t.Errorf("state of the held shard: %+v, want held with %d Networks and 3 queued", st, len(inShard))
	}

	w.Stop(ctx, s)
	if ownership.Now().Owns("team-a") {
		t.Error("the shard's namespace is still owned after Stop")
	}
	if got := len(informers.Indexer("team-a").ListKeys()); got != 0 {
		t.Errorf("Networks of team-a in the cache after Stop: %d, want 0", got)
	}
	if !slices.Equal(waitedFor, inShard) {
		t.Errorf("Stop waited for the passes of %v, want %v", waitedFor, inShard)
	}
	if leads != 1 || unfilled != 1 {
		t.Errorf("lead ran %d times and the stores were unfilled %d times, want 1 and 1", leads, unfilled)
	}
	if want := []int{1, 0}; !slices.Equal(shares, want) {
		t.Errorf("shares of the rates: %v, want %v", shares, want)
	}
	if want := []bool{true, false}; !slices.Equal(leading, want) {
		t.Errorf("leading: %v, want %v", leading, want)
	}
}
