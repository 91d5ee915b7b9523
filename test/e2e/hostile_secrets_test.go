//go:build e2e

package e2e

import (
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// A thousand Networks of one namespace name made-up Secrets. The controller watches at
// most -max-credentials-secrets-per-namespace of them (the rest say
// TooManyCredentialsSecrets), so its heap and goroutines grow by a bounded amount, as
// its own metrics show, and another namespace's Network becomes Ready meanwhile.
func TestMadeUpSecretsCostABoundedHeap(t *testing.T) {
	t.Parallel()
	ks := LocalKeystone(t)
	flood, calm := NewNamespace(t), NewNamespace(t)
	PutCredentialsSecret(t, calm, "openstack", map[string]string{"clouds.yaml": ks.CloudsYAMLOf(t, TenantA)})
	const perNamespace, networks = 32, 1000
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{flood, calm},
		Args: append(ks.ControllerArgs(MemberCloud), fmt.Sprintf("-max-credentials-secrets-per-namespace=%d", perNamespace)),
		Env:  ks.ControllerEnv()})
	ctrl.WaitReadyz(60 * time.Second)
	heapBefore, err := ctrl.Metric("go_memstats_heap_inuse_bytes")
	if err != nil {
		t.Fatal(err)
	}
	goroutinesBefore, err := ctrl.Metric("go_goroutines")
	if err != nil {
		t.Fatal(err)
	}

	for i := range networks {
		CreateTenantNetwork(t, flood, fmt.Sprintf("m-%04d", i), "10.195.0.0/24", fmt.Sprintf("made-up-%04d", i), TenantA)
	}
	start := time.Now()
	CreateTenantNetwork(t, calm, "calm", "10.195.1.0/24", "openstack", TenantA)
	WaitReady(t, calm, "calm", 120*time.Second)
	ready := time.Since(start)

	_, nets := Clients(t)
	var reasons map[string]int
	Eventually(t, 3*time.Minute, time.Second, "every flood Network to say why it waits", func() error {
		list, err := nets.SamplecrdV1().Networks(flood).List(Ctx(t, 30*time.Second), metav1.ListOptions{})
		if err != nil {
			return err
		}
		reasons = map[string]int{}
		for _, n := range list.Items {
			if c := n.ReadyCondition(); c != nil {
				reasons[c.Reason]++
			}
		}
		if reasons[samplecrdv1.ReasonCredentialsSecretNotFound] != perNamespace || reasons[samplecrdv1.ReasonTooManyCredentialsSecrets] != networks-perNamespace {
			return fmt.Errorf("reasons %v, want %d %s and %d %s", reasons, perNamespace, samplecrdv1.ReasonCredentialsSecretNotFound,
				networks-perNamespace, samplecrdv1.ReasonTooManyCredentialsSecrets)
		}
		return nil
	})
	heap, err := ctrl.Metric("go_memstats_heap_inuse_bytes")
	if err != nil {
		t.Fatal(err)
	}
	goroutines, err := ctrl.Metric("go_goroutines")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d Networks naming made-up Secrets: heap in use %.1f MiB before, %.1f MiB after; goroutines %.0f before, %.0f after; the other namespace's Network was Ready %s after it was created",
		networks, heapBefore/(1<<20), heap/(1<<20), goroutinesBefore, goroutines, ready.Round(time.Millisecond))
	// A watch runs about 4 goroutines: a watch per made-up Secret would add 4,000.
	if grown := goroutines - goroutinesBefore; grown > 8*perNamespace+100 {
		t.Errorf("%.0f goroutines more, want at most %d: the watches are not bounded", grown, 8*perNamespace+100)
	}
}
