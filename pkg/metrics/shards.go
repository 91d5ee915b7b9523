package metrics

import (
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
)

// ShardState is what one replica knows of one shard at a scrape: whether it holds it and,
// when it does, the shard's Networks in its cache and their keys in its queue.
type ShardState struct {
	// Shard names it as the logs do: "1/4" is the second of four.
	Shard            string
	Held             bool
	Networks, Queued int
}

// shardCollector exports the shards' states at each scrape.
type shardCollector struct {
	held, networks, queued, served *prometheus.Desc
	states                         func() []ShardState
	// selectorServed is 1 or 0 once known, -1 before.
	selectorServed atomic.Int32
}

func (c *shardCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.held
	ch <- c.networks
	ch <- c.queued
	ch <- c.served
}

func (c *shardCollector) Collect(ch chan<- prometheus.Metric) {
	if served := c.selectorServed.Load(); served >= 0 {
		ch <- prometheus.MustNewConstMetric(c.served, prometheus.GaugeValue, float64(served))
	}
	for _, s := range c.states() {
		held := 0.0
		if s.Held {
			held = 1
		}
		ch <- prometheus.MustNewConstMetric(c.held, prometheus.GaugeValue, held, s.Shard)
		if s.Held {
			ch <- prometheus.MustNewConstMetric(c.networks, prometheus.GaugeValue, float64(s.Networks), s.Shard)
			ch <- prometheus.MustNewConstMetric(c.queued, prometheus.GaugeValue, float64(s.Queued), s.Shard)
		}
	}
}

// ExportShards exports, at each scrape, network_controller_shard_held (1 for each shard
// this replica holds, 0 for the others: a shard nobody holds sums to 0 over the replicas)
// and, for the shards held, network_controller_shard_networks and
// network_controller_shard_queue_depth, from what states returns; and, once
// SetShardSelectorServed was called, network_controller_shard_selector_served.
func (m *Metrics) ExportShards(states func() []ShardState) {
	label := []string{"shard"}
	m.shards = &shardCollector{
		held: prometheus.NewDesc(prometheus.BuildFQName(namespace, "", "shard_held"),
			"1 when this replica holds the shard's Lease and works on its Networks, else 0. Summed over the replicas, 0 is a shard nobody holds.", label, nil),
		networks: prometheus.NewDesc(prometheus.BuildFQName(namespace, "", "shard_networks"),
			"Networks of the shard in this replica's cache, for the shards it holds.", label, nil),
		queued: prometheus.NewDesc(prometheus.BuildFQName(namespace, "", "shard_queue_depth"),
			"Networks of the shard waiting in this replica's workqueue, for the shards it holds.", label, nil),
		served: prometheus.NewDesc(prometheus.BuildFQName(namespace, "", "shard_selector_served"),
			"1 when the apiserver filters this replica's lists and watches of Networks by its shards' selector (feature gate ShardedListAndWatch), 0 when it sends every Network and the replica drops those of other shards.", nil, nil),
		states: states,
	}
	m.shards.selectorServed.Store(-1)
	m.registry.MustRegister(m.shards)
}

// SetShardSelectorServed records whether the apiserver filters the replica's lists and
// watches by its shards' selector (1), or the replica filters what it is sent (0).
// Call it after ExportShards.
func (m *Metrics) SetShardSelectorServed(served bool) {
	if served {
		m.shards.selectorServed.Store(1)
	} else {
		m.shards.selectorServed.Store(0)
	}
}
