//go:build e2e

package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// A paused Network costs no Neutron call, counted by neutron-server in the Network's own
// project: a spec change and a deletion wait, with conditions kstatus and Argo CD read
// as such, and happen once the annotation is gone.
func TestPauseHoldsEveryNeutronCall(t *testing.T) {
	t.Parallel()
	ks, _ := OwnKeystone(t, LocalKeystone(t).WithOwnUsers(t, MemberCloud, TenantA))
	project := ks.ProjectID(t, TenantA)
	ns, _ := StartTenantController(t, ks, ks.CloudsYAMLOf(t, TenantA))
	CreateTenantNetwork(t, ns, "held", "10.184.0.0/24", "openstack", TenantA)
	ready := WaitReady(t, ns, "held", 90*time.Second)

	MustKubectl(t, "-n", ns, "annotate", "network", "held", samplecrdv1.AnnotationReconcile+"="+samplecrdv1.ReconcilePaused)
	WaitNetwork(t, ns, "held", 30*time.Second, "Paused=True", func(n *samplecrdv1.Network) error {
		if !meta.IsStatusConditionTrue(n.Status.Conditions, samplecrdv1.ConditionPaused) {
			return fmt.Errorf("conditions %+v", n.Status.Conditions)
		}
		return nil
	})
	WaitEvent(t, ns, "held", "Normal", samplecrdv1.ReasonPaused, "remove the annotation to resume", 20*time.Second)
	mark := NeutronLogMark(t, ks.NeutronLog)

	changed := SetGateway(t, ns, "held", "10.184.0.254")
	waiting := WaitNetwork(t, ns, "held", 30*time.Second, "Reconciling=True Paused for the new generation", func(n *samplecrdv1.Network) error {
		c := meta.FindStatusCondition(n.Status.Conditions, samplecrdv1.ConditionReconciling)
		if c == nil || c.Reason != samplecrdv1.ReasonPaused || c.ObservedGeneration != changed.Generation {
			return fmt.Errorf("Reconciling %+v", c)
		}
		return nil
	})
	served := UnstructuredOf(t, waiting)
	if h := Kstatus(t, served); h.Status != "InProgress" || !strings.Contains(h.Message, "paused") {
		t.Errorf("kstatus of the paused Network with a change waiting: %s %q, want InProgress saying it is paused", h.Status, h.Message)
	}
	if h := ArgoCDHealth(t, filepath.Join(RepoRoot, ArgoCDHealthScript), served); h.Status != "Suspended" {
		t.Errorf("Argo CD health of the paused Network: %s %q, want Suspended", h.Status, h.Message)
	}

	DeleteNetwork(t, ns, "held")
	WaitNetwork(t, ns, "held", 30*time.Second, "the deletion waiting, said in Reconciling", func(n *samplecrdv1.Network) error {
		c := meta.FindStatusCondition(n.Status.Conditions, samplecrdv1.ConditionReconciling)
		if n.DeletionTimestamp == nil || c == nil || c.Reason != samplecrdv1.ReasonPaused || !strings.Contains(c.Message, "deletion") {
			return fmt.Errorf("deleting %v, Reconciling %+v", n.DeletionTimestamp != nil, c)
		}
		return nil
	})
	// Long enough for a retry with backoff and for a token to be asked for, had anything
	// been sent.
	time.Sleep(5 * time.Second)
	// The audit records: from 2025.1 on, an access line may carry another request's project.
	var calls []string
	for _, r := range NeutronAuditRequestsSince(t, ks.NeutronLog, mark) {
		if r.ProjectID == project {
			calls = append(calls, r.Method+" "+r.Path)
		}
	}
	if len(calls) != 0 {
		t.Errorf("neutron-server got %d requests of project %s while the Network was paused, want none: %v", len(calls), project, calls)
	}
	if s, found := GetSubnet(t, ready.Status.SubnetID); !found || s.GatewayIP != ready.Status.Gateway {
		t.Errorf("subnet %s while paused: found %v, gateway %s; want it untouched at %s", ready.Status.SubnetID, found, s.GatewayIP, ready.Status.Gateway)
	}

	MustKubectl(t, "-n", ns, "annotate", "network", "held", samplecrdv1.AnnotationReconcile+"-")
	WaitGone(t, ns, "held", 60*time.Second)
	if _, found := GetNeutronNetwork(t, ready.Status.NetworkID); found {
		t.Errorf("Neutron network %s still exists after the resumed deletion", ready.Status.NetworkID)
	}
	resumed := 0
	for _, r := range NeutronAuditRequestsSince(t, ks.NeutronLog, mark) {
		if r.ProjectID == project && r.Method == "DELETE" {
			resumed++
		}
	}
	t.Logf("paused: 0 Neutron requests of the project in 5 s with a spec change and a deletion waiting; resumed: %d DELETE", resumed)
}
