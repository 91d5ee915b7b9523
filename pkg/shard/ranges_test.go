package shard

import (
	"fmt"
	"math/rand/v2"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// Every namespace is in exactly one shard, the one Of names, and that shard's selector,
// evaluated as the apiserver evaluates it, is the only one that matches its Networks.
func TestEveryNamespaceIsInExactlyOneShard(t *testing.T) {
	for _, count := range []int{1, 2, 3, 4, 7, 16} {
		shards := All(count)
		per := make([]int, count)
		rng := rand.New(rand.NewPCG(1, uint64(count)))
		for i := range 3000 {
			namespace := namespaceName(rng, i)
			network := &samplecrdv1.Network{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: "n"}}
			var in []int
			for _, s := range shards {
				matched, err := s.Selector().Matches(network)
				if err != nil {
					t.Fatalf("shard %s: %v", s, err)
				}
				if matched != s.Holds(namespace) {
					t.Fatalf("shard %s: the selector says %v for %s, Holds says %v", s, matched, namespace, !matched)
				}
				if matched {
					in = append(in, s.Index)
				}
			}
			if len(in) != 1 || in[0] != Of(namespace, count).Index {
				t.Fatalf("%d shards: namespace %s is in shards %v, Of says %s", count, namespace, in, Of(namespace, count))
			}
			per[in[0]]++
		}
		// 3,000 random names over at most 16 even ranges: each gets some.
		for i, n := range per {
			if n == 0 {
				t.Errorf("%d shards: shard %d holds none of 3000 namespaces", count, i)
			}
		}
	}
}

// The ranges are contiguous: each starts where the one before ends, from 0 to 2^64.
func TestShardRangesCoverTheHashSpace(t *testing.T) {
	for _, count := range []int{1, 3, 4, 5} {
		shards := All(count)
		end := "0x0000000000000000"
		for _, s := range shards {
			req := s.Selector().Requirements()
			if len(req) != 1 || req[0].Key != "object.metadata.namespace" {
				t.Fatalf("shard %s: requirements %+v", s, req)
			}
			if req[0].Start != end {
				t.Fatalf("shard %s starts at %s, the one before ends at %s", s, req[0].Start, end)
			}
			end = req[0].End
		}
		if end != "0x10000000000000000" {
			t.Fatalf("%d shards end at %s", count, end)
		}
	}
	if got, want := All(1)[0].Selector().String(), "shardRange(object.metadata.namespace, '0x0000000000000000', '0x10000000000000000')"; got != want {
		t.Fatalf("selector %q, want %q", got, want)
	}
	if got, want := (Shard{Index: 1, Count: 4}).Selector().String(), "shardRange(object.metadata.namespace, '0x4000000000000000', '0x8000000000000000')"; got != want {
		t.Fatalf("selector %q, want %q", got, want)
	}
}

// namespaceName is the i-th of the test's names: half like team-i, whose hashes differ
// mostly in their low bits (FNV-1a spreads a last character little), half random.
func namespaceName(rng *rand.Rand, i int) string {
	if i%2 == 0 {
		return fmt.Sprintf("team-%d", i)
	}
	b := make([]byte, 4+rng.IntN(20))
	for j := range b {
		b[j] = "abcdefghijklmnopqrstuvwxyz0123456789"[rng.IntN(36)]
	}
	return string(b)
}
