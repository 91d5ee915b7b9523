//go:build e2e

package e2e

import (
	"bytes"
	"net/http"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// TestClusterGracefulShutdown sends SIGTERM while a reconcile is in flight (a Neutron
// proxy holds this test's create-network request for 3 s): the controller must let the
// item finish (the network gets created and then tagged, after the signal), log that the
// workers stopped, and exit 0 within -shutdown-timeout.
func TestClusterGracefulShutdown(t *testing.T) {
	t.Parallel()
	const (
		delay           = 3 * time.Second
		shutdownTimeout = 15 * time.Second
	)
	ctrl, held, n, arrived := startHeldCreate(t, delay, shutdownTimeout, "drain", "10.72.0.0/24")
	// Signal while the request is held.
	time.Sleep(200 * time.Millisecond)
	sigterm := time.Now()
	if err := syscall.Kill(ctrl.PID(), syscall.SIGTERM); err != nil {
		t.Fatalf("SIGTERM: %v", err)
	}
	code, err := ctrl.Wait(shutdownTimeout + 5*time.Second)
	if err != nil {
		t.Fatalf("controller did not exit after SIGTERM: %v", err)
	}
	exited := time.Since(sigterm)
	t.Logf("SIGTERM %s after the held request arrived; exit %d after %s", sigterm.Sub(arrived).Round(time.Millisecond), code, exited.Round(time.Millisecond))
	if code != 0 {
		t.Errorf("exit code %d after SIGTERM, want 0", code)
	}
	if exited > shutdownTimeout {
		t.Errorf("exit took %s, more than -shutdown-timeout %s", exited, shutdownTimeout)
	}
	var answered time.Time
	select {
	case answered = <-held.Answered:
	case <-time.After(2 * time.Second):
		t.Fatalf("the held create-network request was never forwarded: the controller exited without finishing it")
	}
	if answered.Before(sigterm) {
		t.Fatalf("the held request was answered before SIGTERM; the test did not exercise the drain")
	}
	if sigterm.Add(exited).Before(answered) {
		t.Errorf("the process exited before the in-flight Neutron request returned")
	}

	logs := ctrl.Logs()
	for _, want := range []string{"Shutting down; send the signal again", "Shutting down workers; waiting for items in flight", "Workers stopped"} {
		if !strings.Contains(logs, want) {
			t.Errorf("log lacks %q", want)
		}
	}
	if strings.Contains(logs, "shutdown timed out") {
		t.Errorf("log says the shutdown timed out")
	}
	if i, j := strings.Index(logs, "Shutting down workers"), strings.Index(logs, "Workers stopped"); i > j {
		t.Errorf("\"Workers stopped\" logged before \"Shutting down workers\"")
	}

	// The item ran on after the signal: the network created by the held request was
	// tagged afterwards (tagging is the next step of the same reconcile).
	owner := OwnerOf(ctrl.ClusterID, n)
	nets, _, err := NeutronOf(t, owner)
	if err != nil {
		t.Fatal(err)
	}
	if len(nets) != 1 {
		t.Fatalf("Neutron holds %d networks for %s after the drain, want 1", len(nets), owner.ResourceName())
	}
	for _, tag := range owner.Tags() {
		if !slices.Contains(nets[0].Tags, tag) {
			t.Errorf("network %s lacks tag %s (tags %v): the in-flight reconcile did not finish", nets[0].ID, tag, nets[0].Tags)
		}
	}
	if !slices.Contains(nets[0].Tags, neutron.ClusterTag(ctrl.ClusterID)) {
		t.Errorf("network %s has no cluster tag", nets[0].ID)
	}
}

// TestClusterShutdownTimeout: when an item is still in flight when -shutdown-timeout runs
// out after SIGTERM, the process gives up and exits 1 at that time, saying so.
func TestClusterShutdownTimeout(t *testing.T) {
	t.Parallel()
	const (
		delay           = 30 * time.Second
		shutdownTimeout = 3 * time.Second
	)
	ctrl, _, _, _ := startHeldCreate(t, delay, shutdownTimeout, "stuck", "10.73.0.0/24")
	sigterm := time.Now()
	if err := syscall.Kill(ctrl.PID(), syscall.SIGTERM); err != nil {
		t.Fatalf("SIGTERM: %v", err)
	}
	code, err := ctrl.Wait(shutdownTimeout + 10*time.Second)
	if err != nil {
		t.Fatalf("controller did not exit after SIGTERM and -shutdown-timeout: %v", err)
	}
	exited := time.Since(sigterm)
	t.Logf("exit %d after %s", code, exited.Round(time.Millisecond))
	if code != 1 {
		t.Errorf("exit code %d, want 1 (shutdown timed out)", code)
	}
	if exited < shutdownTimeout-100*time.Millisecond || exited > shutdownTimeout+3*time.Second {
		t.Errorf("exited %s after SIGTERM, want about -shutdown-timeout (%s)", exited, shutdownTimeout)
	}
	logs := ctrl.Logs()
	if !strings.Contains(logs, "shutdown timed out") || strings.Contains(logs, "Workers stopped") {
		t.Errorf("log should say \"shutdown timed out\" and not \"Workers stopped\"")
	}
}

// startHeldCreate starts a controller whose Neutron requests go through a proxy that
// holds the create-network request of a new namespace for delay, creates Network name
// there, and returns once that request has arrived at the proxy (and when).
func startHeldCreate(t *testing.T, delay, shutdownTimeout time.Duration, name, cidr string) (*Controller, *heldRequests, *samplecrdv1.Network, time.Time) {
	t.Helper()
	ns := NewNamespace(t)
	proxy := StartFaultProxy(t, NeutronEndpoint, 0, FaultRates{})
	// The controller names the network k8s_<namespace>_<name>.
	held := proxy.Hold(delay, func(r *http.Request, body []byte) bool {
		return r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/v2.0/networks") && bytes.Contains(body, []byte(`"k8s_`+ns+`_`))
	})
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns}, Args: []string{
		"-neutron-endpoint=" + proxy.URL(),
		"-shutdown-timeout=" + shutdownTimeout.String(),
	}})
	ctrl.WaitReadyz(30 * time.Second)

	n := CreateNetwork(t, ns, name, cidr, "")
	select {
	case arrived := <-held.Arrived:
		return ctrl, held, n, arrived
	case <-time.After(30 * time.Second):
		t.Fatalf("the controller never sent the create-network request of %s/%s", ns, name)
		return nil, nil, nil, time.Time{}
	}
}
