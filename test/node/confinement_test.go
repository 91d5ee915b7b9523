//go:build e2e

package node

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/samplecrd/network-controller/test/e2e"
)

// pauseImage is the one image every start of hack/local-node.sh loads (the sandboxes').
const pauseImage = "localhost/network-controller-node/pause:1"

// TestNodeConfinesPods checks what hack/local-node.sh keeps from Pods: of this host's
// listeners they reach the apiserver on the bridge (Keystone and Neutron too, as
// TestControllerOnNode shows) and no other, and an image the node was not given is not
// pulled from anywhere: the pull fails at once at the node's refusing endpoint.
func TestNodeConfinesPods(t *testing.T) {
	namespace := "node-confine-" + e2e.RandomSuffix(5)
	e2e.MustKubectl(t, "create", "namespace", namespace)
	t.Cleanup(func() {
		e2e.Kubectl(t, "delete", "namespace", namespace, "--ignore-not-found", "--wait=true", "--timeout=2m")
	})

	t.Run("a Pod reaches the apiserver and no other host port", func(t *testing.T) {
		createPod(t, namespace, "prober", pauseImage)
		var uid string
		e2e.Eventually(t, 2*time.Minute, time.Second, "Pod prober Running", func() error {
			out := e2e.MustKubectl(t, "get", "pod", "prober", "--namespace", namespace, "-o", "jsonpath={.status.phase} {.metadata.uid}")
			phase, id, _ := strings.Cut(out, " ")
			if uid = id; phase != "Running" {
				return fmt.Errorf("phase %q", phase)
			}
			return nil
		})
		pid := podProcess(t, uid)
		// The kubernetes Service's endpoint: the apiserver on the bridge's address.
		api := e2e.MustKubectl(t, "get", "endpointslices", "--namespace", "default", "-l", "kubernetes.io/service-name=kubernetes",
			"-o", "jsonpath={.items[0].endpoints[0].addresses[0]}:{.items[0].ports[0].port}")
		host, _, err := net.SplitHostPort(api)
		if err != nil {
			t.Fatalf("the kubernetes Service's endpoint %q: %v", api, err)
		}
		other, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
		accepted := make(chan struct{}, 1)
		go func() {
			if c, err := other.Accept(); err == nil {
				c.Close()
				accepted <- struct{}{}
			}
		}()

		if err := dialFromPod(pid, api); err != nil {
			t.Errorf("the Pod does not reach the apiserver at %s: %v", api, err)
		}
		if err := dialFromPod(pid, other.Addr().String()); err == nil {
			t.Errorf("the Pod reached a listener of this host at %s", other.Addr())
		}
		select {
		case <-accepted:
			t.Errorf("the listener at %s accepted a connection from the Pod", other.Addr())
		default:
		}
	})

	t.Run("an image the node was not given is not pulled", func(t *testing.T) {
		began := time.Now()
		createPod(t, namespace, "absent", "docker.io/library/busybox:1.36")
		// The kubelet records the refusal's Event before the Pod's status says so: on a busy
		// machine the status lags by a few seconds, so both are waited for.
		var state string
		e2e.Eventually(t, time.Minute, time.Second, "the pull refused, in an Event and in the Pod's status", func() error {
			events := e2e.MustKubectl(t, "get", "events", "--namespace", namespace, "--field-selector", "involvedObject.name=absent",
				"-o", `jsonpath={range .items[*]}{.reason}: {.message}{"\n"}{end}`)
			state = e2e.MustKubectl(t, "get", "pod", "absent", "--namespace", namespace,
				"-o", "jsonpath={.status.phase} {.status.containerStatuses[0].state.waiting.reason}")
			if !strings.Contains(events, "no-registry-on-the-local-node") {
				return fmt.Errorf("events: %q; Pod: %q", events, state)
			}
			if !strings.Contains(state, "ImagePull") {
				return fmt.Errorf("the Event says the pull was refused, the Pod's status %q does not yet", state)
			}
			return nil
		})
		t.Logf("refused after %s: %s", time.Since(began).Round(time.Second), state)
		if !strings.HasPrefix(state, "Pending ") {
			t.Errorf("Pod absent is %q, want Pending in ErrImagePull or ImagePullBackOff", state)
		}
	})
}

// createPod creates a Pod of one container running image.
func createPod(t *testing.T, namespace, name, image string) {
	t.Helper()
	manifest := fmt.Sprintf(`apiVersion: v1
kind: Pod
metadata: {name: %s, namespace: %s}
spec:
  automountServiceAccountToken: false
  terminationGracePeriodSeconds: 0
  containers: [{name: main, image: %q, imagePullPolicy: IfNotPresent}]
`, name, namespace, image)
	e2e.MustKubectl(t, "apply", "-f", e2e.WriteFile(t, name+".yaml", manifest))
}

// podProcess returns the PID of a process of the Pod with uid on this host (the node runs
// here): each is in the Pod's network namespace.
func podProcess(t *testing.T, uid string) string {
	t.Helper()
	dirs, err := filepath.Glob("/proc/[0-9]*")
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range dirs {
		if cgroup, err := os.ReadFile(filepath.Join(dir, "cgroup")); err == nil && strings.Contains(string(cgroup), "pod"+uid) {
			return filepath.Base(dir)
		}
	}
	t.Fatalf("no process of Pod %s on this host", uid)
	return ""
}

// dialFromPod opens a TCP connection to address from the network namespace of process
// pid, giving up after 3 s (a dropped SYN gets no answer).
func dialFromPod(pid, address string) error {
	host, port, _ := net.SplitHostPort(address)
	out, err := exec.Command("nsenter", "-t", pid, "-n", "--", "timeout", "3",
		"bash", "-c", `exec 3<>"/dev/tcp/$0/$1"`, host, port).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%v: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}
