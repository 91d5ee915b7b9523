//go:build e2e

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The ResourceQuota docs/tenants.md shows caps a namespace's Networks at admission: the
// apiserver refuses the Network past the count, so a namespace cannot spend more of a
// shared project's quota than the operator gave it. No controller is involved.
func TestResourceQuotaCapsNetworks(t *testing.T) {
	t.Parallel()
	ns := NewNamespace(t)
	kube, _ := Clients(t)
	const resourceName = corev1.ResourceName("count/networks.samplecrd.k8s.io")
	quota := &corev1.ResourceQuota{ObjectMeta: metav1.ObjectMeta{Name: "networks"},
		Spec: corev1.ResourceQuotaSpec{Hard: corev1.ResourceList{resourceName: resource.MustParse("2")}}}
	if _, err := kube.CoreV1().ResourceQuotas(ns).Create(Ctx(t, time.Minute), quota, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating the ResourceQuota: %v", err)
	}
	// Admission counts from the quota's status, which kube-controller-manager fills in.
	Eventually(t, 60*time.Second, 500*time.Millisecond, "the quota's status to count Networks", func() error {
		q, err := kube.CoreV1().ResourceQuotas(ns).Get(Ctx(t, 10*time.Second), "networks", metav1.GetOptions{})
		if err != nil {
			return err
		}
		if _, ok := q.Status.Hard[resourceName]; !ok {
			return fmt.Errorf("status %+v", q.Status)
		}
		return nil
	})

	for i, cidr := range []string{"10.85.0.0/24", "10.85.1.0/24"} {
		MustKubectl(t, "apply", "-n", ns, "-f", WriteFile(t, fmt.Sprintf("net-%d.yaml", i), fmt.Sprintf(
			"apiVersion: samplecrd.k8s.io/v1\nkind: Network\nmetadata: {name: net-%d}\nspec: {cidr: %q}\n", i, cidr)))
	}
	out, err := Kubectl(t, "apply", "-n", ns, "-f", WriteFile(t, "net-2.yaml",
		"apiVersion: samplecrd.k8s.io/v1\nkind: Network\nmetadata: {name: net-2}\nspec: {cidr: 10.85.2.0/24}\n"))
	if err == nil || !strings.Contains(out, "exceeded quota: networks") || !strings.Contains(out, string(resourceName)) {
		t.Errorf("the third Network: %v\n%s\nwant refused with exceeded quota: networks", err, out)
	}
}
