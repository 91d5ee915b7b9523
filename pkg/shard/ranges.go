// Package shard splits the namespaces into hash ranges (shards) that replicas hold by
// Leases of their own, so that every replica works, each on the Networks of its shards,
// and watches only those where the apiserver serves shard selectors.
package shard

import (
	"fmt"
	"hash/fnv"
	"math/bits"

	"k8s.io/apimachinery/pkg/sharding"
)

// namespaceField is the field the apiserver hashes for a shard selector: a namespace's
// Networks, Secrets, grants and budgets stay together in one shard.
const namespaceField = "object.metadata.namespace"

// Shard is one of Count hash ranges of namespaces: those whose 64-bit FNV-1a hash (the
// apiserver's, sharding.HashField) h has floor(h*Count/2^64) == Index.
type Shard struct {
	Index, Count int
}

// Of returns the shard of count that holds namespace.
func Of(namespace string, count int) Shard {
	h := fnv.New64a()
	h.Write([]byte(namespace))
	index, _ := bits.Mul64(h.Sum64(), uint64(count))
	return Shard{Index: int(index), Count: count}
}

// All returns the count shards, in order; together they cover every hash once.
func All(count int) []Shard {
	out := make([]Shard, count)
	for i := range out {
		out[i] = Shard{Index: i, Count: count}
	}
	return out
}

// Holds reports whether namespace is in the shard.
func (s Shard) Holds(namespace string) bool { return Of(namespace, s.Count) == s }

// String names the shard as the logs, metrics and runbook do: "1/4" is the second of four.
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Selector is the shard's range as a shardSelector of lists and watches: the hashes from
// start(Index) to start(Index+1), the last one ending at 2^64.
func (s Shard) Selector() sharding.Selector {
	return sharding.NewSelector(sharding.ShardRangeRequirement{Key: namespaceField, Start: s.bound(s.Index), End: s.bound(s.Index + 1)})
}

// bound is the first hash of shard i, ceil(i*2^64/Count), as the selector writes it: 16
// hex digits, or 2^64 for i == Count.
func (s Shard) bound(i int) string {
	if i >= s.Count {
		return "0x10000000000000000"
	}
	quo, rem := bits.Div64(uint64(i), 0, uint64(s.Count))
	if rem != 0 {
		quo++
	}
	return fmt.Sprintf("0x%016x", quo)
}
