package endpoints

import (
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"
	"time"

	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/leaderelection"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// leaseCheckGrace is how long past a missed Lease renewal /healthz still passes.
const leaseCheckGrace = 20 * time.Second

// Probes answers /healthz and /readyz. Ready means the informer cache is synced and, on
// the leader, that the last Neutron call did not find Neutron unreachable; a standby is
// ready as soon as its cache is warm. The probes never call Neutron themselves: a probe
// every few seconds would be most of the calls of a controller with nothing to do.
type Probes struct {
	synced         atomic.Pointer[cache.InformerSynced]
	leading        atomic.Bool
	lastNeutronErr atomic.Pointer[error]
	leaderWatchdog *leaderelection.HealthzAdaptor
}

// NewProbes returns probes that report not ready until SetSynced is called.
func NewProbes() *Probes {
	return &Probes{leaderWatchdog: leaderelection.NewLeaderHealthzAdaptor(leaseCheckGrace)}
}

// SetSynced names the check for the informer cache.
func (p *Probes) SetSynced(synced cache.InformerSynced) { p.synced.Store(&synced) }

// LeaderWatchdog is to be given to leader election, so /healthz fails when the leader
// stops renewing its Lease.
func (p *Probes) LeaderWatchdog() *leaderelection.HealthzAdaptor { return p.leaderWatchdog }

// ObserveNeutronCall remembers whether the last Neutron call reached Neutron.
func (p *Probes) ObserveNeutronCall(err error) {
	if err != nil && neutron.KindOf(err) == neutron.KindUnavailable {
		p.lastNeutronErr.Store(&err)
		return
	}
	p.lastNeutronErr.Store(nil)
}

// SetLeading records whether this process reconciles (holds the Lease, or runs alone).
func (p *Probes) SetLeading(v bool) { p.leading.Store(v) }

// healthz fails only when the process is stuck: a leader that stopped renewing its Lease.
func (p *Probes) healthz(r *http.Request) error {
	return p.leaderWatchdog.Check(r)
}

func (p *Probes) readyz(*http.Request) error {
	if synced := p.synced.Load(); synced == nil || !(*synced)() {
		return errors.New("informer cache not synced yet")
	}
	if !p.leading.Load() {
		return nil
	}
	if err := p.lastNeutronErr.Load(); err != nil {
		return fmt.Errorf("the last Neutron call failed: %w", *err)
	}
	return nil
}

// probeHandler serves check as 200 "ok" or 503 with the reason.
func probeHandler(check func(*http.Request) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if err := check(r); err != nil {
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprintln(w, err)
			return
		}
		fmt.Fprintln(w, "ok")
	}
}
