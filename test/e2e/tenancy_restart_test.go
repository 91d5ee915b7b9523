//go:build e2e

package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/samplecrd/network-controller/test/serverlog"
)

// A controller restarted over Networks in three projects (its own, team-a's, team-b's)
// costs at most 1 + 2×3 Neutron calls, all lists (one check of its own cloud, then one
// list of networks and one of subnets per project), and 3 tokens: counted by
// neutron-server and by Keystone, not by the controller. The three projects, their users
// and the Keystone whose request log it reads are the test's own; of the shared
// neutron-server's log it counts the requests in these projects.
func TestTenantRestartCost(t *testing.T) {
	t.Parallel()
	const projects, perProject = 3, 2
	ks, _ := OwnKeystone(t, LocalKeystone(t).WithOwnUsers(t, MemberCloud, TenantA, TenantB))
	ours := map[string]bool{}
	for _, cloud := range []string{MemberCloud, TenantA, TenantB} {
		ours[ks.ProjectID(t, cloud)] = true
	}
	nsA, nsB := NewNamespace(t), NewNamespace(t)
	PutCredentialsSecret(t, nsA, "openstack", map[string]string{"clouds.yaml": ks.CloudsYAMLOf(t, TenantA)})
	PutCredentialsSecret(t, nsB, "openstack", map[string]string{"clouds.yaml": ks.CloudsYAMLOf(t, TenantB)})
	opts := ControllerOptions{Namespaces: []string{nsA, nsB}, Args: ks.ControllerArgs(MemberCloud), Env: ks.ControllerEnv()}
	first := StartController(t, opts)
	var keys []string
	for i := range perProject {
		CreateNetwork(t, nsA, fmt.Sprintf("own-%d", i), fmt.Sprintf("10.172.%d.0/24", i), "")
		CreateTenantNetwork(t, nsA, fmt.Sprintf("a-%d", i), fmt.Sprintf("10.173.%d.0/24", i), "openstack", TenantA)
		CreateTenantNetwork(t, nsB, fmt.Sprintf("b-%d", i), fmt.Sprintf("10.174.%d.0/24", i), "openstack", TenantB)
		keys = append(keys, nsA+"/own-"+fmt.Sprint(i), nsA+"/a-"+fmt.Sprint(i), nsB+"/b-"+fmt.Sprint(i))
	}
	for _, key := range keys {
		ns, name, _ := strings.Cut(key, "/")
		WaitReady(t, ns, name, 90*time.Second)
	}
	first.Stop()

	_, tokenMark := ks.ControllerTokenRequests(t, 0)
	neutronMark := NeutronLogMark(t, ks.NeutronLog)
	opts.ClusterID = first.ClusterID
	ctrl := StartController(t, opts)
	ctrl.WaitReadyz(90 * time.Second)
	Eventually(t, 90*time.Second, 200*time.Millisecond, "every Network reconciled once", func() error {
		if n, err := ctrl.Metric("network_controller_reconcile_total", "result=success"); err != nil || int(n) < len(keys) {
			return fmt.Errorf("%v successful reconciles (err %v), want %d", n, err, len(keys))
		}
		return nil
	})
	calls := waitNeutronQuiet(t, ks.NeutronLog, neutronMark, 3*time.Second, func(r serverlog.NeutronAuditRequest) bool { return ours[r.ProjectID] })
	tokens, _ := ks.ControllerTokenRequests(t, tokenMark)
	var shown []string
	for _, c := range calls {
		shown = append(shown, c.Method+" "+c.Path+" (project "+c.ProjectID+")")
	}
	t.Logf("restart over %d Networks in %d projects: %d Neutron calls %q, %d tokens", len(keys), projects, len(calls), shown, len(tokens))

	if max := 1 + 2*projects; len(calls) > max {
		t.Errorf("the restarted controller made %d Neutron calls, want at most %d: %q", len(calls), max, shown)
	}
	for _, c := range calls {
		if path, _, _ := strings.Cut(c.Path, "?"); c.Method != "GET" || strings.Count(strings.TrimPrefix(path, "/v2.0/"), "/") > 0 {
			t.Errorf("the restarted controller made %s %s, want only lists", c.Method, c.Path)
		}
	}
	if len(tokens) > projects {
		t.Errorf("Keystone issued %d tokens to the restarted controller, want at most %d (one per project): %v", len(tokens), projects, tokens)
	}
	for _, key := range keys {
		ns, name, _ := strings.Cut(key, "/")
		if n := GetNetwork(t, ns, name); !n.IsReady() {
			t.Errorf("%s after the restart: %s", key, DescribeReady(n))
		}
	}
}

// waitNeutronQuiet waits until a Keystone-authenticated neutron-server logged no request
// that counts for quiet, and returns those it logged after byte offset from. Its audit
// records, not its access lines: from 2025.1 on, an access line may carry the context of
// another request (another project's), while the audit record names the token's project.
func waitNeutronQuiet(t *testing.T, path string, from int64, quiet time.Duration, counts func(serverlog.NeutronAuditRequest) bool) []serverlog.NeutronAuditRequest {
	t.Helper()
	seen, since := -1, time.Now()
	var calls []serverlog.NeutronAuditRequest
	Eventually(t, 2*time.Minute, 200*time.Millisecond, fmt.Sprintf("neutron-server quiet for %s", quiet), func() error {
		calls = slices.DeleteFunc(NeutronAuditRequestsSince(t, path, from), func(r serverlog.NeutronAuditRequest) bool { return !counts(r) })
		if len(calls) != seen {
			seen, since = len(calls), time.Now()
		}
		if time.Since(since) < quiet {
			return fmt.Errorf("%d requests, the last less than %s ago", len(calls), quiet)
		}
		return nil
	})
	return calls
}
