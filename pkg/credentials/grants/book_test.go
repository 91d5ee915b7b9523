package grants

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	kubeinformers "k8s.io/client-go/informers"
	k8sfake "k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/client/clientset/versioned/fake"
	informers "github.com/samplecrd/network-controller/pkg/client/informers/externalversions"
)

func namespace(name string, labels map[string]string) *corev1.Namespace {
	return &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}}
}

func identity(name string, selector map[string]string, secret bool, allow samplecrdv1.IdentityAllow) *samplecrdv1.ClusterIdentity {
	id := &samplecrdv1.ClusterIdentity{ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: samplecrdv1.ClusterIdentitySpec{NamespaceSelector: metav1.LabelSelector{MatchLabels: selector}, Allow: allow}}
	if secret {
		id.Spec.SecretRef, id.Spec.CloudName = &samplecrdv1.SecretReference{Namespace: "ops", Name: "creds"}, "prod"
	}
	return id
}

// changes collects the namespaces OnChange reports.
type changes struct {
	mu  sync.Mutex
	got []string
}

func (c *changes) add(ns string) { c.mu.Lock(); c.got = append(c.got, ns); c.mu.Unlock() }
func (c *changes) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	got := slices.Sorted(slices.Values(slices.Compact(slices.Sorted(slices.Values(c.got)))))
	c.got = nil
	return got
}

func startBook(t *testing.T, ownCloud labels.Selector, identities []*samplecrdv1.ClusterIdentity, namespaces ...*corev1.Namespace) (*Book, *fake.Clientset, *k8sfake.Clientset, *changes) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	var objects []runtime.Object
	for _, id := range identities {
		objects = append(objects, id)
	}
	client := fake.NewClientset(objects...)
	kube := k8sfake.NewClientset()
	for _, ns := range namespaces {
		if _, err := kube.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	book := NewBook(informers.NewSharedInformerFactory(client, 0).Samplecrd().V1().ClusterIdentities().Informer(),
		kubeinformers.NewSharedInformerFactory(kube, 0).Core().V1().Namespaces().Informer(), ownCloud)
	seen := &changes{}
	if err := book.OnChange(seen.add); err != nil {
		t.Fatal(err)
	}
	go book.identities.RunWithContext(ctx)
	go book.namespaces.RunWithContext(ctx)
	if !cache.WaitForCacheSync(ctx.Done(), book.HasSynced) {
		t.Fatal("caches did not sync")
	}
	return book, client, kube, seen
}

// eventually waits for the informers to deliver a change.
func eventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	if err := wait.PollUntilContextTimeout(context.Background(), 10*time.Millisecond, 5*time.Second, true,
		func(context.Context) (bool, error) { return ok(), nil }); err != nil {
		t.Fatalf("waiting for %s: %v", what, err)
	}
}

func TestOwnCloudUnitesTheIdentitiesWithoutSecretThatSelectTheNamespace(t *testing.T) {
	book, _, _, _ := startBook(t, nil, []*samplecrdv1.ClusterIdentity{
		identity("b-sharing", map[string]string{"team": "a"}, false, samplecrdv1.IdentityAllow{SharedWith: []samplecrdv1.ProjectID{"PROJ-1", "proj-2"}}),
		identity("a-retain", map[string]string{"team": "a"}, false, samplecrdv1.IdentityAllow{Retain: true, ExistingRouters: []samplecrdv1.NeutronRef{{Name: "edge"}}}),
		identity("other-team", map[string]string{"team": "b"}, false, samplecrdv1.IdentityAllow{Import: true}),
		identity("delegated", map[string]string{"team": "a"}, true, samplecrdv1.IdentityAllow{Import: true}),
	}, namespace("team-a", map[string]string{"team": "a"}), namespace("team-c", nil))

	got := ownCloudOf(t, book, "team-a")
	if !got.AllowsRetain() || got.AllowsImport() || !slices.Equal(got.Identities, []string{"a-retain", "b-sharing"}) {
		t.Errorf("team-a has %+v: want retain from a-retain, sharing from b-sharing, no import (other-team selects team b, delegated is another project)", got)
	}
	if !got.AllowsShare("proj-1") || !got.AllowsShare("Proj-2") || got.AllowsShare("proj-3") {
		t.Errorf("team-a may share with %v: want exactly proj-1 and proj-2, in any case", got.SharedWith)
	}
	if !got.AllowsRouter("any-id", "edge") || got.AllowsRouter("edge", "edge-2") {
		t.Errorf("team-a's routers %v: want edge by name only", got.ExistingRouters)
	}
	if none := ownCloudOf(t, book, "team-c"); none.Unfenced || none.AllowsRetain() || none.AllowsImport() || none.AllowsShare("proj-1") || none.AllowsRouter("x", "edge") || len(none.Identities) != 0 {
		t.Errorf("team-c, selected by no identity, has %+v; want nothing", none)
	}
	if missing, err := book.OwnCloud("not-cached"); err == nil {
		t.Errorf("a namespace the cache lacks has %+v; want an error: its powers are not known yet", missing)
	}
}

func TestOnChangeNamesTheNamespacesWhosePowersMayHaveChanged(t *testing.T) {
	ctx := context.Background()
	a := identity("a", map[string]string{"team": "a"}, false, samplecrdv1.IdentityAllow{Retain: true})
	book, client, kube, seen := startBook(t, nil, []*samplecrdv1.ClusterIdentity{a},
		namespace("team-a", map[string]string{"team": "a"}), namespace("team-b", map[string]string{"team": "b"}), namespace("team-c", nil))
	eventually(t, "the initial list", func() bool { return len(seen.take()) > 0 })

	moved := a.DeepCopy()
	moved.Spec.NamespaceSelector.MatchLabels = map[string]string{"team": "b"}
	// The fake's Update needs an OpenAPI schema the generated client lacks: replace it.
	if err := client.Tracker().Delete(samplecrdv1.SchemeGroupVersion.WithResource("clusteridentities"), "", "a"); err != nil {
		t.Fatal(err)
	}
	if err := client.Tracker().Add(moved); err != nil {
		t.Fatal(err)
	}
	var got []string
	eventually(t, "the selector change", func() bool { got = append(got, seen.take()...); return len(got) >= 2 })
	if !slices.Equal(got, []string{"team-a", "team-b"}) {
		t.Errorf("a selector moved from team a to team b reported %v, want team-a and team-b", got)
	}
	if p := ownCloudOf(t, book, "team-a"); p.AllowsRetain() {
		t.Errorf("team-a keeps %+v after the selector moved away", p)
	}

	if _, err := kube.CoreV1().Namespaces().Update(ctx, namespace("team-c", map[string]string{"team": "b"}), metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the label change", func() bool { got = seen.take(); return len(got) > 0 })
	if !slices.Equal(got, []string{"team-c"}) {
		t.Errorf("team-c relabelled reported %v, want team-c", got)
	}
	eventually(t, "team-c's new powers", func() bool { return ownCloudOf(t, book, "team-c").AllowsRetain() })
}

func ownCloudOf(t *testing.T, book *Book, namespace string) Powers {
	t.Helper()
	powers, err := book.OwnCloud(namespace)
	if err != nil {
		t.Fatal(err)
	}
	return powers
}

func TestOwnCloudSelectorRefusesTheOtherNamespaces(t *testing.T) {
	selector, err := labels.Parse("own-cloud=yes")
	if err != nil {
		t.Fatal(err)
	}
	book, _, _, _ := startBook(t, selector, []*samplecrdv1.ClusterIdentity{
		identity("all", map[string]string{}, false, samplecrdv1.IdentityAllow{Retain: true}),
	}, namespace("in", map[string]string{"own-cloud": "yes"}), namespace("out", nil))
	if in := ownCloudOf(t, book, "in"); in.OwnCloudRefusedBy != "" || !in.AllowsRetain() {
		t.Errorf("a selected namespace has %+v; want the own cloud with Retain", in)
	}
	if out := ownCloudOf(t, book, "out"); out.OwnCloudRefusedBy != "own-cloud=yes" || out.AllowsRetain() {
		t.Errorf("a namespace the selector leaves out has %+v; want refused by own-cloud=yes, no power", out)
	}
}
