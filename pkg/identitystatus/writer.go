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
	"github.com/samplecrd/network-controller/pkg/grants"
	"github.com/samplecrd/network-controller/pkg/scope"
)

// batchDelay gathers the Network events of a burst (a restart's initial list, a bulk
// create) into one count per identity.
const batchDelay = 2 * time.Second

// Writer writes each identity's status when the identity, the namespaces or the Networks
// change. Its queue is keyed by identity name.
type Writer struct {
	client     clientset.Interface
	identities cache.SharedIndexInformer
	namespaces cache.SharedIndexInformer
	networks   *scope.Informers
	watched    scope.Namespaces
	manager    string
	queue      workqueue.TypedRateLimitingInterface[string]
}

// New returns a Writer reading the informers of grants.NewBook and the Networks' of the
// namespaces watched; it writes through client as manager.
func New(client clientset.Interface, identities, namespaces cache.SharedIndexInformer, networks *scope.Informers, watched scope.Namespaces, manager string) (*Writer, error) {
	w := &Writer{client: client, identities: identities, namespaces: namespaces, networks: networks, watched: watched, manager: manager,
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
			if usesOwnCloud(old.(*samplecrdv1.Network)) != usesOwnCloud(new.(*samplecrdv1.Network)) {
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
	w.enqueueAll(0)
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
	status, counted := w.statusOf(identity)
	if !counted {
		// Controllers watching some namespaces each would write their own counts of one
		// identity in turn, for ever; only one that sees them all may.
		klog.FromContext(ctx).V(4).Info("Leaving the status of a ClusterIdentity to a controller that watches every namespace it selects",
			"clusterIdentity", name, "watched", w.watched.String())
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
// selects a namespace this controller does not watch, whose Networks it cannot count.
func (w *Writer) statusOf(identity *samplecrdv1.ClusterIdentity) (status samplecrdv1.ClusterIdentityStatus, counted bool) {
	status = samplecrdv1.ClusterIdentityStatus{ObservedGeneration: identity.Generation,
		Conditions: append([]metav1.Condition(nil), identity.Status.Conditions...)}
	ready := metav1.Condition{Type: samplecrdv1.ConditionReady, ObservedGeneration: identity.Generation}
	selector, err := grants.Selector(identity)
	switch {
	case err != nil:
		ready.Status, ready.Reason, ready.Message = metav1.ConditionFalse, samplecrdv1.IdentityReasonInvalidSelector, err.Error()
	case identity.Spec.SecretRef != nil:
		ready.Status, ready.Reason = metav1.ConditionFalse, samplecrdv1.IdentityReasonDelegationNotInEffect
		ready.Message = "this version of the controller does not read spec.secretRef yet: no Network can use this identity, and it grants nothing"
	default:
		ready.Status, ready.Reason = metav1.ConditionTrue, samplecrdv1.IdentityReasonGranting
		ready.Message = "grants spec.allow in the controller's own cloud to the namespaces spec.namespaceSelector selects"
	}
	meta.SetStatusCondition(&status.Conditions, ready)
	if err != nil {
		return status, true
	}
	for _, obj := range w.namespaces.GetStore().List() {
		ns, ok := obj.(metav1.Object)
		if !ok || !selector.Matches(labels.Set(ns.GetLabels())) {
			continue
		}
		if !w.watched.Contains(ns.GetName()) {
			return status, false
		}
		status.Namespaces++
		if identity.Spec.SecretRef != nil {
			continue
		}
		networks, _ := w.networks.Indexer(ns.GetName()).ByIndex(cache.NamespaceIndex, ns.GetName())
		for _, obj := range networks {
			if network, ok := obj.(*samplecrdv1.Network); ok && usesOwnCloud(network) {
				status.Networks++
			}
		}
	}
	return status, true
}

// usesOwnCloud reports whether the Network uses the controller's own cloud, where
// identities without a Secret grant powers.
func usesOwnCloud(network *samplecrdv1.Network) bool { return network.Spec.CloudCredentialsRef == nil }
