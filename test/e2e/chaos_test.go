//go:build e2e

package e2e

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// Bounds of the chaos run. The whole test takes about four to five minutes on two cores,
// which it shares with the rest of the suite. The waits for the last controller to
// converge, and for it to delete everything at the end, last as long as it makes
// progress: they fail when the audit's findings have not shrunk for chaosStall (on a
// loaded machine a router's creation alone has taken over 30 s).
const (
	chaosOps         = 200
	chaosNames       = 30 // names the operations pick from, so deletes and re-creates meet
	chaosMaxOpPause  = 600 * time.Millisecond
	chaosMinLifetime = 2 * time.Second // a controller lives 2-8 s between SIGKILLs
	chaosMaxLifetime = 8 * time.Second
	chaosStall       = 2 * time.Minute
	chaosMaxRun      = 5 * time.Minute // operations go on past chaosOps until faults were injected
)

// faultsMeaningful says whether the proxy injected both kinds of fault the run is about: a
// request refused before Neutron saw it, and one Neutron carried out whose answer was lost.
func faultsMeaningful(c FaultCounts) bool {
	return c.Error500 > 0 && c.Lost502+c.LostReset > 0
}

// chaosFaults are the Neutron faults injected while operations run.
var chaosFaults = FaultRates{Error500: 0.2, LostReply: 0.2, Delay: 0.2, MaxDelay: 300 * time.Millisecond}

// requireLocalServers fails (in CI) or skips the test unless hack/e2e.sh said the local
// kube-apiserver and Neutron run here, where the test can run servers of its own.
func requireLocalServers(t *testing.T) {
	t.Helper()
	for _, env := range []string{"E2E_LOCAL_KUBE", "E2E_LOCAL_NEUTRON"} {
		if os.Getenv(env) == "1" {
			continue
		}
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not 1 in CI: this test runs servers of its own beside the local ones (run hack/e2e.sh)", env)
		}
		t.Skipf("%s is not 1: no local servers to run servers of its own beside (hack/e2e.sh sets it)", env)
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

// TestChaos runs random create (a third in the list form, half of those dual stack; a
// third routed, on public or on a router of the project, a quarter shared with other
// projects, a quarter without port security), gateway or item change, router added,
// replaced or removed, sharing and port security change, delete and re-create
// operations while the controller is SIGKILLed and restarted at random, Neutron answers
// through a proxy that fails, loses replies to writes it carried out and delays, and the
// kube-apiserver and neutron-server the controllers use (the test's own, on the shared
// etcd and database) are each restarted once, and a hostile namespace floods Keystone with
// clouds of made-up users and names Secrets that do not exist. Afterwards one controller
// left alone must make Neutron exactly match the objects: nothing missing, doubled,
// leaked or stuck, routers, router interfaces and RBAC policies included (AuditCluster).
//
// E2E_CHAOS_SEED=<seed> replays the operations and faults of a run (the seed is logged;
// timing still differs).
func TestChaos(t *testing.T) {
	t.Parallel()
	requireLocalServers(t)
	seed := chaosSeed(t)
	t.Logf("chaos seed %d (replay with E2E_CHAOS_SEED=%d)", seed, seed)
	rng := rand.New(rand.NewSource(seed))

	ns := NewNamespace(t)
	clusterID := NewClusterID(t)
	// Registered after NewClusterID, so that they detach the routers first: a router
	// interface keeps a network from being deleted.
	CleanupClusterRouters(t, clusterID)
	PublicNetwork(t)
	existing := CreateAdminRouter(t, "chaos-router-"+clusterID)
	t.Logf("the project's router that spec.router.existing names: %s (%s)", existing.Name, existing.ID)
	// Every noauth request acts in one project, the router's: up to two RBAC policies for
	// each of chaosNames Networks, and those of Networks still being deleted.
	RaiseQuota(t, existing.ProjectID, "rbac_policy", 4*chaosNames)
	apiserver, kubeconfig := OwnAPIServer(t)
	neutronServer := OwnNeutron(t)
	proxy := StartFaultProxy(t, "http://"+neutronServer.Address+"/", seed+1, chaosFaults)
	ks := LocalKeystone(t)
	hostile := newChaosHostile(t, ks)
	opts := ControllerOptions{ClusterID: clusterID, Namespaces: []string{ns, hostile.ns}, Kubeconfig: kubeconfig, Args: []string{
		"-neutron-endpoint=" + proxy.URL(),
		"-allowed-auth-urls=" + ks.AuthURL,
		"-neutron-resync-period=10s",
		"-orphan-grace-period=5s",
		"-retry-max-delay=2s",
		"-workers=4",
	}}
	_, nets := Clients(t)

	w := newChaosWorld(t, rng, nets, ns, existing.Name)
	GrantPowers(t, ns, samplecrdv1.IdentityAllow{SharedWith: chaosProjects, ExistingRouters: []samplecrdv1.NeutronRef{{Name: existing.Name}}})
	ctrl, started := StartController(t, opts), time.Now()
	controllers := []*Controller{ctrl}
	// Registered after the first controller made the test's temporary folder, so that it
	// runs before that folder is removed, and after every later controller stopped.
	t.Cleanup(func() { keepChaosLogs(t, seed, controllers, w.journal) })
	kills := 0
	exits := map[int]int{} // exit codes of controllers that stopped by themselves
	nextKill := time.Now().Add(w.lifetime())
	var restarts sync.WaitGroup
	// A test that fails early still waits for a restart under way, before its servers stop.
	t.Cleanup(restarts.Wait)
	var restartErrs []string
	var restartMu sync.Mutex
	restart := func(s *OwnServer, down time.Duration) {
		restarts.Add(1)
		go func() {
			defer restarts.Done()
			start := time.Now()
			if err := s.Restart(down); err != nil {
				restartMu.Lock()
				defer restartMu.Unlock()
				restartErrs = append(restartErrs, err.Error())
				return
			}
			t.Logf("restarted %s (down for %s)", s.Name, time.Since(start).Round(100*time.Millisecond))
		}()
	}

	began := time.Now()
	// On a loaded machine the controllers send few requests in chaosOps operations (a
	// lifetime goes mostly to starting up): the run goes on, growing only, until the proxy
	// has injected the faults the test is about, for at most chaosMaxRun.
	for i := 0; i < chaosOps || !faultsMeaningful(proxy.Counts()) && time.Since(began) < chaosMaxRun; i++ {
		switch i {
		case chaosOps / 3:
			restart(apiserver, 2*time.Second)
		case 2 * chaosOps / 3:
			restart(neutronServer, 3*time.Second)
		}
		if i%(chaosOps/4) == chaosOps/8 {
			hostile.rewrite(t) // another token flood
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
			controllers = append(controllers, ctrl)
			nextKill = started.Add(w.lifetime())
		case time.Now().After(nextKill) && !ctrl.Exited():
			ctrl.Kill()
			kills++
			ctrl, started = StartController(t, opts), time.Now()
			controllers = append(controllers, ctrl)
			nextKill = started.Add(w.lifetime())
		}
		time.Sleep(time.Duration(rng.Int63n(int64(chaosMaxOpPause))))
	}
	restarts.Wait()
	if len(restartErrs) > 0 {
		t.Fatalf("restarting the test's servers failed:\n%s", strings.Join(restartErrs, "\n"))
	}
	if !ctrl.Exited() {
		ctrl.Kill()
		kills++
	}
	faults := proxy.Counts()
	chaosTime := time.Since(began)

	t.Logf("chaos run: seed=%d\n"+
		"  operations: %d in %s (%s)\n"+
		"  Networks created with: %s\n"+
		"  controller SIGKILLs: %d; controller exits by itself (exit code: count): %v; kube-apiserver restarts: 1; neutron-server restarts: 1\n"+
		"  faults injected: %s",
		seed, w.total(), chaosTime.Round(time.Second), w.describeOps(), w.describeFeatures(), kills, exits, faults)
	if !faultsMeaningful(faults) {
		t.Errorf("the proxy injected too few faults to mean anything: %s", faults)
	}
	if len(w.firstFeatures) > 0 {
		t.Errorf("no Network was created with %v", w.firstFeatures)
	}

	// One controller, left alone, with Neutron answering faithfully (still through the
	// proxy, whose counters then only count requests).
	proxy.SetRates(FaultRates{})
	final := StartController(t, opts)
	controllers = append(controllers, final)
	audit, converged := WaitAuditConverging(t, nets, chaosStall, clusterID, ns)
	t.Logf("chaos run (seed %d): converged %.1f s after the last controller started; %s",
		seed, converged.Seconds(), audit.Counts())
	hostile.check(t)

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
	empty, _ := WaitAuditConverging(t, nets, chaosStall, clusterID, ns)
	if empty.Live != 0 || empty.Networks != 0 || empty.Subnets != 0 || empty.Routers != 0 || empty.Interfaces != 0 || empty.Policies != 0 {
		t.Errorf("after deleting every Network: %s", empty.Counts())
	}
	final.Stop()
}

// keepChaosLogs copies, when the test failed, the log of every controller of the run and
// the journal of its operations into E2E_CHAOS_LOG_DIR, or a new folder of the system's
// temporary folder, named by the seed: the test's own folder goes with the test.
func keepChaosLogs(t *testing.T, seed int64, controllers []*Controller, journal []string) {
	if !t.Failed() {
		return
	}
	dir := os.Getenv("E2E_CHAOS_LOG_DIR")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), fmt.Sprintf("network-controller-chaos-%d", seed))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Logf("keeping the controllers' logs: %v", err)
		return
	}
	for i, c := range controllers {
		name := filepath.Join(dir, fmt.Sprintf("controller-%02d-pid-%d.log", i, c.PID()))
		if err := os.WriteFile(name, []byte(c.Logs()), 0o644); err != nil {
			t.Logf("keeping the log of controller pid %d: %v", c.PID(), err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "operations.log"), []byte(strings.Join(journal, "\n")+"\n"), 0o644); err != nil {
		t.Logf("keeping the journal of the operations: %v", err)
	}
	t.Logf("the logs of the run's %d controllers and the journal of its operations (operations.log) are in %s", len(controllers), dir)
}
