//go:build e2e

package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// keepFinalizer is another party's finalizer on a credentials Secret; the controller must
// never add or remove it.
const keepFinalizer = "e2e.example.com/keep"

// `kubectl delete namespace` of a tenant with Ready Networks and their Secret: the
// kube-controller-manager deletes both together, the Secret waits for the Networks, the
// Networks delete their Neutron side with it, and then the namespace is gone.
func TestNamespaceDeletionCleansNeutron(t *testing.T) {
	t.Parallel()
	ks := LocalKeystone(t)
	ns := NewNamespace(t)
	PutCredentialsSecret(t, ns, "openstack", map[string]string{"clouds.yaml": ks.CloudsYAMLOf(t, TenantA)})
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns}, Args: ks.ControllerArgs(MemberCloud), Env: ks.ControllerEnv()})

	var networkIDs, subnetIDs []string
	for i, name := range []string{"a", "b", "c"} {
		CreateTenantNetwork(t, ns, name, fmt.Sprintf("10.160.%d.0/24", i), "openstack", TenantA)
	}
	for _, name := range []string{"a", "b", "c"} {
		n := WaitReady(t, ns, name, 90*time.Second)
		networkIDs, subnetIDs = append(networkIDs, n.Status.NetworkID), append(subnetIDs, n.Status.SubnetID)
	}
	WaitSecretFinalizers(t, ns, "openstack", 30*time.Second, samplecrdv1.CredentialsFinalizerName)
	if seen := ks.NetworkIDsSeenBy(t, TenantA); !containsAllOf(seen, networkIDs) {
		t.Fatalf("team-a sees %v, want its networks %v before the namespace goes", seen, networkIDs)
	}

	MustKubectl(t, "delete", "namespace", ns, "--wait=false")
	kube, nets := Clients(t)
	start := time.Now()
	Eventually(t, 3*time.Minute, 500*time.Millisecond, "namespace "+ns+" to be gone", func() error {
		got, err := kube.CoreV1().Namespaces().Get(Ctx(t, 10*time.Second), ns, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		return fmt.Errorf("namespace %s is %s: %v", ns, got.Status.Phase, got.Status.Conditions)
	})
	t.Logf("namespace %s was gone %s after kubectl delete namespace", ns, time.Since(start).Round(100*time.Millisecond))

	WaitAuditConverging(t, nets, time.Minute, ctrl.ClusterID, ns)
	if seen := ks.NetworkIDsSeenBy(t, TenantA); containsAnyOf(seen, networkIDs) {
		t.Errorf("team-a still sees %v after its namespace went; none of %v should be left", seen, networkIDs)
	}
	for _, id := range subnetIDs {
		if _, found := GetSubnet(t, id); found {
			t.Errorf("Neutron subnet %s is still there after its namespace went", id)
		}
	}
	logs := ctrl.Logs()
	for _, want := range []string{"Deleted Neutron resources and removed finalizer", "Removed the credentials finalizer"} {
		if !strings.Contains(logs, want) {
			t.Errorf("controller log lacks %q", want)
		}
	}
}

// A credentials Secret deleted while its Networks live stays until the last of them is
// gone, and of its finalizers the controller only ever adds and removes its own: another
// party's, there before or added later, survives everything.
func TestCredentialsSecretKeptWhileNetworksNeedIt(t *testing.T) {
	t.Parallel()
	ks := LocalKeystone(t)
	ns := NewNamespace(t)
	kube, _ := Clients(t)
	_, err := kube.CoreV1().Secrets(ns).Create(Ctx(t, 30*time.Second), &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: "openstack", Namespace: ns, Finalizers: []string{keepFinalizer},
			Labels: map[string]string{samplecrdv1.CredentialsLabel: "true"}},
		StringData: map[string]string{"clouds.yaml": ks.CloudsYAMLOf(t, TenantA)},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating Secret %s/openstack: %v", ns, err)
	}
	t.Cleanup(func() { removeSecretFinalizer(t, ns, "openstack", keepFinalizer) })
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns}, Args: ks.ControllerArgs(MemberCloud), Env: ks.ControllerEnv()})

	one := CreateTenantNetwork(t, ns, "one", "10.161.0.0/24", "openstack", TenantA)
	two := CreateTenantNetwork(t, ns, "two", "10.161.1.0/24", "openstack", TenantA)
	WaitReady(t, ns, "one", 90*time.Second)
	WaitReady(t, ns, "two", 90*time.Second)
	WaitSecretFinalizers(t, ns, "openstack", 30*time.Second, keepFinalizer, samplecrdv1.CredentialsFinalizerName)

	// Another party adds a finalizer while the controller's is on.
	const later = "e2e.example.com/added-later"
	addSecretFinalizer(t, ns, "openstack", later)
	DeleteSecret(t, ns, "openstack")
	Consistently(t, 5*time.Second, 500*time.Millisecond, "the deleted Secret to stay while Networks use it", func() error {
		s, err := kube.CoreV1().Secrets(ns).Get(Ctx(t, 10*time.Second), "openstack", metav1.GetOptions{})
		if err != nil {
			return err
		}
		if s.DeletionTimestamp == nil {
			return fmt.Errorf("Secret has no deletionTimestamp")
		}
		if want := []string{keepFinalizer, samplecrdv1.CredentialsFinalizerName, later}; !slices.Equal(s.Finalizers, want) {
			return fmt.Errorf("finalizers %q, want %q", s.Finalizers, want)
		}
		return nil
	})

	DeleteNetwork(t, ns, "one")
	WaitGone(t, ns, "one", 60*time.Second)
	WaitNeutronEmpty(t, OwnerOf(ctrl.ClusterID, one), 30*time.Second)
	Consistently(t, 3*time.Second, 500*time.Millisecond, "the Secret to stay while Network two uses it", func() error {
		return secretFinalizersAre(t, ns, "openstack", keepFinalizer, samplecrdv1.CredentialsFinalizerName, later)
	})

	DeleteNetwork(t, ns, "two")
	WaitGone(t, ns, "two", 60*time.Second)
	WaitNeutronEmpty(t, OwnerOf(ctrl.ClusterID, two), 30*time.Second)
	WaitSecretFinalizers(t, ns, "openstack", 30*time.Second, keepFinalizer, later)

	// Only the other finalizers hold it now; without them it goes.
	removeSecretFinalizer(t, ns, "openstack", keepFinalizer)
	removeSecretFinalizer(t, ns, "openstack", later)
	Eventually(t, 30*time.Second, 250*time.Millisecond, "the Secret to be gone", func() error {
		_, err := kube.CoreV1().Secrets(ns).Get(Ctx(t, 10*time.Second), "openstack", metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return nil
		}
		return fmt.Errorf("Secret still there (%v)", err)
	})
}

// WaitSecretFinalizers waits until the finalizers of Secret ns/name are exactly want, in
// that order.
func WaitSecretFinalizers(t testing.TB, ns, name string, timeout time.Duration, want ...string) {
	t.Helper()
	Eventually(t, timeout, 250*time.Millisecond, fmt.Sprintf("Secret %s/%s finalizers %q", ns, name, want), func() error {
		return secretFinalizersAre(t, ns, name, want...)
	})
}

func secretFinalizersAre(t testing.TB, ns, name string, want ...string) error {
	kube, _ := Clients(t)
	s, err := kube.CoreV1().Secrets(ns).Get(Ctx(t, 10*time.Second), name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if !slices.Equal(s.Finalizers, want) {
		return fmt.Errorf("finalizers %q, want %q", s.Finalizers, want)
	}
	return nil
}

// addSecretFinalizer and removeSecretFinalizer change one finalizer of Secret ns/name with
// a JSON patch that tests the list it changes.
func addSecretFinalizer(t testing.TB, ns, name, finalizer string) {
	t.Helper()
	MustKubectl(t, "patch", "secret", name, "-n", ns, "--type=json",
		"-p", fmt.Sprintf(`[{"op":"add","path":"/metadata/finalizers/-","value":%q}]`, finalizer))
}

func removeSecretFinalizer(t testing.TB, ns, name, finalizer string) {
	t.Helper()
	kube, _ := Clients(t)
	s, err := kube.CoreV1().Secrets(ns).Get(Ctx(t, 10*time.Second), name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return
	}
	if err != nil {
		t.Fatalf("reading Secret %s/%s: %v", ns, name, err)
	}
	i := slices.Index(s.Finalizers, finalizer)
	if i < 0 {
		return
	}
	MustKubectl(t, "patch", "secret", name, "-n", ns, "--type=json",
		"-p", fmt.Sprintf(`[{"op":"test","path":"/metadata/finalizers/%d","value":%q},{"op":"remove","path":"/metadata/finalizers/%d"}]`, i, finalizer, i))
}

func containsAllOf(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}

func containsAnyOf(have, want []string) bool {
	return slices.ContainsFunc(want, func(w string) bool { return slices.Contains(have, w) })
}
