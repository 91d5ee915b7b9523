//go:build e2e

package e2e

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// While a port still uses the subnet, a deleted Network stays with its
// finalizer and says why (Ready=False SubnetInUse naming the subnet, a Warning Event);
// once the port is gone the Network and all of its Neutron side disappear.
func TestDeletionWaitsForPorts(t *testing.T) {
	t.Parallel()
	ns := NewNamespace(t)
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns}, Args: []string{"-retry-max-delay=3s"}})

	CreateNetwork(t, ns, "busy", "10.60.0.0/24", "")
	n := WaitReady(t, ns, "busy", 60*time.Second)
	owner := OwnerOf(ctrl.ClusterID, n)
	port := CreatePort(t, n.Status.NetworkID, n.Status.SubnetID)

	DeleteNetwork(t, ns, "busy")
	blocked := WaitReason(t, ns, "busy", 60*time.Second, metav1.ConditionFalse, samplecrdv1.ReasonSubnetInUse)
	if blocked.DeletionTimestamp == nil || !slices.Contains(blocked.Finalizers, samplecrdv1.FinalizerName) {
		t.Errorf("blocked Network: deletionTimestamp %v finalizers %v; want it held by %s", blocked.DeletionTimestamp, blocked.Finalizers, samplecrdv1.FinalizerName)
	}
	msg := blocked.ReadyCondition().Message
	if !strings.Contains(msg, n.Status.NetworkID) || !strings.Contains(msg, port) {
		t.Errorf("SubnetInUse message does not name the network and its port: %q", msg)
	}
	WaitEvent(t, ns, "busy", "Warning", samplecrdv1.ReasonSubnetInUse, port, 30*time.Second)
	// Still blocked a while later, and Neutron still has everything.
	time.Sleep(4 * time.Second)
	if _, err := TryGetNetwork(t, ns, "busy"); err != nil {
		t.Fatalf("Network went away while its subnet still had a port: %v", err)
	}
	if !NetworkExists(t, n.Status.NetworkID) {
		t.Fatalf("Neutron network %s deleted while a port was on it", n.Status.NetworkID)
	}
	if _, ok := GetSubnet(t, n.Status.SubnetID); !ok {
		t.Fatalf("Neutron subnet %s deleted while a port was on it", n.Status.SubnetID)
	}

	MustNeutron(t, http.MethodDelete, "v2.0/ports/"+port, nil, nil, http.StatusNoContent)
	WaitGone(t, ns, "busy", 30*time.Second)
	if NetworkExists(t, n.Status.NetworkID) {
		t.Errorf("Neutron network %s still exists", n.Status.NetworkID)
	}
	WaitNeutronEmpty(t, owner, 10*time.Second)
	WaitEvent(t, ns, "busy", "Normal", "NeutronDeleted", "", 30*time.Second)
}

// CreatePort creates a port with a fixed IP on the subnet directly in Neutron and returns
// its ID; it is deleted at the end of the test if still there.
func CreatePort(t testing.TB, networkID, subnetID string) string {
	t.Helper()
	var doc struct {
		Port struct {
			ID string `json:"id"`
		} `json:"port"`
	}
	MustNeutron(t, http.MethodPost, "v2.0/ports", map[string]any{"port": map[string]any{
		"network_id": networkID,
		"name":       "e2e-port-" + RandomSuffix(6),
		"fixed_ips":  []map[string]string{{"subnet_id": subnetID}},
	}}, &doc, http.StatusCreated)
	t.Cleanup(func() { _, _, _ = neutronDo(http.MethodDelete, "v2.0/ports/"+doc.Port.ID, nil) })
	return doc.Port.ID
}
