package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"
	"time"

	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/leaderelection"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// probes answers /healthz and /readyz. Ready means the informer cache is synced and, on
// the leader, that Neutron answers; a standby is ready as soon as its cache is warm.
type probes struct {
	synced         cache.InformerSynced
	neutron        neutron.Driver
	leading        atomic.Bool
	leaderWatchdog *leaderelection.HealthzAdaptor
}

func newProbes(synced cache.InformerSynced, driver neutron.Driver) *probes {
	return &probes{synced: synced, neutron: driver, leaderWatchdog: leaderelection.NewLeaderHealthzAdaptor(leaseCheckGrace)}
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
	ctx, cancel := context.WithTimeout(r.Context(), 3*time.Second)
	defer cancel()
	if err := p.neutron.Ping(ctx); err != nil {
		return fmt.Errorf("Neutron does not answer: %w", err)
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
