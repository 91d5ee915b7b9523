package metrics

import (
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
)

// NetworkState is a Network's Ready condition as network_controller_networks labels it.
type NetworkState struct{ Status, Reason string }

// leaderCounts exports, at each scrape and only while this replica leads, a gauge per key
// of what count returns: every replica's cache holds the same Networks, so two replicas
// exporting them would double every sum. Every declared key is exported, at zero when
// count has none; a key it was not told of still counts.
type leaderCounts[K comparable] struct {
	desc    *prometheus.Desc
	keys    []K
	labels  func(K) []string
	count   func() map[K]int
	leading *atomic.Bool
}

func (c *leaderCounts[K]) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c *leaderCounts[K]) Collect(ch chan<- prometheus.Metric) {
	if !c.leading.Load() {
		return
	}
	counts := c.count()
	for _, k := range c.keys {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(counts[k]), c.labels(k)...)
		delete(counts, k)
	}
	for k, n := range counts {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(n), c.labels(k)...)
	}
}

// CountNetworks exports network_controller_networks: count, called at each scrape of the
// leader, returns how many Networks are in each state; every state of states is exported,
// at zero when no Network is in it.
func (m *Metrics) CountNetworks(states []NetworkState, count func() map[NetworkState]int) {
	m.registry.MustRegister(&leaderCounts[NetworkState]{
		desc: prometheus.NewDesc(prometheus.BuildFQName(namespace, "", "networks"),
			"Network objects by the status and reason of their Ready condition for the current generation (status Unknown, reason Pending: none yet). Exported by the leader only.",
			[]string{"status", "reason"}, nil),
		keys:    states,
		labels:  func(s NetworkState) []string { return []string{s.Status, s.Reason} },
		count:   count,
		leading: &m.leading,
	})
}

// CountNetworksWithoutGrant exports network_controller_networks_without_grant: count,
// called at each scrape of the leader, returns how many Networks keep each power without
// a grant; every power of powers is exported, at zero when none keeps it.
func (m *Metrics) CountNetworksWithoutGrant(powers []string, count func() map[string]int) {
	m.registry.MustRegister(&leaderCounts[string]{
		desc: prometheus.NewDesc(prometheus.BuildFQName(namespace, "", "networks_without_grant"),
			"Networks that keep in effect a power no ClusterIdentity grants any more (condition GrantMissing), by power: retain, sharedWith, existingRouter, import, qosPolicy. -grant-enforcement=enforce would withdraw all but retain. Exported by the leader only.",
			[]string{"power"}, nil),
		keys:    powers,
		labels:  func(p string) []string { return []string{p} },
		count:   count,
		leading: &m.leading,
	})
}

// CountDriftedNetworks exports network_controller_networks_drifted: count, called at each
// scrape of the leader, returns by namespace how many Networks under the Report drift
// policy differ from their spec in Neutron (condition Drifted).
func (m *Metrics) CountDriftedNetworks(count func() map[string]int) {
	m.registry.MustRegister(&leaderCounts[string]{
		desc: prometheus.NewDesc(prometheus.BuildFQName(namespace, "", "networks_drifted"),
			"Networks whose Neutron side differs from their spec and is only reported (spec.driftCheck.policy Report, condition Drifted True), by namespace. Exported by the leader only.",
			[]string{"namespace"}, nil),
		labels:  func(ns string) []string { return []string{ns} },
		count:   count,
		leading: &m.leading,
	})
}
