package identitystatus

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	kubeinformers "k8s.io/client-go/informers"
	k8sfake "k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/client/clientset/versioned/fake"
	informers "github.com/samplecrd/network-controller/pkg/client/informers/externalversions"
	"github.com/samplecrd/network-controller/pkg/credentials/registry"
	"github.com/samplecrd/network-controller/pkg/scope"
)

// identity selects namespaces by selector; with a secret, it delegates the project of
// Secret ops/<secret>.
func identity(name string, selector map[string]string, secret string) *samplecrdv1.ClusterIdentity {
	id := &samplecrdv1.ClusterIdentity{ObjectMeta: metav1.ObjectMeta{Name: name, Generation: 3},
		Spec: samplecrdv1.ClusterIdentitySpec{NamespaceSelector: metav1.LabelSelector{MatchLabels: selector}}}
	if secret != "" {
		id.Spec.SecretRef, id.Spec.CloudName = &samplecrdv1.SecretReference{Namespace: "ops", Name: secret}, "prod"
	}
	return id
}

// network uses the controller's own cloud with credentials "", a Secret of its own with
// "secret", else the identity credentials names.
func network(ns, name, credentials string) *samplecrdv1.Network {
	n := &samplecrdv1.Network{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	switch credentials {
	case "":
	case "secret":
		n.Spec.CloudCredentialsRef = &samplecrdv1.CloudCredentialsRef{SecretName: "s", CloudName: "c"}
	default:
		n.Spec.CloudCredentialsRef = &samplecrdv1.CloudCredentialsRef{ClusterIdentity: credentials}
	}
	return n
}

// checkSecret finds every Secret but ops/missing.
func checkSecret(_ context.Context, src registry.Source) error {
	if src.Secret.Name == "missing" {
		return &registry.Error{Reason: samplecrdv1.ReasonCredentialsSecretNotFound, Message: "Secret ops/missing does not exist"}
	}
	return nil
}

// startWriter returns a Writer watching watched, with its caches synced, over identities and Networks of client and
// namespaces a1 and a2 (team a) and b (team b).
func startWriter(ctx context.Context, t *testing.T, client *fake.Clientset, watched scope.Namespaces) *Writer {
	t.Helper()
	kube := k8sfake.NewClientset(
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "a1", Labels: map[string]string{"team": "a"}}},
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "a2", Labels: map[string]string{"team": "a"}}},
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "b", Labels: map[string]string{"team": "b"}}})
	factory := informers.NewSharedInformerFactory(client, 0)
	identities := factory.Samplecrd().V1().ClusterIdentities().Informer()
	networks := scope.NewInformers(watched, func(ns string) cache.SharedIndexInformer {
		return informers.NewSharedInformerFactoryWithOptions(client, 0, informers.WithNamespace(ns)).Samplecrd().V1().Networks().Informer()
	})
	namespaces := kubeinformers.NewSharedInformerFactory(kube, 0).Core().V1().Namespaces().Informer()
	w, err := New(client, identities, namespaces, networks, scope.NewOwnership(watched, 0), checkSecret, "test")
	if err != nil {
		t.Fatal(err)
	}
	factory.Start(ctx.Done())
	go networks.Run(ctx)
	go namespaces.RunWithContext(ctx)
	if !cache.WaitForCacheSync(ctx.Done(), identities.HasSynced, namespaces.HasSynced, networks.HasSynced) {
		t.Fatal("caches did not sync")
	}
	return w
}

// The statuses the writer settles on, by identity: Ready's status and reason, the
// namespaces selected and their Networks on the controller's own cloud.
func TestStatusCountsNamespacesAndNetworksAndSaysWhetherUsable(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	bad := identity("bad", nil, "")
	bad.Spec.NamespaceSelector.MatchExpressions = []metav1.LabelSelectorRequirement{{Key: "team", Operator: "Sideways"}}
	// Not NewClientset: its field tracking needs an OpenAPI schema the generated client lacks.
	client := fake.NewSimpleClientset([]runtime.Object{
		identity("team-a", map[string]string{"team": "a"}, ""), identity("delegated", map[string]string{"team": "a"}, "creds"),
		identity("secret-missing", map[string]string{"team": "b"}, "missing"), bad,
		network("a1", "n1", ""), network("a1", "n2", ""), network("a2", "n3", ""), network("a2", "own-secret", "secret"), network("b", "n4", ""),
		network("a1", "delegated-1", "delegated"), network("b", "delegated-elsewhere", "delegated"),
	}...)
	go startWriter(ctx, t, client, nil).Run(ctx)

	want := map[string]struct {
		ready                metav1.ConditionStatus
		reason               string
		namespaces, networks int32
	}{
		"team-a":         {metav1.ConditionTrue, samplecrdv1.IdentityReasonGranting, 2, 3},
		"delegated":      {metav1.ConditionTrue, samplecrdv1.IdentityReasonDelegating, 2, 1},
		"secret-missing": {metav1.ConditionFalse, samplecrdv1.ReasonCredentialsSecretNotFound, 1, 0},
		"bad":            {metav1.ConditionFalse, samplecrdv1.IdentityReasonInvalidSelector, 0, 0},
	}
	for name, w := range want {
		var last samplecrdv1.ClusterIdentityStatus
		err := wait.PollUntilContextTimeout(ctx, 20*time.Millisecond, 10*time.Second, true, func(ctx context.Context) (bool, error) {
			got, err := client.SamplecrdV1().ClusterIdentities().Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				return false, err
			}
			last = got.Status
			c := meta.FindStatusCondition(got.Status.Conditions, samplecrdv1.ConditionReady)
			return c != nil && c.Status == w.ready && c.Reason == w.reason && c.ObservedGeneration == 3 &&
				got.Status.ObservedGeneration == 3 && got.Status.Namespaces == w.namespaces && got.Status.Networks == w.networks, nil
		})
		if err != nil {
			t.Errorf("%s: status %s, want Ready %s/%s, %d namespaces, %d networks", name, describe(last), w.ready, w.reason, w.namespaces, w.networks)
		}
	}
}

func describe(s samplecrdv1.ClusterIdentityStatus) string {
	c := meta.FindStatusCondition(s.Conditions, samplecrdv1.ConditionReady)
	if c == nil {
		return fmt.Sprintf("without Ready, %d namespaces, %d networks", s.Namespaces, s.Networks)
	}
	return fmt.Sprintf("Ready %s/%s %q (generation %d), %d namespaces, %d networks", c.Status, c.Reason, c.Message, s.ObservedGeneration, s.Namespaces, s.Networks)
}

// A controller watching some namespaces writes the status of an identity only when it
// watches every namespace the identity selects: another controller would count the rest.
func TestStatusIsLeftToTheControllerWatchingEveryNamespaceSelected(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	client := fake.NewSimpleClientset(identity("team-a", map[string]string{"team": "a"}, ""), identity("team-b", map[string]string{"team": "b"}, ""),
		network("a1", "n1", ""), network("b", "n2", ""), network("b", "n3", ""))
	w := startWriter(ctx, t, client, scope.Namespaces{"a1", "b"})
	for _, name := range []string{"team-a", "team-b"} {
		if err := w.sync(ctx, name); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}

	for name, want := range map[string]struct {
		written  bool
		networks int32
	}{"team-a": {false, 0}, "team-b": {true, 2}} {
		got, err := client.SamplecrdV1().ClusterIdentities().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if written := len(got.Status.Conditions) != 0; written != want.written || got.Status.Networks != want.networks {
			t.Errorf("%s: status %s; want written %v with %d networks (team-a selects a2, which is not watched)", name, describe(got.Status), want.written, want.networks)
		}
	}
}
