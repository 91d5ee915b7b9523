//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	versioned "github.com/samplecrd/network-controller/pkg/client/clientset/versioned"
)

// CreateNetwork creates a Network through the API.
func CreateNetwork(t testing.TB, ns, name, cidr, gateway string) *samplecrdv1.Network {
	t.Helper()
	return CreateNetworkWithSpec(t, ns, name, samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: cidr, Gateway: gateway}})
}

// CreateNetworkWithSpec creates a Network with that spec through the API.
func CreateNetworkWithSpec(t testing.TB, ns, name string, spec samplecrdv1.NetworkSpec) *samplecrdv1.Network {
	t.Helper()
	_, nets := Clients(t)
	n, err := nets.SamplecrdV1().Networks(ns).Create(Ctx(t, 30*time.Second), &samplecrdv1.Network{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec:       spec,
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating Network %s/%s (spec %+v): %v", ns, name, spec, err)
	}
	return n
}

// SetGateway changes spec.gateway with a merge patch and returns the updated Network.
func SetGateway(t testing.TB, ns, name, gateway string) *samplecrdv1.Network {
	t.Helper()
	_, nets := Clients(t)
	patch := fmt.Sprintf(`{"spec":{"gateway":%q}}`, gateway)
	n, err := nets.SamplecrdV1().Networks(ns).Patch(Ctx(t, 30*time.Second), name, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
	if err != nil {
		t.Fatalf("setting gateway of Network %s/%s to %s: %v", ns, name, gateway, err)
	}
	return n
}

// PatchSpecField sets the Network's spec.<field> to value, JSON ("null" removes it), with
// a merge patch.
func PatchSpecField(t testing.TB, ns, name, field, value string) {
	t.Helper()
	_, nets := Clients(t)
	if _, err := nets.SamplecrdV1().Networks(ns).Patch(Ctx(t, 30*time.Second), name, types.MergePatchType,
		[]byte(`{"spec":{"`+field+`":`+value+`}}`), metav1.PatchOptions{}); err != nil {
		t.Fatalf("setting spec.%s of %s/%s to %s: %v", field, ns, name, value, err)
	}
}

// NeutronNetworkAttribute reads the string attribute attr of Neutron network networkID as
// the cloud's admin: nil when it is null, or when this Neutron has no such attribute.
func NeutronNetworkAttribute(t testing.TB, networkID, attr string) *string {
	t.Helper()
	var doc struct {
		Network map[string]any `json:"network"`
	}
	MustNeutron(t, http.MethodGet, "v2.0/networks/"+networkID, nil, &doc, http.StatusOK)
	value, ok := doc.Network[attr].(string)
	if !ok {
		return nil
	}
	return &value
}

// ChangeByHandAndWaitRepair changes the Neutron attribute attr of network networkID (the
// Network ns/name's) to byHand, as someone would by hand once ctrl's resync has settled
// (so that what repairs it is the resync, not a reconcile in flight), and waits until
// read() gives want again and a NeutronDrift Event says drift.
func ChangeByHandAndWaitRepair(t testing.TB, ctrl *Controller, ns, name, networkID, attr string, byHand any, read func() string, want, drift string) {
	t.Helper()
	ctrl.WaitNewLogLine(30*time.Second, "Neutron resync done", "requeued=0")
	MustNeutron(t, http.MethodPut, "v2.0/networks/"+networkID, map[string]any{"network": map[string]any{attr: byHand}}, nil, http.StatusOK)
	Eventually(t, 60*time.Second, 500*time.Millisecond, attr+" "+want+" put back in Neutron", func() error {
		if got := read(); got != want {
			return fmt.Errorf("%s is %q", attr, got)
		}
		return nil
	})
	WaitEvent(t, ns, name, "Warning", "NeutronDrift", drift, 30*time.Second)
	t.Logf("drift repaired: network %s back on %s %s", networkID, attr, want)
}

// UpdateNetworkSpec changes the Network's spec with change, read again and retried when the
// update conflicts with a status write, and returns the Network as updated.
func UpdateNetworkSpec(t testing.TB, ns, name string, change func(*samplecrdv1.NetworkSpec)) *samplecrdv1.Network {
	t.Helper()
	_, nets := Clients(t)
	for attempt := 1; ; attempt++ {
		n, err := nets.SamplecrdV1().Networks(ns).Get(Ctx(t, 30*time.Second), name, metav1.GetOptions{})
		if err != nil {
			t.Fatalf("reading Network %s/%s: %v", ns, name, err)
		}
		change(&n.Spec)
		updated, err := nets.SamplecrdV1().Networks(ns).Update(Ctx(t, 30*time.Second), n, metav1.UpdateOptions{})
		if err == nil {
			return updated
		}
		if !apierrors.IsConflict(err) || attempt == 5 {
			t.Fatalf("updating the spec of Network %s/%s: %v", ns, name, err)
		}
	}
}

// DeleteNetwork asks for the Network's deletion (it stays while it has finalizers).
func DeleteNetwork(t testing.TB, ns, name string) {
	t.Helper()
	_, nets := Clients(t)
	if err := nets.SamplecrdV1().Networks(ns).Delete(Ctx(t, 30*time.Second), name, metav1.DeleteOptions{}); err != nil {
		t.Fatalf("deleting Network %s/%s: %v", ns, name, err)
	}
}

// RemoveFinalizers drops every finalizer of a Network (what an admin would do by hand).
func RemoveFinalizers(ctx context.Context, nets versioned.Interface, ns, name string) error {
	_, err := nets.SamplecrdV1().Networks(ns).Patch(ctx, name, types.MergePatchType,
		[]byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

// TryGetNetwork returns the Network or the API error (use apierrors.IsNotFound).
func TryGetNetwork(t testing.TB, ns, name string) (*samplecrdv1.Network, error) {
	t.Helper()
	_, nets := Clients(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return nets.SamplecrdV1().Networks(ns).Get(ctx, name, metav1.GetOptions{})
}

// DescribeReady summarises the Ready condition for error messages.
func DescribeReady(n *samplecrdv1.Network) string {
	c := n.ReadyCondition()
	if c == nil {
		return fmt.Sprintf("no Ready condition (generation %d, status %+v)", n.Generation, n.Status)
	}
	return fmt.Sprintf("Ready=%s reason=%s observedGeneration=%d generation=%d message=%q",
		c.Status, c.Reason, c.ObservedGeneration, n.Generation, c.Message)
}

// WaitNetwork waits until cond accepts the Network and returns it.
func WaitNetwork(t testing.TB, ns, name string, timeout time.Duration, what string, cond func(*samplecrdv1.Network) error) *samplecrdv1.Network {
	t.Helper()
	var got *samplecrdv1.Network
	Eventually(t, timeout, 250*time.Millisecond, fmt.Sprintf("Network %s/%s: %s", ns, name, what), func() error {
		n, err := TryGetNetwork(t, ns, name)
		if err == nil {
			err = cond(n)
		}
		got = n
		return err
	})
	return got
}

// WaitReady waits until the Network is Ready=True for its current generation, with
// status.networkID and status.subnetID set, and returns it.
func WaitReady(t testing.TB, ns, name string, timeout time.Duration) *samplecrdv1.Network {
	t.Helper()
	return WaitNetwork(t, ns, name, timeout, "Ready=True", func(n *samplecrdv1.Network) error {
		if !n.IsReady() || n.Status.NetworkID == "" || n.Status.SubnetID == "" {
			return fmt.Errorf("not ready: %s, networkID=%q subnetID=%q", DescribeReady(n), n.Status.NetworkID, n.Status.SubnetID)
		}
		return nil
	})
}

// WaitReason waits until the Ready condition has the given status and reason.
func WaitReason(t testing.TB, ns, name string, timeout time.Duration, status metav1.ConditionStatus, reason string) *samplecrdv1.Network {
	t.Helper()
	return WaitNetwork(t, ns, name, timeout, fmt.Sprintf("Ready=%s reason %s", status, reason), func(n *samplecrdv1.Network) error {
		if c := n.ReadyCondition(); c == nil || c.Status != status || c.Reason != reason {
			return fmt.Errorf("%s", DescribeReady(n))
		}
		return nil
	})
}

// WaitGone waits until the Network no longer exists.
func WaitGone(t testing.TB, ns, name string, timeout time.Duration) {
	t.Helper()
	Eventually(t, timeout, 250*time.Millisecond, fmt.Sprintf("Network %s/%s to be gone", ns, name), func() error {
		n, err := TryGetNetwork(t, ns, name)
		if apierrors.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		return fmt.Errorf("still there: finalizers=%v deletionTimestamp=%v %s", n.Finalizers, n.DeletionTimestamp, DescribeReady(n))
	})
}

// Events returns the Events about the Network named name in ns.
func Events(t testing.TB, ns, name string) []corev1.Event {
	t.Helper()
	kube, _ := Clients(t)
	list, err := kube.CoreV1().Events(ns).List(Ctx(t, 30*time.Second), metav1.ListOptions{
		FieldSelector: "involvedObject.kind=Network,involvedObject.name=" + name,
	})
	if err != nil {
		t.Fatalf("listing Events of %s/%s: %v", ns, name, err)
	}
	return list.Items
}

// WaitEvent waits for an Event about the Network with that type and reason whose message
// contains substr ("" for any message), and returns it.
func WaitEvent(t testing.TB, ns, name, eventType, reason, substr string, timeout time.Duration) corev1.Event {
	t.Helper()
	var found corev1.Event
	Eventually(t, timeout, 500*time.Millisecond, fmt.Sprintf("Event %s %s containing %q about Network %s/%s", eventType, reason, substr, ns, name), func() error {
		var seen []string
		for _, e := range Events(t, ns, name) {
			if e.Type == eventType && e.Reason == reason && strings.Contains(e.Message, substr) {
				found = e
				return nil
			}
			seen = append(seen, fmt.Sprintf("%s/%s: %s", e.Type, e.Reason, e.Message))
		}
		return fmt.Errorf("events so far: %q", seen)
	})
	return found
}

// GetNetwork returns the Network and fails the test when it cannot be read.
func GetNetwork(t testing.TB, ns, name string) *samplecrdv1.Network {
	t.Helper()
	n, err := TryGetNetwork(t, ns, name)
	if err != nil {
		t.Fatalf("getting Network %s/%s: %v", ns, name, err)
	}
	return n
}

// findItem returns the item of the list form called name in the Network's status, or nil.
func findItem(n *samplecrdv1.Network, name string) *samplecrdv1.SubnetStatus {
	for i := range n.Status.Subnets {
		if n.Status.Subnets[i].Name == name {
			return &n.Status.Subnets[i]
		}
	}
	return nil
}
