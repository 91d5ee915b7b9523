package shard

import (
	"slices"
)

// view is what a replica knows of the shards at one look at the Leases: the live
// replicas (itself among them) and who holds each shard (absent: no live holder).
type view struct {
	shards  int
	me      string
	members []string
	holders map[int]string
	// leftAlone are free shards this replica gave up to rebalance a moment ago: it does not
	// take them back while the replica they were given up for may take them.
	leftAlone map[int]bool
}

// plan is what the replica does about it: shards to try to take, shards to give up.
type plan struct {
	acquire, giveUp []int
}

// planOf spreads the shards evenly over the live replicas: a replica takes free shards
// while it holds fewer than its fair share (shards / replicas, rounded up), and gives up
// what it holds beyond that share, or one shard beyond the share rounded down while another
// replica holds less than that and no shard is free. Each replica prefers the shards whose
// index modulo the number of replicas is its rank among them, so that replicas starting
// together reach for different shards, and the ones it gives up are the others. A shard
// it gave up to rebalance is left alone for a while (leftAlone): taken back at once, as
// the plan would, it would never reach the replica it was given up for.
func planOf(v view) plan {
	members := slices.Clone(v.members)
	if !slices.Contains(members, v.me) {
		members = append(members, v.me)
	}
	slices.Sort(members)
	rank := slices.Index(members, v.me)
	alive := len(members)
	high := (v.shards + alive - 1) / alive
	low := v.shards / alive

	held := map[string]int{}
	var mine, free []int
	for i := range v.shards {
		holder, ok := v.holders[i]
		switch {
		case !ok || holder == "":
			free = append(free, i)
		case holder == v.me:
			mine = append(mine, i)
		}
		if ok && holder != "" {
			held[holder]++
		}
	}
	preferred := func(i int) bool { return i%alive == rank }
	// Preferred shards first, then by index.
	byPreference := func(a, b int) int {
		if preferred(a) != preferred(b) {
			if preferred(a) {
				return -1
			}
			return 1
		}
		return a - b
	}

	var p plan
	if len(mine) < high {
		takable := slices.DeleteFunc(slices.Clone(free), func(i int) bool { return v.leftAlone[i] })
		slices.SortFunc(takable, byPreference)
		p.acquire = takable[:min(len(takable), high-len(mine))]
		return p
	}
	giveUp := len(mine) - high
	if giveUp == 0 && len(mine) > low && len(free) == 0 && slices.ContainsFunc(members, func(m string) bool { return held[m] < low }) {
		giveUp = 1
	}
	if giveUp > 0 {
		// The least preferred, the highest index first.
		slices.SortFunc(mine, func(a, b int) int { return byPreference(b, a) })
		p.giveUp = mine[:giveUp]
	}
	return p
}
