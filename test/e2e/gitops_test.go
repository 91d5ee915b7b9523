//go:build e2e

package e2e

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// TestGitOpsHealth reads Networks the way GitOps tools do, on the real servers: kstatus
// (the library behind Flux's health checks, kpt and kapp) and Argo CD's health check
// (deploy/argocd, run by Lua 5.1 as installed into a ConfigMap by docs/api.md's command), for a
// Network no controller has looked at yet, a Ready one, one being created, one retried
// while Neutron answers 500 and one Neutron rejected for good. kubectl wait sees the Ready
// and the Stalled one as docs/api.md says.
func TestGitOpsHealth(t *testing.T) {
	t.Parallel()
	ns := NewNamespace(t)
	scripts := map[string]string{
		"the file":          filepath.Join(RepoRoot, ArgoCDHealthScript),
		"the ConfigMap key": argoCDScriptFromConfigMap(t, ns),
	}
	// inMessage is to be in both messages, but kstatus says only "Resource is Ready" of a
	// Current Network.
	// n is the Network as read last, for the message; the checks read it again as served.
	check := func(what string, n *samplecrdv1.Network, wantKstatus, wantArgoCD, inMessage string) {
		t.Helper()
		served := GetServed(t, n.Namespace, n.Name)
		if got := Kstatus(t, served); got.Status != wantKstatus || (wantKstatus != "Current" && !strings.Contains(got.Message, inMessage)) {
			t.Errorf("%s: kstatus %s %q, want %s mentioning %q; %s", what, got.Status, got.Message, wantKstatus, inMessage, DescribeReady(n))
		}
		for from, script := range scripts {
			if got := ArgoCDHealth(t, script, served); got.Status != wantArgoCD || !strings.Contains(got.Message, inMessage) {
				t.Errorf("%s: Argo CD health (script from %s) %s %q, want %s mentioning %q", what, from, got.Status, got.Message, wantArgoCD, inMessage)
			}
		}
	}

	// Before any controller runs (the cluster lock keeps others off it), a new Network
	// reads back status.observedGeneration 0 (the CRD's default): in progress, not done.
	CreateNetwork(t, ns, "ready", "10.78.1.0/24", "")
	check("unseen", GetNetwork(t, ns, "ready"), "InProgress", "Progressing", "generation")

	const heldCIDR = "10.78.2.0/24"
	proxy := StartFaultProxy(t, NeutronEndpoint, 1, FaultRates{})
	held := proxy.Hold(20*time.Second, func(r *http.Request, body []byte) bool {
		return r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/subnets") && bytes.Contains(body, []byte(heldCIDR))
	})
	StartController(t, ControllerOptions{Namespaces: []string{ns}, Args: []string{"-neutron-endpoint=" + proxy.URL(), "-retry-max-delay=2s"}}).WaitConnected()

	ready := WaitReady(t, ns, "ready", time.Minute)
	check("Ready", ready, "Current", "Healthy", ready.ReadyCondition().Message)

	CreateNetwork(t, ns, "multicast", "224.0.0.0/24", "")
	failed := WaitReason(t, ns, "multicast", time.Minute, metav1.ConditionFalse, samplecrdv1.ReasonInvalidSpec)
	check("rejected", failed, "Failed", "Degraded", "Multicast IP subnet is not supported if enable_dhcp is True.")

	CreateNetwork(t, ns, "progressing", heldCIDR, "")
	select {
	case <-held.Arrived:
	case <-time.After(time.Minute):
		t.Fatal("the subnet create of Network progressing never reached the proxy")
	}
	// A pass writes status once, at its end: while it creates, the generation is not yet
	// observed, which both read as in progress.
	check("being created", GetNetwork(t, ns, "progressing"), "InProgress", "Progressing", "generation")

	proxy.SetRates(FaultRates{Error500: 1})
	CreateNetwork(t, ns, "retrying", "10.78.3.0/24", "")
	retrying := WaitReason(t, ns, "retrying", time.Minute, metav1.ConditionFalse, samplecrdv1.ReasonNeutronUnavailable)
	check("retried", retrying, "InProgress", "Progressing", "Neutron is unavailable")
	proxy.SetRates(FaultRates{})

	MustKubectl(t, "-n", ns, "wait", "--for=condition=Ready", "network/ready", "--timeout=10s")
	MustKubectl(t, "-n", ns, "wait", "--for=condition=Stalled", "network/multicast", "--timeout=10s")

	// Once Neutron takes them, both settle with Ready alone.
	for _, name := range []string{"progressing", "retrying"} {
		n := WaitReady(t, ns, name, 2*time.Minute)
		check(name+", then Ready", n, "Current", "Healthy", "Neutron network")
		for _, c := range n.Status.Conditions {
			if c.Type != samplecrdv1.ConditionReady {
				t.Errorf("Ready Network %s still has %s=%s (%s)", name, c.Type, c.Status, c.Reason)
			}
		}
	}
}

// argoCDScriptFromConfigMap installs the health check into a stand-in of Argo CD's
// argocd-cm (in ns) with docs/api.md's kubectl patch command, checks that the ConfigMap kept
// its other keys and holds the script word for word, and returns the stored script as a
// file.
func argoCDScriptFromConfigMap(t *testing.T, ns string) string {
	t.Helper()
	const key = "resource.customizations.health.samplecrd.k8s.io_Network"
	MustKubectl(t, "-n", ns, "create", "configmap", "argocd-cm", "--from-literal=url=https://argocd.example")
	MustKubectl(t, "-n", ns, "patch", "configmap", "argocd-cm", "--patch-file", filepath.Join(RepoRoot, "deploy", "argocd", "argocd-cm-patch.yaml"))
	kube, _ := Clients(t)
	cm, err := kube.CoreV1().ConfigMaps(ns).Get(Ctx(t, 30*time.Second), "argocd-cm", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(RepoRoot, ArgoCDHealthScript))
	if err != nil {
		t.Fatal(err)
	}
	if cm.Data["url"] != "https://argocd.example" {
		t.Errorf("argocd-cm lost its url key in the patch: %v", cm.Data)
	}
	if cm.Data[key] != string(want) {
		t.Fatalf("argocd-cm %s differs from %s:\n%s", key, ArgoCDHealthScript, cm.Data[key])
	}
	return WriteFile(t, "network-health-from-configmap.lua", cm.Data[key])
}

// TestArgoCDHealthAgreesWithKstatus runs the Argo CD health check and kstatus on statuses
// the real servers show only briefly or only across an upgrade: both must agree, Healthy
// with Current, Progressing with InProgress, Degraded with Failed; a paused Network is
// Suspended for Argo CD and whatever its conditions say for kstatus.
func TestArgoCDHealthAgreesWithKstatus(t *testing.T) {
	t.Parallel()
	script := filepath.Join(RepoRoot, ArgoCDHealthScript)
	condition := func(typ string, status metav1.ConditionStatus, generation int64, reason string) metav1.Condition {
		return metav1.Condition{Type: typ, Status: status, ObservedGeneration: generation, Reason: reason,
			Message: typ + " message", LastTransitionTime: metav1.Now()}
	}
	network := func(generation, observed int64, conditions ...metav1.Condition) *samplecrdv1.Network {
		return &samplecrdv1.Network{
			ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "n", Generation: generation},
			Spec:       samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: "10.0.0.0/24"}},
			Status:     samplecrdv1.NetworkStatus{ObservedGeneration: observed, Conditions: conditions},
		}
	}
	cases := []struct {
		name        string
		network     *samplecrdv1.Network
		wantArgoCD  string
		wantKstatus string
	}{
		{"Ready", network(3, 3, condition("Ready", "True", 3, "Provisioned")), "Healthy", "Current"},
		{"spec changed, not looked at yet", network(4, 3, condition("Ready", "True", 3, "Provisioned")), "Progressing", "InProgress"},
		{"update under way", network(4, 4, condition("Ready", "True", 3, "Provisioned"),
			condition("Reconciling", "True", 4, "Updating")), "Progressing", "InProgress"},
		{"retried", network(1, 1, condition("Ready", "False", 1, "OverQuota"),
			condition("Reconciling", "True", 1, "OverQuota")), "Progressing", "InProgress"},
		{"rejected", network(2, 2, condition("Ready", "False", 2, "InvalidSpec"),
			condition("Stalled", "True", 2, "InvalidSpec")), "Degraded", "Failed"},
		{"rejected, spec fixed since", network(3, 2, condition("Ready", "False", 2, "InvalidSpec"),
			condition("Stalled", "True", 2, "InvalidSpec")), "Progressing", "InProgress"},
		{"status of an older controller: Ready=False alone", network(1, 1, condition("Ready", "False", 1, "NeutronUnavailable")),
			"Progressing", "InProgress"},
		{"import waiting for Neutron", network(1, 1, condition("Ready", "False", 1, "ImportNotFound"),
			condition("Stalled", "True", 1, "ImportNotFound")), "Degraded", "Failed"},
		{"paused, in step", network(2, 2, condition("Ready", "True", 2, "Provisioned"),
			condition("Paused", "True", 2, "Paused")), "Suspended", "Current"},
		{"paused, a change waits", network(3, 3, condition("Ready", "True", 2, "Provisioned"),
			condition("Paused", "True", 3, "Paused"), condition("Reconciling", "True", 3, "Paused")), "Suspended", "InProgress"},
		{"paused, rejected before", network(2, 2, condition("Ready", "False", 2, "InvalidSpec"),
			condition("Stalled", "True", 2, "InvalidSpec"), condition("Paused", "True", 2, "Paused")), "Suspended", "Failed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			served := UnstructuredOf(t, tc.network)
			if got := ArgoCDHealth(t, script, served); got.Status != tc.wantArgoCD {
				t.Errorf("Argo CD health %s %q, want %s", got.Status, got.Message, tc.wantArgoCD)
			}
			if got := Kstatus(t, served); got.Status != tc.wantKstatus {
				t.Errorf("kstatus %s %q, want %s", got.Status, got.Message, tc.wantKstatus)
			}
		})
	}
}
