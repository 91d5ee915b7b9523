//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	versioned "github.com/samplecrd/network-controller/pkg/client/clientset/versioned"
)

// Bounds of the chaos run. The whole test takes about two to three minutes on two cores.
const (
	chaosOps         = 200
	chaosNames       = 30 // names the operations pick from, so deletes and re-creates meet
	chaosMaxOpPause  = 600 * time.Millisecond
	chaosMinLifetime = 2 * time.Second // a controller lives 2-8 s between SIGKILLs
	chaosMaxLifetime = 8 * time.Second
	chaosConvergence = 2 * time.Minute
)

// chaosFaults are the Neutron faults injected while operations run.
var chaosFaults = FaultRates{Error500: 0.2, LostReply: 0.2, Delay: 0.2, MaxDelay: 300 * time.Millisecond}

// requireLocalServers fails (in CI) or skips the test unless hack/e2e.sh said the local
// kube-apiserver and Neutron may be restarted.
func requireLocalServers(t *testing.T) {
	t.Helper()
	for _, env := range []string{"E2E_LOCAL_KUBE", "E2E_LOCAL_NEUTRON"} {
		if os.Getenv(env) == "1" {
			continue
		}
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not 1 in CI: this test restarts the local servers (run hack/e2e.sh)", env)
		}
		t.Skipf("%s is not 1: not allowed to restart the local servers (hack/e2e.sh sets it)", env)
	}
}

// chaosSeed is E2E_CHAOS_SEED when set (to replay a run), otherwise a new one.
func chaosSeed(t *testing.T) int64 {
	t.Helper()
	if s := os.Getenv("E2E_CHAOS_SEED"); s != "" {
		seed, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("E2E_CHAOS_SEED=%q: %v", s, err)
		}
		return seed
	}
	return time.Now().UnixNano()
}

// TestChaos runs random create, gateway change, delete and re-create operations while the
// controller is SIGKILLed and restarted at random, Neutron answers through a proxy that
// fails, loses replies to writes it carried out and delays, and the kube-apiserver and
// neutron-server are each restarted once. Afterwards one controller left alone must make
// Neutron exactly match the objects: nothing missing, doubled, leaked or stuck.
//
// E2E_CHAOS_SEED=<seed> replays the operations and faults of a run (the seed is logged;
// timing still differs).
func TestChaos(t *testing.T) {
	requireLocalServers(t)
	seed := chaosSeed(t)
	t.Logf("chaos seed %d (replay with E2E_CHAOS_SEED=%d)", seed, seed)
	rng := rand.New(rand.NewSource(seed))

	ns := NewNamespace(t)
	clusterID := NewClusterID(t)
	proxy := StartFaultProxy(t, NeutronEndpoint, seed+1, chaosFaults)
	opts := ControllerOptions{ClusterID: clusterID, Args: []string{
		"-neutron-endpoint=" + proxy.URL(),
		"-neutron-resync-period=10s",
		"-orphan-grace-period=5s",
		"-retry-max-delay=2s",
		"-workers=4",
	}}
	_, nets := Clients(t)

	// Bring the servers back whatever happens, for the tests that follow.
	t.Cleanup(func() {
		for _, s := range []struct {
			name, script string
		}{{"kube-apiserver", "kube"}, {"neutron-server", "neutron"}} {
			if _, err := localServer(s.script, "status"); err == nil {
				continue
			}
			t.Logf("the local %s is down at cleanup; starting it", s.name)
			if out, err := localServer(s.script, "start"); err != nil {
				t.Errorf("restarting the local %s: %v\n%s", s.name, err, out)
			}
		}
	})

	w := &chaosWorld{t: t, rng: rng, nets: nets, ns: ns, ops: map[string]int{}, live: map[string]bool{}}
	ctrl, started := StartController(t, opts), time.Now()
	kills := 0
	exits := map[int]int{} // exit codes of controllers that stopped by themselves
	nextKill := time.Now().Add(w.lifetime())
	var restarts sync.WaitGroup
	// A test that fails early still waits for a restart under way, before the cleanup above
	// checks that both servers run.
	t.Cleanup(restarts.Wait)
	var restartErrs []string
	var restartMu sync.Mutex
	restart := func(name, script string, down time.Duration) {
		restarts.Add(1)
		go func() {
			defer restarts.Done()
			record := func(verb string, out string, err error) {
				restartMu.Lock()
				defer restartMu.Unlock()
				restartErrs = append(restartErrs, fmt.Sprintf("%s %s: %v\n%s", name, verb, err, out))
			}
			start := time.Now()
			if out, err := localServer(script, "stop"); err != nil {
				record("stop", out, err)
			}
			time.Sleep(down)
			if out, err := localServer(script, "start"); err != nil {
				record("start", out, err)
			}
			t.Logf("restarted the local %s (down for %s)", name, time.Since(start).Round(100*time.Millisecond))
		}()
	}

	began := time.Now()
	for i := 0; i < chaosOps; i++ {
		switch i {
		case chaosOps / 3:
			restart("kube-apiserver", "kube", 2*time.Second)
		case 2 * chaosOps / 3:
			restart("neutron-server", "neutron", 3*time.Second)
		}
		w.growOnly = i >= chaosOps*4/5
		w.step()
		switch {
		case ctrl.Exited() && time.Since(started) > time.Second:
			// It gave up by itself (at startup, the apiserver or Neutron did not answer):
			// start it again, as the kubelet would (not more than once a second).
			code, _ := ctrl.Wait(time.Second) // it has exited: returns at once
			exits[code]++
			ctrl, started = StartController(t, opts), time.Now()
			nextKill = started.Add(w.lifetime())
		case time.Now().After(nextKill) && !ctrl.Exited():
			ctrl.Kill()
			kills++
			ctrl, started = StartController(t, opts), time.Now()
			nextKill = started.Add(w.lifetime())
		}
		time.Sleep(time.Duration(rng.Int63n(int64(chaosMaxOpPause))))
	}
	restarts.Wait()
	if len(restartErrs) > 0 {
		t.Fatalf("restarting the local servers failed:\n%s", strings.Join(restartErrs, "\n"))
	}
	if !ctrl.Exited() {
		ctrl.Kill()
		kills++
	}
	faults := proxy.Counts()
	chaosTime := time.Since(began)

	t.Logf("chaos run: seed=%d\n"+
		"  operations: %d in %s (%s)\n"+
		"  controller SIGKILLs: %d; controller exits by itself (exit code: count): %v; kube-apiserver restarts: 1; neutron-server restarts: 1\n"+
		"  faults injected: %s",
		seed, w.total(), chaosTime.Round(time.Second), w.describeOps(), kills, exits, faults)
	if faults.Error500 == 0 || faults.Lost502+faults.LostReset == 0 {
		t.Errorf("the proxy injected too few faults to mean anything: %s", faults)
	}

	// One controller, left alone, with Neutron answering faithfully (still through the
	// proxy, whose counters then only count requests).
	proxy.SetRates(FaultRates{})
	final := StartController(t, opts)
	audit, converged := WaitAuditClean(t, nets, chaosConvergence, clusterID, ns)
	t.Logf("chaos run (seed %d): converged %.1f s after the last controller started; %s",
		seed, converged.Seconds(), audit.Counts())

	// Deleting everything leaves nothing in Neutron either.
	list, err := nets.SamplecrdV1().Networks(ns).List(Ctx(t, 30*time.Second), metav1.ListOptions{})
	if err != nil {
		t.Fatalf("listing Networks: %v", err)
	}
	for _, n := range list.Items {
		if err := nets.SamplecrdV1().Networks(ns).Delete(Ctx(t, 30*time.Second), n.Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Fatalf("deleting Network %s/%s: %v", ns, n.Name, err)
		}
	}
	empty, _ := WaitAuditClean(t, nets, time.Minute, clusterID, ns)
	if empty.Live != 0 || empty.Networks != 0 || empty.Subnets != 0 {
		t.Errorf("after deleting every Network: %s", empty.Counts())
	}
	final.Stop()
}

// chaosWorld drives random operations on Networks and remembers what it asked for.
type chaosWorld struct {
	t    *testing.T
	rng  *rand.Rand
	nets versioned.Interface
	ns   string

	ops  map[string]int  // operations by outcome kind
	live map[string]bool // names the test created and did not delete
	// growOnly stops deletes near the end, so that convergence is judged on a good number
	// of live objects and not only on their absence.
	growOnly bool
	gone     []string // names the test deleted (candidates for a re-create)
}

func (w *chaosWorld) lifetime() time.Duration {
	return chaosMinLifetime + time.Duration(w.rng.Int63n(int64(chaosMaxLifetime-chaosMinLifetime)))
}

func (w *chaosWorld) total() int {
	n := 0
	for _, c := range w.ops {
		n += c
	}
	return n
}

func (w *chaosWorld) describeOps() string {
	kinds := make([]string, 0, len(w.ops))
	for k := range w.ops {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	parts := make([]string, 0, len(kinds))
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%s=%d", k, w.ops[k]))
	}
	return strings.Join(parts, " ")
}

func (w *chaosWorld) liveNames() []string {
	out := make([]string, 0, len(w.live))
	for n := range w.live {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func (w *chaosWorld) pick(names []string) string { return names[w.rng.Intn(len(names))] }

// step runs one random operation. Failures the chaos causes (the apiserver restarting, a
// name still being deleted) are counted, not fatal.
func (w *chaosWorld) step() {
	live := w.liveNames()
	recentlyGone := map[string]bool{}
	for _, name := range w.gone {
		recentlyGone[name] = true
	}
	var fresh []string // never used, or deleted long enough ago to be gone
	for i := 0; i < chaosNames; i++ {
		name := fmt.Sprintf("chaos-%d", i)
		if !w.live[name] && !recentlyGone[name] {
			fresh = append(fresh, name)
		}
	}
	r := w.rng.Float64()
	switch {
	case len(live) > 0 && r < 0.25:
		w.setGateway(w.pick(live))
	case !w.growOnly && len(live) > 3 && r < 0.45:
		w.delete(w.pick(live))
	case len(w.gone) > 0 && r < 0.7 && w.recreate():
	case len(fresh) > 0:
		w.create(w.pick(fresh), "create")
	case len(w.gone) > 0 && w.recreate():
	case !w.growOnly && len(live) > 0 && r < 0.7:
		w.delete(w.pick(live))
	case len(live) > 0:
		w.setGateway(w.pick(live))
	}
}

// recreate creates again, with a new spec, a name the test deleted and that is gone
// (its finalizer done), and reports whether it found one.
func (w *chaosWorld) recreate() bool {
	for _, i := range w.rng.Perm(len(w.gone)) {
		name := w.gone[i]
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, err := w.nets.SamplecrdV1().Networks(w.ns).Get(ctx, name, metav1.GetOptions{})
		cancel()
		if !apierrors.IsNotFound(err) {
			continue // still deleting, or the apiserver is not answering
		}
		if w.create(name, "recreate") {
			w.gone = append(w.gone[:i], w.gone[i+1:]...)
		}
		return true
	}
	return false
}

// spec returns a random cidr and gateway of a random family; the gateway is empty
// (the first usable address) a third of the time.
func (w *chaosWorld) spec(name string) (cidr, gateway string) {
	idx, _ := strconv.Atoi(strings.TrimPrefix(name, "chaos-"))
	sub := w.rng.Intn(256)
	if w.rng.Intn(2) == 0 {
		cidr = fmt.Sprintf("10.%d.%d.0/24", 100+idx, sub)
	} else {
		cidr = fmt.Sprintf("fd00:%x:%x::/64", idx+1, sub+1)
	}
	if w.rng.Intn(3) > 0 {
		gateway = w.gatewayIn(cidr)
	}
	return cidr, gateway
}

// gatewayIn returns a random usable address of cidr, a /24 or /64 as spec makes them.
func (w *chaosWorld) gatewayIn(cidr string) string {
	if chaosFamily(cidr) == "ipv6" {
		return strings.TrimSuffix(cidr, "/64") + fmt.Sprintf("%x", 1+w.rng.Intn(0xfffe))
	}
	network := strings.TrimSuffix(cidr, "0/24")
	return network + strconv.Itoa(1+w.rng.Intn(254))
}

func chaosFamily(cidr string) string {
	if strings.Contains(cidr, ":") {
		return "ipv6"
	}
	return "ipv4"
}

// create creates the Network and reports whether it was created.
func (w *chaosWorld) create(name, kind string) bool {
	cidr, gateway := w.spec(name)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := w.nets.SamplecrdV1().Networks(w.ns).Create(ctx, &samplecrdv1.Network{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: w.ns},
		Spec:       samplecrdv1.NetworkSpec{CIDR: cidr, Gateway: gateway},
	}, metav1.CreateOptions{})
	withGW := "no-gw"
	if gateway != "" {
		withGW = "gw"
	}
	switch {
	case err == nil:
		w.ops[fmt.Sprintf("%s-%s-%s", kind, chaosFamily(cidr), withGW)]++
		w.live[name] = true
		return true
	case apierrors.IsAlreadyExists(err):
		// Still being deleted (finalizer pending).
		w.ops[kind+"-refused-exists"]++
	default:
		w.ops[kind+"-failed"]++
		w.t.Logf("create %s/%s: %v", w.ns, name, err)
	}
	return false
}

func (w *chaosWorld) setGateway(name string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	n, err := w.nets.SamplecrdV1().Networks(w.ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		w.settle(name, "gateway", err)
		return
	}
	kind, patch := "gateway-set", fmt.Sprintf(`{"spec":{"gateway":%q}}`, w.gatewayIn(n.Spec.CIDR))
	if n.Spec.Gateway != "" && w.rng.Intn(4) == 0 {
		kind, patch = "gateway-clear", `{"spec":{"gateway":null}}`
	}
	_, err = w.nets.SamplecrdV1().Networks(w.ns).Patch(ctx, name, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
	if err != nil {
		w.settle(name, kind, err)
		return
	}
	w.ops[kind]++
}

func (w *chaosWorld) delete(name string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := w.nets.SamplecrdV1().Networks(w.ns).Delete(ctx, name, metav1.DeleteOptions{})
	if err != nil {
		w.settle(name, "delete", err)
		return
	}
	w.ops["delete"]++
	delete(w.live, name)
	if !slices.Contains(w.gone, name) {
		w.gone = append(w.gone, name)
	}
}

// settle counts a failed operation and corrects what the test believes exists.
func (w *chaosWorld) settle(name, kind string, err error) {
	if apierrors.IsNotFound(err) {
		w.ops[kind+"-refused-not-found"]++
		delete(w.live, name)
		return
	}
	w.ops[kind+"-failed"]++
	w.t.Logf("%s %s/%s: %v", kind, w.ns, name, err)
}
