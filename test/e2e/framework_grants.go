//go:build e2e

package e2e

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// GrantPowers makes a ClusterIdentity that selects namespace ns alone and allows its
// Networks allow in the controller's own cloud, as an operator would; it returns the
// identity's name. Call it before starting the controller, so that the identity outlives
// it: taken away while the controller runs, the powers would be undone at cleanup.
func GrantPowers(t testing.TB, ns string, allow samplecrdv1.IdentityAllow) string {
	t.Helper()
	identity := &samplecrdv1.ClusterIdentity{
		ObjectMeta: metav1.ObjectMeta{Name: "e2e-grant-" + ns},
		Spec: samplecrdv1.ClusterIdentitySpec{
			NamespaceSelector: metav1.LabelSelector{MatchLabels: map[string]string{corev1.LabelMetadataName: ns}},
			Allow:             allow,
		},
	}
	return createIdentity(t, identity)
}

// SetGrant replaces what the identity name allows; a conflict with the controller's
// status write is retried.
func SetGrant(t testing.TB, name string, allow samplecrdv1.IdentityAllow) {
	t.Helper()
	_, nets := Clients(t)
	ctx := Ctx(t, time.Minute)
	var err error
	for range 10 {
		var identity *samplecrdv1.ClusterIdentity
		if identity, err = nets.SamplecrdV1().ClusterIdentities().Get(ctx, name, metav1.GetOptions{}); err != nil {
			break
		}
		identity.Spec.Allow = allow
		if _, err = nets.SamplecrdV1().ClusterIdentities().Update(ctx, identity, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
			break
		}
	}
	if err != nil {
		t.Fatalf("updating ClusterIdentity %s: %v", name, err)
	}
}

// DelegateProject makes a ClusterIdentity that hands the project of cloud in the Secret
// secretNamespace/secretName to the namespaces with the label selector, allowing allow;
// it returns the identity's name.
func DelegateProject(t testing.TB, selector map[string]string, secretNamespace, secretName, cloud string, allow samplecrdv1.IdentityAllow) string {
	t.Helper()
	identity := &samplecrdv1.ClusterIdentity{
		ObjectMeta: metav1.ObjectMeta{Name: "e2e-delegate-" + RandomSuffix(8)},
		Spec: samplecrdv1.ClusterIdentitySpec{
			NamespaceSelector: metav1.LabelSelector{MatchLabels: selector},
			SecretRef:         &samplecrdv1.SecretReference{Namespace: secretNamespace, Name: secretName},
			CloudName:         cloud,
			Allow:             allow,
		},
	}
	return createIdentity(t, identity)
}

// CreateDelegatedNetwork creates a Network whose credentials are those of the
// ClusterIdentity identity.
func CreateDelegatedNetwork(t testing.TB, ns, name, cidr, identity string) {
	t.Helper()
	CreateNetworkWithSpec(t, ns, name, samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: cidr},
		CloudCredentialsRef: &samplecrdv1.CloudCredentialsRef{ClusterIdentity: identity}})
}

// createIdentity creates identity, deleted when the test ends, and returns its name.
func createIdentity(t testing.TB, identity *samplecrdv1.ClusterIdentity) string {
	t.Helper()
	_, nets := Clients(t)
	if _, err := nets.SamplecrdV1().ClusterIdentities().Create(Ctx(t, time.Minute), identity, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating ClusterIdentity %s: %v", identity.Name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := nets.SamplecrdV1().ClusterIdentities().Delete(ctx, identity.Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Logf("cleanup: deleting ClusterIdentity %s: %v", identity.Name, err)
		}
	})
	return identity.Name
}
