package main

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"
)

// restartCount is what a restarted controller did until Neutron was quiet.
type restartCount struct {
	calls      callCounts
	ops        callCounts // the same calls by operation (operationOf)
	metric     opCounts
	readyAfter time.Duration // /readyz (informer synced) after process start
	lastCall   time.Duration // last Neutron request after process start; -1 if none
	peakRSS    int64
}

// restartResult describes a controller restart over M realized Networks.
type restartResult struct {
	restartCount
	n           int
	create      phase // the first controller creating the Networks
	creatorPeak int64 // the controller that created the Networks
}

func (b *bench) restartStage(ctx context.Context) (*restartResult, error) {
	res := &restartResult{n: b.o.restartN}
	clusterID := fmt.Sprintf("bench-%s-restart", b.runID)
	names := networkNames("restart-"+b.runID, b.o.restartN)

	p, err := b.startSettled(ctx, clusterID, "restart-create")
	if err != nil {
		return nil, err
	}
	logf("restart: controller (pid %d) creates %d Networks", p.pid(), res.n)
	m0, err := b.markNow(p)
	if err != nil {
		return nil, err
	}
	if res.create, _, err = b.driveNetworks(ctx, p, m0, names, createNetworks, b.tracker.waitReady); err != nil {
		return nil, err
	}
	logf("restart: %d Networks Ready after %s", res.n, secs(res.create.dur))
	if res.creatorPeak, err = p.peakRSS(); err != nil {
		return nil, err
	}
	logf("restart: stopping controller pid %d with SIGTERM", p.pid())
	if err := b.stopRunning(); err != nil {
		return nil, err
	}
	res.restartCount, err = b.restartQuiet(ctx, clusterID, "restart")
	return res, err
}

// restartQuiet starts a controller for clusterID once Neutron is quiet, counts its
// Neutron calls until -quiet after its /readyz, and stops it.
func (b *bench) restartQuiet(ctx context.Context, clusterID, logName string) (restartCount, error) {
	res, _, err := b.restartCountedWatching(ctx, b.ctl, clusterID, logName, nil, nil)
	if err != nil {
		return res, err
	}
	return res, b.stopRunning()
}

// restartCountedWatching is restartQuiet with the controller cfg, which it leaves
// running; onStart, if not nil, gets the process as soon as it started. busyUntil, if not
// nil, returns when the controller finished its startup work (nil until then), and the
// quiet counts from then as well as from /readyz: Neutron logs a request when it has
// answered it, so a list that takes longer than -quiet would otherwise look like quiet.
func (b *bench) restartCountedWatching(ctx context.Context, cfg controllerConfig, clusterID, logName string,
	onStart func(*controllerProcess), busyUntil func() *time.Time) (restartCount, *controllerProcess, error) {
	res := restartCount{lastCall: -1}
	m2, err := b.settled(ctx, nil)
	if err != nil {
		return res, nil, err
	}
	p, err := startController(cfg, clusterID, logName)
	if err != nil {
		return res, nil, err
	}
	b.running = p
	if onStart != nil {
		onStart(p)
	}
	logf("%s: started controller pid %d; counting Neutron calls until %s of quiet after /readyz", logName, p.pid(), b.o.quiet)
	var readyAt atomic.Pointer[time.Time]
	readyErr := make(chan error, 1)
	go func() {
		at, err := p.waitReady(ctx, 2*time.Minute)
		if err == nil {
			readyAt.Store(&at)
		}
		readyErr <- err
	}()
	lastAt, err := b.log.follow(ctx, m2.offset, b.o.timeout, func(now, last time.Time) bool {
		ready := readyAt.Load()
		if ready == nil {
			return false
		}
		from := later(last, *ready)
		if busyUntil != nil {
			done := busyUntil()
			if done == nil {
				return false
			}
			from = later(from, *done)
		}
		return now.Sub(from) >= b.o.quiet
	})
	if err != nil {
		return res, p, err
	}
	if err := <-readyErr; err != nil {
		return res, p, err
	}
	m3, err := b.markNow(p)
	if err != nil {
		return res, p, err
	}
	res.readyAfter = readyAt.Load().Sub(p.started)
	if !lastAt.IsZero() {
		res.lastCall = lastAt.Sub(p.started)
	}
	if res.calls, err = b.log.count(m2.offset, m3.offset); err != nil {
		return res, p, err
	}
	if res.ops, err = b.log.countOps(m2.offset, m3.offset); err != nil {
		return res, p, err
	}
	// The restarted controller's count since its start.
	res.metric = m3.metric
	res.peakRSS, err = p.peakRSS()
	return res, p, err
}
