//go:build e2e

package e2e

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ControllerOptions configure one controller process.
type ControllerOptions struct {
	// ClusterID is passed as -cluster-id. Default: a fresh "e2e-<random>" per call. The
	// cluster's Neutron resources are deleted at the end of the test.
	ClusterID string
	// Namespaces limits the controller to these namespaces (-namespace): it then sees
	// no other test's Networks, and the test shares the cluster. Empty: every namespace,
	// and the test holds the cluster alone.
	Namespaces []string
	// Args are extra flags, appended last so that they override the defaults.
	Args []string
	// Env is extra environment, e.g. NETWORK_CONTROLLER_CRASH_AT=network-created.
	Env []string
	// Kubeconfig overrides the admin Kubeconfig passed as -kubeconfig.
	Kubeconfig string
	// InCluster passes no -kubeconfig and drops KUBECONFIG from the environment, for the
	// in-cluster configuration path.
	InCluster bool
	// Wrapper is a command that execs the controller binary and its flags, which are
	// appended to it, e.g. unshare to give it a private mount namespace. The wrapper must
	// exec, so that PID and signals reach the controller itself.
	Wrapper []string
	// Binary runs instead of ControllerBinary, e.g. an earlier version (BuildPrevious);
	// it must know every flag given.
	Binary string
}

// Controller is a running controller process.
type Controller struct {
	ClusterID  string
	MetricsURL string // its /metrics
	HealthURL  string // base URL of its probes: append /healthz or /readyz

	t        testing.TB
	cmd      *exec.Cmd
	logPath  string
	done     chan struct{} // closed once the process has exited
	exitCode int           // 128+signal when a signal killed it; read after done
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
	if len(opts.Namespaces) > 0 || watchesOnlySome(opts.Args) {
		shareCluster(t)
	} else {
		lockCluster(t)
	}
	if opts.ClusterID == "" {
		opts.ClusterID = NewClusterID(t)
	} else {
		t.Cleanup(func() { CleanupNeutronCluster(t, opts.ClusterID) })
	}
	metricsAddr, healthAddr := freeAddress(t), freeAddress(t)
	c := &Controller{
		ClusterID:  opts.ClusterID,
		MetricsURL: "http://" + metricsAddr + "/metrics",
		HealthURL:  "http://" + healthAddr,
		t:          t,
		logPath:    filepath.Join(t.TempDir(), "controller.log"),
		done:       make(chan struct{}),
	}
	env := withoutEnv(os.Environ(), "NETWORK_CONTROLLER_CRASH_AT", "OS_CLOUD")
	var args []string
	switch {
	case opts.InCluster:
		env = withoutEnv(env, "KUBECONFIG")
	case opts.Kubeconfig != "":
		args = append(args, "-kubeconfig="+opts.Kubeconfig)
	default:
		args = append(args, "-kubeconfig="+Kubeconfig)
	}
	args = append(args,
		"-neutron-endpoint="+NeutronEndpoint,
		"-cluster-id="+opts.ClusterID,
		"-leader-elect=false",
		"-metrics-bind-address="+metricsAddr,
		"-health-probe-bind-address="+healthAddr,
		"-neutron-resync-period=0",
		"-retry-max-delay=5s",
		"-shutdown-timeout=20s",
		// The suite keeps two cores busy: a shared neutron-server took over 30 s (the
		// default) to answer the startup check of one controller, which then exited.
		"-neutron-startup-timeout=2m",
		"-v=2",
	)
	for _, ns := range opts.Namespaces {
		args = append(args, "-namespace="+ns)
	}
	if opts.Kubeconfig == "" && !opts.InCluster {
		// Counts of refused token requests of this test's controllers only (restarts
		// included), beside the other tests' in kube-system.
		refusals := "e2e-refusals-" + opts.ClusterID // RefusalsOf
		args = append(args, "-keystone-refusals-configmap="+refusals)
		t.Cleanup(func() { deleteConfigMap(t, metav1.NamespaceSystem, refusals) })
	}
	args = append(args, opts.Args...)

	logFile, err := os.Create(c.logPath)
	if err != nil {
		t.Fatalf("creating controller log: %v", err)
	}
	binary := cmp.Or(opts.Binary, ControllerBinary)
	argv := append(append(slices.Clone(opts.Wrapper), binary), args...)
	c.cmd = exec.Command(argv[0], argv[1:]...)
	c.cmd.Env = append(env, opts.Env...)
	c.cmd.Dir = filepath.Dir(c.logPath)
	c.cmd.Stdout, c.cmd.Stderr = logFile, logFile
	if err := c.cmd.Start(); err != nil {
		logFile.Close()
		t.Fatalf("starting %s: %v", binary, err)
	}
	t.Logf("started controller pid %d, cluster ID %s, args %v, extra env %v, log %s",
		c.PID(), opts.ClusterID, args, opts.Env, c.logPath)
	go func() {
		_ = c.cmd.Wait()
		logFile.Close()
		c.exitCode = c.cmd.ProcessState.ExitCode()
		if ws, ok := c.cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			c.exitCode = 128 + int(ws.Signal())
		}
		close(c.done)
	}()
	t.Cleanup(func() {
		c.stop(t.Error)
		if t.Failed() {
			t.Logf("--- last lines of the log of controller pid %d (cluster %s) ---\n%s",
				c.PID(), c.ClusterID, LastLines(c.Logs(), 80))
		}
	})
	return c
}

// watchesOnlySome reports whether flags limit a controller to some namespaces: it then
// sees no other test's Networks, and shares the cluster.
func watchesOnlySome(args []string) bool {
	return slices.ContainsFunc(args, func(a string) bool {
		return strings.HasPrefix(a, "-namespace=") || strings.HasPrefix(a, "--namespace=")
	})
}

func withoutEnv(env []string, names ...string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return slices.Contains(names, name)
	})
}

// LeaseTimings are the durations of the leader election flags.
type LeaseTimings struct{ Duration, RenewDeadline, RetryPeriod time.Duration }

// CompetingControllers creates a namespace and returns it, the name of a fresh Lease in
// it, and options (with extraArgs last) that make controllers of one new cluster ID
// compete for that Lease.
func CompetingControllers(t testing.TB, lt LeaseTimings, extraArgs ...string) (ns, lease string, opts ControllerOptions) {
	t.Helper()
	ns, lease = NewNamespace(t), "e2e-lease-"+RandomSuffix(8)
	return ns, lease, ControllerOptions{ClusterID: NewClusterID(t), Namespaces: []string{ns}, Args: append(LeaseArgs(ns, lease, lt), extraArgs...)}
}

// LeaseArgs are the flags of leader election (or of shards' Leases) on Lease name in ns
// with timings lt.
func LeaseArgs(ns, lease string, lt LeaseTimings) []string {
	return []string{
		"-leader-elect=true",
		"-leader-elect-lease-name=" + lease,
		"-leader-elect-namespace=" + ns,
		"-leader-elect-lease-duration=" + lt.Duration.String(),
		"-leader-elect-renew-deadline=" + lt.RenewDeadline.String(),
		"-leader-elect-retry-period=" + lt.RetryPeriod.String(),
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
	c.stop(c.t.Fatal)
}

func (c *Controller) stop(fail func(...any)) {
	c.t.Helper()
	if c.Exited() {
		return
	}
	_ = c.cmd.Process.Signal(syscall.SIGTERM)
	if _, err := c.Wait(30 * time.Second); err != nil {
		c.Kill()
		fail(fmt.Sprintf("controller pid %d did not exit within 30s of SIGTERM; killed it", c.PID()))
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
	_ = c.cmd.Process.Kill()
	<-c.done
}

// Wait waits up to timeout for the process to exit by itself and returns its exit code
// (128+signal when a signal killed it).
func (c *Controller) Wait(timeout time.Duration) (int, error) {
	select {
	case <-c.done:
		return c.exitCode, nil
	case <-time.After(timeout):
		return -1, fmt.Errorf("controller pid %d still running after %s", c.PID(), timeout)
	}
}

// waitFor is Eventually that fails at once, with the log's tail, when the process exits.
func (c *Controller) waitFor(timeout time.Duration, what string, cond func() error) {
	c.t.Helper()
	Eventually(c.t, timeout, 100*time.Millisecond, what, func() error {
		if code, err := c.Wait(0); err == nil {
			c.t.Fatalf("controller pid %d exited with code %d while waiting for %s:\n%s", c.PID(), code, what, LastLines(c.Logs(), 40))
		}
		return cond()
	})
}

// WaitConnected waits until the log says the controller reached the apiserver and Neutron
// ("Connected", in text or JSON), and returns c.
func (c *Controller) WaitConnected() *Controller {
	c.t.Helper()
	c.waitFor(60*time.Second, "the controller to connect", func() error {
		if !strings.Contains(c.Logs(), `"Connected"`) {
			return errors.New("no \"Connected\" line yet")
		}
		return nil
	})
	return c
}

// WaitReadyz waits until /readyz answers 200.
func (c *Controller) WaitReadyz(timeout time.Duration) {
	c.t.Helper()
	c.waitFor(timeout, "controller /readyz", func() error { return ExpectStatus(c.HealthURL+"/readyz", http.StatusOK) })
}

// WaitNewLogLine waits until the controller writes, after this call, a line containing
// every one of substrs, and returns it.
func (c *Controller) WaitNewLogLine(timeout time.Duration, substrs ...string) string {
	c.t.Helper()
	offset := len(c.Logs())
	var found string
	Eventually(c.t, timeout, 200*time.Millisecond, fmt.Sprintf("a controller log line with %q", substrs), func() error {
		logs := c.Logs()
		for _, line := range strings.Split(logs[min(offset, len(logs)):], "\n") {
			if line != "" && containsAll(line, substrs) {
				found = line
				return nil
			}
		}
		return errors.New("not yet")
	})
	return found
}

// Metrics reads and parses the controller's /metrics.
func (c *Controller) Metrics() (map[string]*dto.MetricFamily, error) {
	code, body, err := httpGet(c.MetricsURL)
	if err != nil {
		return nil, err
	}
	if code != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %d", c.MetricsURL, code)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("parsing %s: %w", c.MetricsURL, err)
	}
	return families, nil
}

// Metric returns the sum of the series of a metric whose labels include every one of
// labels (name=value pairs, e.g. "result=success"). A counter that never moved has no
// series yet, which is an error.
func (c *Controller) Metric(name string, labels ...string) (float64, error) {
	families, err := c.Metrics()
	if err != nil {
		return 0, err
	}
	v, found := metricSample(families, name, labels...)
	if !found {
		return 0, fmt.Errorf("%s has no series %s%v", c.MetricsURL, name, labels)
	}
	return v, nil
}

// metricSample returns the value of the series of family whose labels include all of labels
// (name=value pairs), summed; counters, gauges and untyped series give their value,
// histograms their sample count. found is false when no series matches.
func metricSample(families map[string]*dto.MetricFamily, family string, labels ...string) (value float64, found bool) {
	for _, m := range families[family].GetMetric() {
		have := map[string]string{}
		for _, lp := range m.GetLabel() {
			have[lp.GetName()] = lp.GetValue()
		}
		if slices.ContainsFunc(labels, func(l string) bool { k, v, _ := strings.Cut(l, "="); return have[k] != v }) {
			continue
		}
		found = true
		value += m.GetCounter().GetValue() + m.GetGauge().GetValue() + m.GetUntyped().GetValue() +
			float64(m.GetHistogram().GetSampleCount())
	}
	return value, found
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

// ExpectStatus fails unless a GET of u answers code.
func ExpectStatus(u string, code int) error {
	got, body, err := httpGet(u)
	if err == nil && got != code {
		err = fmt.Errorf("GET %s = %d %q, want %d", u, got, strings.TrimSpace(body), code)
	}
	return err
}
