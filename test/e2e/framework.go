//go:build e2e

// Package e2e holds the end-to-end tests of network-controller: they run the real
// controller binary against a real kube-apiserver, neutron-server and Keystone, which
// hack/e2e.sh starts on loopback. README.md beside this file explains the cluster lock.
package e2e

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	versioned "github.com/samplecrd/network-controller/pkg/client/clientset/versioned"
)

// Set by TestMain.
var (
	// RepoRoot is the repository root (the folder holding go.mod).
	RepoRoot string
	// ControllerBinary is the controller built with -tags e2ecrash.
	ControllerBinary string
	// Kubeconfig is the admin kubeconfig ($KUBECONFIG).
	Kubeconfig string
	// NeutronEndpoint is the URL of a noauth Neutron ($NEUTRON_ENDPOINT).
	NeutronEndpoint string
	// ControllerVersion and ControllerCommit are what ControllerBinary was stamped with
	// (hack/version.sh, as make build).
	ControllerVersion, ControllerCommit string
)

// runCommand runs a program from RepoRoot and returns its stdout and stderr apart, so that
// kubectl's warnings never mix into its -o json.
func runCommand(timeout time.Duration, name string, args ...string) (stdout, stderr string, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = RepoRoot
	// A server a script starts may keep the output pipes open; do not wait for it.
	cmd.WaitDelay = 5 * time.Second
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.String(), e.String(), err
}

// localServer runs hack/local-<name>.sh (kube, neutron or keystone) with one verb, for
// the tests that stop and start the shared local servers.
func localServer(name, verb string) (string, error) {
	o, e, err := runCommand(5*time.Minute, filepath.Join(RepoRoot, "hack", "local-"+name+".sh"), verb)
	return o + e, err
}

// KubectlAs runs kubectl with kubeconfig and returns stdout and stderr apart.
func KubectlAs(t testing.TB, kubeconfig string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	stdout, stderr, err = runCommand(2*time.Minute, "kubectl", append([]string{"--kubeconfig", kubeconfig}, args...)...)
	t.Logf("kubectl %s: err=%v\nstdout: %s\nstderr: %s", strings.Join(args, " "), err,
		LastLines(strings.TrimSpace(stdout), 20), strings.TrimSpace(stderr))
	return stdout, stderr, err
}

// Kubectl runs kubectl with the admin Kubeconfig and returns stdout followed by stderr.
func Kubectl(t testing.TB, args ...string) (string, error) {
	t.Helper()
	stdout, stderr, err := KubectlAs(t, Kubeconfig, args...)
	return stdout + stderr, err
}

// MustKubectl runs kubectl with the admin Kubeconfig, fails the test on error, and returns
// stdout.
func MustKubectl(t testing.TB, args ...string) string {
	t.Helper()
	stdout, stderr, err := KubectlAs(t, Kubeconfig, args...)
	if err != nil {
		t.Fatalf("kubectl %s: %v\n%s%s", strings.Join(args, " "), err, stdout, stderr)
	}
	return stdout
}

// RandomSuffix returns n random lower-case hex characters.
func RandomSuffix(n int) string {
	b := make([]byte, (n+1)/2)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)[:n]
}

// Ctx returns a context bounded by timeout, cancelled at the end of the test.
func Ctx(t testing.TB, timeout time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	return ctx
}

// AdminConfig is the REST configuration of the admin Kubeconfig.
func AdminConfig(t testing.TB) *rest.Config {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", Kubeconfig)
	if err != nil {
		t.Fatalf("loading %s: %v", Kubeconfig, err)
	}
	cfg.QPS, cfg.Burst = 50, 100
	return cfg
}

// Clients returns a Kubernetes and a Network clientset for the admin Kubeconfig.
func Clients(t testing.TB) (kubernetes.Interface, versioned.Interface) {
	t.Helper()
	cfg := AdminConfig(t)
	return kubernetes.NewForConfigOrDie(cfg), versioned.NewForConfigOrDie(cfg)
}

// NewNamespace creates a namespace e2e-<random> and, at the end of the test, removes the
// Networks in it and the controller's finalizer from its Secrets (so nothing waits for a
// stopped controller) and asks for the namespace's deletion, which the
// kube-controller-manager completes without the test waiting for it.
func NewNamespace(t testing.TB) string {
	t.Helper()
	shareCluster(t)
	kube, nets := Clients(t)
	name := "e2e-" + RandomSuffix(10)
	_, err := kube.CoreV1().Namespaces().Create(Ctx(t, time.Minute), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating namespace %s: %v", name, err)
	}
	t.Logf("namespace %s", name)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		list, err := nets.SamplecrdV1().Networks(name).List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Logf("cleanup: listing Networks in %s: %v", name, err)
		}
		for _, n := range list.Items {
			_ = RemoveFinalizers(ctx, nets, name, n.Name)
			if err := nets.SamplecrdV1().Networks(name).Delete(ctx, n.Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				t.Logf("cleanup: deleting Network %s/%s: %v", name, n.Name, err)
			}
		}
		releaseSecrets(ctx, t, kube, name)
		if err := kube.CoreV1().Namespaces().Delete(ctx, name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Logf("cleanup: deleting namespace %s: %v", name, err)
		}
	})
	return name
}

// releaseSecrets removes the controller's finalizer from the Secrets of namespace ns.
func releaseSecrets(ctx context.Context, t testing.TB, kube kubernetes.Interface, ns string) {
	secrets, err := kube.CoreV1().Secrets(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Logf("cleanup: listing Secrets in %s: %v", ns, err)
		return
	}
	for _, s := range secrets.Items {
		if !slices.Contains(s.Finalizers, samplecrdv1.CredentialsFinalizerName) {
			continue
		}
		s.Finalizers = slices.DeleteFunc(s.Finalizers, func(f string) bool { return f == samplecrdv1.CredentialsFinalizerName })
		if _, err := kube.CoreV1().Secrets(ns).Update(ctx, &s, metav1.UpdateOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Logf("cleanup: removing the controller's finalizer from Secret %s/%s: %v", ns, s.Name, err)
		}
	}
}

// The cluster lock (README.md). Tests whose controllers each watch only the test's own
// namespaces share the cluster; a test whose controller watches every namespace, or that
// stops a shared server, holds it alone. Holders are tests by name: a subtest holds what
// its parent holds.
var (
	clusterMu sync.Mutex
	// clusterAlone is the test holding the cluster alone, or "".
	clusterAlone string
	// clusterSharers counts the acquisitions of the tests sharing the cluster.
	clusterSharers = map[string]int{}
	// clusterWaitingAlone counts the tests waiting to hold it alone: no new test shares
	// it meanwhile, so they are not starved.
	clusterWaitingAlone int
)

// shareCluster blocks while a test holds the cluster alone (or waits to), then shares it
// until the end of the test. NewNamespace takes it: a namespace's Networks must not be
// seen by another test's controller that watches every namespace.
func shareCluster(t testing.TB) { acquireCluster(t, false) }

// lockCluster blocks until no other test holds or shares the cluster and then holds it
// alone until the end of the test; it returns at once when the test or a parent holds it
// already. A test that shares it may take it alone only while no other test shares it:
// a parallel test that needs the cluster alone calls ExclusiveCluster before anything
// else. Cleanups registered afterwards run before the release.
func lockCluster(t testing.TB) { acquireCluster(t, true) }

// ExclusiveCluster makes the test hold the cluster alone from now on: for a test that
// stops a shared server, or whose controller watches every namespace.
func ExclusiveCluster(t testing.TB) {
	t.Helper()
	lockCluster(t)
}

// clusterWaitLimit is how long a test waits for the cluster lock before it fails, saying
// the lock is stuck. A parallel test that holds the cluster alone waits for the sharers
// still running (the longest, such as TestChaos, take about 4 minutes on 2 cores), and
// the sharers wait for it while it holds it (TestShards, about a minute, is the longest;
// TestCalmNamespaceIsNotHeldUpByAFlood, as long, is sequential and runs before the
// parallel tests, README.md). So a wait is of minutes at most, far below this
// limit, which only a stuck lock reaches; it is shorter than hack/e2e.sh's go test
// -timeout (40m), so that the failure names the holder.
const clusterWaitLimit = 25 * time.Minute

func acquireCluster(t testing.TB, alone bool) {
	t.Helper()
	start, waiting := time.Now(), false
	defer func() {
		if waiting {
			clusterMu.Lock()
			clusterWaitingAlone--
			clusterMu.Unlock()
		}
	}()
	for {
		clusterMu.Lock()
		name := t.Name()
		heldAlone := clusterAlone != "" && isOrUnder(name, clusterAlone)
		shared, others := false, 0
		for holder := range clusterSharers {
			if isOrUnder(name, holder) {
				shared = true
			} else {
				others++
			}
		}
		switch {
		case heldAlone || (shared && !alone):
			clusterMu.Unlock()
			return
		case alone && clusterAlone == "" && others == 0:
			clusterAlone = name
			clusterMu.Unlock()
			logWait(t, start)
			t.Cleanup(func() {
				clusterMu.Lock()
				clusterAlone = ""
				clusterMu.Unlock()
			})
			return
		case alone && shared:
			clusterMu.Unlock()
			t.Fatalf("%s shares the cluster with %d other tests and now needs it alone: call ExclusiveCluster "+
				"before NewNamespace (see test/e2e/README.md)", name, others)
		case !alone && clusterAlone == "" && clusterWaitingAlone == 0:
			clusterSharers[name]++
			clusterMu.Unlock()
			logWait(t, start)
			t.Cleanup(func() {
				clusterMu.Lock()
				if clusterSharers[name]--; clusterSharers[name] == 0 {
					delete(clusterSharers, name)
				}
				clusterMu.Unlock()
			})
			return
		}
		if alone && !waiting {
			waiting = true
			clusterWaitingAlone++
		}
		holder := clusterAlone
		clusterMu.Unlock()
		if time.Since(start) > clusterWaitLimit {
			t.Fatalf("waited %s for the cluster lock (held alone by %q); if a holder runs parallel subtests while "+
				"parallel tests wait here, the -parallel slots are exhausted (see test/e2e/README.md)", clusterWaitLimit, holder)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// isOrUnder reports whether test name is holder or one of its subtests.
func isOrUnder(name, holder string) bool {
	return name == holder || strings.HasPrefix(name, holder+"/")
}

func logWait(t testing.TB, start time.Time) {
	if waited := time.Since(start); waited > time.Second {
		t.Logf("waited %s for the cluster lock", waited.Round(time.Millisecond))
	}
}

// Eventually calls cond every interval until it returns nil, and fails the test with
// cond's last error when timeout passes first.
func Eventually(t testing.TB, timeout, interval time.Duration, what string, cond func() error) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		err := cond()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s: %v", timeout, what, err)
		}
		time.Sleep(interval)
	}
}

// Consistently calls cond every interval for duration and fails the test as soon as it
// returns an error.
func Consistently(t testing.TB, duration, interval time.Duration, what string, cond func() error) {
	t.Helper()
	for deadline := time.Now().Add(duration); time.Now().Before(deadline); time.Sleep(interval) {
		if err := cond(); err != nil {
			t.Fatalf("%s stopped holding: %v", what, err)
		}
	}
}

// WriteFile writes content to a new file in the test's temp folder and returns its path.
func WriteFile(t testing.TB, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatalf("writing %s: %v", p, err)
	}
	return p
}

// LastLines returns the last n lines of s.
func LastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// CountLines counts the lines of s containing every one of substrs.
func CountLines(s string, substrs ...string) int {
	n := 0
	for _, line := range strings.Split(s, "\n") {
		if line != "" && containsAll(line, substrs) {
			n++
		}
	}
	return n
}

func containsAll(s string, substrs []string) bool {
	for _, sub := range substrs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
