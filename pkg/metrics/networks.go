package metrics

import (
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
)

// NetworkState is a Network's Ready condition as network_controller_networks labels it.
type NetworkState struct{ Status, Reason string }

// networksCollector counts the Networks of the informer cache by state at each scrape,
// and only while this replica leads: every replica's cache holds the same Networks, so
// two replicas exporting them would double every sum.
type networksCollector struct {
	desc    *prometheus.Desc
	states  []NetworkState
	count   func() map[NetworkState]int
	leading *atomic.Bool
}

func (c *networksCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c *networksCollector) Collect(ch chan<- prometheus.Metric) {
	if !c.leading.Load() {
		return
	}
	counts := c.count()
	for _, s := range c.states {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(counts[s]), s.Status, s.Reason)
		delete(counts, s)
	}
	// A state missing from the declared ones still counts.
	for s, n := range counts {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(n), s.Status, s.Reason)
	}
}

// CountNetworks exports network_controller_networks: count, called at each scrape of the
// leader, returns how many Networks are in each state; every state of states is exported,
// at zero when no Network is in it.
func (m *Metrics) CountNetworks(states []NetworkState, count func() map[NetworkState]int) {
	m.registry.MustRegister(&networksCollector{
		desc: prometheus.NewDesc(prometheus.BuildFQName(namespace, "", "networks"),
			"Network objects by the status and reason of their Ready condition for the current generation (status Unknown, reason Pending: none yet). Exported by the leader only.",
			[]string{"status", "reason"}, nil),
		states:  states,
		count:   count,
		leading: &m.leading,
	})
}

// withoutGrantCollector counts, at each scrape of the leader, the Networks that keep a
// power no grant allows any more, per power.
type withoutGrantCollector struct {
	desc    *prometheus.Desc
	powers  []string
	count   func() map[string]int
	leading *atomic.Bool
}

func (c *withoutGrantCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c *withoutGrantCollector) Collect(ch chan<- prometheus.Metric) {
	if !c.leading.Load() {
		return
	}
	counts := c.count()
	for _, p := range c.powers {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(counts[p]), p)
	}
}

// CountNetworksWithoutGrant exports network_controller_networks_without_grant: count,
// called at each scrape of the leader, returns how many Networks keep each power without
// a grant; every power of powers is exported, at zero when none keeps it.
func (m *Metrics) CountNetworksWithoutGrant(powers []string, count func() map[string]int) {
	m.registry.MustRegister(&withoutGrantCollector{
		desc: prometheus.NewDesc(prometheus.BuildFQName(namespace, "", "networks_without_grant"),
			"Networks that keep in effect a power no ClusterIdentity grants any more (condition GrantMissing), by power: retain, sharedWith, existingRouter, import. -grant-enforcement=enforce would withdraw all but retain. Exported by the leader only.",
			[]string{"power"}, nil),
		powers:  powers,
		count:   count,
		leading: &m.leading,
	})
}
