package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	versioned "github.com/samplecrd/network-controller/pkg/client/clientset/versioned"
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
	// bulk is the raw loop again with Neutron's bulk subnet create, right after raw; only
	// in the first dual-stack round, nil otherwise.
	bulk *stageResult
}

// roundsKind is what a series of rounds creates: the one-subnet form (-rounds) or dual
// stack (-dual-rounds).
type roundsKind struct {
	tag     string // in the names of clusters, objects and raw networks: "r" or "d"
	title   string // in the bench's log: "round" or "dual round"
	logName string // the controllers' log files: "round" or "dual-round"
	rawWork string // what the raw loop makes, for the bench's log
	n       int    // Networks per round
	count   int    // rounds
	shape   rawShape
	create  func(context.Context, versioned.Interface, string, []string) error
	// bulkOnce measures, in the first round, the raw loop with bulk subnet create as well.
	bulkOnce bool
	// external is the external network of the routed stage's routers, by name.
	external string
}

// rounds measures the raw loop and the controller builds, round after round.
type rounds struct {
	b      *bench
	kind   roundsKind
	builds []build // the controller, then the baseline if any
}

// newRounds returns the rounds of the one-subnet form: -rounds rounds of -n Networks,
// the controller and the baseline if any.
func newRounds(b *bench) rounds {
	kind := roundsKind{tag: "r", title: "round", logName: "round", rawWork: "network+tag+subnet",
		n: b.o.n, count: b.o.rounds, shape: rawOneSubnet, create: createNetworks}
	s := rounds{b: b, kind: kind, builds: []build{{name: "controller", ctl: b.ctl}}}
	if b.o.baseline != "" {
		ctl := b.ctl
		ctl.binary = absPath(b.o.baseline)
		ctl.extraArgs = append(slices.Clone(b.ctl.extraArgs), strings.Fields(b.o.baselineArgs)...)
		s.builds = append(s.builds, build{name: "baseline", ctl: ctl})
	}
	return s
}

// newDualRounds returns the dual-stack rounds: -dual-rounds rounds of -dual-n Networks of
// the list form with an IPv4 and an IPv6 item (benchDualOf), the controller only (a
// baseline may predate the list form); the first also measures the raw loop with bulk
// subnet create.
func newDualRounds(b *bench) rounds {
	kind := roundsKind{tag: "d", title: "dual round", logName: "dual-round", rawWork: "network+tag+2 subnets",
		n: b.o.dualN, count: b.o.dualRounds, shape: rawDual, create: createListNetworks(benchDualOf), bulkOnce: true}
	return rounds{b: b, kind: kind, builds: []build{{name: "controller", ctl: b.ctl}}}
}

// newRoutedRounds returns the routed rounds: -routed-rounds rounds of -routed-n one-subnet
// Networks, each with a router of its own whose gateway is on the external network
// -routed-external (spec.router.externalNetwork.name). The controller only: a -baseline
// may predate spec.router, and would make the networks without routers.
func newRoutedRounds(b *bench) rounds {
	kind := roundsKind{tag: "rt", title: "routed round", logName: "routed-round", rawWork: "network+tag+subnet+router with gateway+interface",
		n: b.o.routedN, count: b.o.routedRounds, shape: rawRouted, create: createRoutedNetworks(b.o.routedExternal), external: b.o.routedExternal}
	return rounds{b: b, kind: kind, builds: []build{{name: "controller", ctl: b.ctl}}}
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

// run runs the rounds: in each, the raw loop, then each build on a controller of its
// own, with a cleanup after each.
func (s rounds) run(ctx context.Context) ([]roundResult, error) {
	b, k := s.b, s.kind
	var out []roundResult
	for r := 1; r <= k.count; r++ {
		var rr roundResult
		var err error
		if rr.raw, err = s.raw(ctx, r, k.shape); err != nil {
			return out, err
		}
		b.cleanup(ctx, fmt.Sprintf("after raw %s %d", k.title, r))
		if k.bulkOnce && r == 1 {
			bulk, err := s.raw(ctx, r, rawDualBulk)
			if err != nil {
				return out, err
			}
			rr.bulk = &bulk
			b.cleanup(ctx, fmt.Sprintf("after raw bulk %s %d", k.title, r))
		}
		for i, bd := range s.buildsOfRound(r) {
			res, err := s.controller(ctx, r, bd)
			if err != nil {
				return out, err
			}
			b.cleanup(ctx, fmt.Sprintf("after %s %s %d", bd.name, k.title, r))
			if bd.name == "baseline" {
				rr.baseline, rr.baselineFirst = &res, i == 0
			} else {
				rr.controller = res
			}
		}
		out = append(out, rr)
		logf("%s %d: %s", k.title, r, rr.summary())
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

// raw measures the raw loop creating the round's networks in the shape, then deleting them.
func (s rounds) raw(ctx context.Context, r int, shape rawShape) (stageResult, error) {
	b, k := s.b, s.kind
	var res stageResult
	loop := &rawLoop{sc: b.neutron, workers: b.o.workers, prefix: fmt.Sprintf("bench-raw-%s-%s%d", b.runID, k.tag, r), shape: shape, external: k.external}
	what := k.rawWork
	if shape == rawDualBulk {
		loop.prefix += "-bulk"
		what = "network+tag+2 subnets in one bulk POST"
	}
	logf("%s %d: raw loop creates %d %s", k.title, r, k.n, what)
	m0, err := b.settled(ctx, nil)
	if err != nil {
		return res, err
	}
	var ids []string
	var m1 mark
	res.create, m1, err = b.measure(ctx, nil, m0, func() (time.Time, error) {
		var err error
		ids, err = loop.create(ctx, k.n)
		return time.Now(), err
	})
	if err != nil {
		return res, err
	}
	logf("%s %d: raw loop deletes %d networks", k.title, r, k.n)
	res.delete, _, err = b.measure(ctx, nil, m1, func() (time.Time, error) {
		err := loop.delete(ctx, ids)
		return time.Now(), err
	})
	return res, err
}

// controller measures a controller of its own of build bd realizing the round's
// Networks, then removing them.
func (s rounds) controller(ctx context.Context, r int, bd build) (stageResult, error) {
	b, k := s.b, s.kind
	var res stageResult
	clusterID, logName, stage := fmt.Sprintf("bench-%s-%s%d", b.runID, k.tag, r), fmt.Sprintf("%s-%d", k.logName, r), fmt.Sprintf("%s%d-%s", k.tag, r, b.runID)
	if bd.name == "baseline" {
		clusterID, logName, stage = clusterID+"-baseline", logName+"-baseline", fmt.Sprintf("%s%db-%s", k.tag, r, b.runID)
	}
	p, err := b.startSettledWith(ctx, bd.ctl, clusterID, logName)
	if err != nil {
		return res, err
	}
	names := networkNames(stage, k.n)
	m0, err := b.markNow(p)
	if err != nil {
		return res, err
	}

	logf("%s %d: %s (pid %d) creates %d Networks", k.title, r, bd.name, p.pid(), k.n)
	var m1 mark
	if res.create, m1, err = b.driveNetworks(ctx, p, m0, names, k.create, b.tracker.waitReady); err != nil {
		return res, err
	}
	logf("%s %d: %s deletes %d Networks", k.title, r, bd.name, k.n)
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
		logf("WARNING: %s %d: %d Neutron networks are left after the %s deleted every Network", k.title, r, len(left), bd.name)
	}
	if k.shape == rawRouted {
		if routers, err := b.benchRouters(ctx); err != nil {
			return res, err
		} else if len(routers) > 0 {
			logf("WARNING: %s %d: %d Neutron routers are left after the %s deleted every Network", k.title, r, len(routers), bd.name)
		}
	}
	return res, nil
}
