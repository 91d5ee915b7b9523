package scope

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/client/clientset/versioned/fake"
	"github.com/samplecrd/network-controller/pkg/shard"
)

// The fake clientset ignores shardSelector, as an apiserver with ShardedListAndWatch off
// does: an informer told the selector is not served keeps its shard's Networks only, from
// the list and from the watch; one told it is served keeps what the apiserver sends.
func TestShardNetworkInformerFiltersWhatTheApiserverDoesNot(t *testing.T) {
	s := shard.Shard{Index: 1, Count: 2}
	var in, out []string
	for i := 0; len(in) < 3 || len(out) < 3; i++ {
		ns := fmt.Sprintf("team-%d-x", i)
		if s.Holds(ns) {
			in = append(in, ns)
		} else {
			out = append(out, ns)
		}
	}
	network := func(ns, name string) *samplecrdv1.Network {
		return &samplecrdv1.Network{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	}
	for _, served := range []bool{false, true} {
		// NewClientset would need the type's managed-fields schema for the creates below.
		client := fake.NewSimpleClientset(network(in[0], "listed"), network(out[0], "listed"))
		informer := NewShardNetworkInformer(client, s, served)
		ctx, cancel := context.WithCancel(context.Background())
		go informer.RunWithContext(ctx)
		if !cache.WaitForCacheSync(ctx.Done(), informer.HasSynced) {
			t.Fatal("not synced")
		}
		for _, ns := range []string{in[1], out[1]} {
			if _, err := client.SamplecrdV1().Networks(ns).Create(ctx, network(ns, "watched"), metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		want := []string{in[0] + "/listed", in[1] + "/watched"}
		if served {
			want = []string{in[0] + "/listed", in[1] + "/watched", out[0] + "/listed", out[1] + "/watched"}
		}
		slices.Sort(want)
		deadline := time.Now().Add(5 * time.Second)
		for {
			got := informer.GetIndexer().ListKeys()
			slices.Sort(got)
			if slices.Equal(got, want) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("served=%v: cache %v, want %v", served, got, want)
			}
			time.Sleep(10 * time.Millisecond)
		}
		if _, err := informer.GetIndexer().ByIndex(cache.NamespaceIndex, in[0]); err != nil {
			t.Fatalf("no namespace index: %v", err)
		}
		cancel()
	}
}

// Informers of shards come and go: one started gets the handlers, indexers and transform
// given before, its objects are found by namespace, and once stopped nothing of it is.
func TestShardedInformersStartAndStop(t *testing.T) {
	set := NewShardedInformers(nil, 2)
	var mu sync.Mutex
	var added []string
	handled := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(added)
	}
	if err := set.AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: func(obj any) {
		mu.Lock()
		defer mu.Unlock()
		added = append(added, obj.(*samplecrdv1.Network).Name)
	}}); err != nil {
		t.Fatal(err)
	}
	if err := set.AddIndexers(cache.Indexers{"byName": func(obj any) ([]string, error) {
		return []string{obj.(*samplecrdv1.Network).Name}, nil
	}}); err != nil {
		t.Fatal(err)
	}
	s := shard.Of("team-a", 2)
	client := fake.NewClientset(&samplecrdv1.Network{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "n"}})
	key := set.ShardKeys(s)[0]
	if err := set.Start(context.Background(), key, NewShardNetworkInformer(client, s, false)); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := set.Indexer("team-a").GetByKey("team-a/n"); !ok || set.Len(key) != 1 || !set.HasSynced() {
		t.Fatalf("after Start: found %v, %d objects, synced %v", ok, set.Len(key), set.HasSynced())
	}
	if objs, err := set.ByIndex("byName", "n"); err != nil || len(objs) != 1 {
		t.Fatalf("ByIndex: %v, %v", objs, err)
	}
	for deadline := time.Now().Add(5 * time.Second); len(handled()) == 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if got := handled(); !slices.Equal(got, []string{"n"}) {
		t.Fatalf("handler told of %v", got)
	}
	if n := set.Stop(key); n != 1 {
		t.Fatalf("Stop says the cache held %d", n)
	}
	if _, ok, _ := set.Indexer("team-a").GetByKey("team-a/n"); ok || len(set.List()) != 0 {
		t.Fatal("a stopped shard's objects are still found")
	}
}
