package main

import (
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"

	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/leaderelection"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// probes answers /healthz and /readyz. Ready means the informer cache is synced and, on
// the leader, that the last Neutron call did not find Neutron unreachable; a standby is
// ready as soon as its cache is warm. The probes never call Neutron themselves: a probe
// every few seconds would be most of the calls of a controller with nothing to do.
type probes struct {
	synced         cache.InformerSynced
	leading        atomic.Bool
	lastNeutronErr atomic.Pointer[error]
	leaderWatchdog *leaderelection.HealthzAdaptor
}

// newProbes returns probes whose synced the caller sets before serving them.
func newProbes() *probes {
	return &probes{leaderWatchdog: leaderelection.NewLeaderHealthzAdaptor(leaseCheckGrace)}
}

// observeNeutronCall remembers whether the last Neutron call reached Neutron.
func (p *probes) observeNeutronCall(err error) {
	if err != nil && neutron.KindOf(err) == neutron.KindUnavailable {
		p.lastNeutronErr.Store(&err)
		return
	}
	p.lastNeutronErr.Store(nil)
}

func (p *probes) setLeading(v bool) { p.leading.Store(v) }

// healthz fails only when the process is stuck: a leader that stopped renewing its Lease.
func (p *probes) healthz(r *http.Request) error {
	return p.leaderWatchdog.Check(r)
}

func (p *probes) readyz(r *http.Request) error {
	if !p.synced() {
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
