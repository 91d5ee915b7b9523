package secretguard

import (
	"context"
	"fmt"
	"slices"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials/registry"
	"github.com/samplecrd/network-controller/pkg/scope"
)

// Guard keeps samplecrdv1.CredentialsFinalizerName on a credentials Secret
// while a Network that uses it holds the Network finalizer, that is while the Network may
// have Neutron resources only those credentials can delete. Deleting the Secret, alone or
// with its namespace, then waits until the last such Network has cleaned up.
//
// The Network's own sync adds the finalizer before anything is created in Neutron; this
// guard's queue, keyed by Secret, removes it when no Network needs it any more, and puts
// it back if it was removed while one still does.
type Guard struct {
	networks *scope.Informers
	// owned are the namespaces whose Secrets the guard may take the finalizer off: a
	// shard held by another replica has its Networks in that replica's cache, not here.
	owned   *scope.Ownership
	secrets SecretMetadata
	client  typedcorev1.SecretsGetter
	// manager names the controller in the Secrets' managedFields.
	manager string
	queue   workqueue.TypedRateLimitingInterface[cache.ObjectName]
}

const credentialsQueueName = "credentials-secrets"

// SecretMetadata is where the guard reads credentials Secrets' metadata: the watch of each
// Secret a Network names, or, for one no longer watched, a read of it.
type SecretMetadata interface {
	Get(secret cache.ObjectName) (metav1.Object, bool)
	Fetch(ctx context.Context, secret cache.ObjectName) (*metav1.PartialObjectMetadata, error)
	AddEventHandler(handler cache.ResourceEventHandler)
}

// New watches networks (indexed by BySecretIndex) and secrets, and retries
// a failed Secret after retryBase, doubling up to retryMax. It takes the finalizer off
// only the Secrets of namespaces owned.
func New(networks *scope.Informers, owned *scope.Ownership, secrets SecretMetadata, client typedcorev1.SecretsGetter, manager string, retryBase, retryMax time.Duration) (*Guard, error) {
	g := &Guard{
		networks: networks,
		owned:    owned,
		secrets:  secrets,
		client:   client,
		manager:  manager,
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(
			workqueue.NewTypedItemExponentialFailureRateLimiter[cache.ObjectName](retryBase, retryMax),
			workqueue.TypedRateLimitingQueueConfig[cache.ObjectName]{Name: credentialsQueueName}),
	}
	if err := networks.AddEventHandler(g.networkEvents()); err != nil {
		return nil, fmt.Errorf("adding the credentials guard's Network event handlers: %w", err)
	}
	secrets.AddEventHandler(g.secretEvents())
	return g, nil
}

// networkEvents queue the Secret of a Network that appears, goes, starts or stops holding
// it, or moves to another Secret; not the Secret of every status write.
func (g *Guard) networkEvents() cache.ResourceEventHandlerFuncs {
	return cache.ResourceEventHandlerFuncs{
		AddFunc: g.enqueueSecretOf,
		UpdateFunc: func(old, new any) {
			before, after := old.(*samplecrdv1.Network), new.(*samplecrdv1.Network)
			if holdsCredentials(before) != holdsCredentials(after) || SecretOf(before) != SecretOf(after) {
				g.enqueueSecretOf(old)
				g.enqueueSecretOf(new)
			}
		},
		DeleteFunc: g.enqueueSecretOf,
	}
}

// secretEvents queue only Secrets that carry the finalizer or just lost it: the others
// get it from the sync of a Network that uses them. One that goes from the watch while
// carrying it (its label was removed) is queued too: it may need the finalizer removed.
func (g *Guard) secretEvents() cache.ResourceEventHandlerFuncs {
	return cache.ResourceEventHandlerFuncs{
		AddFunc: g.enqueueGuarded,
		UpdateFunc: func(old, new any) {
			g.enqueueGuarded(old)
			g.enqueueGuarded(new)
		},
		DeleteFunc: func(obj any) {
			if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = tombstone.Obj
			}
			g.enqueueGuarded(obj)
		},
	}
}

// holdsCredentials reports whether a Network names a Secret and may have Neutron
// resources that need it: the Network finalizer goes on before the first create and comes
// off after the last delete.
func holdsCredentials(network *samplecrdv1.Network) bool {
	return network.Spec.CloudCredentialsRef.OwnSecret() && slices.Contains(network.Finalizers, samplecrdv1.FinalizerName)
}

func (g *Guard) enqueueSecretOf(obj any) {
	if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tombstone.Obj
	}
	if network, ok := obj.(*samplecrdv1.Network); ok && network.Spec.CloudCredentialsRef.OwnSecret() {
		g.queue.Add(SecretOf(network))
	}
}

func (g *Guard) enqueueGuarded(obj any) {
	if secret, ok := obj.(metav1.Object); ok && slices.Contains(secret.GetFinalizers(), samplecrdv1.CredentialsFinalizerName) {
		g.queue.Add(cache.MetaObjectToName(secret))
	}
}

// Protect puts the finalizer on the Secret of a Network about to use it, before anything
// is created in Neutron with it. It costs no API call when the cache shows it already.
func (g *Guard) Protect(ctx context.Context, network *samplecrdv1.Network) error {
	if g == nil || !network.Spec.CloudCredentialsRef.OwnSecret() {
		return nil
	}
	key := SecretOf(network)
	secret, ok := g.secrets.Get(key)
	if !ok {
		// The credentials were just read from it; the cache will show it in a moment.
		return fmt.Errorf("Secret %s is not in the informer cache yet", key)
	}
	if slices.Contains(secret.GetFinalizers(), samplecrdv1.CredentialsFinalizerName) {
		return nil
	}
	if secret.GetDeletionTimestamp() != nil {
		// The API refuses new finalizers on an object being deleted.
		return &registry.Error{Reason: samplecrdv1.ReasonCredentialsSecretDeleting, Transient: true, Message: fmt.Sprintf(
			"Secret %s is being deleted; nothing is created in Neutron with credentials that could be gone before they are needed to delete it again", key)}
	}
	if err := setCredentialsFinalizer(ctx, g.client, g.manager, secret, true); err != nil {
		return err
	}
	klog.FromContext(ctx).V(2).Info("Added the credentials finalizer to the Network's Secret", "secret", key)
	return nil
}

// Run processes the guard's queue with one worker until ctx is done.
func (g *Guard) Run(ctx context.Context) {
	go func() {
		<-ctx.Done()
		g.queue.ShutDown()
	}()
	wait.UntilWithContext(ctx, func(ctx context.Context) {
		for g.processNext(ctx) {
		}
	}, time.Second)
}

func (g *Guard) processNext(ctx context.Context) bool {
	key, shutdown := g.queue.Get()
	if shutdown {
		return false
	}
	defer g.queue.Done(key)
	err := g.sync(ctx, key)
	switch {
	case err == nil:
		g.queue.Forget(key)
		return true
	case apierrors.IsConflict(err):
		klog.FromContext(ctx).V(4).Info("Retrying credentials Secret after a write conflict", "secret", key, "err", err)
	default:
		utilruntime.HandleErrorWithContext(ctx, err, "Error guarding credentials Secret; requeuing for later retry", "secret", key)
	}
	g.queue.AddRateLimited(key)
	return true
}

// sync makes the finalizer's presence on the Secret match whether a Network holds it.
// A Network that starts to need it between the decision and the write makes its own sync
// put the finalizer back: its update event queues the Secret here again.
func (g *Guard) sync(ctx context.Context, key cache.ObjectName) error {
	secret, err := g.readSecret(ctx, key)
	if secret == nil || err != nil {
		return err
	}
	owned := g.owned.Now()
	needed, err := g.needed(key)
	if err != nil {
		return err
	}
	if !needed && !owned.Within(g.owned.Now()).Owns(key.Namespace) {
		// Its Networks are in another replica's cache, or were while this looked.
		return nil
	}
	has := slices.Contains(secret.GetFinalizers(), samplecrdv1.CredentialsFinalizerName)
	logger := klog.FromContext(ctx)
	switch {
	case needed && !has && secret.GetDeletionTimestamp() == nil:
		if err := setCredentialsFinalizer(ctx, g.client, g.manager, secret, true); err != nil {
			return ignoreNotFound(err)
		}
		logger.Info("Added the credentials finalizer to a Secret that Networks hold", "secret", key)
	case !needed && has:
		if err := setCredentialsFinalizer(ctx, g.client, g.manager, secret, false); err != nil {
			return ignoreNotFound(err)
		}
		logger.Info("Removed the credentials finalizer: no Network needs the Secret any more", "secret", key)
	}
	return nil
}

// needed reports whether a Network in the cache uses the Secret and holds its finalizer.
func (g *Guard) needed(key cache.ObjectName) (bool, error) {
	users, err := g.networks.Indexer(key.Namespace).ByIndex(BySecretIndex, key.String())
	if err != nil {
		return false, fmt.Errorf("finding the Networks that use Secret %s: %w", key, err)
	}
	for _, obj := range users {
		if network, ok := obj.(*samplecrdv1.Network); ok && holdsCredentials(network) {
			return true, nil
		}
	}
	return false, nil
}

// readSecret returns the Secret's metadata from its watch or, when no Network names it
// any more (the last one went) or its label was removed, from a read of it; nil when it
// is gone.
func (g *Guard) readSecret(ctx context.Context, key cache.ObjectName) (metav1.Object, error) {
	if secret, ok := g.secrets.Get(key); ok {
		return secret, nil
	}
	secret, err := g.secrets.Fetch(ctx, key)
	if apierrors.IsNotFound(err) || apierrors.IsForbidden(err) {
		// Gone, or in a namespace that never granted the controller its Secrets: then
		// the controller never put its finalizer there either.
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return secret, nil
}

// ignoreNotFound: a Secret deleted meanwhile needs no finalizer.
func ignoreNotFound(err error) error {
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}
