// Package identitystatus keeps the status of each ClusterIdentity: whether the controller
// can use it, and how many namespaces and Networks use it.
package identitystatus

import (
	"context"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	clientset "github.com/samplecrd/network-controller/pkg/client/clientset/versioned"
	"github.com/samplecrd/network-controller/pkg/credentials/grants"
	"github.com/samplecrd/network-controller/pkg/credentials/registry"
	"github.com/samplecrd/network-controller/pkg/scope"
)

// batchDelay gathers the Network events of a burst (a restart's initial list, a bulk
// create) into one count per identity.
const batchDelay = 2 * time.Second

// recheckPeriod is how often every identity is looked at again without an event: a
// Secret no Network of this controller names is not watched, so its repair is seen here.
const recheckPeriod = 5 * time.Minute

// Writer writes each identity's status when the identity, the namespaces or the Networks
// change. Its queue is keyed by identity name.
type Writer struct {
	client     clientset.Interface
	identities cache.SharedIndexInformer
	namespaces cache.SharedIndexInformer
	networks   *scope.Informers
	owned      *scope.Ownership
	check      SecretCheck
	manager    string
	queue      workqueue.TypedRateLimitingInterface[string]
}

// SecretCheck reads and parses a delegating identity's Secret and finds its cloud, as a
// Network naming the identity would (registry.Registry.Check): nil, a *registry.Error
// saying why it cannot be used, or another error to retry.
type SecretCheck func(ctx context.Context, src registry.Source) error

// New returns a Writer reading the informers of grants.NewBook and the Networks' of the
// namespaces owned (the watched ones, or those of the shards held), checking delegating identities' Secrets with check; it writes
// through client as manager.
func New(client clientset.Interface, identities, namespaces cache.SharedIndexInformer, networks *scope.Informers, owned *scope.Ownership,
	check SecretCheck, manager string) (*Writer, error) {
	w := &Writer{client: client, identities: identities, namespaces: namespaces, networks: networks, owned: owned, check: check, manager: manager,
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "cluster-identities"})}
	if _, err := identities.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    w.enqueue,
		UpdateFunc: func(_, new any) { w.enqueue(new) },
	}); err != nil {
		return nil, fmt.Errorf("adding the identity status's ClusterIdentity event handlers: %w", err)
	}
	if _, err := namespaces.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(any) { w.enqueueAll(batchDelay) },
		UpdateFunc: func(old, new any) {
			if o, n := old.(metav1.Object), new.(metav1.Object); !labels.Equals(o.GetLabels(), n.GetLabels()) {
				w.enqueueAll(0)
			}
		},
		DeleteFunc: func(any) { w.enqueueAll(batchDelay) },
	}); err != nil {
		return nil, fmt.Errorf("adding the identity status's namespace event handlers: %w", err)
	}
	if err := networks.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(any) { w.enqueueAll(batchDelay) },
		UpdateFunc: func(old, new any) {
			if identityUsed(old.(*samplecrdv1.Network)) != identityUsed(new.(*samplecrdv1.Network)) {
				w.enqueueAll(batchDelay)
			}
		},
		DeleteFunc: func(any) { w.enqueueAll(batchDelay) },
	}); err != nil {
		return nil, fmt.Errorf("adding the identity status's Network event handlers: %w", err)
	}
	return w, nil
}

// Run writes statuses until ctx is done.
func (w *Writer) Run(ctx context.Context) {
	defer utilruntime.HandleCrashWithContext(ctx)
	defer w.queue.ShutDown()
	go wait.UntilWithContext(ctx, func(context.Context) { w.enqueueAll(0) }, recheckPeriod)
	go wait.UntilWithContext(ctx, func(ctx context.Context) {
		for w.processNext(ctx) {
		}
	}, time.Second)
	<-ctx.Done()
}

func (w *Writer) processNext(ctx context.Context) bool {
	name, shutdown := w.queue.Get()
	if shutdown {
		return false
	}
	defer w.queue.Done(name)
	if err := w.sync(ctx, name); err != nil {
		utilruntime.HandleErrorWithContext(ctx, err, "Writing the status of a ClusterIdentity; retrying", "clusterIdentity", name)
		w.queue.AddRateLimited(name)
		return true
	}
	w.queue.Forget(name)
	return true
}

func (w *Writer) enqueue(obj any) {
	if identity, ok := obj.(*samplecrdv1.ClusterIdentity); ok {
		w.queue.Add(identity.Name)
	}
}

// SecretChanged queues the identities whose Secret is secret: it appeared, changed or
// went.
func (w *Writer) SecretChanged(secret cache.ObjectName) {
	for _, obj := range w.identities.GetStore().List() {
		if identity, ok := obj.(*samplecrdv1.ClusterIdentity); ok && grants.SecretOf(identity) == secret {
			w.queue.Add(identity.Name)
		}
	}
}

func (w *Writer) enqueueAll(after time.Duration) {
	for _, name := range w.identities.GetStore().ListKeys() {
		w.queue.AddAfter(name, after)
	}
}

// sync writes the identity's status, when it differs from what the identity has.
func (w *Writer) sync(ctx context.Context, name string) error {
	obj, found, err := w.identities.GetStore().GetByKey(name)
	if err != nil || !found {
		return err
	}
	identity := obj.(*samplecrdv1.ClusterIdentity)
	status, counted, err := w.statusOf(ctx, identity)
	if err != nil {
		return err
	}
	if !counted {
		// Controllers watching some namespaces (or replicas holding some shards) each would
		// write their own counts of one identity in turn, for ever; only one that sees
		// them all may.
		klog.FromContext(ctx).V(4).Info("Leaving the status of a ClusterIdentity to a controller that acts for every namespace it selects",
			"clusterIdentity", name, "owned", w.owned.Now().String())
		return nil
	}
	if equality.Semantic.DeepEqual(identity.Status, status) {
		return nil
	}
	updated := identity.DeepCopy()
	updated.Status = status
	_, err = w.client.SamplecrdV1().ClusterIdentities().UpdateStatus(ctx, updated, metav1.UpdateOptions{FieldManager: w.manager})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("writing the status of ClusterIdentity %s: %w", name, err)
	}
	klog.FromContext(ctx).V(2).Info("Wrote the status of a ClusterIdentity", "clusterIdentity", name,
		"namespaces", status.Namespaces, "networks", status.Networks)
	return nil
}

// statusOf is the status the identity has now: its Ready condition, the namespaces its
// selector selects, and their Networks that use it. counted is false when the identity
// selects a namespace this controller does not act for (not watched, or of a shard held
// by another replica), whose Networks it cannot count. An error is a Secret that could
// not be checked yet.
func (w *Writer) statusOf(ctx context.Context, identity *samplecrdv1.ClusterIdentity) (status samplecrdv1.ClusterIdentityStatus, counted bool, err error) {
	status = samplecrdv1.ClusterIdentityStatus{ObservedGeneration: identity.Generation,
		Conditions: append([]metav1.Condition(nil), identity.Status.Conditions...)}
	selector, selectorErr := grants.Selector(identity)
	if selectorErr == nil {
		owned := w.owned.Now()
		var counted []string
		for _, obj := range w.namespaces.GetStore().List() {
			ns, ok := obj.(metav1.Object)
			if !ok || !selector.Matches(labels.Set(ns.GetLabels())) {
				continue
			}
			if !owned.Owns(ns.GetName()) {
				return status, false, nil
			}
			counted = append(counted, ns.GetName())
			status.Namespaces++
			networks, _ := w.networks.Indexer(ns.GetName()).ByIndex(cache.NamespaceIndex, ns.GetName())
			for _, obj := range networks {
				if network, ok := obj.(*samplecrdv1.Network); ok && uses(network, identity) {
					status.Networks++
				}
			}
		}
		// A shard given up while counting took its Networks out of the cache.
		still := owned.Within(w.owned.Now())
		for _, ns := range counted {
			if !still.Owns(ns) {
				return status, false, nil
			}
		}
	}
	// Checked only once the identity is known to be this controller's to write: the check
	// reads the Secret.
	ready, err := w.readiness(ctx, identity, selectorErr)
	if err != nil {
		return status, false, err
	}
	meta.SetStatusCondition(&status.Conditions, ready)
	return status, true, nil
}

// readiness is the identity's Ready condition: whether its selector parses and its
// Secret, if it names one, can be used.
func (w *Writer) readiness(ctx context.Context, identity *samplecrdv1.ClusterIdentity, selectorErr error) (metav1.Condition, error) {
	ready := metav1.Condition{Type: samplecrdv1.ConditionReady, ObservedGeneration: identity.Generation, Status: metav1.ConditionFalse}
	if selectorErr != nil {
		ready.Reason, ready.Message = samplecrdv1.IdentityReasonInvalidSelector, selectorErr.Error()
		return ready, nil
	}
	secret := grants.SecretOf(identity)
	if secret == (cache.ObjectName{}) {
		ready.Status, ready.Reason = metav1.ConditionTrue, samplecrdv1.IdentityReasonGranting
		ready.Message = "grants spec.allow in the controller's own cloud to the namespaces spec.namespaceSelector selects"
		return ready, nil
	}
	err := w.check(ctx, registry.Source{Secret: secret, Cloud: identity.Spec.CloudName, Identity: identity.Name})
	if e, ok := registry.AsError(err); ok && e.Terminal() {
		ready.Reason, ready.Message = e.Reason, e.Message
		return ready, nil
	}
	if err != nil {
		return ready, fmt.Errorf("checking the Secret %s of ClusterIdentity %s: %w", secret, identity.Name, err)
	}
	ready.Status, ready.Reason = metav1.ConditionTrue, samplecrdv1.IdentityReasonDelegating
	ready.Message = fmt.Sprintf("Secret %s parses and has cloud %q: the selected namespaces' Networks may name this identity in spec.cloudCredentialsRef.clusterIdentity",
		secret, identity.Spec.CloudName)
	return ready, nil
}

// uses reports whether the Network uses the identity: by naming it, if it delegates a
// project, or by naming no credentials, if it grants powers in the controller's own cloud.
func uses(network *samplecrdv1.Network, identity *samplecrdv1.ClusterIdentity) bool {
	if identity.Spec.SecretRef != nil {
		return network.Spec.CloudCredentialsRef.Delegated() && network.Spec.CloudCredentialsRef.ClusterIdentity == identity.Name
	}
	return network.Spec.CloudCredentialsRef == nil
}

// identityUsed names what a Network's credentials are, as far as identities count it:
// the controller's own cloud (""), a Secret of its own, or an identity.
func identityUsed(network *samplecrdv1.Network) string {
	switch ref := network.Spec.CloudCredentialsRef; {
	case ref == nil:
		return ""
	case ref.Delegated():
		return "identity " + ref.ClusterIdentity
	}
	return "own Secret"
}
