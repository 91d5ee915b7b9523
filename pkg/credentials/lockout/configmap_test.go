package lockout

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"strconv"
	"sync"
	"testing"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"

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
	r := NewConfigMap(kube.CoreV1().ConfigMaps(ns), name, "test-manager", map[string]string{"app": "x"})
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
	r := NewConfigMap(kube.CoreV1().ConfigMaps(ns), name, "test-manager", nil)
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
	r := NewConfigMap(kube.CoreV1().ConfigMaps(ns), name, "test-manager", nil)
	r.Stage("a", ptr("1"))
	err := r.Flush(context.Background())
	if !apierrors.IsForbidden(err) {
		t.Fatalf("Flush = %v, want the Forbidden error", err)
	}
	if _, err := r.Load(context.Background()); !apierrors.IsForbidden(err) {
		t.Errorf("Load = %v, want the Forbidden error", err)
	}
}

// Two writers of one ConfigMap (two controllers): a write after the other's, made without
// reading it, fails with a conflict and changes nothing; after Latest it goes through.
func TestAWriteAfterAnothersConflicts(t *testing.T) {
	ctx := context.Background()
	kube := withResourceVersions(fake.NewClientset())
	first := NewConfigMap(kube.CoreV1().ConfigMaps(ns), name, "test-manager", nil)
	second := NewConfigMap(kube.CoreV1().ConfigMaps(ns), name, "test-manager", nil)
	first.Stage("a", ptr("1"))
	if err := first.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := second.Latest(ctx); err != nil {
		t.Fatal(err)
	}
	first.Stage("a", ptr("2"))
	if err := first.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	second.Stage("a", ptr("1-and-mine"))
	if err := second.Flush(ctx); !apierrors.IsConflict(err) {
		t.Fatalf("a write after another's = %v, want a conflict", err)
	}
	if got := data(t, kube); got["a"] != "2" {
		t.Fatalf("after the conflict: %v, want the first writer's", got)
	}
	if got, err := second.Latest(ctx); err != nil || got["a"] != "2" {
		t.Fatalf("Latest = %v, %v", got, err)
	}
	second.Stage("a", ptr("3"))
	if err := second.Flush(ctx); err != nil {
		t.Fatalf("a write after Latest: %v", err)
	}
	if got := data(t, kube); got["a"] != "3" {
		t.Fatalf("after the second writer's write: %v", got)
	}
}

// withResourceVersions makes kube's ConfigMaps carry resourceVersions that each write
// advances, and a merge patch naming another one fail with a conflict, as the apiserver
// does; the fake alone keeps none.
func withResourceVersions(kube *fake.Clientset) *fake.Clientset {
	var mu sync.Mutex
	version := 0
	kube.PrependReactor("create", "configmaps", func(action k8stesting.Action) (bool, runtime.Object, error) {
		mu.Lock()
		defer mu.Unlock()
		cm := action.(k8stesting.CreateAction).GetObject().(*corev1.ConfigMap).DeepCopy()
		cm.Namespace = action.GetNamespace()
		version++
		cm.ResourceVersion = strconv.Itoa(version)
		if err := kube.Tracker().Create(configMaps, cm, cm.Namespace); err != nil {
			return true, nil, err
		}
		return true, cm, nil
	})
	kube.PrependReactor("patch", "configmaps", func(action k8stesting.Action) (bool, runtime.Object, error) {
		mu.Lock()
		defer mu.Unlock()
		patch := action.(k8stesting.PatchAction)
		obj, err := kube.Tracker().Get(configMaps, patch.GetNamespace(), patch.GetName())
		if err != nil {
			return true, nil, err
		}
		old := obj.(*corev1.ConfigMap)
		var pre struct {
			Metadata struct {
				ResourceVersion string `json:"resourceVersion"`
			} `json:"metadata"`
		}
		if err := json.Unmarshal(patch.GetPatch(), &pre); err != nil {
			return true, nil, err
		}
		if v := pre.Metadata.ResourceVersion; v != "" && v != old.ResourceVersion {
			return true, nil, apierrors.NewConflict(corev1.Resource("configmaps"), old.Name, errors.New("the object has been modified"))
		}
		oldJSON, _ := json.Marshal(old)
		merged, err := jsonpatch.MergePatch(oldJSON, patch.GetPatch())
		if err != nil {
			return true, nil, err
		}
		cm := &corev1.ConfigMap{}
		if err := json.Unmarshal(merged, cm); err != nil {
			return true, nil, err
		}
		version++
		cm.ResourceVersion = strconv.Itoa(version)
		if err := kube.Tracker().Update(configMaps, cm, cm.Namespace); err != nil {
			return true, nil, err
		}
		return true, cm, nil
	})
	return kube
}

var configMaps = corev1.SchemeGroupVersion.WithResource("configmaps")
