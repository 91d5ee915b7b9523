package grants

import (
	"errors"
	"fmt"

	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// Delegation is the project a ClusterIdentity with a Secret hands to a namespace it
// selects: the cloud of that Secret's clouds.yaml, with the powers the identity allows.
type Delegation struct {
	Identity string
	Secret   cache.ObjectName
	Cloud    string
	Powers   Powers
}

var (
	// ErrNotSelected: no identity of that name selects the namespace. A missing identity
	// is the same answer, so that a tenant cannot learn which names exist.
	ErrNotSelected = errors.New("no ClusterIdentity of that name selects the namespace")
	// ErrNotDelegating: the identity selects the namespace but has no Secret.
	ErrNotDelegating = errors.New("the ClusterIdentity has no secretRef")
)

// Delegation returns what the identity name hands to namespace: ErrNotSelected or
// ErrNotDelegating when it hands nothing, another error for a namespace not in the cache
// yet. Its powers are the identity's alone: a delegated project is not the controller's
// own cloud, whose grants add up. With ErrNotSelected, an identity that delegates a
// project still names its Secret, with no powers: what the namespace's Networks had there
// is withdrawn with it (the tenant never sees it).
func (b *Book) Delegation(namespace, name string) (Delegation, error) {
	nsLabels, found := b.labelsOf(namespace)
	if !found {
		return Delegation{}, fmt.Errorf("namespace %s is not in the cache of namespaces yet", namespace)
	}
	obj, found, err := b.identities.GetStore().GetByKey(name)
	if err != nil || !found {
		return Delegation{}, ErrNotSelected
	}
	identity, ok := obj.(*samplecrdv1.ClusterIdentity)
	if !ok {
		return Delegation{}, ErrNotSelected
	}
	d := Delegation{Identity: name, Cloud: identity.Spec.CloudName, Secret: SecretOf(identity)}
	if selector, err := Selector(identity); err != nil || !selector.Matches(nsLabels) {
		return d, ErrNotSelected
	}
	if identity.Spec.SecretRef == nil {
		return Delegation{}, ErrNotDelegating
	}
	d.Powers.add(name, identity.Spec.Allow)
	return d, nil
}

// SecretOf returns the key of the identity's Secret, or a zero key.
func SecretOf(identity *samplecrdv1.ClusterIdentity) cache.ObjectName {
	if identity.Spec.SecretRef == nil {
		return cache.ObjectName{}
	}
	return cache.NewObjectName(identity.Spec.SecretRef.Namespace, identity.Spec.SecretRef.Name)
}

// DelegatesTo names the identities whose Secret is secret.
func (b *Book) DelegatesTo(secret cache.ObjectName) []string {
	var names []string
	for _, identity := range b.sortedIdentities() {
		if SecretOf(identity) == secret {
			names = append(names, identity.Name)
		}
	}
	return names
}
