package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// build is one controller binary the rounds measure: the current one (-controller) or
// the baseline (-baseline).
type build struct {
	name string // "controller" or "baseline"
	ctl  controllerConfig
}

// roundResult is one round: the raw loop, the controller and, with -baseline, the
// baseline build, each doing the same work.
type roundResult struct {
	raw, controller stageResult
	baseline        *stageResult // nil without -baseline
	baselineFirst   bool         // the baseline ran before the controller this round
}

// rounds measures the raw loop and the controller builds, round after round.
type rounds struct {
	b      *bench
	builds []build // the controller, then the baseline if any
}

func newRounds(b *bench) rounds {
	s := rounds{b: b, builds: []build{{name: "controller", ctl: b.ctl}}}
	if b.o.baseline != "" {
		ctl := b.ctl
		ctl.binary = absPath(b.o.baseline)
		ctl.extraArgs = append(slices.Clone(b.ctl.extraArgs), strings.Fields(b.o.baselineArgs)...)
		s.builds = append(s.builds, build{name: "baseline", ctl: ctl})
	}
	return s
}

// buildsOfRound is the order round r runs the builds in: alternated, so that neither
// always goes first, right after the raw loop, on a machine that drifts over a round.
func (s rounds) buildsOfRound(r int) []build {
	out := slices.Clone(s.builds)
	if r%2 == 0 {
		slices.Reverse(out)
	}
	return out
}

// run runs -rounds rounds: in each, the raw loop, then each build on a controller of its
// own, with a cleanup after each.
func (s rounds) run(ctx context.Context) ([]roundResult, error) {
	b := s.b
	var out []roundResult
	for r := 1; r <= b.o.rounds; r++ {
		var rr roundResult
		var err error
		if rr.raw, err = s.raw(ctx, r); err != nil {
			return out, err
		}
		b.cleanup(ctx, fmt.Sprintf("after raw round %d", r))
		for i, bd := range s.buildsOfRound(r) {
			res, err := s.controller(ctx, r, bd)
			if err != nil {
				return out, err
			}
			b.cleanup(ctx, fmt.Sprintf("after %s round %d", bd.name, r))
			if bd.name == "baseline" {
				rr.baseline, rr.baselineFirst = &res, i == 0
			} else {
				rr.controller = res
			}
		}
		out = append(out, rr)
		logf("round %d: %s", r, rr.summary())
	}
	return out, nil
}

// summary is the round's times and ratios in one line.
func (rr roundResult) summary() string {
	raw, ctl := rr.raw, rr.controller
	line := fmt.Sprintf("create %s raw, %s controller (%.2fx); delete %s raw, %s controller (%.2fx)",
		secs(raw.create.dur), secs(ctl.create.dur), ratio(ctl.create.dur, raw.create.dur),
		secs(raw.delete.dur), secs(ctl.delete.dur), ratio(ctl.delete.dur, raw.delete.dur))
	if base := rr.baseline; base != nil {
		line += fmt.Sprintf("; baseline create %s (%.2fx), delete %s (%.2fx); controller/baseline create %.2fx, delete %.2fx",
			secs(base.create.dur), ratio(base.create.dur, raw.create.dur),
			secs(base.delete.dur), ratio(base.delete.dur, raw.delete.dur),
			ratio(ctl.create.dur, base.create.dur), ratio(ctl.delete.dur, base.delete.dur))
	}
	return line
}

// raw measures the raw loop creating -n network+tag+subnet, then deleting them.
func (s rounds) raw(ctx context.Context, r int) (stageResult, error) {
	b := s.b
	var res stageResult
	loop := &rawLoop{sc: b.neutron, workers: b.o.workers, prefix: fmt.Sprintf("bench-raw-%s-r%d", b.runID, r)}
	logf("round %d: raw loop creates %d network+tag+subnet", r, b.o.n)
	m0, err := b.settled(ctx, nil)
	if err != nil {
		return res, err
	}
	var ids []string
	var m1 mark
	res.create, m1, err = b.measure(ctx, nil, m0, func() (time.Time, error) {
		var err error
		ids, err = loop.create(ctx, b.o.n)
		return time.Now(), err
	})
	if err != nil {
		return res, err
	}
	logf("round %d: raw loop deletes %d networks", r, b.o.n)
	res.delete, _, err = b.measure(ctx, nil, m1, func() (time.Time, error) {
		err := loop.delete(ctx, ids)
		return time.Now(), err
	})
	return res, err
}

// controller measures a controller of its own of build bd realizing -n Networks, then
// removing them.
func (s rounds) controller(ctx context.Context, r int, bd build) (stageResult, error) {
	b := s.b
	var res stageResult
	clusterID, logName, stage := fmt.Sprintf("bench-%s-r%d", b.runID, r), fmt.Sprintf("round-%d", r), fmt.Sprintf("r%d-%s", r, b.runID)
	if bd.name == "baseline" {
		clusterID, logName, stage = clusterID+"-baseline", logName+"-baseline", fmt.Sprintf("r%db-%s", r, b.runID)
	}
	p, err := b.startSettledWith(ctx, bd.ctl, clusterID, logName)
	if err != nil {
		return res, err
	}
	names := networkNames(stage, b.o.n)
	m0, err := b.markNow(p)
	if err != nil {
		return res, err
	}

	logf("round %d: %s (pid %d) creates %d Networks", r, bd.name, p.pid(), b.o.n)
	var m1 mark
	if res.create, m1, err = b.driveNetworks(ctx, p, m0, names, createNetworks, b.tracker.waitReady); err != nil {
		return res, err
	}
	logf("round %d: %s deletes %d Networks", r, bd.name, b.o.n)
	if res.delete, _, err = b.driveNetworks(ctx, p, m1, names, deleteNetworks, b.tracker.waitGone); err != nil {
		return res, err
	}
	if err := b.stopRunning(); err != nil {
		return res, err
	}
	left, err := b.benchNetworks(ctx)
	if err != nil {
		return res, err
	}
	if len(left) > 0 {
		logf("WARNING: round %d: %d Neutron networks are left after the %s deleted every Network", r, len(left), bd.name)
	}
	return res, nil
}
