package secretwatch

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	metadatafake "k8s.io/client-go/metadata/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2/ktesting"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

func secretMeta(name string, labelled bool) *metav1.PartialObjectMetadata {
	m := &metav1.PartialObjectMetadata{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "team-a", ResourceVersion: "5"},
	}
	if labelled {
		m.Labels = map[string]string{samplecrdv1.CredentialsLabel: "true"}
	}
	return m
}

func newTestWatches(t *testing.T, objects ...runtime.Object) (*Watches, *metadatafake.FakeMetadataClient, context.Context) {
	return newLimitedWatches(t, Limits{}, objects...)
}

func newLimitedWatches(t *testing.T, limits Limits, objects ...runtime.Object) (*Watches, *metadatafake.FakeMetadataClient, context.Context) {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := metav1.AddMetaToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	client := metadatafake.NewSimpleMetadataClient(scheme, objects...)
	_, ctx := ktesting.NewTestContext(t)
	ctx, cancel := context.WithCancel(ctx)
	t.Cleanup(cancel)
	return New(client, nil, limits), client, ctx
}

func key(name string) cache.ObjectName { return cache.NewObjectName("team-a", name) }

// A labelled Secret's version comes from its watch; an unlabelled or missing one gets its
// own error, told apart by one read of its metadata.
func TestStateOfNamedSecrets(t *testing.T) {
	w, client, ctx := newTestWatches(t, secretMeta("labelled", true), secretMeta("plain", false))
	w.Start(ctx)
	for _, name := range []string{"labelled", "plain", "missing"} {
		w.Use(key("net-"+name), key(name))
	}
	if v, err := w.State(ctx, key("labelled")); err != nil || v != "5" {
		t.Errorf("labelled: %q, %v; want version 5", v, err)
	}
	if _, err := w.State(ctx, key("plain")); !errors.Is(err, ErrNotLabelled) {
		t.Errorf("plain: %v, want ErrNotLabelled", err)
	}
	if _, err := w.State(ctx, key("missing")); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing: %v, want ErrNotFound", err)
	}
	if _, err := w.State(ctx, key("unnamed")); !errors.Is(err, ErrNotWatched) {
		t.Errorf("a Secret no Network names: %v, want ErrNotWatched", err)
	}
	gets := 0
	for _, a := range client.Actions() {
		if a.GetVerb() == "get" {
			gets++
		}
	}
	if gets != 2 {
		t.Errorf("%d metadata reads, want 2 (the unlabelled and the missing Secret)", gets)
	}
}

// A watch stops with the last Network that names its Secret.
func TestWatchesFollowTheNetworksThatNameThem(t *testing.T) {
	w, _, ctx := newTestWatches(t, secretMeta("shared", true))
	w.Start(ctx)
	w.Use(key("a"), key("shared"))
	w.Use(key("b"), key("shared"))
	if n := w.Watched(); n != 1 {
		t.Fatalf("%d watches, want 1 for a Secret two Networks name", n)
	}
	w.Use(key("a"), cache.ObjectName{})
	if n := w.Watched(); n != 1 {
		t.Errorf("%d watches after one Network stopped naming it, want 1", n)
	}
	w.Use(key("b"), key("other"))
	if _, err := w.State(ctx, key("shared")); !errors.Is(err, ErrNotWatched) {
		t.Errorf("State of a Secret no Network names: %v, want ErrNotWatched", err)
	}
	if n := w.Watched(); n != 1 {
		t.Errorf("%d watches, want only the one of Secret other", n)
	}
}

// Without the grant, State says so and the watch is stopped; once granted, a re-check
// finds it, the watch runs again and its users are told.
func TestAccessGrantedLater(t *testing.T) {
	w, client, ctx := newTestWatches(t, secretMeta("creds", true))
	var mu sync.Mutex
	forbidden := true
	client.PrependReactor("*", "secrets", func(a clienttesting.Action) (bool, runtime.Object, error) {
		mu.Lock()
		defer mu.Unlock()
		if forbidden && (a.GetVerb() == "list" || a.GetVerb() == "watch") {
			return true, nil, apierrors.NewForbidden(schema.GroupResource{Resource: "secrets"}, "", errors.New("no RoleBinding"))
		}
		return false, nil, nil
	})
	granted := make(chan cache.ObjectName, 1)
	w.OnAccessGranted(func(secret cache.ObjectName) { granted <- secret })
	w.Start(ctx)
	w.Use(key("net"), key("creds"))
	if _, err := w.State(ctx, key("creds")); !errors.Is(err, ErrNotGranted) {
		t.Fatalf("State without the grant: %v, want ErrNotGranted", err)
	}
	// The watch is stopped and counted as refused just after State says so.
	waitFor(t, "0 watches and 1 refused without the grant", func() bool { return w.Watched() == 0 && w.Refused() == 1 })
	mu.Lock()
	forbidden = false
	mu.Unlock()
	select {
	case got := <-granted:
		if got != key("creds") {
			t.Errorf("granted %v", got)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("not told of the grant")
	}
	if v, err := w.State(ctx, key("creds")); err != nil || v != "5" {
		t.Errorf("State after the grant: %q, %v", v, err)
	}
	waitFor(t, "1 watch and 0 refused after the grant", func() bool { return w.Watched() == 1 && w.Refused() == 0 })
}
