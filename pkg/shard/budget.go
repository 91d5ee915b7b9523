package shard

// Budget is a rate the whole cloud allows, whatever the number of replicas: qps requests
// a second, burst at once.
type Budget struct {
	QPS   float64
	Burst int
}

// Share is the part of b for a replica that holds held of count shards: held/count of
// the rate and of the burst, so that the replicas together never exceed b. The burst is
// rounded down, but is at least 1 while the replica holds a shard: a limiter of burst 0
// refuses every request. A replica that holds none gets nothing.
func (b Budget) Share(held, count int) Budget {
	if held <= 0 || count <= 0 {
		return Budget{}
	}
	if held >= count {
		return b
	}
	return Budget{QPS: b.QPS * float64(held) / float64(count), Burst: max(1, b.Burst*held/count)}
}
