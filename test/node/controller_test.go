//go:build e2e

package node

import (
	"crypto/tls"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/samplecrd/network-controller/test/e2e"
)

// TestControllerOnNode installs deploy/ (unchanged but for the image) with
// hack/deploy-local.sh and follows what a cluster does with it: both replicas Running and
// Ready through their probes, the leader reconciling a Network against the local Keystone
// and Neutron, a handover when the leader's Pod is deleted with no Network lost, Prometheus
// scraping /metrics through the Service over HTTPS with a ServiceAccount token and loading
// the alerts, and the runtime enforcing the non-root user and the read-only root
// filesystem. Then the same with the Helm chart.
func TestControllerOnNode(t *testing.T) {
	namespace := "node-e2e-" + e2e.RandomSuffix(5)
	// The Networks go while a controller still runs (their finalizer), then the controller.
	t.Cleanup(func() {
		e2e.Kubectl(t, "delete", "namespace", namespace, "--ignore-not-found", "--wait=true", "--timeout=3m")
		e2e.Kubectl(t, "delete", "clusterrolebinding", namespace+"-scraper", "--ignore-not-found")
		deployLocal(t, "remove")
	})
	deployLocal(t, "kustomize")
	e2e.MustKubectl(t, "create", "namespace", namespace)
	octet := 64 + rand.IntN(128)
	cidr := func(i int) string { return fmt.Sprintf("10.%d.%d.0/24", octet, i) }

	t.Run("replicas Ready through their probes", func(t *testing.T) {
		var pods []string
		e2e.Eventually(t, 3*time.Minute, time.Second, "2 replicas Ready", func() error {
			ready, err := readyPods(t, 2)
			pods = nil
			for _, p := range ready {
				pods = append(pods, p.Name+" on "+p.Spec.NodeName+" at "+p.Status.PodIP)
			}
			return err
		})
		t.Logf("Ready: %s", strings.Join(pods, ", "))
	})

	var firstID string
	t.Run("the leader reconciles a Network", func(t *testing.T) {
		leader := holderPod(leaderLease(t))
		if leader == "" {
			t.Fatal("no replica holds the Lease")
		}
		firstID = createNetwork(t, namespace, "first", cidr(1))
		t.Logf("leader %s made Neutron network %s", leader, firstID)
	})

	t.Run("deleting the leader's Pod hands over", func(t *testing.T) {
		before := leaderLease(t)
		leader := holderPod(before)
		deleted := time.Now()
		e2e.MustKubectl(t, "delete", "pod", leader, "--namespace", controllerNamespace, "--wait=false")
		var after = before
		e2e.Eventually(t, 2*time.Minute, 250*time.Millisecond, "another replica to hold the Lease", func() error {
			after = leaderLease(t)
			if holder := holderPod(after); holder == "" || holder == leader {
				return fmt.Errorf("held by %q", holder)
			}
			return nil
		})
		// The Lease's own record: the new holder acquired it within the lease duration of
		// the old holder's last renewal (a clean shutdown releases it at once).
		gap := after.Spec.AcquireTime.Sub(before.Spec.RenewTime.Time)
		duration := time.Duration(*after.Spec.LeaseDurationSeconds) * time.Second
		t.Logf("%s took over %s after the deletion (%s after %s's last renewal; lease duration %s)",
			holderPod(after), time.Since(deleted).Round(100*time.Millisecond), gap.Round(100*time.Millisecond), leader, duration)
		if gap > duration {
			t.Errorf("the Lease was acquired %s after the last renewal, more than its duration %s", gap, duration)
		}
		if id := readyNetworkID(t, namespace, "first"); id != firstID {
			t.Errorf("after the handover Network first has Neutron network %s, had %s", id, firstID)
		}
		createNetwork(t, namespace, "second", cidr(2))
		e2e.Eventually(t, 3*time.Minute, time.Second, "the Deployment back at 2 Ready replicas", func() error {
			_, err := readyPods(t, 2)
			return err
		})
	})

	t.Run("Prometheus scrapes the Service over HTTPS", func(t *testing.T) { scrapeThroughService(t, namespace) })

	t.Run("non-root user and read-only root filesystem", func(t *testing.T) {
		pods, err := readyPods(t, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, pod := range pods {
			processes := controllerProcesses(t, string(pod.UID))
			if len(processes) != 1 {
				t.Fatalf("Pod %s: %d controller processes on this host, want 1", pod.Name, len(processes))
			}
			p := processes[0]
			t.Logf("Pod %s: pid %d uid %s gid %s, root mount %s, NoNewPrivs %s, Seccomp %s, CapEff %s",
				pod.Name, p.PID, p.UID, p.GID, p.RootMount, p.NoNewPrivs, p.Seccomp, p.CapEff)
			if p.UID != "65532 65532 65532 65532" || p.GID != "65532 65532 65532 65532" {
				t.Errorf("Pod %s runs as uid %q gid %q, want 65532 throughout", pod.Name, p.UID, p.GID)
			}
			if !strings.HasPrefix(p.RootMount, "ro,") && p.RootMount != "ro" {
				t.Errorf("Pod %s: root filesystem mounted %q, want read-only", pod.Name, p.RootMount)
			}
			if p.NoNewPrivs != "1" || p.Seccomp != "2" || p.CapEff != "0000000000000000" {
				t.Errorf("Pod %s: NoNewPrivs %s Seccomp %s CapEff %s, want 1, 2 (filter) and no capabilities", pod.Name, p.NoNewPrivs, p.Seccomp, p.CapEff)
			}
		}
	})

	t.Run("the Helm chart", func(t *testing.T) {
		deployLocal(t, "remove")
		deployLocal(t, "helm")
		e2e.Eventually(t, 3*time.Minute, time.Second, "2 replicas of the chart Ready", func() error {
			_, err := readyPods(t, 2)
			return err
		})
		if id := readyNetworkID(t, namespace, "first"); id != firstID {
			t.Errorf("under the chart's controller Network first has Neutron network %s, had %s", id, firstID)
		}
		createNetwork(t, namespace, "third", cidr(3))
	})
}

// scrapeThroughService runs Prometheus on this host scraping the metrics Service's
// ClusterIP (kube-proxy routes it to a replica) over HTTPS with the token of a
// ServiceAccount bound to network-controller-metrics-reader, with the shipped alerts.
func scrapeThroughService(t *testing.T, namespace string) {
	e2e.MustKubectl(t, "create", "serviceaccount", "scraper", "--namespace", namespace)
	e2e.MustKubectl(t, "create", "clusterrolebinding", namespace+"-scraper", "--clusterrole", "network-controller-metrics-reader",
		"--serviceaccount", namespace+":scraper")
	token := strings.TrimSpace(e2e.MustKubectl(t, "create", "token", "scraper", "--namespace", namespace, "--duration", "1h"))
	ip := strings.TrimSpace(e2e.MustKubectl(t, "get", "service", "network-controller-metrics", "--namespace", controllerNamespace,
		"-o", "jsonpath={.spec.clusterIP}"))
	target := ip + ":8443"

	// Without a token the Service answers 401: the scrape below is the token's doing.
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
	resp, err := client.Get("https://" + target + "/metrics")
	if err != nil {
		t.Fatalf("GET https://%s/metrics: %v", target, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("GET https://%s/metrics without a token: %d, want 401", target, resp.StatusCode)
	}

	dir := t.TempDir()
	rules, err := os.ReadFile(filepath.Join(e2e.RepoRoot, "deploy", "monitoring", "network-controller.rules.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{"token": token, "network-controller.rules.yaml": string(rules)} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	prometheus := e2e.StartPrometheus(t, dir, fmt.Sprintf(`global: {scrape_interval: 2s, evaluation_interval: 2s}
rule_files: [network-controller.rules.yaml]
scrape_configs:
  - job_name: network-controller
    scheme: https
    authorization: {credentials_file: token}
    # The controller's self-signed certificate (no -metrics-cert-dir in deploy/).
    tls_config: {insecure_skip_verify: true}
    static_configs: [{targets: [%q]}]
`, target))
	e2e.Eventually(t, 2*time.Minute, time.Second, "Prometheus to scrape the controller", func() error {
		samples, err := prometheus.Query(`network_controller_build_info{job="network-controller"} * on() group_left up{job="network-controller"}`)
		if err != nil {
			return err
		}
		if len(samples) != 1 || samples[0].Value[1] != "1" {
			return fmt.Errorf("build_info and up: %+v", samples)
		}
		t.Logf("scraped through %s: %v", target, samples[0].Metric)
		return nil
	})
	want := strings.Count(string(rules), "- alert: ")
	e2e.Eventually(t, time.Minute, time.Second, "every alert loaded and evaluated", func() error {
		loaded, err := prometheus.AlertingRules()
		if err != nil {
			return err
		}
		var ok int
		for _, r := range loaded {
			if r.Health == "ok" {
				ok++
			}
		}
		if len(loaded) != want || ok != want {
			return fmt.Errorf("%d alerting rules loaded, %d evaluated ok, want %d: %+v", len(loaded), ok, want, loaded)
		}
		return nil
	})
}
