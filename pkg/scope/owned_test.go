package scope

import (
	"testing"

	"github.com/samplecrd/network-controller/pkg/shard"
)

// Without shards the watched namespaces are owned from the start; with shards, those of
// the shards held, and a decision that read the cache between two moments may rely only
// on what was held, in the same holding, at both.
func TestOwnership(t *testing.T) {
	static := NewOwnership(Namespaces{"team-a"}, 1).Now()
	if !static.Owns("team-a") || static.Owns("team-b") || static.None() || static.All() {
		t.Fatalf("-namespace team-a without shards: owns team-a %v, team-b %v, none %v, all %v", static.Owns("team-a"), static.Owns("team-b"), static.None(), static.All())
	}
	if all := NewOwnership(nil, 0).Now(); !all.All() || !all.Owns("anything") {
		t.Fatal("every namespace without shards is not all owned")
	}

	o := NewOwnership(nil, 4)
	a := shard.Of("team-a", 4)
	if o.Now().Owns("team-a") || !o.Now().None() {
		t.Fatal("a shard is owned before it is held")
	}
	before := o.Now()
	o.Hold(a)
	if !o.Now().Owns("team-a") || before.Within(o.Now()).Owns("team-a") {
		t.Fatal("a shard taken between two moments counts as owned at both")
	}
	held := o.Now()
	if !held.Within(o.Now()).Owns("team-a") {
		t.Fatal("a shard held throughout is not owned")
	}
	o.Release(a)
	o.Hold(a)
	if held.Within(o.Now()).Owns("team-a") {
		t.Fatal("a shard given up and taken again in between (its cache emptied and filled anew) counts as owned")
	}
	if got := o.Now().String(); got != "shards "+a.String()+" of all" {
		t.Fatalf("String %q", got)
	}
}
