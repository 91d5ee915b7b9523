package metrics

import (
	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/client-go/tools/leaderelection"
)

// leaderElectionProvider implements client-go's leaderelection.MetricsProvider with the
// series Kubernetes' own components export, labelled by the Lease's name.
type leaderElectionProvider struct {
	status   *prometheus.GaugeVec
	slowpath *prometheus.CounterVec
}

var _ leaderelection.MetricsProvider = (*leaderElectionProvider)(nil)

func newLeaderElectionProvider() *leaderElectionProvider {
	name := []string{"name"}
	return &leaderElectionProvider{
		status: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "leader_election_master_status",
			Help: "1 while this process holds the Lease of leader election name, 0 while it stands by."}, name),
		slowpath: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "leader_election_slowpath_total",
			Help: "Renewals of the Lease of leader election name that had to read it again from the apiserver."}, name),
	}
}

func (p *leaderElectionProvider) mustRegister(r *prometheus.Registry) {
	r.MustRegister(p.status, p.slowpath)
}

// LeaderElectionProvider is what main hands to leaderelection.SetProvider, before the
// leader elector is made: client-go keeps only the first provider of a process.
func (m *Metrics) LeaderElectionProvider() leaderelection.MetricsProvider { return m.leaderElection }

func (p *leaderElectionProvider) NewLeaderMetric() leaderelection.LeaderMetric {
	return leaderMetric{p}
}

// leaderMetric is client-go's view of the two series.
type leaderMetric struct{ p *leaderElectionProvider }

func (l leaderMetric) On(name string)                { l.p.status.WithLabelValues(name).Set(1) }
func (l leaderMetric) Off(name string)               { l.p.status.WithLabelValues(name).Set(0) }
func (l leaderMetric) SlowpathExercised(name string) { l.p.slowpath.WithLabelValues(name).Inc() }
