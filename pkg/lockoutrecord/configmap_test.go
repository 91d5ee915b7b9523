package lockoutrecord

import (
	"context"
	"errors"
	"maps"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

const ns, name = "network-controller", "refusals"

func ptr(s string) *string { return &s }

func data(t *testing.T, kube *fake.Clientset) map[string]string {
	t.Helper()
	cm, err := kube.CoreV1().ConfigMaps(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return cm.Data
}

func patches(kube *fake.Clientset) int {
	n := 0
	for _, a := range kube.Actions() {
		if a.GetVerb() == "patch" {
			n++
		}
	}
	return n
}

// The first write creates the ConfigMap; later ones change only the keys they name, so
// an entry someone else removed stays removed.
func TestWritesMergeIntoTheConfigMap(t *testing.T) {
	ctx := context.Background()
	kube := fake.NewClientset()
	r := New(kube.CoreV1().ConfigMaps(ns), name, "test-manager", map[string]string{"app": "x"})
	if got, err := r.Load(ctx); err != nil || len(got) != 0 {
		t.Fatalf("Load before any write = %v, %v; want empty", got, err)
	}
	r.Stage("a", ptr("1"))
	r.Stage("b", ptr("2"))
	r.Stage("gone", nil)
	if err := r.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if got := data(t, kube); !maps.Equal(got, map[string]string{"a": "1", "b": "2"}) {
		t.Fatalf("after the first flush: %v", got)
	}
	cm, _ := kube.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if cm.Labels["app"] != "x" {
		t.Errorf("labels %v", cm.Labels)
	}

	// The operator removes b.
	delete(cm.Data, "b")
	if _, err := kube.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	r.Stage("a", nil)
	r.Stage("c", ptr("3"))
	if err := r.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	got, err := r.Load(ctx)
	if err != nil || !maps.Equal(got, map[string]string{"c": "3"}) {
		t.Errorf("Load = %v, %v; want only c", got, err)
	}
	if err := r.Flush(ctx); err != nil || patches(kube) != 2 { // the first found nothing and created it
		t.Errorf("a flush with nothing staged: %v, %d patches in all, want 2", err, patches(kube))
	}
}

// Changes staged while a write is under way go out together in the next one, and every
// flush returns only once its changes are written.
func TestFlushesWaitingShareOneWrite(t *testing.T) {
	ctx := context.Background()
	kube := fake.NewClientset(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}})
	entered, release := make(chan struct{}), make(chan struct{})
	first := true
	kube.PrependReactor("patch", "configmaps", func(k8stesting.Action) (bool, runtime.Object, error) {
		if first {
			first = false
			close(entered)
			<-release
		}
		return false, nil, nil
	})
	r := New(kube.CoreV1().ConfigMaps(ns), name, "test-manager", nil)
	r.Stage("k0", ptr("0"))
	firstDone := make(chan error)
	go func() { firstDone <- r.Flush(ctx) }()
	<-entered

	keys := []string{"k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8"}
	var wg sync.WaitGroup
	errs := make(chan error, len(keys))
	for _, k := range keys {
		r.Stage(k, ptr(k))
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := r.Flush(ctx); err != nil {
				errs <- err
				return
			}
			if _, ok := data(t, kube)[k]; !ok {
				errs <- errors.New(k + " not written when its flush returned")
			}
		}()
	}
	close(release)
	if err := <-firstDone; err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := patches(kube); n != 2 {
		t.Errorf("%d patches for 9 flushes, want 2", n)
	}
}

// A failed write fails the flushes waiting for it, with the ConfigMap named.
func TestAFailedWriteFailsItsFlushes(t *testing.T) {
	kube := fake.NewClientset()
	kube.PrependReactor("*", "configmaps", func(a k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(schema.GroupResource{Resource: "configmaps"}, name, errors.New("no RBAC"))
	})
	r := New(kube.CoreV1().ConfigMaps(ns), name, "test-manager", nil)
	r.Stage("a", ptr("1"))
	err := r.Flush(context.Background())
	if !apierrors.IsForbidden(err) {
		t.Fatalf("Flush = %v, want the Forbidden error", err)
	}
	if _, err := r.Load(context.Background()); !apierrors.IsForbidden(err) {
		t.Errorf("Load = %v, want the Forbidden error", err)
	}
}
