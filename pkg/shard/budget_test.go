package shard

import (
	"math"
	"testing"
	"time"

	"golang.org/x/time/rate"
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

// Over every spread of count shards (1 to 64) over three replicas, some shards held by
// none as during a handover, a cloud's burst that CheckSplit accepts splits into bursts
// that add up to at most the cloud's, and each replica holding a shard can send at its
// rate; below that, CheckSplit refuses the burst, and every holder can still send.
func TestBudgetBurstsNeverAddUpAboveTheClouds(t *testing.T) {
	for _, burst := range []int{1, 2, 3, 5, 20, 64, 100} {
		cloud := Budget{QPS: 10, Burst: burst}
		for count := 1; count <= 64; count++ {
			for held := 1; held <= count; held++ {
				share := cloud.Share(held, count)
				if !admits(share) {
					t.Fatalf("a burst of %d over %d shards: the share %+v of a replica holding %d admits nothing", burst, count, share, held)
				}
			}
			err := cloud.CheckSplit(count)
			if err != nil {
				if burst >= count {
					t.Fatalf("a burst of %d over %d shards is refused: %v", burst, count, err)
				}
				continue
			}
			for a := 0; a <= count; a++ {
				for b := 0; a+b <= count; b++ {
					for c := 0; a+b+c <= count; c++ {
						if sum := cloud.Share(a, count).Burst + cloud.Share(b, count).Burst + cloud.Share(c, count).Burst; sum > burst {
							t.Fatalf("a burst of %d over %d shards, held %d, %d and %d: the replicas' bursts add up to %d", burst, count, a, b, c, sum)
						}
					}
				}
			}
		}
	}
}

// admits reports whether a token bucket of share, as the callers make them, sends a
// request at once and the next one within its rate's interval.
func admits(share Budget) bool {
	lim := rate.NewLimiter(rate.Limit(share.QPS), share.Burst)
	if !lim.Allow() {
		return false
	}
	r := lim.Reserve()
	return r.OK() && r.Delay() <= time.Duration(float64(time.Second)/share.QPS)
}
