package grants

import (
	"fmt"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// Book answers, from the informers' caches of ClusterIdentity objects and namespaces,
// which powers a namespace has in the controller's own cloud.
type Book struct {
	identities cache.SharedIndexInformer
	namespaces cache.SharedIndexInformer
	ownCloud   labels.Selector
}

// NewBook returns a Book reading identities (of ClusterIdentity objects) and namespaces
// (of namespaces, or of their metadata). ownCloud selects the namespaces that may use the
// controller's own cloud at all (nil: every namespace).
func NewBook(identities, namespaces cache.SharedIndexInformer, ownCloud labels.Selector) *Book {
	if ownCloud == nil {
		ownCloud = labels.Everything()
	}
	return &Book{identities: identities, namespaces: namespaces, ownCloud: ownCloud}
}

// HasSynced reports whether both caches hold their initial lists.
func (b *Book) HasSynced() bool { return b.identities.HasSynced() && b.namespaces.HasSynced() }

// OwnCloud returns the powers the namespace's Networks have in the controller's own
// cloud: none when the namespace may not use it (the selector of NewBook), else those of
// every identity without a Secret whose selector selects the namespace. An identity whose
// selector does not parse selects nothing. A namespace the cache does not hold yet (just
// made) is an error: its powers are not known.
func (b *Book) OwnCloud(namespace string) (Powers, error) {
	var powers Powers
	nsLabels, found := b.labelsOf(namespace)
	if !found {
		return powers, fmt.Errorf("namespace %s is not in the cache of namespaces yet", namespace)
	}
	if !b.ownCloud.Matches(nsLabels) {
		powers.OwnCloudRefusedBy = b.ownCloud.String()
		return powers, nil
	}
	for _, identity := range b.sortedIdentities() {
		if identity.Spec.SecretRef != nil {
			continue
		}
		if selector, err := Selector(identity); err == nil && selector.Matches(nsLabels) {
			powers.add(identity.Name, identity.Spec.Allow)
		}
	}
	return powers, nil
}

// Selector parses the identity's namespaceSelector.
func Selector(identity *samplecrdv1.ClusterIdentity) (labels.Selector, error) {
	selector, err := metav1.LabelSelectorAsSelector(&identity.Spec.NamespaceSelector)
	if err != nil {
		return nil, fmt.Errorf("ClusterIdentity %s: spec.namespaceSelector: %w", identity.Name, err)
	}
	return selector, nil
}

// OnChange calls changed with each namespace whose powers a change may have changed: the
// namespaces an identity selected before or after it changed, and a namespace whose
// labels changed.
func (b *Book) OnChange(changed func(namespace string)) error {
	_, err := b.identities.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) { b.eachSelected(changed, obj) },
		UpdateFunc: func(old, new any) {
			// A status write changes no power; only the spec does, which bumps the generation.
			o, okOld := old.(*samplecrdv1.ClusterIdentity)
			n, okNew := new.(*samplecrdv1.ClusterIdentity)
			if okOld && okNew && o.Generation == n.Generation {
				return
			}
			b.eachSelected(changed, old, new)
		},
		DeleteFunc: func(obj any) { b.eachSelected(changed, obj) },
	})
	if err != nil {
		return fmt.Errorf("adding ClusterIdentity event handlers: %w", err)
	}
	_, err = b.namespaces.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			if ns, ok := obj.(metav1.Object); ok {
				changed(ns.GetName())
			}
		},
		UpdateFunc: func(old, new any) {
			o, okOld := old.(metav1.Object)
			n, okNew := new.(metav1.Object)
			if okOld && okNew && !labels.Equals(o.GetLabels(), n.GetLabels()) {
				changed(n.GetName())
			}
		},
	})
	if err != nil {
		return fmt.Errorf("adding namespace event handlers: %w", err)
	}
	return nil
}

// eachSelected calls changed with every namespace one of the identities selects.
func (b *Book) eachSelected(changed func(namespace string), objs ...any) {
	var selectors []labels.Selector
	for _, obj := range objs {
		if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = tombstone.Obj
		}
		identity, ok := obj.(*samplecrdv1.ClusterIdentity)
		if !ok {
			continue
		}
		if selector, err := Selector(identity); err == nil {
			selectors = append(selectors, selector)
		}
	}
	for _, obj := range b.namespaces.GetStore().List() {
		ns, ok := obj.(metav1.Object)
		if !ok {
			continue
		}
		if slices.ContainsFunc(selectors, func(s labels.Selector) bool { return s.Matches(labels.Set(ns.GetLabels())) }) {
			changed(ns.GetName())
		}
	}
}

func (b *Book) labelsOf(namespace string) (labels.Set, bool) {
	obj, found, err := b.namespaces.GetStore().GetByKey(namespace)
	if err != nil || !found {
		return nil, false
	}
	ns, ok := obj.(metav1.Object)
	if !ok {
		return nil, false
	}
	return labels.Set(ns.GetLabels()), true
}

// sortedIdentities lists the cached identities by name, so that messages list them in
// one order.
func (b *Book) sortedIdentities() []*samplecrdv1.ClusterIdentity {
	var identities []*samplecrdv1.ClusterIdentity
	for _, obj := range b.identities.GetStore().List() {
		if identity, ok := obj.(*samplecrdv1.ClusterIdentity); ok {
			identities = append(identities, identity)
		}
	}
	slices.SortFunc(identities, func(a, b *samplecrdv1.ClusterIdentity) int { return strings.Compare(a.Name, b.Name) })
	return identities
}
