package shard

import "fmt"

// Budget is a rate the whole cloud allows, whatever the number of replicas: qps requests
// a second, burst at once.
type Budget struct {
	QPS   float64
	Burst int
}

// CheckSplit reports whether b can be split over count shards at all: so that the
// replicas' bursts never add up to more than b's while every replica holding a shard can
// still send. That takes a burst of at least count. Below it no split can do both: a token
// bucket admits nothing below a burst of 1, and any limiter that admits a request lets
// one through at once after a pause, so count replicas holding a shard each may send
// count requests at once, whatever burst their shares name.
func (b Budget) CheckSplit(count int) error {
	if b.Burst < count {
		return fmt.Errorf("a burst of %d cannot be split over %d shards: each replica holding a shard sends at least 1 request at once, so together they could send %d; "+
			"raise the burst to at least %d or lower the number of shards", b.Burst, count, count, count)
	}
	return nil
}

// Share is the part of b for a replica that holds held of count shards: held/count of
// the rate and of the burst, the burst rounded down, so that the replicas together never
// exceed b, however the shards are spread (floor(B*h1/c) + floor(B*h2/c) + ... is at most
// floor(B*(h1+h2+...)/c), at most B). With a burst that CheckSplit accepts, a holder's
// burst is at least its number of shards. Below that the burst is raised to 1, or the
// replica could send nothing, and each holder so raised may take the shares one above
// b's burst. A replica that holds none gets nothing.
func (b Budget) Share(held, count int) Budget {
	if held <= 0 || count <= 0 {
		return Budget{}
	}
	if held >= count {
		return b
	}
	return Budget{QPS: b.QPS * float64(held) / float64(count), Burst: max(1, b.Burst*held/count)}
}
