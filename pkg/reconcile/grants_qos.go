package reconcile

import (
	"context"
	"errors"
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials/grants"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronstore"
)

// A QoS policy is a power: it caps (or lifts) the bandwidth of every port of the network,
// and a project the operator hands out may hold policies meant for others, so in such a
// project spec.qosPolicy needs allow.qosPolicies, as spec.router.existing needs
// allow.existingRouters. A policy the controller takes off a network, because the spec
// dropped it or a grant went, gives way to what Neutron gives a new network: the
// project's default policy (an operator's bandwidth cap), never a null over it.

// qosText names, in messages, the policy spec.qosPolicy names.
func qosText(id, name string) string {
	if name == "" {
		return fmt.Sprintf("spec.qosPolicy QoS policy %s (allow.qosPolicies)", id)
	}
	return fmt.Sprintf("spec.qosPolicy QoS policy %s %q (allow.qosPolicies)", id, name)
}

// projectDefaultQoS is the network's QoS policy set back to what Neutron gives a new one.
func projectDefaultQoS() *neutron.Reference {
	return &neutron.Reference{Collection: neutron.QoSPolicies, ProjectDefault: true}
}

// resolveDefaults looks up, once Neutron is observed, the project's default QoS policy
// for a network that is to have it. A network still to be made gets it from Neutron's
// create itself, so nothing is sent for it.
func (p *pass) resolveDefaults(ctx context.Context) error {
	q := p.desired.Network.QoSPolicy
	if q == nil || !q.ProjectDefault {
		return nil
	}
	net := p.observed.Network
	if net == nil {
		p.desired.Network.QoSPolicy = nil
		return nil
	}
	id, err := p.store.DefaultQoSPolicy(ctx, net.ProjectID)
	if err != nil {
		return err
	}
	q.ResolvedID = id
	return nil
}

// ungrantedQoS returns the policy the status of a Network no pass reaches shows set and
// powers do not allow, "" for none. A grant by name needs the policy's name, which only
// Neutron knows: store is asked only then. A policy the project no longer sees is
// ungranted.
func ungrantedQoS(ctx context.Context, store *neutronstore.Store, network *samplecrdv1.Network, powers grants.Powers) (string, error) {
	id := network.Status.QoSPolicyID
	if id == "" || powers.AllowsQoSPolicy(id, "") {
		return "", nil
	}
	if store == nil || !namesQoSPolicies(powers) {
		return id, nil
	}
	found, err := store.ResolveNamed(ctx, neutron.QoSPolicies, neutron.Ref{ID: id})
	var gone *neutron.ReferenceError
	if errors.As(err, &gone) {
		return id, nil
	}
	if err != nil {
		return "", err
	}
	if powers.AllowsQoSPolicy(found.ID, found.Name) {
		return "", nil
	}
	return id, nil
}

// namesQoSPolicies reports whether a grant names a QoS policy by name, which only Neutron
// can tell of a policy ID.
func namesQoSPolicies(powers grants.Powers) bool {
	return slices.ContainsFunc(powers.QoSPolicies, func(r samplecrdv1.NeutronRef) bool { return r.Name != "" })
}

// withdrawQoS sets the network that has the ungranted policy qos back to the project's
// default, the withdrawal of enforce mode on a Network no pass reaches.
func (r *Reconciler) withdrawQoS(ctx context.Context, store *neutronstore.Store, network *samplecrdv1.Network, net *neutron.Network, qos string) error {
	if net == nil || deref(net.QoSPolicyID) != qos {
		return nil
	}
	to, err := store.DefaultQoSPolicy(ctx, net.ProjectID)
	if err != nil || to == qos {
		return err
	}
	change := projectDefaultQoS()
	change.ResolvedID = to
	if _, err := store.UpdateNetwork(ctx, Owner(network, r.clusterID), net.ID, neutron.NetworkAttrs{QoSPolicy: change}); err != nil {
		return err
	}
	what := neutron.Describe([]neutron.Difference{{Attribute: "qos policy", Observed: qos, Desired: neutron.OrNone(to)}})
	klog.FromContext(ctx).Info("Took a QoS policy off the Neutron network: no grant allows it", "networkID", net.ID, "changes", what)
	r.recorder.Eventf(network, corev1.EventTypeNormal, reasonNetworkUpdated, "Changed Neutron network %s: %s: no grant allows it", net.ID, what)
	return nil
}
