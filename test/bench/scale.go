package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"time"
)

// scaleRestart is a controller restarted over the Networks realized so far.
type scaleRestart struct {
	restartCount
	// drainedAfter is when the initial list was worked off, after the process's start: as
	// many reconciliations as Networks, which the workers begin once the store is filled.
	drainedAfter time.Duration
	rss          int64 // VmRSS once quiet
	heap         int64 // live heap once quiet; heapOK false when the build serves no profiles
	heapOK       bool
	profile      string // the heap profile saved, "" when none
}

// scalePoint is the stage at one size: the creates that reached it, and the restarts.
type scalePoint struct {
	n           int
	create      phase // the Networks from the previous point up to n
	creatorPeak int64 // VmHWM of the controller that created them
	restart     scaleRestart
	baseline    *scaleRestart // -scale-baseline restarted the same way; nil without
}

type scaleResult struct {
	points []scalePoint
	delete phase // every Network, by the last restarted controller
}

// reconcileMetric counts the controller's reconciliations, by result.
const reconcileMetric = "network_controller_reconcile_total"

// scalePoints are the sizes measured: each of -scale-at below -scale-n, then -scale-n.
func scalePoints(at []int, n int) []int {
	var out []int
	for _, p := range at {
		if p > 0 && p < n {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return append(slices.Compact(out), n)
}

// deploymentGOGC is the GOGC of deploy/base/40-deployment.yaml. The scale stage runs both
// builds with it, so that the memory it reports is what a Deployment's replica holds; the
// other stages leave GOGC to Go, because on the bench's shared cores the extra collections
// take CPU from the co-located Neutron (docs/performance.md, "Memory and sizing").
const deploymentGOGC = "50"

// scaleGCEnv is the environment the scale stage adds: GOGC as the Deployment sets it,
// unless the bench's own environment sets GOGC or GOMEMLIMIT.
func scaleGCEnv() []string {
	for _, v := range []string{"GOGC", "GOMEMLIMIT"} {
		if _, set := os.LookupEnv(v); set {
			return nil
		}
	}
	return []string{"GOGC=" + deploymentGOGC}
}

// scale is the scale stage's controller builds and cluster.
type scale struct {
	b         *bench
	clusterID string
}

// runScale grows one controller's Networks to each point in turn, restarts it there
// (and the baseline build, if any) to measure what holding them costs, and at the end
// deletes them all.
func runScale(ctx context.Context, b *bench) (*scaleResult, error) {
	s := scale{b: b, clusterID: fmt.Sprintf("bench-%s-scale", b.runID)}
	clusterID := s.clusterID
	names := networkNames("scale-"+b.runID, b.o.scaleN)
	ctl := b.ctl
	ctl.env = append(slices.Clip(ctl.env), scaleGCEnv()...)
	ctl.profiling = supportsFlag(ctl.binary, "profiling-bind-address")
	var baseline *controllerConfig
	if b.o.scaleBaseline != "" {
		c := ctl
		c.binary = absPath(b.o.scaleBaseline)
		c.profiling = supportsFlag(c.binary, "profiling-bind-address")
		baseline = &c
	}
	res := &scaleResult{}
	p, err := b.startSettledWith(ctx, ctl, clusterID, "scale-create")
	if err != nil {
		return nil, err
	}
	done := 0
	for _, n := range scalePoints(b.o.scaleAt, b.o.scaleN) {
		pt := scalePoint{n: n}
		logf("scale: controller (pid %d) creates Networks %d to %d", p.pid(), done+1, n)
		m0, err := b.markNow(p)
		if err != nil {
			return nil, err
		}
		chunk := names[done:n]
		if pt.create, _, err = b.driveNetworks(ctx, p, m0, chunk, createNetworks, b.tracker.waitReady); err != nil {
			return nil, err
		}
		done = n
		if pt.creatorPeak, err = p.peakRSS(); err != nil {
			return nil, err
		}
		logf("scale: %d Networks Ready (%d in %s); stopping controller pid %d", n, len(chunk), secs(pt.create.dur), p.pid())
		if err := b.stopRunning(); err != nil {
			return nil, err
		}
		if baseline != nil {
			r, _, err := s.restartAt(ctx, *baseline, n, fmt.Sprintf("scale-%d-baseline", n))
			if err != nil {
				return nil, err
			}
			pt.baseline = &r
			if err := b.stopRunning(); err != nil {
				return nil, err
			}
		}
		pt.restart, p, err = s.restartAt(ctx, ctl, n, fmt.Sprintf("scale-%d", n))
		if err != nil {
			return nil, err
		}
		res.points = append(res.points, pt)
		logf("scale: restart at %d: %d Neutron calls, RSS %s, live heap %s", n, pt.restart.calls.total(), mib(pt.restart.rss), heapText(pt.restart))
	}

	logf("scale: controller (pid %d) deletes %d Networks", p.pid(), len(names))
	m0, err := b.markNow(p)
	if err != nil {
		return nil, err
	}
	if res.delete, _, err = b.driveNetworks(ctx, p, m0, names, deleteNetworks, b.tracker.waitGone); err != nil {
		return nil, err
	}
	return res, b.stopRunning()
}

// restartAt restarts the controller cfg over n realized Networks and measures it once
// quiet; it leaves the controller running.
func (s scale) restartAt(ctx context.Context, cfg controllerConfig, n int, logName string) (scaleRestart, *controllerProcess, error) {
	b := s.b
	r := scaleRestart{drainedAfter: -1}
	var drainedAt atomic.Pointer[time.Time]
	watchCtx, stopWatching := context.WithCancel(ctx)
	defer stopWatching()
	count, p, err := b.restartCountedWatching(ctx, cfg, s.clusterID, logName, func(p *controllerProcess) {
		go func() {
			if waitReconciled(watchCtx, p, n) {
				now := time.Now()
				drainedAt.Store(&now)
			}
		}()
	}, drainedAt.Load)
	r.restartCount = count
	if err != nil {
		return r, p, err
	}
	r.drainedAfter = drainedAt.Load().Sub(p.started)
	if r.rss, err = p.rss(); err != nil {
		return r, p, err
	}
	profile := filepath.Join(b.o.logDir, logName+"-heap.pb.gz")
	if r.heap, r.heapOK, err = p.liveHeap(profile); err != nil {
		return r, p, err
	}
	if r.heapOK {
		r.profile = profile
	}
	return r, p, nil
}

// waitReconciled polls p's metrics until it has reconciled n Networks; false if ctx
// ended first.
func waitReconciled(ctx context.Context, p *controllerProcess, n int) bool {
	for {
		if v, err := p.metricSum(reconcileMetric); err == nil && v >= float64(n) {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func heapText(r scaleRestart) string {
	if !r.heapOK {
		return "- (no -profiling-bind-address in this build)"
	}
	return mib(r.heap)
}
