//go:build e2e

package e2e

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/test/serverlog"
)

var answeredRequest = regexp.MustCompile(`\(Neutron request (req-[0-9a-f-]{36})\)`)

// What the person on call follows from a failed Network to the servers' logs, on the real
// parts: the request ID in the condition is neutron-server's for the refused request,
// which carried the controller's global request ID, and the controller's log line names
// both; every request the controller sends to Keystone and Neutron names its build in the
// User-Agent; the build is in -version and network_controller_build_info.
// auditGlobalID finds the global request ID in an audit record of keystonemiddleware.
var auditGlobalID = regexp.MustCompile(`'global_request_id': '(req-[0-9a-f-]{36})'`)

func TestSupportTraces(t *testing.T) {
	t.Parallel()
	agent := "network-controller/" + ControllerVersion + " (" + ControllerCommit + ") gophercloud/"
	ks, _ := OwnKeystone(t, LocalKeystone(t).WithOwnUsers(t, MemberCloud, TenantA))
	project := ks.ProjectID(t, TenantA)
	mark := NeutronLogMark(t, ks.NeutronLog)
	ns, ctrl := StartTenantController(t, ks, ks.CloudsYAMLOf(t, TenantA))

	// Neutron refuses a multicast subnet: the create fails with an answer.
	CreateTenantNetwork(t, ns, "multicast", "224.0.0.0/24", "openstack", TenantA)
	failed := WaitReason(t, ns, "multicast", 90*time.Second, metav1.ConditionFalse, samplecrdv1.ReasonInvalidSpec)
	message := failed.ReadyCondition().Message
	m := answeredRequest.FindStringSubmatch(message)
	if m == nil {
		t.Fatalf("Ready message %q names no Neutron request", message)
	}
	neutronID := m[1]
	t.Logf("Ready: %s", message)

	// The access line of the refused request, or, where neutron-server logged that line
	// under another request's context (from 2025.1 on it may log any line under the
	// context of the request its green thread served before: then no access line names
	// the ID, or only another request's does), the audit record of the refused create,
	// whose payload carries the request's own ID: what grep finds of the ID.
	var line string
	refusalOnly := false
	var refusalSeen time.Time
	Eventually(t, 30*time.Second, 200*time.Millisecond, "neutron-server's log line of "+neutronID, func() error {
		var others []string
		refusal := ""
		for _, l := range NeutronLogLinesSince(t, ks.NeutronLog, mark) {
			if strings.Contains(l, " audit ") && strings.Contains(l, "'request_id': '"+neutronID+"'") &&
				strings.Contains(l, "'outcome': 'failure'") && strings.Contains(l, "'service/network/subnets'") {
				refusal = l
			}
			if !strings.Contains(l, " "+neutronID+" ") {
				continue
			}
			r, ok := serverlog.ParseNeutronRequest(l)
			if !ok {
				continue
			}
			if r.Method == "POST" && strings.HasPrefix(r.Path, "/v2.0/subnets") {
				line, refusalOnly = l, false
				return nil
			}
			others = append(others, r.String())
		}
		// The access line follows the refusal's within moments when it names the ID.
		if refusal != "" && refusalSeen.IsZero() {
			refusalSeen = time.Now()
		}
		if refusal != "" && time.Since(refusalSeen) > 10*time.Second {
			line, refusalOnly = refusal, true
			return nil
		}
		return fmt.Errorf("no access line of a POST /v2.0/subnets names %s (other requests under it: %v; its audit record found: %v)", neutronID, others, refusal != "")
	})
	t.Logf("neutron-server: %s", line)
	if refusalOnly {
		t.Logf("neutron-server logged the refused POST's access line under another request's context; its audit record names %s", neutronID)
	} else {
		r, _ := serverlog.ParseNeutronRequest(line)
		if r.Method != "POST" || !strings.HasPrefix(r.Path, "/v2.0/subnets") || r.Status != "400" || r.ProjectID != project {
			t.Errorf("neutron-server logged %s for %s, want the refused POST /v2.0/subnets of project %s", r, neutronID, project)
		}
	}
	// [global local user project ...]: the controller's ID for the pass comes first.
	globalID := regexp.MustCompile(`\[(req-[0-9a-f-]{36}) ` + neutronID).FindStringSubmatch(line)
	if refusalOnly {
		// The audit record's payload carries the global ID the request came with.
		globalID = auditGlobalID.FindStringSubmatch(line)
	}
	if globalID == nil {
		// neutron-server (Debian's 21.0.0-7+deb12u1 behind the audit middleware) logs a
		// write under a context of its own without the global ID; the audit record of the
		// same request names the ID it came with.
		for _, l := range NeutronLogLinesSince(t, ks.NeutronLog, mark) {
			if m := auditGlobalID.FindStringSubmatch(l); m != nil && strings.Contains(l, " "+neutronID+" ") && strings.Contains(l, " audit ") {
				globalID, line = m, l
				break
			}
		}
		t.Logf("neutron-server's access line carries no global request ID; its audit record: %s", line)
	}
	if globalID == nil {
		t.Fatalf("neutron-server's lines of %s carry no global request ID: %s", neutronID, line)
	}
	if n := CountLines(ctrl.Logs(), "Network is not ready", "requestID=\""+globalID[1]+"\"", neutronID); n == 0 {
		t.Errorf("no controller log line names both %s and %s:\n%s", globalID[1], neutronID, LastLines(ctrl.Logs(), 20))
	}

	// Every request of the tenant's project in Neutron's audit lines, and every token
	// request in Keystone's access log, names the build.
	CreateTenantNetwork(t, ns, "plain", "10.183.0.0/24", "openstack", TenantA)
	WaitReady(t, ns, "plain", 90*time.Second)
	var ours []serverlog.NeutronAuditRequest
	for _, a := range NeutronAuditRequestsSince(t, ks.NeutronLog, mark) {
		if a.ProjectID == project {
			ours = append(ours, a)
		}
	}
	if len(ours) < 4 {
		t.Fatalf("Neutron's audit lines show %d requests of project %s, want at least the 4 of two creates", len(ours), project)
	}
	for _, a := range ours {
		if !strings.HasPrefix(a.UserAgent, agent) || !strings.HasPrefix(a.GlobalRequestID, "req-") {
			t.Errorf("Neutron got %s %s with User-Agent %q and global request ID %q, want %q… and one", a.Method, a.Path, a.UserAgent, a.GlobalRequestID, agent)
		}
	}
	tokens, _ := ks.ControllerTokenRequests(t, 0)
	if len(tokens) < 2 {
		t.Fatalf("Keystone's access log shows %d tokens for the controller, want its own and the tenant's", len(tokens))
	}
	for _, r := range tokens {
		if !strings.HasPrefix(r.UserAgent, agent) {
			t.Errorf("Keystone issued a token at %s to User-Agent %q, want %q…", r.At.Format(time.TimeOnly), r.UserAgent, agent)
		}
	}
	t.Logf("User-Agent %q… on %d Neutron requests of the project and %d token requests", agent, len(ours), len(tokens))

	if v, err := ctrl.Metric("network_controller_build_info", "version="+ControllerVersion, "commit="+ControllerCommit); err != nil || v != 1 {
		t.Errorf("network_controller_build_info{version=%q,commit=%q} = %v (%v), want 1", ControllerVersion, ControllerCommit, v, err)
	}
	out, _, err := runCommand(time.Minute, ControllerBinary, "-version")
	if err != nil || !strings.Contains(out, ControllerVersion+" (commit "+ControllerCommit+",") {
		t.Errorf("-version printed %q (%v), want %s and commit %s", out, err, ControllerVersion, ControllerCommit)
	}
}
