package secretguard

import (
	"context"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	k8sfake "k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2/ktesting"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials/registry"
	"github.com/samplecrd/network-controller/pkg/scope"
	"github.com/samplecrd/network-controller/pkg/shard"
)

const otherFinalizer = "example.com/keep-me"

// guardFixture is a credentials guard over hand-fed caches of Networks and of Secrets'
// metadata, writing to a fake API that holds the Secrets.
type guardFixture struct {
	t        *testing.T
	guard    *Guard
	client   *k8sfake.Clientset
	networks cache.Indexer
	secrets  cache.Indexer
}

func newGuardFixture(t *testing.T, secrets []*corev1.Secret, networks ...*samplecrdv1.Network) *guardFixture {
	t.Helper()
	networkInformer := cache.NewSharedIndexInformer(&cache.ListWatch{}, &samplecrdv1.Network{}, 0, cache.Indexers{})
	secretInformer := cache.NewSharedIndexInformer(&cache.ListWatch{}, &metav1.PartialObjectMetadata{}, 0, cache.Indexers{})
	client := k8sfake.NewClientset()
	for _, s := range secrets {
		if err := client.Tracker().Add(s); err != nil {
			t.Fatal(err)
		}
	}
	networkScope := scope.Single(networkInformer)
	if err := IndexNetworks(networkScope); err != nil {
		t.Fatal(err)
	}
	g, err := New(networkScope, scope.NewOwnership(nil, 0), cachedSecrets{secretInformer.GetIndexer(), client}, client.CoreV1(), "network-controller", time.Millisecond, time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	f := &guardFixture{t: t, guard: g, client: client, networks: networkInformer.GetIndexer(), secrets: secretInformer.GetIndexer()}
	for _, n := range networks {
		if err := f.networks.Add(n); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range secrets {
		f.putSecret(s)
	}
	client.ClearActions()
	return f
}

// cachedSecrets is the guard's view of Secrets: an indexer for the watches, the fake API
// for reads of Secrets no longer watched.
type cachedSecrets struct {
	indexer cache.Indexer
	client  *k8sfake.Clientset
}

func (c cachedSecrets) Get(key cache.ObjectName) (metav1.Object, bool) {
	obj, exists, err := c.indexer.GetByKey(key.String())
	if err != nil || !exists {
		return nil, false
	}
	return obj.(metav1.Object), true
}

func (c cachedSecrets) Fetch(ctx context.Context, key cache.ObjectName) (*metav1.PartialObjectMetadata, error) {
	s, err := c.client.CoreV1().Secrets(key.Namespace).Get(ctx, key.Name, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	return &metav1.PartialObjectMetadata{ObjectMeta: s.ObjectMeta}, nil
}

func (cachedSecrets) AddEventHandler(cache.ResourceEventHandler) {}

// putSecret puts the metadata of s in the cache, as the transform keeps it.
func (f *guardFixture) putSecret(s *corev1.Secret) {
	f.t.Helper()
	obj, err := registry.StripSecretMetadata(&metav1.PartialObjectMetadata{ObjectMeta: s.ObjectMeta})
	if err != nil {
		f.t.Fatal(err)
	}
	if err := f.secrets.Add(obj); err != nil {
		f.t.Fatal(err)
	}
}

// finalizers returns the Secret's finalizers as the API holds them.
func (f *guardFixture) finalizers(name string) []string {
	f.t.Helper()
	_, ctx := ktesting.NewTestContext(f.t)
	s, err := f.client.CoreV1().Secrets(metav1.NamespaceDefault).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		f.t.Fatal(err)
	}
	return s.Finalizers
}

// patches returns the bodies of the patches sent to Secrets.
func (f *guardFixture) patches() []string {
	var out []string
	for _, a := range f.client.Actions() {
		if p, ok := a.(interface{ GetPatch() []byte }); ok && a.GetResource().Resource == "secrets" {
			out = append(out, string(p.GetPatch()))
		}
	}
	return out
}

func credentialsSecret(name string, finalizers ...string) *corev1.Secret {
	return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{
		Name: name, Namespace: metav1.NamespaceDefault, ResourceVersion: "7", Finalizers: finalizers,
	}, Data: map[string][]byte{registry.KeyCloudsYAML: []byte("clouds: {}")}}
}

func TestCredentialsGuardProtect(t *testing.T) {
	user := withFinalizer(withCredentials(newNetwork("user", "10.40.0.0/24", ""), "creds"))
	t.Run("adds its finalizer, keeps the others, sends the cached version and nothing else", func(t *testing.T) {
		_, ctx := ktesting.NewTestContext(t)
		f := newGuardFixture(t, []*corev1.Secret{credentialsSecret("creds", otherFinalizer)}, user)
		if err := f.guard.Protect(ctx, user); err != nil {
			t.Fatalf("protect: %v", err)
		}
		if got, want := f.finalizers("creds"), []string{otherFinalizer, samplecrdv1.CredentialsFinalizerName}; !slices.Equal(got, want) {
			t.Errorf("finalizers = %q, want %q", got, want)
		}
		want := `{"metadata":{"finalizers":["` + otherFinalizer + `","` + samplecrdv1.CredentialsFinalizerName + `"],"resourceVersion":"7"}}`
		if got := f.patches(); !slices.Equal(got, []string{want}) {
			t.Errorf("patches = %q, want %q", got, want)
		}
	})
	t.Run("no API call when the cache shows it", func(t *testing.T) {
		_, ctx := ktesting.NewTestContext(t)
		f := newGuardFixture(t, []*corev1.Secret{credentialsSecret("creds", samplecrdv1.CredentialsFinalizerName)}, user)
		if err := f.guard.Protect(ctx, user); err != nil {
			t.Fatalf("protect: %v", err)
		}
		if a := f.client.Actions(); len(a) != 0 {
			t.Errorf("API actions = %v, want none", a)
		}
	})
	t.Run("a Secret being deleted without it is refused: CredentialsSecretDeleting", func(t *testing.T) {
		_, ctx := ktesting.NewTestContext(t)
		s := credentialsSecret("creds", otherFinalizer)
		now := metav1.Now()
		s.DeletionTimestamp = &now
		f := newGuardFixture(t, []*corev1.Secret{s}, user)
		err := f.guard.Protect(ctx, user)
		if e, ok := registry.AsError(err); !ok || e.Reason != samplecrdv1.ReasonCredentialsSecretDeleting || e.Terminal() {
			t.Fatalf("protect = %v, want a transient %s", err, samplecrdv1.ReasonCredentialsSecretDeleting)
		}
		if a := f.client.Actions(); len(a) != 0 {
			t.Errorf("API actions = %v, want none", a)
		}
	})
	t.Run("a Network without credentials needs no Secret", func(t *testing.T) {
		_, ctx := ktesting.NewTestContext(t)
		f := newGuardFixture(t, nil)
		if err := f.guard.Protect(ctx, withFinalizer(newNetwork("own", "10.41.0.0/24", ""))); err != nil {
			t.Fatalf("protect: %v", err)
		}
	})
}

func TestCredentialsGuardSync(t *testing.T) {
	holder := withFinalizer(withCredentials(newNetwork("holder", "10.42.0.0/24", ""), "creds"))
	// Its finalizer is gone: its Neutron side was deleted.
	released := deleting(withCredentials(newNetwork("released", "10.43.0.0/24", ""), "creds"))
	elsewhere := withFinalizer(withCredentials(newNetwork("elsewhere", "10.44.0.0/24", ""), "other-creds"))
	for _, tc := range []struct {
		name     string
		secret   *corev1.Secret
		networks []*samplecrdv1.Network
		want     []string
		wantPut  bool
	}{{
		name:     "no Network holds it: removed, the other finalizer kept",
		secret:   credentialsSecret("creds", samplecrdv1.CredentialsFinalizerName, otherFinalizer),
		networks: []*samplecrdv1.Network{released, elsewhere},
		want:     []string{otherFinalizer},
		wantPut:  true,
	}, {
		name:     "a Network still holds it: kept, nothing written",
		secret:   credentialsSecret("creds", otherFinalizer, samplecrdv1.CredentialsFinalizerName),
		networks: []*samplecrdv1.Network{holder, released},
		want:     []string{otherFinalizer, samplecrdv1.CredentialsFinalizerName},
	}, {
		name:     "removed by hand while a Network holds it: put back",
		secret:   credentialsSecret("creds", otherFinalizer),
		networks: []*samplecrdv1.Network{holder},
		want:     []string{otherFinalizer, samplecrdv1.CredentialsFinalizerName},
		wantPut:  true,
	}, {
		name:   "never guarded and unused: nothing written",
		secret: credentialsSecret("creds", otherFinalizer),
		want:   []string{otherFinalizer},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			_, ctx := ktesting.NewTestContext(t)
			f := newGuardFixture(t, []*corev1.Secret{tc.secret}, tc.networks...)
			if err := f.guard.sync(ctx, cache.NewObjectName(metav1.NamespaceDefault, "creds")); err != nil {
				t.Fatalf("sync: %v", err)
			}
			if got := f.finalizers("creds"); !slices.Equal(got, tc.want) {
				t.Errorf("finalizers = %q, want %q", got, tc.want)
			}
			if got := len(f.patches()); got != map[bool]int{false: 0, true: 1}[tc.wantPut] {
				t.Errorf("%d patches, want a patch: %v", got, tc.wantPut)
			}
		})
	}
}

// A replica that does not hold the shard of the Secret's namespace leaves its finalizer:
// the Networks that hold it are in another replica's cache. Once it holds the shard, it
// takes the finalizer off as any controller would.
func TestCredentialsGuardLeavesSecretsOfShardsHeldElsewhere(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	f := newGuardFixture(t, []*corev1.Secret{credentialsSecret("creds", samplecrdv1.CredentialsFinalizerName)})
	ownership := scope.NewOwnership(nil, 4)
	f.guard.owned = ownership
	key := cache.NewObjectName(metav1.NamespaceDefault, "creds")
	if err := f.guard.sync(ctx, key); err != nil {
		t.Fatalf("sync: %v", err)
	}
	if got := f.finalizers("creds"); !slices.Equal(got, []string{samplecrdv1.CredentialsFinalizerName}) || len(f.patches()) != 0 {
		t.Fatalf("finalizers %q after %d patches, want the finalizer left alone", got, len(f.patches()))
	}
	ownership.Hold(shard.Of(metav1.NamespaceDefault, 4))
	if err := f.guard.sync(ctx, key); err != nil {
		t.Fatalf("sync: %v", err)
	}
	if got := f.finalizers("creds"); len(got) != 0 {
		t.Fatalf("finalizers %q once the shard is held, want none", got)
	}
}

// Which Secrets the guard looks at again: the one of a Network that starts or stops
// holding it, and one that carries the finalizer or just lost it; not every status write.
func TestCredentialsGuardQueuesOnlyWhatCanChange(t *testing.T) {
	f := newGuardFixture(t, nil)
	queued := func() []string {
		var out []string
		for f.guard.queue.Len() > 0 {
			key, _ := f.guard.queue.Get()
			out = append(out, key.String())
			f.guard.queue.Done(key)
			f.guard.queue.Forget(key)
		}
		slices.Sort(out)
		return out
	}
	n := withCredentials(newNetwork("n", "10.45.0.0/24", ""), "creds")
	held := withFinalizer(n.DeepCopy())
	statusWrite := held.DeepCopy()
	statusWrite.ResourceVersion = "2"
	moved := withCredentials(statusWrite.DeepCopy(), "new-creds")

	networkEvents, secretEvents := f.guard.networkEvents(), f.guard.secretEvents()
	networkEvents.OnUpdate(n, held)
	if got := queued(); !slices.Equal(got, []string{"default/creds"}) {
		t.Errorf("finalizer added: queued %q, want default/creds", got)
	}
	networkEvents.OnUpdate(held, statusWrite)
	if got := queued(); len(got) != 0 {
		t.Errorf("status write: queued %q, want nothing", got)
	}
	networkEvents.OnUpdate(statusWrite, moved)
	if got := queued(); !slices.Equal(got, []string{"default/creds", "default/new-creds"}) {
		t.Errorf("Secret changed: queued %q, want both Secrets", got)
	}
	secretEvents.OnUpdate(&metav1.PartialObjectMetadata{ObjectMeta: credentialsSecret("plain").ObjectMeta},
		&metav1.PartialObjectMetadata{ObjectMeta: credentialsSecret("plain", otherFinalizer).ObjectMeta})
	if got := queued(); len(got) != 0 {
		t.Errorf("unguarded Secret: queued %q, want nothing", got)
	}
	secretEvents.OnUpdate(&metav1.PartialObjectMetadata{ObjectMeta: credentialsSecret("guarded", samplecrdv1.CredentialsFinalizerName).ObjectMeta},
		&metav1.PartialObjectMetadata{ObjectMeta: credentialsSecret("guarded").ObjectMeta})
	if got := queued(); !slices.Equal(got, []string{"default/guarded"}) {
		t.Errorf("finalizer removed by hand: queued %q, want default/guarded", got)
	}
}

// A Secret no longer watched (its last Network went, or its label was removed) still
// loses the finalizer once no Network holds it: the guard reads its metadata instead.
func TestCredentialsGuardSyncReadsASecretNoLongerWatched(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	f := newGuardFixture(t, []*corev1.Secret{credentialsSecret("creds", samplecrdv1.CredentialsFinalizerName, otherFinalizer)})
	if err := f.secrets.Delete(&metav1.PartialObjectMetadata{ObjectMeta: credentialsSecret("creds").ObjectMeta}); err != nil {
		t.Fatal(err)
	}
	if err := f.guard.sync(ctx, cache.NewObjectName(metav1.NamespaceDefault, "creds")); err != nil {
		t.Fatalf("sync: %v", err)
	}
	if got := f.finalizers("creds"); !slices.Equal(got, []string{otherFinalizer}) {
		t.Errorf("finalizers = %q, want only %q", got, otherFinalizer)
	}
	// Gone altogether: nothing to do.
	if err := f.guard.sync(ctx, cache.NewObjectName(metav1.NamespaceDefault, "never-there")); err != nil {
		t.Errorf("sync of a missing Secret: %v", err)
	}
}

// A Network of these tests: one in the default namespace, with cidr.
func newNetwork(name, cidr, _ string) *samplecrdv1.Network {
	return &samplecrdv1.Network{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: metav1.NamespaceDefault, UID: types.UID("uid-" + name), Generation: 1, ResourceVersion: "1"},
		Spec:       samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: cidr}},
	}
}

func withCredentials(n *samplecrdv1.Network, secret string) *samplecrdv1.Network {
	n.Spec.CloudCredentialsRef = &samplecrdv1.CloudCredentialsRef{SecretName: secret, CloudName: "openstack"}
	return n
}

func withFinalizer(n *samplecrdv1.Network) *samplecrdv1.Network {
	n.Finalizers = []string{samplecrdv1.FinalizerName}
	return n
}

func deleting(n *samplecrdv1.Network) *samplecrdv1.Network {
	now := metav1.Now()
	n.DeletionTimestamp = &now
	return n
}
