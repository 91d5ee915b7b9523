//go:build e2e

package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/client-go/rest"

	"github.com/samplecrd/network-controller/pkg/shard"
)

// TestShardLeaseStall: of two replicas holding a shard each, one reaches the apiserver
// through a proxy that, from some point on, answers none of its Lease calls (they hang, as
// on a connection that stopped answering) while the rest of its traffic goes on. Its
// calls must end at their deadline and it must give its shard up (exit) at its renew
// deadline, before the other replica takes the shard at the Lease duration; Networks
// created in that shard meanwhile are made once each, and Neutron ends as the Networks
// say. The replicas watch only the test's namespaces, so the test shares the cluster.
func TestShardLeaseStall(t *testing.T) {
	t.Parallel()
	lt := LeaseTimings{Duration: 6 * time.Second, RenewDeadline: 4 * time.Second, RetryPeriod: 500 * time.Millisecond}
	leaseNS, lease := NewNamespace(t), "e2e-stall-"+RandomSuffix(8)
	proxy := startLeaseStallProxy(t, leaseNS)
	opts := ControllerOptions{ClusterID: NewClusterID(t), Args: append(LeaseArgs(leaseNS, lease, lt), "-shards=2")}
	byShard := map[int][]string{}
	for len(byShard[0]) < 2 || len(byShard[1]) < 2 {
		ns := NewNamespace(t)
		i := shard.Of(ns, 2).Index
		byShard[i] = append(byShard[i], ns)
	}
	all := append(slices.Clone(byShard[0]), byShard[1]...)
	opts.Namespaces = all
	_, nets := Clients(t)

	stalledOpts := opts
	stalledOpts.Kubeconfig = proxy.kubeconfig(t)
	stalled, other := StartController(t, stalledOpts), StartController(t, opts)
	var held int
	Eventually(t, 60*time.Second, 100*time.Millisecond, "one shard held by each replica", func() error {
		holders := make([]string, 2)
		for i := range holders {
			h, _, err := leaseHolder(t, leaseNS, shard.ShardLeaseName(lease, shard.Shard{Index: i, Count: 2}))
			if err != nil {
				return err
			}
			holders[i] = h
		}
		me, them := controllerIdentity(t, stalled.PID()), controllerIdentity(t, other.PID())
		switch {
		case holders[0] == me && holders[1] == them:
			held = 0
		case holders[1] == me && holders[0] == them:
			held = 1
		default:
			return fmt.Errorf("holders %v", holders)
		}
		return nil
	})
	heldLease := shard.ShardLeaseName(lease, shard.Shard{Index: held, Count: 2})

	count := 0
	made := map[string]string{} // namespace/name of each Network made
	create := func(namespaces []string, each int) {
		for range each {
			for _, ns := range namespaces {
				name := fmt.Sprintf("stall-%d", count)
				CreateNetwork(t, ns, name, fmt.Sprintf("10.79.%d.0/24", count), "")
				made[ns+"/"+name] = ns
				count++
			}
		}
	}
	create(all, 3)
	audit, _ := WaitAuditConverging(t, nets, time.Minute, opts.ClusterID, all...)
	t.Logf("before the stall: %s", audit.Counts())

	otherOffset := len(other.Logs())
	proxy.stall()
	stalledAt := time.Now()
	// Work for the stalled replica's shard while its Lease calls hang.
	create(byShard[held], 4)
	code, err := stalled.Wait(lt.Duration + 30*time.Second)
	if err != nil {
		t.Fatalf("the replica whose Lease calls hang still runs %s after the stall (proxy: %s): %v\n%s",
			time.Since(stalledAt).Round(100*time.Millisecond), proxy.counts(), err, LastLines(stalled.Logs(), 30))
	}
	waitLeaseHolder(t, leaseNS, heldLease, controllerIdentity(t, other.PID()), 60*time.Second)
	lost := logTime(t, stalled.Logs(), "Lost a shard's Lease")
	took := logTime(t, other.Logs()[otherOffset:], fmt.Sprintf(`"Took shard; starting its work" shard="%d/2"`, held))
	t.Logf("the stalled replica exited with code %d: it gave shard %d/2 up %s after the stall; the other replica took it %s after that (lease duration %s, renew deadline %s); proxy: %s",
		code, held, lost.Sub(asLogTime(stalledAt)).Round(time.Millisecond), took.Sub(lost).Round(time.Millisecond), lt.Duration, lt.RenewDeadline, proxy.counts())
	if code == 0 {
		t.Errorf("the stalled replica exited with code 0 after losing its shard; want a failure code")
	}
	if !took.After(lost) {
		t.Errorf("the other replica took shard %d/2 at %s, before the stalled one gave it up at %s", held, took.Format("15:04:05.000000"), lost.Format("15:04:05.000000"))
	}
	if proxy.cut.Load() == 0 {
		t.Errorf("no hung Lease call was given up by the stalled replica (proxy: %s): its calls have no deadline", proxy.counts())
	}

	audit, converged := WaitAuditConverging(t, nets, time.Minute, opts.ClusterID, all...)
	t.Logf("after the stall: converged %.1f s after the stalled replica exited: %s", converged.Seconds(), audit.Counts())
	if audit.Live != count {
		t.Errorf("audit saw %d live Networks, want %d", audit.Live, count)
	}
	// Made once each: a create either logs it, or was cut before its tags and the next
	// pass adopts what it made, or was cut by the stalled replica's exit after its tags
	// and before its log line (the other replica then finds the network whole): a
	// Network of the stalled replica's shard that it had taken up.
	stalledLogs, otherLogs := stalled.Logs(), other.Logs()
	logged, unlogged := 0, 0
	for key, ns := range made {
		of := `network="` + key + `"`
		n := 0
		for _, logs := range []string{stalledLogs, otherLogs} {
			n += CountLines(logs, "Created Neutron network", of) + CountLines(logs, "Adopted Neutron network left untagged", of)
		}
		logged += n
		switch {
		case n > 1:
			t.Errorf("Network %s: the replicas' logs say %d Neutron networks were made for it, want one", key, n)
		case n == 0 && (shard.Of(ns, 2).Index != held || !strings.Contains(stalledLogs, of)):
			t.Errorf("Network %s: no replica's log says its Neutron network was made, and the stalled replica never took it up", key)
		case n == 0:
			unlogged++
		}
	}
	t.Logf("the replicas' logs say %d Neutron networks were made for %d Networks; %d made by the stalled replica as it exited, unlogged", logged, count, unlogged)
	deleteNetworks(t, nets, all)
	empty, _ := WaitAuditConverging(t, nets, time.Minute, opts.ClusterID, all...)
	if empty.Live != 0 || empty.Networks != 0 || empty.Subnets != 0 {
		t.Errorf("after deleting every Network: %s", empty.Counts())
	}
}

// asLogTime is t as logTime reads a klog line's time: local, without the year.
func asLogTime(t time.Time) time.Time {
	ts, _ := time.Parse("0102 15:04:05.000000", t.Format("0102 15:04:05.000000"))
	return ts
}

// leaseStallProxy is a plain-HTTP reverse proxy in front of the apiserver (TLS and the
// admin credentials are added on the way out) that, once stalled, answers no request for
// the Leases of one namespace: each waits until its caller gives it up or the test ends.
type leaseStallProxy struct {
	srv     *httptest.Server
	path    string
	stalled atomic.Bool
	release chan struct{}
	// held counts the Lease requests held; cut those of them the caller gave up.
	held, cut atomic.Int64
}

func startLeaseStallProxy(t testing.TB, leaseNS string) *leaseStallProxy {
	t.Helper()
	cfg := AdminConfig(t)
	target, err := url.Parse(cfg.Host)
	if err != nil {
		t.Fatalf("parsing apiserver URL %q: %v", cfg.Host, err)
	}
	rt, err := rest.TransportFor(cfg)
	if err != nil {
		t.Fatalf("apiserver transport: %v", err)
	}
	p := &leaseStallProxy{path: "/apis/coordination.k8s.io/v1/namespaces/" + leaseNS + "/leases", release: make(chan struct{})}
	// FlushInterval -1: watches stream, every event passes on at once.
	rp := &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) { pr.SetURL(target) }, Transport: rt, FlushInterval: -1}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p.stalled.Load() && strings.HasPrefix(r.URL.Path, p.path) {
			p.held.Add(1)
			select {
			case <-p.release:
			case <-r.Context().Done():
				p.cut.Add(1)
			}
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		close(p.release)
		p.srv.CloseClientConnections()
		p.srv.Close()
	})
	return p
}

// stall makes the proxy hold every Lease request from now on.
func (p *leaseStallProxy) stall() { p.stalled.Store(true) }

func (p *leaseStallProxy) counts() string {
	return fmt.Sprintf("%d Lease requests held, %d of them given up by their caller", p.held.Load(), p.cut.Load())
}

// kubeconfig writes a kubeconfig for the proxy (no credentials: the proxy adds them).
func (p *leaseStallProxy) kubeconfig(t testing.TB) string {
	t.Helper()
	return WriteFile(t, "lease-stall-proxy.kubeconfig", fmt.Sprintf(`apiVersion: v1
kind: Config
clusters: [{name: proxy, cluster: {server: %q}}]
users: [{name: proxied, user: {}}]
contexts: [{name: proxy, context: {cluster: proxy, user: proxied}}]
current-context: proxy
`, p.srv.URL))
}
