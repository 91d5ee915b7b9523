//go:build e2e

package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// A project at its Neutron quota: the Network that does not fit waits with OverQuota,
// whose message names the resource with the project's limit and use as the real
// neutron-server answers them to a member; the refusals are counted per project; raising
// the quota lets it through at the next retry.
func TestOverQuotaNamesTheLimit(t *testing.T) {
	t.Parallel()
	ks, _ := OwnKeystone(t, LocalKeystone(t).WithOwnUsers(t, MemberCloud, TenantA))
	project := ks.ProjectID(t, TenantA)
	setQuota := func(networks int) {
		MustNeutron(t, http.MethodPut, "v2.0/quotas/"+project, map[string]any{"quota": map[string]int{"network": networks}}, nil, http.StatusOK)
	}
	setQuota(1)
	t.Cleanup(func() { _, _, _ = neutronDo(http.MethodDelete, "v2.0/quotas/"+project, nil) })
	ns, ctrl := StartTenantController(t, ks, ks.CloudsYAMLOf(t, TenantA))

	CreateTenantNetwork(t, ns, "first", "10.185.0.0/24", "openstack", TenantA)
	WaitReady(t, ns, "first", 90*time.Second)
	CreateTenantNetwork(t, ns, "second", "10.185.1.0/24", "openstack", TenantA)
	refused := WaitReason(t, ns, "second", 90*time.Second, metav1.ConditionFalse, samplecrdv1.ReasonOverQuota)
	message := refused.ReadyCondition().Message
	t.Logf("Ready: %s", message)
	if !strings.Contains(message, "network (limit 1, 1 in use)") || !answeredRequest.MatchString(message) {
		t.Errorf("OverQuota message %q, want it to name network with limit 1 and 1 in use, and Neutron's request", message)
	}
	Eventually(t, 30*time.Second, 200*time.Millisecond, "quota refusals of the project counted", func() error {
		if n, err := ctrl.Metric("network_controller_neutron_quota_refusals_total", "project="+project); err != nil || n < 1 {
			return fmt.Errorf("network_controller_neutron_quota_refusals_total{project=%q} = %v (%v)", project, n, err)
		}
		return nil
	})

	setQuota(2)
	WaitReady(t, ns, "second", 60*time.Second)
	n, _ := ctrl.Metric("network_controller_neutron_quota_refusals_total", "project="+project)
	t.Logf("%v refusals counted for project %s before its quota was raised", n, project)
}
