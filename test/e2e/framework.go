//go:build e2e

// Package e2e holds the end-to-end tests of network-controller: they run the real
// controller binary against a real kube-apiserver, neutron-server and Keystone, which
// hack/e2e.sh starts on loopback. README.md beside this file explains the cluster lock.
package e2e

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
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
)

// CRDName is the name of the Network CRD.
const CRDName = "networks.samplecrd.k8s.io"

// findRepoRoot walks up from this source file's folder (test/e2e) to the folder holding
// go.mod.
func findRepoRoot() (string, error) {
	candidates := []string{}
	if _, file, _, ok := runtime.Caller(0); ok {
		candidates = append(candidates, filepath.Join(filepath.Dir(file), "..", ".."))
	}
	if wd, err := os.Getwd(); err == nil {
		candidates = append(candidates, filepath.Join(wd, "..", ".."))
	}
	for _, c := range candidates {
		abs, err := filepath.Abs(c)
		if err != nil {
			continue
		}
		if _, err := os.Stat(filepath.Join(abs, "go.mod")); err == nil {
			return abs, nil
		}
	}
	return "", fmt.Errorf("cannot find the repository root (go.mod) from %v", candidates)
}

// kubectl runs kubectl against Kubeconfig and returns its combined output.
func kubectl(timeout time.Duration, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "kubectl", append([]string{"--kubeconfig", Kubeconfig}, args...)...)
	cmd.Dir = RepoRoot
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// localServer runs hack/local-<name>.sh (kube, neutron or keystone) with one verb, for
// the tests that stop and start the shared local servers.
func localServer(name, verb string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(RepoRoot, "hack", "local-"+name+".sh"), verb)
	cmd.Dir = RepoRoot
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// Kubectl runs kubectl with the admin Kubeconfig, from RepoRoot, and returns its combined
// output.
func Kubectl(t testing.TB, args ...string) (string, error) {
	t.Helper()
	out, err := kubectl(2*time.Minute, args...)
	t.Logf("kubectl %s: err=%v\n%s", strings.Join(args, " "), err, strings.TrimSpace(out))
	return out, err
}

// MustKubectl is Kubectl that fails the test on error.
func MustKubectl(t testing.TB, args ...string) string {
	t.Helper()
	out, err := Kubectl(t, args...)
	if err != nil {
		t.Fatalf("kubectl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// RandomSuffix returns n random lower-case hex characters.
func RandomSuffix(n int) string {
	b := make([]byte, (n+1)/2)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)[:n]
}

// Ctx returns a context bounded by timeout, cancelled at the end of the test.
func Ctx(t testing.TB, timeout time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	return ctx
}

// Clients returns a Kubernetes and a Network clientset for the admin Kubeconfig.
func Clients(t testing.TB) (kubernetes.Interface, versioned.Interface) {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", Kubeconfig)
	if err != nil {
		t.Fatalf("loading %s: %v", Kubeconfig, err)
	}
	cfg.QPS, cfg.Burst = 50, 100
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatalf("kube client: %v", err)
	}
	nets, err := versioned.NewForConfig(cfg)
	if err != nil {
		t.Fatalf("network client: %v", err)
	}
	return kube, nets
}

// NewNamespace creates a namespace e2e-<random> and, at the end of the test, removes the
// Networks in it (finalizers included, so nothing waits for a stopped controller) and asks
// for the namespace's deletion without waiting for it (the local cluster has no
// kube-controller-manager to finish it).
func NewNamespace(t testing.TB) string {
	t.Helper()
	clusterLock(t)
	kube, nets := Clients(t)
	name := "e2e-" + RandomSuffix(10)
	ctx := Ctx(t, time.Minute)
	_, err := kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"e2e.samplecrd.k8s.io/test": sanitizeLabel(t.Name())}},
	}, metav1.CreateOptions{})
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
		} else {
			for _, n := range list.Items {
				_ = RemoveFinalizers(ctx, nets, name, n.Name)
				err := nets.SamplecrdV1().Networks(name).Delete(ctx, n.Name, metav1.DeleteOptions{})
				if err != nil && !apierrors.IsNotFound(err) {
					t.Logf("cleanup: deleting Network %s/%s: %v", name, n.Name, err)
				}
			}
		}
		if err := kube.CoreV1().Namespaces().Delete(ctx, name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Logf("cleanup: deleting namespace %s: %v", name, err)
		}
	})
	return name
}

func sanitizeLabel(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			b[i] = '_'
		}
	}
	if len(b) > 63 {
		b = b[:63]
	}
	return strings.Trim(string(b), "-_.")
}

// The cluster lock: one exclusive holder (a test whose controllers see every namespace), or
// any number of shared holders (tests whose controllers only see their own namespace).
var (
	clusterMu        sync.Mutex
	clusterExclusive string          // name of the exclusive holder, or ""
	clusterShared    map[string]bool // names of the shared holders
)

// holds reports whether the test named name, or one of its parents, is in holders.
func holds(name string, holders ...string) bool {
	for _, h := range holders {
		if h != "" && (name == h || strings.HasPrefix(name, h+"/")) {
			return true
		}
	}
	return false
}

func sharedHolders() []string {
	out := make([]string, 0, len(clusterShared))
	for h := range clusterShared {
		out = append(out, h)
	}
	return out
}

// acquireCluster blocks until the test may hold the cluster lock in the given mode, and
// releases it at the end of the test. Cleanups registered afterwards run before the
// release.
func acquireCluster(t testing.TB, exclusive bool) {
	t.Helper()
	name := t.Name()
	start := time.Now()
	for {
		clusterMu.Lock()
		if holds(name, clusterExclusive) || (!exclusive && holds(name, sharedHolders()...)) {
			clusterMu.Unlock()
			return // already held by this test or a parent
		}
		free := clusterExclusive == "" && (!exclusive || len(clusterShared) == 0)
		if free {
			if exclusive {
				clusterExclusive = name
			} else {
				if clusterShared == nil {
					clusterShared = map[string]bool{}
				}
				clusterShared[name] = true
			}
			clusterMu.Unlock()
			break
		}
		blockers := append([]string{clusterExclusive}, sharedHolders()...)
		clusterMu.Unlock()
		if time.Since(start) > 10*time.Minute {
			t.Fatalf("waited 10m for the cluster lock, held by %q; if a holder runs parallel subtests while "+
				"parallel tests wait here, the -parallel slots are exhausted (see test/e2e/README.md)", blockers)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if waited := time.Since(start); waited > time.Second {
		t.Logf("waited %s for the cluster lock (exclusive=%v)", waited.Round(time.Millisecond), exclusive)
	}
	t.Cleanup(func() {
		clusterMu.Lock()
		defer clusterMu.Unlock()
		if exclusive {
			clusterExclusive = ""
		} else {
			delete(clusterShared, name)
		}
	})
}

// ExclusiveCluster makes the test the only one with Networks and controllers on the
// cluster until its end (see README.md). NewNamespace and StartController call
// it unless the test called SharedCluster first. It blocks while another test holds the
// cluster, and is a no-op when the test or a parent already holds it exclusively.
func ExclusiveCluster(t testing.TB) {
	t.Helper()
	acquireCluster(t, true)
}

// SharedCluster declares that every controller this test starts sees only the test's own
// namespace (for example through a namespace-scoping API proxy), so the test may run
// alongside other such tests, but not alongside a test whose controllers see every
// namespace. Call it before NewNamespace and StartController, which then take no
// exclusive lock.
func SharedCluster(t testing.TB) {
	t.Helper()
	acquireCluster(t, false)
}

// clusterLock is what NewNamespace and StartController take: nothing more when the test
// holds the cluster already (shared or exclusive), the exclusive lock otherwise.
func clusterLock(t testing.TB) {
	t.Helper()
	clusterMu.Lock()
	held := holds(t.Name(), clusterExclusive) || holds(t.Name(), sharedHolders()...)
	clusterMu.Unlock()
	if !held {
		ExclusiveCluster(t)
	}
}

// RemoveFinalizers drops every finalizer of a Network (what an admin would do by hand).
func RemoveFinalizers(ctx context.Context, nets versioned.Interface, ns, name string) error {
	_, err := nets.SamplecrdV1().Networks(ns).Patch(ctx, name, types.MergePatchType,
		[]byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

// Eventually calls cond every interval until it returns nil, and fails the test with
// cond's last error when timeout passes first.
func Eventually(t testing.TB, timeout, interval time.Duration, what string, cond func() error) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	var last error
	for {
		if last = cond(); last == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s: %v", timeout, what, last)
		}
		time.Sleep(interval)
	}
}

// Consistently calls cond every interval for duration and fails the test as soon as it
// returns an error.
func Consistently(t testing.TB, duration, interval time.Duration, what string, cond func() error) {
	t.Helper()
	deadline := time.Now().Add(duration)
	for {
		if err := cond(); err != nil {
			t.Fatalf("%s stopped holding: %v", what, err)
		}
		if time.Now().After(deadline) {
			return
		}
		time.Sleep(interval)
	}
}

// TryGetNetwork returns the Network or the API error (use apierrors.IsNotFound).
func TryGetNetwork(t testing.TB, ns, name string) (*samplecrdv1.Network, error) {
	t.Helper()
	_, nets := Clients(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return nets.SamplecrdV1().Networks(ns).Get(ctx, name, metav1.GetOptions{})
}

// GetNetwork returns the Network and fails the test when it cannot be read.
func GetNetwork(t testing.TB, ns, name string) *samplecrdv1.Network {
	t.Helper()
	n, err := TryGetNetwork(t, ns, name)
	if err != nil {
		t.Fatalf("getting Network %s/%s: %v", ns, name, err)
	}
	return n
}

// DescribeReady summarises the Ready condition for error messages.
func DescribeReady(n *samplecrdv1.Network) string {
	c := n.ReadyCondition()
	if c == nil {
		return fmt.Sprintf("no Ready condition (generation %d, status %+v)", n.Generation, n.Status)
	}
	return fmt.Sprintf("Ready=%s reason=%s observedGeneration=%d generation=%d message=%q",
		c.Status, c.Reason, c.ObservedGeneration, n.Generation, c.Message)
}

// WaitNetwork waits until cond accepts the Network and returns it.
func WaitNetwork(t testing.TB, ns, name string, timeout time.Duration, what string, cond func(*samplecrdv1.Network) error) *samplecrdv1.Network {
	t.Helper()
	var got *samplecrdv1.Network
	Eventually(t, timeout, 250*time.Millisecond, fmt.Sprintf("Network %s/%s: %s", ns, name, what), func() error {
		n, err := TryGetNetwork(t, ns, name)
		if err != nil {
			return err
		}
		if err := cond(n); err != nil {
			return err
		}
		got = n
		return nil
	})
	return got
}

// WaitReady waits until the Network is Ready=True for its current generation, with
// status.networkID and status.subnetID set, and returns it.
func WaitReady(t testing.TB, ns, name string, timeout time.Duration) *samplecrdv1.Network {
	t.Helper()
	return WaitNetwork(t, ns, name, timeout, "Ready=True", func(n *samplecrdv1.Network) error {
		if !n.IsReady() || n.Status.NetworkID == "" || n.Status.SubnetID == "" {
			return fmt.Errorf("not ready: %s, networkID=%q subnetID=%q", DescribeReady(n), n.Status.NetworkID, n.Status.SubnetID)
		}
		return nil
	})
}

// WaitReason waits until the Ready condition has the given status and reason.
func WaitReason(t testing.TB, ns, name string, timeout time.Duration, status metav1.ConditionStatus, reason string) *samplecrdv1.Network {
	t.Helper()
	return WaitNetwork(t, ns, name, timeout, fmt.Sprintf("Ready=%s reason %s", status, reason), func(n *samplecrdv1.Network) error {
		c := n.ReadyCondition()
		if c == nil || c.Status != status || c.Reason != reason {
			return fmt.Errorf("%s", DescribeReady(n))
		}
		return nil
	})
}

// WaitGone waits until the Network no longer exists.
func WaitGone(t testing.TB, ns, name string, timeout time.Duration) {
	t.Helper()
	Eventually(t, timeout, 250*time.Millisecond, fmt.Sprintf("Network %s/%s to be gone", ns, name), func() error {
		n, err := TryGetNetwork(t, ns, name)
		if apierrors.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		return fmt.Errorf("still there: finalizers=%v deletionTimestamp=%v %s", n.Finalizers, n.DeletionTimestamp, DescribeReady(n))
	})
}

// CreateNetwork creates a Network through the API.
func CreateNetwork(t testing.TB, ns, name, cidr, gateway string) *samplecrdv1.Network {
	t.Helper()
	_, nets := Clients(t)
	n, err := nets.SamplecrdV1().Networks(ns).Create(Ctx(t, 30*time.Second), &samplecrdv1.Network{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec:       samplecrdv1.NetworkSpec{CIDR: cidr, Gateway: gateway},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating Network %s/%s (cidr %s, gateway %q): %v", ns, name, cidr, gateway, err)
	}
	return n
}

// SetGateway changes spec.gateway with a merge patch and returns the updated Network.
func SetGateway(t testing.TB, ns, name, gateway string) *samplecrdv1.Network {
	t.Helper()
	_, nets := Clients(t)
	patch := fmt.Sprintf(`{"spec":{"gateway":%q}}`, gateway)
	n, err := nets.SamplecrdV1().Networks(ns).Patch(Ctx(t, 30*time.Second), name, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
	if err != nil {
		t.Fatalf("setting gateway of Network %s/%s to %s: %v", ns, name, gateway, err)
	}
	return n
}

// DeleteNetwork asks for the Network's deletion (it stays while it has finalizers).
func DeleteNetwork(t testing.TB, ns, name string) {
	t.Helper()
	_, nets := Clients(t)
	err := nets.SamplecrdV1().Networks(ns).Delete(Ctx(t, 30*time.Second), name, metav1.DeleteOptions{})
	if err != nil {
		t.Fatalf("deleting Network %s/%s: %v", ns, name, err)
	}
}

// Events returns the Events about the Network named name in ns.
func Events(t testing.TB, ns, name string) []corev1.Event {
	t.Helper()
	kube, _ := Clients(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	list, err := kube.CoreV1().Events(ns).List(ctx, metav1.ListOptions{
		FieldSelector: "involvedObject.kind=Network,involvedObject.name=" + name,
	})
	if err != nil {
		t.Fatalf("listing Events of %s/%s: %v", ns, name, err)
	}
	return list.Items
}

// WaitEvent waits for an Event with that type (Normal/Warning, "" for any) and reason
// about the Network, optionally also about a given object UID, and returns it.
func WaitEvent(t testing.TB, ns, name, eventType, reason string, timeout time.Duration) corev1.Event {
	t.Helper()
	var found corev1.Event
	Eventually(t, timeout, 500*time.Millisecond, fmt.Sprintf("Event %s %s about Network %s/%s", eventType, reason, ns, name), func() error {
		var seen []string
		for _, e := range Events(t, ns, name) {
			if e.Reason == reason && (eventType == "" || e.Type == eventType) {
				found = e
				return nil
			}
			seen = append(seen, e.Type+"/"+e.Reason)
		}
		return fmt.Errorf("events so far: %v", seen)
	})
	return found
}

// WaitEventContaining is WaitEvent for an Event whose message also contains substr.
func WaitEventContaining(t testing.TB, ns, name, eventType, reason, substr string, timeout time.Duration) corev1.Event {
	t.Helper()
	var found corev1.Event
	Eventually(t, timeout, 500*time.Millisecond, fmt.Sprintf("Event %s %s containing %q about Network %s/%s", eventType, reason, substr, ns, name), func() error {
		var seen []string
		for _, e := range Events(t, ns, name) {
			if e.Reason == reason && (eventType == "" || e.Type == eventType) && strings.Contains(e.Message, substr) {
				found = e
				return nil
			}
			seen = append(seen, fmt.Sprintf("%s/%s: %s", e.Type, e.Reason, e.Message))
		}
		return fmt.Errorf("events so far: %q", seen)
	})
	return found
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
