package metrics

import (
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
)

// FullSubnetRatio is the address use from which a subnet is exported: only the subnets
// nearly full, so that the series stay few however many subnets there are.
const FullSubnetRatio = 0.8

// SubnetUse is how full one subnet of a Network's list form is.
type SubnetUse struct {
	Namespace, Network, Subnet string
	Used, Total                int64
}

// subnetUseCollector exports the nearly full subnets of the Networks' status at each
// scrape, and only while this replica leads (as networksCollector).
type subnetUseCollector struct {
	desc    *prometheus.Desc
	list    func() []SubnetUse
	leading *atomic.Bool
}

func (c *subnetUseCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c *subnetUseCollector) Collect(ch chan<- prometheus.Metric) {
	if !c.leading.Load() {
		return
	}
	for _, s := range c.list() {
		if s.Total <= 0 {
			continue
		}
		if ratio := float64(s.Used) / float64(s.Total); ratio >= FullSubnetRatio {
			ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, ratio, s.Namespace, s.Network, s.Subnet)
		}
	}
}

// ExportFullSubnets exports network_controller_subnet_address_use_ratio: list, called at
// each scrape of the leader, returns the subnets as the Networks' status counts them.
func (m *Metrics) ExportFullSubnets(list func() []SubnetUse) {
	m.registry.MustRegister(&subnetUseCollector{
		desc: prometheus.NewDesc(prometheus.BuildFQName(namespace, "", "subnet_address_use_ratio"),
			"Used over total addresses of the allocation pools of a subnet of a Network's list form, as last counted; only subnets at 0.8 or more. Exported by the leader only.",
			[]string{"namespace", "network", "subnet"}, nil),
		list:    list,
		leading: &m.leading,
	})
}
