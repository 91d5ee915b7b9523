//go:build e2e

package e2e

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// ControllerOptions configure one controller process.
type ControllerOptions struct {
	// ClusterID is passed as -cluster-id. Default: a fresh "e2e-<random>" per call, whose
	// Neutron resources are deleted at the end of the test.
	ClusterID string
	// Args are extra flags, appended last so that they override the defaults.
	Args []string
	// Env is extra environment, e.g. NETWORK_CONTROLLER_CRASH_AT=network-created.
	Env []string
	// Kubeconfig overrides the admin Kubeconfig passed as -kubeconfig.
	Kubeconfig string
	// NoDefaultKubeconfig passes no -kubeconfig at all (and drops KUBECONFIG from the
	// environment), for the in-cluster configuration path.
	NoDefaultKubeconfig bool
	// Wrapper is a command that execs the controller binary and its flags, which are
	// appended to it, e.g. unshare to give it a private mount namespace. The wrapper must
	// exec, so that PID and signals reach the controller itself.
	Wrapper []string
}

// Controller is a running controller process.
type Controller struct {
	t           testing.TB
	cmd         *exec.Cmd
	logPath     string
	ClusterID   string
	metricsAddr string
	healthAddr  string

	done     chan struct{}
	mu       sync.Mutex
	exitCode int
	waitErr  error
}

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("finding a free port: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// NewClusterID returns a fresh cluster ID and deletes whatever Neutron resources carry it
// at the end of the test.
func NewClusterID(t testing.TB) string {
	t.Helper()
	id := "e2e-" + RandomSuffix(12)
	t.Cleanup(func() { CleanupNeutronCluster(t, id) })
	return id
}

// StartController starts ControllerBinary with test defaults and opts, and stops it at the
// end of the test (dumping its log tail when the test failed).
func StartController(t testing.TB, opts ControllerOptions) *Controller {
	t.Helper()
	clusterLock(t)
	if opts.ClusterID == "" {
		opts.ClusterID = NewClusterID(t)
	} else {
		id := opts.ClusterID
		t.Cleanup(func() { CleanupNeutronCluster(t, id) })
	}
	c := &Controller{
		t:           t,
		ClusterID:   opts.ClusterID,
		metricsAddr: fmt.Sprintf("127.0.0.1:%d", FreePort(t)),
		healthAddr:  fmt.Sprintf("127.0.0.1:%d", FreePort(t)),
		done:        make(chan struct{}),
		exitCode:    -1,
	}
	args := []string{}
	env := os.Environ()
	if !opts.NoDefaultKubeconfig {
		kc := Kubeconfig
		if opts.Kubeconfig != "" {
			kc = opts.Kubeconfig
		}
		args = append(args, "-kubeconfig="+kc)
	} else {
		if opts.Kubeconfig != "" {
			args = append(args, "-kubeconfig="+opts.Kubeconfig)
		}
		env = withoutEnv(env, "KUBECONFIG")
	}
	args = append(args,
		"-neutron-endpoint="+NeutronEndpoint,
		"-cluster-id="+opts.ClusterID,
		"-leader-elect=false",
		"-metrics-bind-address="+c.metricsAddr,
		"-health-probe-bind-address="+c.healthAddr,
		"-neutron-resync-period=0",
		"-retry-max-delay=5s",
		"-shutdown-timeout=20s",
		"-v=2",
	)
	args = append(args, opts.Args...)
	env = withoutEnv(env, "NETWORK_CONTROLLER_CRASH_AT", "OS_CLOUD")
	env = append(env, opts.Env...)

	dir := t.TempDir()
	c.logPath = filepath.Join(dir, "controller.log")
	logFile, err := os.Create(c.logPath)
	if err != nil {
		t.Fatalf("creating controller log: %v", err)
	}
	argv := append(append(slices.Clone(opts.Wrapper), ControllerBinary), args...)
	c.cmd = exec.Command(argv[0], argv[1:]...)
	c.cmd.Env = env
	c.cmd.Dir = dir
	c.cmd.Stdout = logFile
	c.cmd.Stderr = logFile
	if err := c.cmd.Start(); err != nil {
		logFile.Close()
		t.Fatalf("starting %s: %v", ControllerBinary, err)
	}
	t.Logf("started controller pid %d, cluster ID %s, args %v, extra env %v, log %s",
		c.cmd.Process.Pid, opts.ClusterID, args, opts.Env, c.logPath)
	go func() {
		err := c.cmd.Wait()
		logFile.Close()
		c.mu.Lock()
		c.waitErr = err
		c.exitCode = c.cmd.ProcessState.ExitCode()
		if ws, ok := c.cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			c.exitCode = 128 + int(ws.Signal())
		}
		c.mu.Unlock()
		close(c.done)
	}()
	t.Cleanup(func() {
		if !c.Exited() {
			c.stop(false)
		}
		if t.Failed() {
			t.Logf("--- last lines of the log of controller pid %d (cluster %s) ---\n%s",
				c.PID(), c.ClusterID, LastLines(c.Logs(), 80))
		}
	})
	return c
}

func withoutEnv(env []string, names ...string) []string {
	out := env[:0:0]
next:
	for _, kv := range env {
		for _, n := range names {
			if strings.HasPrefix(kv, n+"=") {
				continue next
			}
		}
		out = append(out, kv)
	}
	return out
}

// leaderElectionArgs are the flags that make controllers compete for the Lease name in
// namespace ns, with the given timings.
func leaderElectionArgs(ns, name string, leaseDuration, renewDeadline, retryPeriod time.Duration) []string {
	return []string{
		"-leader-elect=true",
		"-leader-elect-lease-name=" + name,
		"-leader-elect-namespace=" + ns,
		"-leader-elect-lease-duration=" + leaseDuration.String(),
		"-leader-elect-renew-deadline=" + renewDeadline.String(),
		"-leader-elect-retry-period=" + retryPeriod.String(),
	}
}

// Exited reports whether the process has exited.
func (c *Controller) Exited() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// PID is the process ID.
func (c *Controller) PID() int { return c.cmd.Process.Pid }

// MetricsURL is the URL of /metrics.
func (c *Controller) MetricsURL() string { return "http://" + c.metricsAddr + "/metrics" }

// HealthURL is the base URL of the health probes (append /healthz or /readyz).
func (c *Controller) HealthURL() string { return "http://" + c.healthAddr }

// LogPath is the file holding the process's stdout and stderr.
func (c *Controller) LogPath() string { return c.logPath }

// Logs returns everything the process wrote so far.
func (c *Controller) Logs() string {
	b, err := os.ReadFile(c.logPath)
	if err != nil {
		return fmt.Sprintf("<cannot read %s: %v>", c.logPath, err)
	}
	return string(b)
}

// Stop sends SIGTERM and fails the test if the process has not exited within 30 s.
func (c *Controller) Stop() {
	c.t.Helper()
	c.stop(true)
}

func (c *Controller) stop(strict bool) {
	c.t.Helper()
	if c.Exited() {
		return
	}
	_ = c.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-c.done:
	case <-time.After(30 * time.Second):
		_ = c.cmd.Process.Kill()
		<-c.done
		msg := fmt.Sprintf("controller pid %d did not exit within 30s of SIGTERM; killed it", c.PID())
		if strict {
			c.t.Fatal(msg)
		}
		c.t.Error(msg)
	}
}

// Signal sends sig to the process.
func (c *Controller) Signal(sig syscall.Signal) {
	c.t.Helper()
	if err := c.cmd.Process.Signal(sig); err != nil {
		c.t.Fatalf("signalling controller pid %d: %v", c.PID(), err)
	}
}

// Kill sends SIGKILL and waits for the process to be gone.
func (c *Controller) Kill() {
	c.t.Helper()
	if c.Exited() {
		return
	}
	_ = c.cmd.Process.Kill()
	<-c.done
}

// Wait waits up to timeout for the process to exit by itself and returns its exit code
// (128+signal when a signal killed it).
func (c *Controller) Wait(timeout time.Duration) (int, error) {
	select {
	case <-c.done:
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.exitCode, nil
	case <-time.After(timeout):
		return -1, fmt.Errorf("controller pid %d still running after %s", c.PID(), timeout)
	}
}

// WaitReadyz waits until /readyz answers 200.
func (c *Controller) WaitReadyz(timeout time.Duration) {
	c.t.Helper()
	Eventually(c.t, timeout, 200*time.Millisecond, "controller /readyz", func() error {
		if c.Exited() {
			code, _ := c.Wait(0)
			c.t.Fatalf("controller exited with code %d while waiting for /readyz:\n%s", code, LastLines(c.Logs(), 40))
		}
		resp, err := http.Get(c.HealthURL() + "/readyz")
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("%d: %s", resp.StatusCode, body)
		}
		return nil
	})
}

// Metric returns the sum of the series of a metric whose labels include every one of
// labels (name=value pairs, e.g. "result=success"), read from the controller's /metrics.
func (c *Controller) Metric(name string, labels ...string) (float64, error) {
	code, body, err := httpGet(c.MetricsURL())
	if err != nil {
		return 0, err
	}
	if code != http.StatusOK {
		return 0, fmt.Errorf("GET %s: %d", c.MetricsURL(), code)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		return 0, fmt.Errorf("parsing %s: %w", c.MetricsURL(), err)
	}
	v, found := metricSample(families, name, labels...)
	if !found {
		return 0, errNoSuchMetric
	}
	return v, nil
}

var errNoSuchMetric = errors.New("no such metric")

// IsNoSuchMetric reports whether Metric found no matching series (a counter that never
// moved is not exported yet).
func IsNoSuchMetric(err error) bool { return errors.Is(err, errNoSuchMetric) }

// LastLines returns the last n lines of s.
func LastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// CountLines counts the lines of s containing every one of substrs.
func CountLines(s string, substrs ...string) int {
	n := 0
	for _, line := range strings.Split(s, "\n") {
		ok := line != ""
		for _, sub := range substrs {
			if !strings.Contains(line, sub) {
				ok = false
				break
			}
		}
		if ok {
			n++
		}
	}
	return n
}

// WaitNewLogLine waits until the controller writes, after this call, a line containing
// every one of substrs, and returns it.
func (c *Controller) WaitNewLogLine(timeout time.Duration, substrs ...string) string {
	c.t.Helper()
	offset := len(c.Logs())
	var found string
	Eventually(c.t, timeout, 200*time.Millisecond, fmt.Sprintf("a controller log line with %q", substrs), func() error {
		logs := c.Logs()
		if len(logs) < offset {
			offset = 0
		}
		for _, line := range strings.Split(logs[offset:], "\n") {
			if line != "" && CountLines(line, substrs...) == 1 {
				found = line
				return nil
			}
		}
		return fmt.Errorf("not yet")
	})
	return found
}

// httpGet returns the status code and body of a GET.
func httpGet(u string) (int, string, error) {
	client := &http.Client{Timeout: 5 * time.Second}
	resp, err := client.Get(u)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

// metricSample returns the value of the series of family whose labels include all of labels
// (name=value pairs), summed; counters, gauges and untyped series give their value,
// histograms their sample count. found is false when no series matches.
func metricSample(families map[string]*dto.MetricFamily, family string, labels ...string) (value float64, found bool) {
	mf := families[family]
	if mf == nil {
		return 0, false
	}
next:
	for _, m := range mf.GetMetric() {
		have := map[string]string{}
		for _, lp := range m.GetLabel() {
			have[lp.GetName()] = lp.GetValue()
		}
		for _, l := range labels {
			k, v, _ := strings.Cut(l, "=")
			if have[k] != v {
				continue next
			}
		}
		found = true
		switch {
		case m.Counter != nil:
			value += m.GetCounter().GetValue()
		case m.Gauge != nil:
			value += m.GetGauge().GetValue()
		case m.Histogram != nil:
			value += float64(m.GetHistogram().GetSampleCount())
		case m.Untyped != nil:
			value += m.GetUntyped().GetValue()
		}
	}
	return value, found
}
