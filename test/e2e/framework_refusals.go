//go:build e2e

package e2e

import (
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// RefusalsOf returns the entries of the ConfigMap where the controllers of cluster ID
// clusterID (started with the admin kubeconfig) keep their counts of refused token
// requests; none when it does not exist.
func RefusalsOf(t testing.TB, clusterID string) map[string]string {
	t.Helper()
	kube, _ := Clients(t)
	cm, err := kube.CoreV1().ConfigMaps(metav1.NamespaceSystem).Get(Ctx(t, 30*time.Second), "e2e-refusals-"+clusterID, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		t.Fatalf("reading the refusals of cluster %s: %v", clusterID, err)
	}
	return cm.Data
}

func deleteConfigMap(t testing.TB, namespace, name string) {
	kube, _ := Clients(t)
	err := kube.CoreV1().ConfigMaps(namespace).Delete(Ctx(t, 30*time.Second), name, metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		t.Errorf("deleting ConfigMap %s/%s: %v", namespace, name, err)
	}
}
