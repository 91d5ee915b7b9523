//go:build e2e

package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// A Network that used a ClusterIdentity, its finalizer removed by hand and the object
// deleted, leaves its Neutron network in the project the identity delegates (team-b's);
// no Network reaches that project any more, but the identity's Secret, the operator's,
// is still there. The Neutron resync visits the project with it and collects the orphan:
// one left while no controller ran, found by the next controller, which has no Network at
// all; and one left while the controller ran, which reached the project through that
// Network until then.
func TestOrphansInADelegatedProjectAreCollected(t *testing.T) {
	t.Parallel()
	ks := LocalKeystone(t)
	ops, ns := NewNamespace(t), NewNamespace(t)
	label := "e2e-orphans-delegated-" + RandomSuffix(6)
	MustKubectl(t, "label", "namespace", ns, label+"=yes")
	PutCredentialsSecret(t, ops, "team-b", map[string]string{"clouds.yaml": ks.CloudsYAMLOf(t, TenantB)})
	identity := DelegateProject(t, map[string]string{label: "yes"}, ops, "team-b", TenantB, samplecrdv1.IdentityAllow{})
	teamB := ks.ProjectID(t, TenantB)
	clusterID := NewClusterID(t)
	args := ks.ControllerArgs(MemberCloud)

	// Left while no controller ran.
	first := StartController(t, ControllerOptions{ClusterID: clusterID, Namespaces: []string{ns}, Args: args, Env: ks.ControllerEnv()})
	CreateDelegatedNetwork(t, ns, "while-stopped", "10.87.0.0/24", identity)
	stopped := WaitReady(t, ns, "while-stopped", 90*time.Second)
	if stopped.Status.ProjectID != teamB {
		t.Fatalf("the delegated Network is in project %q, want team-b's %s", stopped.Status.ProjectID, teamB)
	}
	first.Stop()
	forceRemove(t, ns, "while-stopped")
	if !slices.Contains(ks.NetworkIDsSeenBy(t, TenantB), stopped.Status.NetworkID) {
		t.Fatalf("team-b's user does not see network %s of the force-removed Network", stopped.Status.NetworkID)
	}
	t.Logf("Network %s/while-stopped force-removed with no controller running: its network %s and subnet %s stay in team-b's project %s",
		ns, stopped.Status.NetworkID, stopped.Status.SubnetID, teamB)

	start := time.Now()
	ctrl := StartController(t, ControllerOptions{ClusterID: clusterID, Namespaces: []string{ns}, Env: ks.ControllerEnv(),
		Args: append(slices.Clone(args), "-neutron-resync-period=2s", "-orphan-grace-period=0s")})
	waitOrphanCollected(t, ks, ctrl, stopped, teamB)
	t.Logf("collected %s %s after the start of a controller without any Network: %q",
		stopped.Status.NetworkID, time.Since(start).Round(100*time.Millisecond), collectedLine(ctrl, stopped.Status.NetworkID))

	// Left while the controller ran: paused, so that its deletion waits, then forced.
	CreateDelegatedNetwork(t, ns, "while-running", "10.87.1.0/24", identity)
	running := WaitReady(t, ns, "while-running", 90*time.Second)
	MustKubectl(t, "-n", ns, "annotate", "network", "while-running", samplecrdv1.AnnotationReconcile+"="+samplecrdv1.ReconcilePaused)
	WaitNetwork(t, ns, "while-running", 30*time.Second, "Paused=True", func(n *samplecrdv1.Network) error {
		if !meta.IsStatusConditionTrue(n.Status.Conditions, samplecrdv1.ConditionPaused) {
			return fmt.Errorf("conditions %+v", n.Status.Conditions)
		}
		return nil
	})
	start = time.Now()
	forceRemove(t, ns, "while-running")
	waitOrphanCollected(t, ks, ctrl, running, teamB)
	t.Logf("collected %s %s after Network %s/while-running was force-removed under the running controller: %q",
		running.Status.NetworkID, time.Since(start).Round(100*time.Millisecond), ns, collectedLine(ctrl, running.Status.NetworkID))
	t.Logf("the controller's resyncs: %d, the last: %q", CountLines(ctrl.Logs(), "Neutron resync done"), lastLogLineWith(ctrl.Logs(), "Neutron resync done"))
	if ctrl.Exited() {
		t.Fatalf("the controller exited:\n%s", LastLines(ctrl.Logs(), 30))
	}
	for _, secret := range ks.SecretsOf(t, TenantB) {
		if strings.Contains(ctrl.Logs(), secret) {
			t.Error("the controller's log shows the identity's credentials")
		}
	}
}

// forceRemove deletes the Network and strips its finalizers, as an admin would by hand,
// and waits for it to be gone.
func forceRemove(t *testing.T, ns, name string) {
	t.Helper()
	DeleteNetwork(t, ns, name)
	_, nets := Clients(t)
	if err := RemoveFinalizers(Ctx(t, 30*time.Second), nets, ns, name); err != nil {
		t.Fatalf("removing the finalizers of Network %s/%s: %v", ns, name, err)
	}
	WaitGone(t, ns, name, 30*time.Second)
}

// waitOrphanCollected waits until the network and subnet of the gone Network n are no
// longer in Neutron, and checks that ctrl's log says it collected the network in project.
func waitOrphanCollected(t *testing.T, ks Keystone, ctrl *Controller, n *samplecrdv1.Network, project string) {
	t.Helper()
	Eventually(t, 60*time.Second, 500*time.Millisecond, "the orphan "+n.Status.NetworkID+" collected", func() error {
		if NetworkExists(t, n.Status.NetworkID) {
			return fmt.Errorf("network %s still exists", n.Status.NetworkID)
		}
		return nil
	})
	if _, ok := GetSubnet(t, n.Status.SubnetID); ok {
		t.Errorf("the orphan's subnet %s survived", n.Status.SubnetID)
	}
	if slices.Contains(ks.NetworkIDsSeenBy(t, TenantB), n.Status.NetworkID) {
		t.Errorf("team-b's user still sees network %s", n.Status.NetworkID)
	}
	if line := collectedLine(ctrl, n.Status.NetworkID); !strings.Contains(line, "project "+project) {
		t.Errorf("the log line collecting %s is %q, want one naming project %s", n.Status.NetworkID, line, project)
	}
}

// collectedLine is the controller's log line saying it deleted the orphaned network id.
func collectedLine(ctrl *Controller, id string) string {
	return lastLogLineWith(ctrl.Logs(), "Deleted orphaned Neutron network", id)
}

// lastLogLineWith is the last line of logs holding every one of substrs, or "".
func lastLogLineWith(logs string, substrs ...string) string {
	lines := strings.Split(logs, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if containsAll(lines[i], substrs) {
			return lines[i]
		}
	}
	return ""
}

// The orphan breaker counts per namespace of a shared project (the controller's own):
// one namespace's 12 force-removals halt the collection of its own orphans, with the
// metric, a log line and an Event on the Lease naming it, while another namespace's 2
// orphans are collected. Once few enough, the first namespace's are collected too.
func TestOrphanBreakerHaltsOneNamespaceAlone(t *testing.T) {
	t.Parallel()
	many, few := NewNamespace(t), NewNamespace(t)
	clusterID := NewClusterID(t)
	orphansOf := func(ns string, n int) []neutron.Network {
		var made []neutron.Network
		for i := range n {
			owner := neutron.Owner{ClusterID: clusterID, Namespace: ns, Name: fmt.Sprintf("forced-%d", i), UID: fakeUID()}
			made = append(made, CreateForeignNetwork(t, owner.ResourceName(), neutron.ClusterDescription(clusterID), owner.Tags()))
		}
		return made
	}
	manyOrphans, fewOrphans := orphansOf(many, 12), orphansOf(few, 2)
	ctrl := StartController(t, ControllerOptions{ClusterID: clusterID, Namespaces: []string{many, few}, Args: []string{
		"-neutron-resync-period=2s", "-orphan-grace-period=0s",
		"-leader-elect=true", "-leader-elect-namespace=" + many, "-leader-elect-lease-name=e2e-breaker-" + RandomSuffix(6),
	}})

	Eventually(t, 60*time.Second, 500*time.Millisecond, "namespace "+few+"'s orphans collected", func() error {
		for _, n := range fewOrphans {
			if NetworkExists(t, n.ID) {
				return fmt.Errorf("network %s still exists", n.ID)
			}
		}
		return nil
	})
	if v, err := ctrl.Metric("network_controller_orphan_collection_halted"); err != nil || v != 1 {
		t.Errorf("network_controller_orphan_collection_halted = %v (%v), want 1", v, err)
	}
	waitResyncs(t, ctrl, 2, 30*time.Second)
	for _, n := range manyOrphans {
		if !NetworkExists(t, n.ID) {
			t.Errorf("network %s of namespace %s was collected past its breaker", n.ID, many)
		}
	}
	halted := lastLogLineWith(ctrl.Logs(), "Orphan collection halted for a namespace", `namespace="`+many+`"`)
	if halted == "" || lastLogLineWith(ctrl.Logs(), "Orphan collection halted", few) != "" {
		t.Errorf("the log does not name %s alone as halted:\n%s", many, LastLines(ctrl.Logs(), 20))
	}
	kube, _ := Clients(t)
	var event string
	Eventually(t, 30*time.Second, 500*time.Millisecond, "the OrphanCollectionHalted Event on the Lease", func() error {
		events, err := kube.CoreV1().Events(many).List(Ctx(t, 10*time.Second), metav1.ListOptions{FieldSelector: "reason=OrphanCollectionHalted"})
		if err != nil {
			return err
		}
		for _, e := range events.Items {
			if e.InvolvedObject.Kind == "Lease" && e.Type == "Warning" && strings.Contains(e.Message, many+" (12 of its 12 networks, limit 10)") {
				event = e.Message
				return nil
			}
		}
		return fmt.Errorf("%d Events with reason OrphanCollectionHalted, none a Warning on the Lease naming %s", len(events.Items), many)
	})
	if strings.Contains(event, few) {
		t.Errorf("the Event names %s, whose orphans were collected: %s", few, event)
	}
	t.Logf("%s's 2 orphans collected, %s's 12 kept; log: %q; Event: %q", few, many, halted, event)

	// Two gone by hand: 10, within the limit, collected.
	for _, n := range manyOrphans[:2] {
		DeleteNeutronNetworkTree(t, n.ID)
	}
	Eventually(t, 60*time.Second, 500*time.Millisecond, "the remaining orphans of "+many+" collected", func() error {
		for _, n := range manyOrphans[2:] {
			if NetworkExists(t, n.ID) {
				return fmt.Errorf("network %s still exists", n.ID)
			}
		}
		if v, err := ctrl.Metric("network_controller_orphan_collection_halted"); err != nil || v != 0 {
			return fmt.Errorf("network_controller_orphan_collection_halted = %v (%v), want 0", v, err)
		}
		return nil
	})
	t.Logf("with 10 left, %s's orphans were collected: %d orphans collected in all", many, CountLines(ctrl.Logs(), "Deleted orphaned Neutron network"))
}
