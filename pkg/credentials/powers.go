package credentials

import (
	"errors"
	"fmt"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials/grants"
	"github.com/samplecrd/network-controller/pkg/credentials/registry"
)

// A Network's credentials are of three kinds, and so are its powers: all of them in a
// project its own Secret reaches, those its ClusterIdentity allows in the project it
// delegates, those granted in the controller's own cloud.

// Powers returns the Network's powers in the project its credentials reach. A namespace
// that may not use the controller's own cloud, or the identity it names, is refused with
// a terminal *Error; the powers then say what is left (for the withdrawal of what the
// Network had).
func (t *Tenants) Powers(network *samplecrdv1.Network) (grants.Powers, error) {
	ref := network.Spec.CloudCredentialsRef
	switch {
	case ref.Delegated():
		d, err := t.delegationOf(network)
		return d.Powers, err
	case ref != nil:
		return grants.Unfenced, nil
	}
	powers, err := t.grants.OwnCloud(network.Namespace)
	if err != nil {
		return powers, err
	}
	if powers.OwnCloudRefusedBy != "" {
		return powers, &registry.Error{Reason: samplecrdv1.ReasonCredentialsRefRequired, Message: fmt.Sprintf(
			"namespace %s may not use the controller's own cloud: it does not match -own-cloud-namespace-selector %q; name credentials in spec.cloudCredentialsRef, or ask the cluster's operator",
			network.Namespace, powers.OwnCloudRefusedBy)}
	}
	return powers, nil
}

// RetainGranted reports whether a deleted Network may keep its resources: a namespace
// that lost the controller's own cloud, or the grant, may not.
func (t *Tenants) RetainGranted(network *samplecrdv1.Network) (grants.Powers, bool, error) {
	ref := network.Spec.CloudCredentialsRef
	switch {
	case ref.Delegated():
		d, err := t.delegationOf(network)
		return d.Powers, err == nil && d.Powers.AllowsRetain(), err
	case ref != nil:
		return grants.Unfenced, true, nil
	}
	powers, err := t.grants.OwnCloud(network.Namespace)
	return powers, err == nil && powers.AllowsRetain(), err
}

// delegationOf returns what the ClusterIdentity the Network names hands its namespace, or
// the terminal error saying it hands nothing.
func (t *Tenants) delegationOf(network *samplecrdv1.Network) (grants.Delegation, error) {
	name := network.Spec.CloudCredentialsRef.ClusterIdentity
	d, err := t.grants.Delegation(network.Namespace, name)
	return d, refusedDelegation(network.Namespace, name, err)
}

// refusedDelegation turns the Book's answer that identity hands namespace nothing into
// the error a Network gets; other errors pass, to be retried.
func refusedDelegation(namespace, identity string, err error) error {
	switch {
	case isNotSelected(err):
		return &registry.Error{Reason: samplecrdv1.ReasonNamespaceNotSelected, Message: fmt.Sprintf(
			"no ClusterIdentity named %s selects namespace %s; ask the cluster's operator for one that does, or name a Secret of the namespace in spec.cloudCredentialsRef",
			identity, namespace)}
	case errors.Is(err, grants.ErrNotDelegating):
		return &registry.Error{Reason: samplecrdv1.ReasonClusterIdentityNotDelegating, Message: fmt.Sprintf(
			"ClusterIdentity %s has no spec.secretRef: it grants powers in the controller's own cloud, which a Network uses by omitting spec.cloudCredentialsRef, and delegates no project",
			identity)}
	}
	return err
}

func isNotSelected(err error) bool { return errors.Is(err, grants.ErrNotSelected) }

// sourceOf returns where the Network's credentials are: nil for the controller's own
// cloud.
func (t *Tenants) sourceOf(network *samplecrdv1.Network) (*registry.Source, error) {
	ref := network.Spec.CloudCredentialsRef
	switch {
	case ref == nil:
		return nil, nil
	case !ref.Delegated():
		return registry.OwnSecret(network.Namespace, ref), nil
	}
	d, err := t.delegationOf(network)
	if err != nil {
		return nil, err
	}
	return &registry.Source{Secret: d.Secret, Cloud: d.Cloud, Identity: d.Identity}, nil
}
