package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// controllerProcess is one run of the controller binary, configured only through its
// flags, so the bench works with any version of the controller.
type controllerProcess struct {
	cmd         *exec.Cmd
	started     time.Time
	metricsAddr string
	healthAddr  string
	// profilingAddr serves /debug/pprof/; empty when the controller was started without.
	profilingAddr string
	logPath       string
	done          chan struct{}
	waitErr       error
}

// controllerConfig is what every controller process of a bench run shares.
type controllerConfig struct {
	binary          string
	kubeconfig      string
	neutronEndpoint string
	workers         int
	extraArgs       []string
	env             []string // added to the bench's environment
	logDir          string
	// profiling starts the controller with -profiling-bind-address, for its live heap.
	profiling bool
}

func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("finding a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// startController starts the binary for clusterID with the controller's defaults except
// what a bench needs: no leader election (one process), its own cluster ID, free ports.
func startController(cfg controllerConfig, clusterID, logName string) (*controllerProcess, error) {
	metricsAddr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	healthAddr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	args := []string{
		"-kubeconfig=" + cfg.kubeconfig,
		"-neutron-endpoint=" + cfg.neutronEndpoint,
		"-workers=" + strconv.Itoa(cfg.workers),
		"-leader-elect=false",
		"-cluster-id=" + clusterID,
		"-metrics-bind-address=" + metricsAddr,
		"-health-probe-bind-address=" + healthAddr,
	}
	var profilingAddr string
	if cfg.profiling {
		if profilingAddr, err = freeAddr(); err != nil {
			return nil, err
		}
		args = append(args, "-profiling-bind-address="+profilingAddr)
	}
	args = append(args, cfg.extraArgs...)
	logPath := filepath.Join(cfg.logDir, logName+".log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, fmt.Errorf("creating the controller log: %w", err)
	}
	cmd := exec.Command(cfg.binary, args...)
	cmd.Env = append(os.Environ(), cfg.env...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	// Its own process group: a Ctrl-C on the bench reaches the bench only, which then
	// stops the controller itself and cleans up.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p := &controllerProcess{cmd: cmd, metricsAddr: metricsAddr, healthAddr: healthAddr, profilingAddr: profilingAddr,
		logPath: logPath, done: make(chan struct{})}
	p.started = time.Now()
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("starting %s: %w", cfg.binary, err)
	}
	go func() {
		p.waitErr = cmd.Wait()
		logFile.Close()
		close(p.done)
	}()
	return p, nil
}

func (p *controllerProcess) pid() int { return p.cmd.Process.Pid }

// alive returns an error once the process has exited.
func (p *controllerProcess) alive() error {
	select {
	case <-p.done:
		return fmt.Errorf("controller pid %d exited (%v); log %s:\n%s", p.pid(), p.waitErr, p.logPath, p.logTail(20))
	default:
		return nil
	}
}

// waitReady polls /readyz (informer synced, Neutron answering) and returns when it first
// answered 200.
func (p *controllerProcess) waitReady(ctx context.Context, timeout time.Duration) (time.Time, error) {
	deadline := time.Now().Add(timeout)
	client := http.Client{Timeout: 2 * time.Second}
	for {
		if err := p.alive(); err != nil {
			return time.Time{}, fmt.Errorf("waiting for /readyz: %w", err)
		}
		resp, err := client.Get("http://" + p.healthAddr + "/readyz")
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return time.Now(), nil
			}
		}
		if time.Now().After(deadline) {
			return time.Time{}, fmt.Errorf("controller pid %d not ready after %s (last: %v); log %s", p.pid(), timeout, err, p.logPath)
		}
		select {
		case <-ctx.Done():
			return time.Time{}, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// stop sends SIGTERM and waits for the exit; after grace it kills the process.
func (p *controllerProcess) stop(grace time.Duration) error {
	if p.alive() != nil {
		return nil // exited already
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
		return nil
	case <-time.After(grace):
		_ = p.cmd.Process.Kill()
		<-p.done
		return fmt.Errorf("controller pid %d did not exit within %s of SIGTERM; killed it", p.pid(), grace)
	}
}

// cpuTime returns the CPU time the process has used so far, user and system, from
// /proc/PID/stat (in clock ticks of 10 ms, Linux's USER_HZ).
func (p *controllerProcess) cpuTime() (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.pid()))
	if err != nil {
		return 0, fmt.Errorf("reading the CPU time of controller pid %d: %w", p.pid(), err)
	}
	// The command name, in parentheses, may hold spaces; the fields after it do not.
	fields := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	if len(fields) < 13 {
		return 0, fmt.Errorf("unexpected /proc/%d/stat: %q", p.pid(), b)
	}
	var ticks int64
	for _, f := range fields[11:13] { // utime and stime, fields 14 and 15 of stat
		v, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("parsing /proc/%d/stat: %w", p.pid(), err)
		}
		ticks += v
	}
	return time.Duration(ticks) * 10 * time.Millisecond, nil
}

// peakRSS returns the process's peak resident set size (VmHWM) in bytes.
func (p *controllerProcess) peakRSS() (int64, error) { return p.statusBytes("VmHWM") }

// rss returns the process's resident set size now (VmRSS) in bytes.
func (p *controllerProcess) rss() (int64, error) { return p.statusBytes("VmRSS") }

// statusBytes reads one of the kB fields of /proc/PID/status.
func (p *controllerProcess) statusBytes(field string) (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", p.pid()))
	if err != nil {
		return 0, fmt.Errorf("reading the status of controller pid %d: %w", p.pid(), err)
	}
	defer f.Close()
	return parseStatusKB(f, field)
}

// parseStatusKB reads the line "field: N kB" of a /proc/PID/status file, in bytes.
func parseStatusKB(r io.Reader, field string) (int64, error) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), field+":")
		if !ok {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) != 2 || fields[1] != "kB" {
			return 0, fmt.Errorf("unexpected %s line %q", field, sc.Text())
		}
		kb, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("parsing %s %q: %w", field, fields[0], err)
		}
		return kb << 10, nil
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("no %s line", field)
}

// neutronCalls sums the controller's own count of Neutron calls by operation.
func (p *controllerProcess) neutronCalls() (opCounts, error) {
	client := http.Client{Timeout: 5 * time.Second}
	resp, err := client.Get("http://" + p.metricsAddr + "/metrics")
	if err != nil {
		return nil, fmt.Errorf("scraping the controller's metrics: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("scraping the controller's metrics: %s", resp.Status)
	}
	return parseNeutronCalls(resp.Body)
}

// neutronCallsMetric is the controller's counter of Neutron API calls, labelled by
// operation and outcome.
const neutronCallsMetric = "network_controller_neutron_requests_total"

// parseNeutronCalls sums neutronCallsMetric by its operation label from Prometheus text.
func parseNeutronCalls(r io.Reader) (opCounts, error) {
	out := opCounts{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		series, ok := strings.CutPrefix(line, neutronCallsMetric+"{")
		if !ok {
			continue
		}
		end := strings.LastIndex(series, "}")
		if end < 0 {
			return nil, fmt.Errorf("malformed metric line %q", line)
		}
		labels, value := series[:end], strings.Fields(series[end+1:])
		if len(value) == 0 {
			return nil, fmt.Errorf("malformed metric line %q", line)
		}
		v, err := strconv.ParseFloat(value[0], 64)
		if err != nil {
			return nil, fmt.Errorf("parsing %q: %w", line, err)
		}
		op := "?"
		if _, after, ok := strings.Cut(labels, `operation="`); ok {
			op, _, _ = strings.Cut(after, `"`)
		}
		out[op] += v
	}
	return out, sc.Err()
}

// opCounts are the controller's Neutron calls by operation; nil when unknown (the
// controller exported no such metric).
type opCounts map[string]float64

func (c opCounts) minus(o opCounts) opCounts {
	if c == nil || o == nil {
		return nil
	}
	out := opCounts{}
	for k, v := range c {
		if d := v - o[k]; d != 0 {
			out[k] = d
		}
	}
	return out
}

// total is the sum, NaN when unknown.
func (c opCounts) total() float64 {
	if c == nil {
		return math.NaN()
	}
	s := 0.0
	for _, v := range c {
		s += v
	}
	return s
}

// perNetwork formats the counts divided by n, most frequent first; "-" when unknown.
func (c opCounts) perNetwork(n int) string {
	if c == nil {
		return "-"
	}
	return perNetwork(c, n)
}

func (p *controllerProcess) logTail(n int) string {
	b, err := os.ReadFile(p.logPath)
	if err != nil {
		return fmt.Sprintf("<cannot read %s: %v>", p.logPath, err)
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
