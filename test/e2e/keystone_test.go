//go:build e2e

package e2e

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/test/serverlog"
)

// statusRecorder remembers every Ready=False condition other than Provisioning that
// Networks of a namespace carried while it watched.
type statusRecorder struct {
	mu  sync.Mutex
	bad []string
}

func recordNotReady(t *testing.T, ns string) *statusRecorder {
	t.Helper()
	r := &statusRecorder{}
	_, nets := Clients(t)
	ctx, cancel := context.WithCancel(context.Background())
	w, err := nets.SamplecrdV1().Networks(ns).Watch(ctx, metav1.ListOptions{})
	if err != nil {
		cancel()
		t.Fatalf("watching Networks in %s: %v", ns, err)
	}
	done := make(chan struct{})
	t.Cleanup(func() { cancel(); w.Stop(); <-done })
	go func() {
		defer close(done)
		for ev := range w.ResultChan() {
			if ev.Type != watch.Added && ev.Type != watch.Modified {
				continue
			}
			n, ok := ev.Object.(*samplecrdv1.Network)
			if !ok {
				continue
			}
			// Provisioning is the normal way to Ready; anything else is a failure.
			if c := n.ReadyCondition(); c != nil && c.Status == metav1.ConditionFalse && c.Reason != samplecrdv1.ReasonProvisioning {
				r.mu.Lock()
				r.bad = append(r.bad, n.Name+": "+DescribeReady(n))
				r.mu.Unlock()
			}
		}
	}()
	return r
}

func (r *statusRecorder) notReady() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.bad...)
}

// createProjectNetwork creates, through the noauth admin endpoint, a network owned by
// owner in project projectID, as the controller running in that project would have.
func createProjectNetwork(t *testing.T, owner neutron.Owner, projectID string) string {
	t.Helper()
	var out struct {
		Network struct {
			ID string `json:"id"`
		} `json:"network"`
	}
	MustNeutron(t, "POST", "v2.0/networks", map[string]any{"network": map[string]any{
		"name": owner.ResourceName(), "description": neutron.ClusterDescription(owner.ClusterID), "project_id": projectID,
	}}, &out, 201)
	MustNeutron(t, "PUT", "v2.0/networks/"+out.Network.ID+"/tags", map[string]any{"tags": owner.Tags()}, nil, 200)
	return out.Network.ID
}

// projectOfNetwork returns the project a Neutron network belongs to.
func projectOfNetwork(t *testing.T, id string) string {
	t.Helper()
	var out struct {
		Network struct {
			ProjectID string `json:"project_id"`
		} `json:"network"`
	}
	MustNeutron(t, "GET", "v2.0/networks/"+id, nil, &out, 200)
	return out.Network.ProjectID
}

// The production path: the controller authenticates through clouds.yaml as a user with
// only the member role in one project, and does the whole job there for more than two
// token lifetimes. Re-authentication is invisible in the Networks' status, and Keystone
// issues O(1) tokens to the controller per token lifetime (counted in the request log of
// a Keystone of the test's own), not one per reconcile.
func TestKeystoneMemberAcrossTokenLifetimes(t *testing.T) {
	t.Parallel()
	ks, _ := OwnKeystone(t, LocalKeystone(t).WithOwnUsers(t, MemberCloud))
	projectID := ks.ProjectID(t, MemberCloud)
	ns := NewNamespace(t)
	notReady := recordNotReady(t, ns)

	_, logLines := ks.ControllerTokenRequests(t, 0)
	start := time.Now()
	ctrl := StartController(t, ControllerOptions{
		Namespaces: []string{ns},
		Args:       append(ks.ControllerArgs(MemberCloud), "-orphan-grace-period=0s", "-neutron-resync-period=5s"),
		Env:        ks.ControllerEnv(),
	})

	// Create: the Neutron network lands in the member's project, with the ownership tags.
	CreateNetwork(t, ns, "alpha", "10.140.0.0/24", "")
	alpha := WaitReady(t, ns, "alpha", 90*time.Second)
	if p := projectOfNetwork(t, alpha.Status.NetworkID); p != projectID {
		t.Errorf("alpha's Neutron network is in project %s, want the member's project %s", p, projectID)
	}
	alphaOwner := OwnerOf(ctrl.ClusterID, alpha)
	if _, byTags := ownerNetworks(t, alphaOwner); len(byTags) != 1 || byTags[0].ID != alpha.Status.NetworkID {
		t.Errorf("alpha's Neutron network by its ownership tags: %v, want [%s]", ids(byTags), alpha.Status.NetworkID)
	}

	// Orphan collection sees the member's project: this cluster's orphan there goes.
	orphanOwner := neutron.Owner{ClusterID: ctrl.ClusterID, Namespace: ns, Name: "gone", UID: fakeUID()}
	orphanID := createProjectNetwork(t, orphanOwner, projectID)
	Eventually(t, 60*time.Second, time.Second, "this cluster's orphan in the member's project collected", func() error {
		if NetworkExists(t, orphanID) {
			return fmt.Errorf("network %s still exists", orphanID)
		}
		return nil
	})

	// Gateway update within the first token lifetime.
	SetGateway(t, ns, "alpha", "10.140.0.254")
	waitGateway(t, ns, "alpha", "10.140.0.254")
	if sub, ok := GetSubnet(t, alpha.Status.SubnetID); !ok || sub.GatewayIP != "10.140.0.254" {
		t.Errorf("alpha's Neutron subnet: %+v (found %v), want gateway 10.140.0.254", sub, ok)
	}

	// After the first token expired: a create; after the second: a gateway update. The
	// periodic resync calls Neutron in between.
	sleepUntil(start.Add(ks.TokenLifetime + 5*time.Second))
	CreateNetwork(t, ns, "beta", "10.141.0.0/24", "")
	beta := WaitReady(t, ns, "beta", 90*time.Second)
	sleepUntil(start.Add(2*ks.TokenLifetime + 5*time.Second))
	SetGateway(t, ns, "beta", "10.141.0.1")
	waitGateway(t, ns, "beta", "10.141.0.1")
	SetGateway(t, ns, "alpha", "10.140.0.1")
	waitGateway(t, ns, "alpha", "10.140.0.1")

	// Delete both; nothing of theirs stays in Neutron.
	DeleteNetwork(t, ns, "alpha")
	DeleteNetwork(t, ns, "beta")
	WaitGone(t, ns, "alpha", 90*time.Second)
	WaitGone(t, ns, "beta", 90*time.Second)
	WaitNeutronEmpty(t, alphaOwner, 30*time.Second)
	WaitNeutronEmpty(t, OwnerOf(ctrl.ClusterID, beta), 30*time.Second)
	elapsed := time.Since(start)

	if bad := notReady.notReady(); len(bad) > 0 {
		t.Errorf("Networks were Ready=False while the controller re-authenticated:\n%s", strings.Join(bad, "\n"))
	}
	for _, name := range []string{"alpha", "beta"} {
		for _, e := range Events(t, ns, name) {
			if e.Type == "Warning" {
				t.Errorf("Warning event on %s: %s %s", name, e.Reason, e.Message)
			}
		}
	}

	reqs, _ := ks.ControllerTokenRequests(t, logLines)
	lifetimes := int(elapsed/ks.TokenLifetime) + 1
	t.Logf("Keystone issued %d tokens to the controller in %s (token lifetime %s, %d lifetimes begun): %v",
		len(reqs), elapsed.Round(time.Second), ks.TokenLifetime, lifetimes, reqs)
	if len(reqs) < 2 {
		t.Errorf("Keystone issued %d tokens to the controller over %s with a %s token lifetime: it never re-authenticated", len(reqs), elapsed.Round(time.Second), ks.TokenLifetime)
	}
	// One per lifetime begun; one more for a call racing an expiry.
	if len(reqs) > lifetimes+1 {
		t.Errorf("Keystone issued %d tokens to the controller in %d token lifetimes: want at most one per lifetime (+1)", len(reqs), lifetimes)
	}
	if n := CountLines(ctrl.Logs(), "Unable to re-authenticate"); n > 0 {
		t.Errorf("the controller logged %d failed re-authentications", n)
	}
}

func sleepUntil(at time.Time) {
	if d := time.Until(at); d > 0 {
		time.Sleep(d)
	}
}

// A wrong password ends the controller at startup with one clear line naming Keystone
// and exit code 1, instead of running and failing every reconcile.
func TestKeystoneWrongPasswordFailsAtStartup(t *testing.T) {
	ks := LocalKeystone(t)
	raw, err := os.ReadFile(ks.CloudsYAML)
	if err != nil {
		t.Fatal(err)
	}
	wrong := regexp.MustCompile(`(?m)^(\s*password:).*$`).ReplaceAllString(string(raw), "${1} not-the-password")
	path := filepath.Join(t.TempDir(), "clouds.yaml")
	if err := os.WriteFile(path, []byte(wrong), 0o600); err != nil {
		t.Fatal(err)
	}
	ctrl := StartController(t, ControllerOptions{
		Args: ks.ControllerArgs(MemberCloud),
		Env:  []string{"OS_CLIENT_CONFIG_FILE=" + path},
	})
	code, err := ctrl.Wait(90 * time.Second)
	if err != nil {
		t.Fatalf("the controller did not exit with a wrong password: %v\n%s", err, LastLines(ctrl.Logs(), 20))
	}
	if code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	logs := ctrl.Logs()
	var mentions []string
	for _, line := range strings.Split(logs, "\n") {
		if strings.Contains(strings.ToLower(line), "keystone") {
			mentions = append(mentions, line)
		}
	}
	if len(mentions) != 1 || !strings.Contains(mentions[0], "401") || !strings.Contains(mentions[0], ks.AuthURL) || !strings.Contains(mentions[0], `"k8s-controller"`) {
		t.Errorf("want one line naming Keystone at %s, the 401 and the user; got:\n%s", ks.AuthURL, logs)
	}
	if strings.Contains(logs, "goroutine ") || strings.Contains(logs, "panic") {
		t.Errorf("the controller crashed instead of reporting:\n%s", logs)
	}
	t.Logf("startup error: %s", strings.Join(mentions, " | "))
}

// Keystone goes down while the controller runs. As long as its token lives, Neutron
// serves it; once it expired, work the controller does reports Ready=False
// NeutronUnavailable with a message naming Keystone, and everything heals when Keystone
// is back. The Keystone that goes down is the test's own, which the controller logs in
// at; Neutron checks tokens at the shared one.
func TestKeystoneOutage(t *testing.T) {
	t.Parallel()
	ks, keystone := OwnKeystone(t, LocalKeystone(t))
	ns := NewNamespace(t)
	const maxDelay = 5 * time.Second
	_, logLines := ks.ControllerTokenRequests(t, 0)
	ctrl := StartController(t, ControllerOptions{
		Namespaces: []string{ns},
		Args:       append(ks.ControllerArgs(MemberCloud), fmt.Sprintf("-retry-max-delay=%s", maxDelay)),
		Env:        ks.ControllerEnv(),
	})
	CreateNetwork(t, ns, "first", "10.142.0.0/24", "")
	first := WaitReady(t, ns, "first", 90*time.Second)

	keystone.Stop()
	stopped := time.Now()
	reqs, _ := ks.ControllerTokenRequests(t, logLines)
	if len(reqs) == 0 {
		t.Fatal("Keystone's request log shows no token for the controller")
	}
	// Every token the controller holds was issued before the stop (the last one the log
	// shows, or one whose line a busy Keystone had not written yet): wait until it expired.
	expired := stopped.Add(ks.TokenLifetime + 2*time.Second)
	t.Logf("Keystone stopped; the controller's last logged token was issued at %s; every token it holds expired by %s",
		reqs[len(reqs)-1].At.Format(time.TimeOnly), expired.Format(time.TimeOnly))
	sleepUntil(expired)

	CreateNetwork(t, ns, "second", "10.143.0.0/24", "")
	SetGateway(t, ns, "first", "10.142.0.254")
	for _, name := range []string{"first", "second"} {
		n := WaitNetwork(t, ns, name, 60*time.Second, "Ready=False NeutronUnavailable naming Keystone", func(n *samplecrdv1.Network) error {
			c := n.ReadyCondition()
			if c == nil || c.Status != metav1.ConditionFalse || c.Reason != samplecrdv1.ReasonNeutronUnavailable ||
				c.ObservedGeneration != n.Generation || !strings.Contains(c.Message, "Keystone") {
				return fmt.Errorf("%s", DescribeReady(n))
			}
			return nil
		})
		t.Logf("%s during the Keystone outage: %s", name, DescribeReady(n))
	}

	keystone.Start()
	back := time.Now()
	f := waitGateway(t, ns, "first", "10.142.0.254")
	WaitReady(t, ns, "second", maxDelay+60*time.Second)
	t.Logf("both Ready %s after Keystone answered again", time.Since(back).Round(time.Millisecond))
	if f.Status.NetworkID != first.Status.NetworkID {
		t.Errorf("first's Neutron network changed over the outage: %s -> %s", first.Status.NetworkID, f.Status.NetworkID)
	}
	if sub, ok := GetSubnet(t, f.Status.SubnetID); !ok || sub.GatewayIP != "10.142.0.254" {
		t.Errorf("first's Neutron subnet after the outage: %+v (found %v)", sub, ok)
	}
	if s := GetNetwork(t, ns, "second"); len(s.Status.NetworkID) == 0 {
		t.Errorf("second has no Neutron network after the outage")
	} else if _, byTags := ownerNetworks(t, OwnerOf(ctrl.ClusterID, s)); len(byTags) != 1 {
		t.Errorf("second's Neutron networks by tags: %v, want exactly one", ids(byTags))
	}
}

// TokenRequest is one token Keystone issued, as its request log shows it.
type TokenRequest struct {
	At        time.Time
	UserAgent string
}

// ControllerTokenRequests returns the tokens Keystone issued (POST /v3/auth/tokens, 201)
// to clients whose user agent names the controller, from line skip of the request log on,
// and the number of lines read so far.
func (k Keystone) ControllerTokenRequests(t testing.TB, skip int) ([]TokenRequest, int) {
	t.Helper()
	return k.ControllerTokenAnswers(t, skip, "201")
}

// ControllerTokenAnswers is ControllerTokenRequests for token requests Keystone answered
// with status, e.g. "401" for refused credentials.
func (k Keystone) ControllerTokenAnswers(t testing.TB, skip int, status string) ([]TokenRequest, int) {
	t.Helper()
	f, err := os.Open(k.AccessLog)
	if err != nil {
		t.Fatalf("reading Keystone's request log: %v", err)
	}
	defer f.Close()
	var out []TokenRequest
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		n++
		if n <= skip {
			continue
		}
		r, ok := serverlog.ParseKeystoneRequest(sc.Text())
		if !ok || !r.IsTokenIssue(status) || !strings.Contains(r.UserAgent, "network-controller") {
			continue
		}
		out = append(out, TokenRequest{At: r.At, UserAgent: r.UserAgent})
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading Keystone's request log: %v", err)
	}
	return out, n
}

// WaitControllerToken waits until Keystone has issued a token to the controller after
// line skip of its request log, and returns the first such token.
func (k Keystone) WaitControllerToken(t testing.TB, skip int, timeout time.Duration) TokenRequest {
	t.Helper()
	var first TokenRequest
	Eventually(t, timeout, 200*time.Millisecond, "a token issued to the controller", func() error {
		reqs, _ := k.ControllerTokenRequests(t, skip)
		if len(reqs) == 0 {
			return fmt.Errorf("Keystone issued no token to the controller after line %d of its request log", skip)
		}
		first = reqs[0]
		return nil
	})
	return first
}
