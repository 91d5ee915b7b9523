//go:build e2e

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// stoppedRefusedWatch is the controller's log line for a watch the apiserver refused.
const stoppedRefusedWatch = "Stopped the watch of a credentials Secret the controller may not read"

// The controller runs as deploy/'s ServiceAccount with -max-credentials-secrets=4. Two
// namespaces that granted it nothing name 6 made-up Secrets: each watch is refused once
// and stopped (the log says so, and no further refusal of theirs is logged), none holds a
// place, and their Networks say CredentialsNotGranted. A namespace that granted and names
// 6 made-up Secrets gets the 4 of the total; another that granted still gets its watch
// (its fair share) and its Network becomes Ready. A grant given later is found by a
// re-check and takes a share of 1 (4 / 3 namespaces holding watches); a grant narrowed to
// one Secret starts that one watch only.
func TestRefusedSecretsHoldNoWatch(t *testing.T) {
	t.Parallel()
	ks := LocalKeystone(t)
	applyDeployRBAC(t)
	closed := []string{NewNamespace(t), NewNamespace(t)}
	hog, calm := NewNamespace(t), NewNamespace(t)
	grant := func(ns string) {
		MustKubectl(t, "create", "rolebinding", "network-controller-credentials", "-n", ns,
			"--clusterrole", "network-controller-credentials", "--serviceaccount", deployNamespace+":"+deployServiceAccount)
	}
	grant(hog)
	grant(calm)
	PutCredentialsSecret(t, calm, "openstack", map[string]string{"clouds.yaml": ks.CloudsYAMLOf(t, TenantA)})

	opts, _ := InClusterAs(t, deployNamespace, deployServiceAccount)
	opts.Namespaces = []string{closed[0], closed[1], hog, calm}
	opts.Args = append(ks.ControllerArgs(MemberCloud), "-max-credentials-secrets=4", "-max-credentials-secrets-per-namespace=8")
	opts.Env = append(opts.Env, ks.ControllerEnv()...)
	ctrl := StartController(t, opts)
	ctrl.WaitConnected()

	madeUp := func(ns string, n int) {
		for i := range n {
			CreateTenantNetwork(t, ns, fmt.Sprintf("m-%d", i), "10.231.0.0/24", fmt.Sprintf("made-up-%d", i), TenantA)
		}
	}
	madeUp(closed[0], 3)
	madeUp(closed[1], 3)
	for _, ns := range closed {
		waitReasons(t, ns, map[string]int{samplecrdv1.ReasonCredentialsNotGranted: 3})
	}
	madeUp(hog, 6)
	waitReasons(t, hog, map[string]int{samplecrdv1.ReasonCredentialsSecretNotFound: 4, samplecrdv1.ReasonTooManyCredentialsSecrets: 2})
	start := time.Now()
	CreateTenantNetwork(t, calm, "calm", "10.231.1.0/24", "openstack", TenantA)
	WaitReady(t, calm, "calm", 2*time.Minute)
	t.Logf("the granted namespace's Network was Ready %s after it was created, beside 6 refused Secrets and 6 of a flood",
		time.Since(start).Round(time.Millisecond))

	// Each refused watch was stopped at its first refusal, and no reflector of theirs
	// asks again: no new refusal of them is logged for 10 s (a running reflector asks
	// again within about 2 s, then twice as late each time, and logs each refusal).
	logs := ctrl.Logs()
	for _, ns := range closed {
		if n := CountLines(logs, stoppedRefusedWatch, ns+"/"); n != 3 {
			t.Errorf("%d watches of %s stopped as refused, want 3", n, ns)
		}
	}
	// The line of the sixth refusal counts the watches still running: none.
	if n := CountLines(logs, stoppedRefusedWatch, "watched=0 refused=6"); n != 1 {
		t.Errorf("no refusal left 6 refused and none running:\n%s", strings.Join(grepLines(logs, stoppedRefusedWatch), "\n"))
	}
	failed := func() int {
		logs := ctrl.Logs()
		return CountLines(logs, "Failed to watch", closed[0]) + CountLines(logs, "Failed to watch", closed[1])
	}
	before := failed()
	time.Sleep(10 * time.Second)
	if after := failed(); after != before {
		t.Errorf("%d refused list or watch requests of the closed namespaces logged in 10 s, want none: a watch still runs", after-before)
	}
	t.Logf("6 refused watches stopped, %d refused requests logged by their reflectors, none in the next 10 s; the last refusal: %s",
		before, lastLogLine(logs, stoppedRefusedWatch))

	grant(closed[0])
	start = time.Now()
	waitReasons(t, closed[0], map[string]int{samplecrdv1.ReasonCredentialsSecretNotFound: 1, samplecrdv1.ReasonTooManyCredentialsSecrets: 2})
	t.Logf("the grant was found %s after the RoleBinding; the namespace got its share of 1 watch", time.Since(start).Round(time.Millisecond))

	// A Role narrowed by resourceNames grants one Secret: only its watch starts.
	start = time.Now()
	MustKubectl(t, "create", "role", "made-up-0-only", "-n", closed[1], "--verb=get,list,watch,patch", "--resource=secrets", "--resource-name=made-up-0")
	MustKubectl(t, "create", "rolebinding", "made-up-0-only", "-n", closed[1], "--role", "made-up-0-only",
		"--serviceaccount", deployNamespace+":"+deployServiceAccount)
	waitReasons(t, closed[1], map[string]int{samplecrdv1.ReasonCredentialsSecretNotFound: 1, samplecrdv1.ReasonCredentialsNotGranted: 2})
	t.Logf("the grant narrowed to made-up-0 was found %s after its Role; the 2 other Secrets stay refused, %d stopped watches in all",
		time.Since(start).Round(time.Millisecond), CountLines(ctrl.Logs(), stoppedRefusedWatch))
	WaitReady(t, calm, "calm", 30*time.Second)
}

// waitReasons waits until the Networks of ns have Ready conditions with these reasons,
// in these numbers, and no other.
func waitReasons(t *testing.T, ns string, want map[string]int) {
	t.Helper()
	_, nets := Clients(t)
	Eventually(t, 2*time.Minute, time.Second, "the reasons "+fmt.Sprint(want)+" in "+ns, func() error {
		list, err := nets.SamplecrdV1().Networks(ns).List(Ctx(t, 30*time.Second), metav1.ListOptions{})
		if err != nil {
			return err
		}
		got := map[string]int{}
		for _, n := range list.Items {
			if c := n.ReadyCondition(); c != nil {
				got[c.Reason]++
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			return fmt.Errorf("reasons %v, want %v", got, want)
		}
		return nil
	})
}

// grepLines returns the lines of logs containing substr.
func grepLines(logs, substr string) []string {
	var lines []string
	for _, line := range strings.Split(logs, "\n") {
		if strings.Contains(line, substr) {
			lines = append(lines, line)
		}
	}
	return lines
}

// lastLogLine returns the last line of logs containing substr.
func lastLogLine(logs, substr string) string {
	lines := grepLines(logs, substr)
	if len(lines) == 0 {
		return ""
	}
	return lines[len(lines)-1]
}
