package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/samplecrd/network-controller/test/serverlog"
)

// resyncPass is one Neutron resync of the measured controller: what it asked Neutron from
// the end of the previous one (or the start of the workers) to its own end, and the
// writes to the Networks from its cut until the next one's.
type resyncPass struct {
	at    time.Time // when the controller logged "Neutron resync done"
	start time.Time // when Neutron began the first request of the window; zero without one
	// cut is when Neutron answered the last request of the window: a resync's last is the
	// list of ports, right after which it hands the Networks whose counts changed to the
	// workers, so the writes it causes come after its cut and those of the pass before it
	// (which decided on objects listed before that list) before. Without a request, the
	// pass's end.
	cut   time.Time
	calls callCounts
	ops   callCounts
	// metric is the controller's own count of its Neutron calls over the window.
	metric opCounts
	// neutron is Neutron's time answering the window's requests, summed.
	neutron time.Duration
	// portsQuery describes how the list of ports was filtered: by network IDs or not.
	portsQuery string
	requeued   int // Networks the resync handed to the workers, as it logged
	// writes to the Networks the watch showed from this pass's cut to the next one's, and
	// the Networks written; -1 when the next pass was not waited for.
	writes, written int
}

// wall is the time from the first request of the pass's window to its end; 0 when unknown.
func (p resyncPass) wall() time.Duration {
	if p.start.IsZero() {
		return 0
	}
	return p.at.Sub(p.start)
}

// resyncResult is the cost of the Neutron resync with list-form Networks whose subnets
// have ports.
type resyncResult struct {
	n, ports    int
	period      time.Duration
	create      phase // the first controller, its resync off, creating the Networks
	creatorPeak int64
	restart     restartCount // a controller restarted over them with the default period
	// startup is what the measured controller asked Neutron until its workers started.
	startup callCounts
	passes  []resyncPass
	// settled is the index in passes of the first pass after the first that requeued no
	// Network; -1 when none came before the bench gave up.
	settled int
	// firstWrites and firstWritten are the writes, and the Networks written, from the cut
	// of the first pass to the cut of the settled one: what the first count caused.
	firstWrites, firstWritten int
	// counted is how many Networks showed the addresses of all their subnets at the end,
	// used the addresses those said ports hold, summed.
	counted int
	used    int64
	peakRSS int64 // the measured controller
}

// runResync realizes -resync-n list-form Networks (one IPv4 item each) with a controller
// whose resync is off, puts a port on -resync-ports of their subnets through Neutron's
// API, restarts a controller over them (the restart's calls), and then runs one with
// -neutron-resync-period=-resync-period and measures its resyncs until one requeues
// nothing and the next has ended.
func runResync(ctx context.Context, b *bench) (*resyncResult, error) {
	o := b.o
	res := &resyncResult{n: o.resyncN, ports: o.resyncPorts, period: o.resyncPeriod, settled: -1}
	clusterID := fmt.Sprintf("bench-%s-resync", b.runID)
	names := networkNames("resync-"+b.runID, res.n)

	// The creator counts no addresses: the measured controller's first count is the first.
	p, err := b.startSettled(ctx, clusterID, "resync-create", "-neutron-resync-period=0")
	if err != nil {
		return nil, err
	}
	logf("resync: controller (pid %d) creates %d list-form Networks", p.pid(), res.n)
	m0, err := b.markNow(p)
	if err != nil {
		return nil, err
	}
	if res.create, _, err = b.driveNetworks(ctx, p, m0, names, createListNetworks(benchIPv4ItemOf), b.tracker.waitReady); err != nil {
		return nil, err
	}
	logf("resync: %d Networks Ready after %s", res.n, secs(res.create.dur))
	if res.creatorPeak, err = p.peakRSS(); err != nil {
		return nil, err
	}
	if err := b.stopRunning(); err != nil {
		return nil, err
	}

	targets, err := b.tracker.portTargets(names, res.ports)
	if err != nil {
		return nil, err
	}
	logf("resync: putting a port on %d of their subnets", len(targets))
	if err := createPorts(ctx, b.neutron, targets, apiWorkers); err != nil {
		return nil, err
	}

	logf("resync: restarting a controller over them with the default resync period")
	if res.restart, err = b.restartQuiet(ctx, clusterID, "resync-restart"); err != nil {
		return nil, err
	}
	if err := b.measureResyncs(ctx, res, clusterID, names); err != nil {
		return nil, err
	}
	return res, nil
}

// measureResyncs runs the measured controller and records its resyncs in res.
func (b *bench) measureResyncs(ctx context.Context, res *resyncResult, clusterID string, names []string) error {
	m, err := b.settled(ctx, nil)
	if err != nil {
		return err
	}
	ctl := b.ctl
	ctl.extraArgs = append(slices.Clone(b.ctl.extraArgs),
		"-neutron-resync-period="+res.period.String(), "-v=2", "-logging-format=json")
	p, err := startController(ctl, clusterID, "resync-measure")
	if err != nil {
		return err
	}
	b.running = p
	logf("resync: controller pid %d resyncs every %s; measuring its resyncs", p.pid(), res.period)
	follow := &jsonLog{path: p.logPath}
	if _, err := follow.waitFor(ctx, p, "Started workers", 2*time.Minute); err != nil {
		return err
	}
	prev, err := b.markNow(p)
	if err != nil {
		return err
	}
	if res.startup, err = b.log.countOps(m.offset, prev.offset); err != nil {
		return err
	}
	deadline := time.Now().Add(max(b.o.timeout, 20*res.period))
	for k := 1; ; k++ {
		e, err := follow.waitFor(ctx, p, "Neutron resync done", time.Until(deadline))
		if err != nil {
			return err
		}
		now, err := b.markNow(p)
		if err != nil {
			return err
		}
		pass, err := b.resyncWindow(prev, now)
		if err != nil {
			return err
		}
		pass.at, pass.requeued, pass.writes, pass.written = e.at(), e.Requeued, -1, -1
		if pass.cut.IsZero() {
			pass.cut = pass.at
		}
		if k > 1 {
			last := &res.passes[len(res.passes)-1]
			last.writes, last.written = b.tracker.writesBetween(last.cut, pass.cut)
		}
		res.passes = append(res.passes, pass)
		logf("resync: pass %d: %d Neutron calls (%s), %s, requeued %d", k, pass.calls.total(), pass.ops, wallText(pass), pass.requeued)
		switch {
		case k == 1:
		case res.settled >= 0:
			// The pass after the settled one: the settled one's writes are known.
			res.counted, res.used = b.tracker.addresses(names)
			if res.peakRSS, err = p.peakRSS(); err != nil {
				return err
			}
			return b.stopRunning()
		case pass.requeued == 0:
			res.settled = len(res.passes) - 1
			res.firstWrites, res.firstWritten = b.tracker.writesBetween(res.passes[0].cut, pass.cut)
		}
		prev = now
	}
}

// resyncWindow counts what the controller asked Neutron between two marks.
func (b *bench) resyncWindow(from, to mark) (resyncPass, error) {
	pass := resyncPass{calls: callCounts{}, ops: callCounts{}, metric: to.metric.minus(from.metric)}
	err := b.log.each(from.offset, to.offset, func(r serverlog.NeutronRequest, line string) {
		pass.calls[r.Method]++
		op := operationOf(r.Method, r.Path)
		pass.ops[op]++
		if op == "list ports" && pass.portsQuery == "" {
			pass.portsQuery = describePortsQuery(r.Path)
		}
		if at, took, ok := neutronTiming(line); ok {
			if start := at.Add(-took); pass.start.IsZero() || start.Before(pass.start) {
				pass.start = start
			}
			if at.After(pass.cut) {
				pass.cut = at
			}
			pass.neutron += took
		}
	})
	return pass, err
}

// describePortsQuery says how a list of ports was filtered: "by 50 network IDs", "by
// project" or "unfiltered".
func describePortsQuery(path string) string {
	_, query, _ := strings.Cut(path, "?")
	ids := 0
	project := false
	for _, kv := range strings.Split(query, "&") {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "network_id":
			ids++
		case "project_id", "tenant_id":
			project = true
		}
	}
	switch {
	case ids > 0:
		return fmt.Sprintf("by %d network IDs", ids)
	case project:
		return "by project"
	}
	return "unfiltered"
}

// portTargets picks n of the named Networks, spread evenly, and returns their first
// subnet as its status names it.
func (t *tracker) portTargets(names []string, n int) ([]portTarget, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]portTarget, 0, n)
	for j := range n {
		name := names[j*len(names)/n]
		net := t.latest[name]
		if net == nil || net.Status.NetworkID == "" || len(net.Status.Subnets) == 0 || net.Status.Subnets[0].SubnetID == "" {
			return nil, fmt.Errorf("Network %s shows no subnet in its status", name)
		}
		out = append(out, portTarget{networkID: net.Status.NetworkID, subnetID: net.Status.Subnets[0].SubnetID})
	}
	return out, nil
}

// jsonLog follows a controller's log written with -logging-format=json.
type jsonLog struct {
	path    string
	offset  int64
	pending []logEntry
}

// logEntry is what the bench reads of a line of the controller's JSON log.
type logEntry struct {
	TS       float64 `json:"ts"` // milliseconds since the epoch, as Kubernetes' JSON logs
	Msg      string  `json:"msg"`
	Requeued int     `json:"requeued"`
	// Listed and Networks are a round of drift checks': the projects it listed, the
	// Networks it checked.
	Listed   int `json:"listed"`
	Networks int `json:"networks"`
}

// at is when the controller wrote the line.
func (e logEntry) at() time.Time { return time.UnixMicro(int64(e.TS * 1e3)) }

// waitFor returns the next entry with the message msg, polling the log every 50 ms; it
// gives up after timeout or when the controller exits.
func (l *jsonLog) waitFor(ctx context.Context, p *controllerProcess, msg string, timeout time.Duration) (logEntry, error) {
	deadline := time.Now().Add(timeout)
	for {
		for len(l.pending) > 0 {
			e := l.pending[0]
			l.pending = l.pending[1:]
			if e.Msg == msg {
				return e, nil
			}
		}
		if err := l.read(); err != nil {
			return logEntry{}, err
		}
		if len(l.pending) > 0 {
			continue
		}
		if err := p.alive(); err != nil {
			return logEntry{}, err
		}
		if time.Now().After(deadline) {
			return logEntry{}, fmt.Errorf("controller pid %d did not log %q within %s; log %s", p.pid(), msg, timeout, l.path)
		}
		select {
		case <-ctx.Done():
			return logEntry{}, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// read takes the complete lines written since the last read into pending; lines that are
// not JSON (none, with -logging-format=json) are skipped.
func (l *jsonLog) read() error {
	f, err := os.Open(l.path)
	if err != nil {
		return fmt.Errorf("opening the controller log: %w", err)
	}
	defer f.Close()
	if _, err := f.Seek(l.offset, io.SeekStart); err != nil {
		return err
	}
	buf, err := io.ReadAll(f)
	if err != nil {
		return fmt.Errorf("reading %s: %w", l.path, err)
	}
	end := bytes.LastIndexByte(buf, '\n')
	if end < 0 {
		return nil
	}
	l.offset += int64(end) + 1
	for _, line := range bytes.Split(buf[:end], []byte("\n")) {
		var e logEntry
		if json.Unmarshal(line, &e) == nil {
			l.pending = append(l.pending, e)
		}
	}
	return nil
}
