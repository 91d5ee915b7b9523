package reconcile

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials"
	"github.com/samplecrd/network-controller/pkg/credentials/grants"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronstore"
)

// A grant taken away is withdrawn, or reported, on the Networks no pass reaches too:
// paused ones, and those of a namespace that lost the controller's own cloud.

// withdrawWhilePaused carries out on a paused Network what a grant taken away withdraws.
// A Network of its own project has nothing to withdraw, and one whose identity no longer
// selects its namespace nothing the controller can reach.
func (r *Reconciler) withdrawWhilePaused(ctx context.Context, st *statusWriter, network *samplecrdv1.Network) (*samplecrdv1.Network, error) {
	if ref := network.Spec.CloudCredentialsRef; ref != nil && !ref.Delegated() {
		return network, nil
	}
	powers, err := r.tenants.Powers(network)
	if err != nil {
		return r.withdrawRefused(ctx, st, network, powers)
	}
	return r.withdrawUngranted(ctx, st, network, powers, r.tenants.Of)
}

// withdrawRefused carries out the withdrawal of a Network whose namespace lost its project
// altogether: the controller's own cloud (-own-cloud-namespace-selector), or the project
// of the ClusterIdentity it names, which no longer selects the namespace (reached with the
// identity's Secret, for what the Network made there only). Anything else refused has
// nothing the controller can reach.
func (r *Reconciler) withdrawRefused(ctx context.Context, st *statusWriter, network *samplecrdv1.Network, powers grants.Powers) (*samplecrdv1.Network, error) {
	if powers.OwnCloudRefusedBy != "" {
		return r.withdrawUngranted(ctx, st, network, powers, r.tenants.Of)
	}
	if network.Status.NetworkID == "" {
		return network, nil
	}
	reach, ok := r.tenants.FormerIdentity(network)
	if !ok {
		return network, nil
	}
	return r.withdrawUngranted(ctx, st, network, grants.Powers{}, reach)
}

// withdrawUngranted carries out an operator's withdrawal on a Network no pass reaches: one
// its tenant paused, or whose namespace lost the controller's own cloud. What its status
// shows in effect that powers do not allow is withdrawn in enforce mode (the RBAC policies
// deleted, the subnets detached from the existing router, the QoS policy set back to the
// project's default) and kept and reported in warn mode; nothing else of the spec is done.
func (r *Reconciler) withdrawUngranted(ctx context.Context, st *statusWriter, network *samplecrdv1.Network, powers grants.Powers,
	tenantOf func(context.Context, *samplecrdv1.Network) (credentials.Tenant, error)) (*samplecrdv1.Network, error) {
	if powers.Unfenced {
		r.grantMissing(ctx, st, network, nil)
		return network, nil
	}
	var kept []keptPower
	if network.Spec.DeletionPolicy == samplecrdv1.DeletionPolicyRetain && !powers.AllowsRetain() && network.Status.NetworkID != "" {
		kept = append(kept, keptPower{grants.PowerRetain, retainText})
	}
	if network.IsImported() && !powers.AllowsImport() && network.Status.NetworkID != "" && r.enforcement == grants.Warn {
		kept = append(kept, keptPower{grants.PowerImport, "spec.import (allow.import)"})
	}
	var shares []string
	for _, s := range network.Status.SharedWith {
		if !powers.AllowsShare(s.ProjectID) {
			shares = append(shares, s.ProjectID)
		}
	}
	router := network.Status.Router
	if router != nil && (router.Owned || powers.AllowsRouter(router.RouterID, "")) {
		router = nil
	}
	// Without the store, by ID alone: it never fails.
	qos, _ := ungrantedQoS(ctx, nil, network, powers)
	if len(shares) == 0 && router == nil && qos == "" {
		r.grantMissing(ctx, st, network, kept)
		return network, nil
	}
	if r.enforcement == grants.Warn && router == nil && (qos == "" || !namesQoSPolicies(powers)) {
		for _, project := range shares {
			kept = append(kept, keptPower{grants.PowerSharedWith, "spec.sharedWith project " + project + " (allow.sharedWith)"})
		}
		if qos != "" {
			kept = append(kept, keptPower{grants.PowerQoSPolicy, qosText(qos, "")})
		}
		r.grantMissing(ctx, st, network, kept)
		return network, nil
	}
	tenant, err := tenantOf(ctx, network)
	if err != nil {
		return nil, err
	}
	if qos, err = ungrantedQoS(ctx, tenant.Store, network, powers); err != nil {
		return nil, err
	}
	if router != nil {
		// A grant may name the router: its name is Neutron's, not the status's.
		existing, found, err := tenant.Store.ExistingRouter(ctx, neutron.Ref{ID: router.RouterID})
		if err != nil {
			return nil, err
		}
		if found && powers.AllowsRouter(existing.ID, existing.Name) {
			router = nil
		}
	}
	if r.enforcement == grants.Warn {
		for _, project := range shares {
			kept = append(kept, keptPower{grants.PowerSharedWith, "spec.sharedWith project " + project + " (allow.sharedWith)"})
		}
		if router != nil {
			kept = append(kept, keptPower{grants.PowerExistingRouter, "spec.router.existing router " + router.RouterID + " (allow.existingRouters)"})
		}
		if qos != "" {
			kept = append(kept, keptPower{grants.PowerQoSPolicy, qosText(qos, "")})
		}
		r.grantMissing(ctx, st, network, kept)
		return network, nil
	}
	if len(shares) == 0 && router == nil && qos == "" {
		r.grantMissing(ctx, st, network, kept)
		return network, nil
	}
	r.grantMissing(ctx, st, network, kept)
	return r.withdraw(ctx, st, tenant.Store, network, shares, router, qos)
}

// withdraw deletes the RBAC policies that share the Network's own network with shares,
// detaches its subnets from router and sets its QoS policy qos back to the project's
// default, all found in Neutron (the status only says what to look for), and returns the
// Network with that recorded in its status, to be written by the pass's write: Ready=False,
// NotGranted.
func (r *Reconciler) withdraw(ctx context.Context, st *statusWriter, store *neutronstore.Store, network *samplecrdv1.Network, shares []string, router *samplecrdv1.RouterStatus,
	qos string) (*samplecrdv1.Network, error) {
	logger := klog.FromContext(ctx)
	observed, err := store.Observe(ctx, Owner(network, r.clusterID), Recorded(network))
	if err != nil {
		return nil, err
	}
	var withdrawn []string
	var unshared []string
	if net := observed.Network; net != nil && len(shares) > 0 {
		policies, err := store.Shares(ctx, net.ID)
		if err != nil {
			return nil, err
		}
		for _, policy := range policies {
			if !slices.ContainsFunc(shares, func(s string) bool { return strings.EqualFold(s, policy.TargetProject) }) {
				continue
			}
			if err := store.Unshare(ctx, policy); err != nil {
				return nil, err
			}
			logger.Info("Stopped sharing the Neutron network with a project: no grant allows it", "networkID", net.ID, "project", policy.TargetProject, "rbacPolicyID", policy.ID)
			r.recorder.Eventf(network, corev1.EventTypeNormal, reasonNetworkUnshared,
				"Stopped sharing Neutron network %s with project %s (deleted RBAC policy %s): no grant allows it", net.ID, policy.TargetProject, policy.ID)
		}
	}
	if len(shares) > 0 {
		unshared = shares
		withdrawn = append(withdrawn, fmt.Sprintf("spec.sharedWith project %s (allow.sharedWith)", strings.Join(shares, ", ")))
	}
	if net := observed.Network; net != nil && router != nil {
		_, ports, err := store.Routers(ctx, *net)
		if err != nil {
			return nil, err
		}
		for _, subnetID := range neutron.AttachedSubnets(ports, router.RouterID) {
			if err := store.Detach(ctx, net.ID, neutron.Interface{RouterID: router.RouterID, SubnetID: subnetID}); err != nil {
				return nil, err
			}
			logger.Info("Detached a subnet from a router: no grant allows it", "subnetID", subnetID, "routerID", router.RouterID)
			r.recorder.Eventf(network, corev1.EventTypeNormal, reasonSubnetDetached, "Detached subnet %s from router %s: no grant allows it", subnetID, router.RouterID)
		}
	}
	if router != nil {
		withdrawn = append(withdrawn, "spec.router.existing router "+router.RouterID+" (allow.existingRouters)")
	}
	if qos != "" {
		if err := r.withdrawQoS(ctx, store, network, observed.Network, qos); err != nil {
			return nil, err
		}
		withdrawn = append(withdrawn, qosText(qos, ""))
	}
	f := &Failure{Reason: samplecrdv1.ReasonNotGranted, Terminal: true, Message: truncate(fmt.Sprintf(
		"namespace %s uses a project the cluster's operator hands out, and no grant allows %s any more: withdrawn (-grant-enforcement is enforce), whatever the spec or a pause says; "+
			"ask the cluster's operator for a ClusterIdentity that selects the namespace and allows them, or remove them from the spec",
		network.Namespace, strings.Join(withdrawn, "; ")), maxMessageLength)}
	// Terminal: only a grant or a change of the spec helps. The generation observed stays:
	// a change of the spec a pause holds is still to come.
	status := failedStatus(network, "", f)
	status.ObservedGeneration = network.Status.ObservedGeneration
	status.SharedWith = slices.DeleteFunc(status.SharedWith, func(s samplecrdv1.ProjectShare) bool { return slices.Contains(unshared, s.ProjectID) })
	if router != nil {
		status.Router = nil
	}
	if qos != "" {
		status.QoSPolicyID = ""
	}
	// The pass's one write carries it: the Paused condition, or the refusal, built on it.
	recorded := network.DeepCopy()
	recorded.Status = *status
	st.unwritten = true
	return recorded, nil
}

// grantMissing records the powers kept without a grant: the GrantMissing condition in
// the pass's write (and a Warning Event when it appears or changes), and the count of
// Networks per power.
func (r *Reconciler) grantMissing(ctx context.Context, st *statusWriter, network *samplecrdv1.Network, kept []keptPower) {
	r.withoutGrant.set(cache.MetaObjectToName(network), kept)
	message := grantMissingMessage(network.Namespace, kept, r.enforcement)
	st.warn(network, samplecrdv1.ConditionGrantMissing, samplecrdv1.ReasonKeptWithoutGrant, message, func() {
		if message == "" {
			klog.FromContext(ctx).Info("Network keeps no power without a grant any more")
			return
		}
		klog.FromContext(ctx).Info("Network keeps powers no grant allows", "kept", message)
		r.recorder.Event(network, corev1.EventTypeWarning, samplecrdv1.ReasonKeptWithoutGrant, message)
	})
}

// grantMissingMessage says what is kept without a grant, and what comes of it; "" for
// nothing.
func grantMissingMessage(namespace string, kept []keptPower, mode grants.Enforcement) string {
	if len(kept) == 0 {
		return ""
	}
	texts := make([]string, len(kept))
	onlyRetain := true
	for i, k := range kept {
		texts[i] = k.text
		onlyRetain = onlyRetain && k.power == grants.PowerRetain
	}
	tail := "-grant-enforcement is warn, so they stay, but nothing more is made with them; enforce withdraws all but Retain"
	if onlyRetain {
		tail = "Retain is kept in every mode, as withdrawing it could delete the network"
	}
	return truncate(fmt.Sprintf(
		"namespace %s uses a project the cluster's operator hands out, and no grant allows what this Network has in effect: %s. %s. "+
			"Deleting a Retain Network waits for the grant, or for deletionPolicy Delete. Ask the cluster's operator for a ClusterIdentity that selects the namespace and allows them, or remove them from the spec",
		namespace, strings.Join(texts, "; "), tail), maxMessageLength)
}

// withoutGrant counts, per power, the Networks that keep it without a grant, for the
// metric: each Network as its last pass found it.
type withoutGrant struct {
	mu     sync.Mutex
	powers map[cache.ObjectName][]string
}

func (w *withoutGrant) set(key cache.ObjectName, kept []keptPower) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(kept) == 0 {
		delete(w.powers, key)
		return
	}
	if w.powers == nil {
		w.powers = map[cache.ObjectName][]string{}
	}
	var powers []string
	for _, k := range kept {
		if !slices.Contains(powers, k.power) {
			powers = append(powers, k.power)
		}
	}
	w.powers[key] = powers
}

func (w *withoutGrant) forget(key cache.ObjectName) { w.set(key, nil) }

// CountWithoutGrant returns how many Networks keep each power without a grant.
func (r *Reconciler) CountWithoutGrant() map[string]int {
	r.withoutGrant.mu.Lock()
	defer r.withoutGrant.mu.Unlock()
	counts := map[string]int{}
	for _, powers := range r.withoutGrant.powers {
		for _, p := range powers {
			counts[p]++
		}
	}
	return counts
}

// GrantedPowers names the powers a grant gives, as CountWithoutGrant counts them.
func GrantedPowers() []string { return slices.Clone(grants.PowerNames) }
