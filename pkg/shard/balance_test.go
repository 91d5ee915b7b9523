package shard

import (
	"slices"
	"testing"
)

func TestPlanSpreadsShardsEvenly(t *testing.T) {
	for _, c := range []struct {
		name    string
		v       view
		acquire []int
		giveUp  []int
	}{
		{name: "alone takes all", v: view{shards: 4, me: "a", holders: map[int]string{}}, acquire: []int{0, 1, 2, 3}},
		{name: "second of two takes its preferred free shards first",
			v: view{shards: 4, me: "b", members: []string{"a", "b"}, holders: map[int]string{0: "a"}}, acquire: []int{1, 3}},
		{name: "holding all with a second replica gives up two, the others' preferred ones",
			v: view{shards: 4, me: "a", members: []string{"a", "b"}, holders: map[int]string{0: "a", 1: "a", 2: "a", 3: "a"}}, giveUp: []int{3, 1}},
		{name: "2+1+1 of four over three is settled",
			v: view{shards: 4, me: "a", members: []string{"a", "b", "c"}, holders: map[int]string{0: "a", 3: "a", 1: "b", 2: "c"}}},
		{name: "2+2+0 over three: a holder of two gives one to the idle replica",
			v: view{shards: 4, me: "a", members: []string{"a", "b", "c"}, holders: map[int]string{0: "a", 3: "a", 1: "b", 2: "b"}}, giveUp: []int{3}},
		{name: "more replicas than shards: one each, the rest idle",
			v: view{shards: 2, me: "c", members: []string{"a", "b", "c"}, holders: map[int]string{0: "a", 1: "b"}}},
		{name: "2+1+0 over three after giving one up: the giver leaves it to the idle replica",
			v: view{shards: 4, me: "a", members: []string{"a", "b", "c"}, holders: map[int]string{0: "a", 1: "b", 2: "b"}, leftAlone: map[int]bool{3: true}}},
		{name: "2+1+0 over three: the idle replica takes the shard given up for it",
			v: view{shards: 4, me: "c", members: []string{"a", "b", "c"}, holders: map[int]string{0: "a", 1: "b", 2: "b"}}, acquire: []int{3}},
		{name: "a lapsed holder's shard is free",
			v: view{shards: 3, me: "a", members: []string{"a", "b"}, holders: map[int]string{0: "a", 1: "b"}}, acquire: []int{2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := planOf(c.v)
			if !slices.Equal(p.acquire, c.acquire) || !slices.Equal(p.giveUp, c.giveUp) {
				t.Fatalf("plan acquires %v and gives up %v, want %v and %v", p.acquire, p.giveUp, c.acquire, c.giveUp)
			}
		})
	}
}
