package shard

import (
	"math"
	"testing"
)

// However the shards are spread over the replicas, their shares add up to the cloud's
// rate once every shard is held, and never to more.
func TestBudgetSharesAddUpToTheCloudsRate(t *testing.T) {
	cloud := Budget{QPS: 20, Burst: 40}
	for _, spread := range [][]int{{4}, {2, 1, 1}, {1, 1, 1, 1}, {3, 1}, {1, 1, 1, 1, 0, 0}, {2, 1, 0}} {
		count, qps, burst := 0, 0.0, 0
		for _, held := range spread {
			count += held
		}
		for _, held := range spread {
			share := cloud.Share(held, 4)
			qps += share.QPS
			burst += share.Burst
			if held == 0 && share != (Budget{}) {
				t.Fatalf("a replica holding no shard gets %+v", share)
			}
		}
		want := cloud.QPS * float64(count) / 4
		if math.Abs(qps-want) > 1e-9 || burst > cloud.Burst {
			t.Fatalf("spread %v: shares add up to %.3f qps (want %.3f) and a burst of %d (at most %d)", spread, qps, want, burst, cloud.Burst)
		}
	}
	if got := (Budget{QPS: 5, Burst: 2}).Share(1, 4); got.Burst != 1 || got.QPS != 1.25 {
		t.Fatalf("a small burst's share is %+v, want 1.25 qps and a burst of 1", got)
	}
}
