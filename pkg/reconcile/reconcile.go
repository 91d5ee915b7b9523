package reconcile

import (
	"context"

	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials/grants"
)

// reconcile makes Neutron match a live Network, in its project and with its credentials
// (or, for an import, only reports what Neutron holds: reconcileImport): what the spec
// asks for, what Neutron holds (from the Store, which asks Neutron only when its memory
// cannot prove the answer), the difference between the two (a pass), the calls that
// remove it, then status. A Network whose
// status, spec and Neutron side agree costs no Neutron call and no API write.
//
// A create is the finalizer's write (which pins the project), POST network, PUT its tags,
// POST subnet, then the pass's one status write: Ready, with the project, the warnings
// beside Ready and what was made. The steps are ordered so that a crash, or a reply lost
// on the way back, between any two of them is repaired by the next run without creating
// anything twice:
//
//   - Fresh create: the finalizer and the project (samplecrdv1.AnnotationProject) go on
//     in one write before any Neutron call. An object that had no finalizer therefore has
//     nothing in Neutron, so the Store records its owner absent and the create needs no
//     lookup first; and credentials that lead to another project after a crash are
//     refused, as status.projectID refuses them once written.
//   - Crash after POST network, before tagging: the create request gave the network the
//     cluster's description and the owner's name, so the next process's fill (a list by
//     the cluster's description) has it, with its owner read from the name. The run tags
//     it and continues: no lookup, nothing created twice.
//   - Crash after tagging, before the subnet or the status write: the same fill has the
//     network and its subnet, if one was made; the run continues from there.
//   - Takeover from a previous leader that may still have had a create in flight: the old
//     leader's create may land after the new leader's fill. An object with the finalizer
//     and no known network is therefore looked up by its exact name before anything is
//     created. A create that lands even after that makes a second network of the owner;
//     the next Neutron resync lists it (tagged or not, by the cluster's description) and
//     the duplicate is deleted: the one status names, or the oldest, is kept.
//   - A write Neutron applied whose reply was lost (502, reset, timeout): a create that
//     fails without a definite answer makes the Store forget what it knew (the owner's
//     absence, or the network's subnet list), so the retry lists by name, or the network's
//     subnets, before creating again. Updates and deletes are idempotent and are simply
//     sent again.
func (r *Reconciler) reconcile(ctx context.Context, st *statusWriter, network *samplecrdv1.Network) (err error) {
	powers, err := r.tenants.Powers(network)
	if err != nil {
		// The namespace lost its project altogether: what it had there beyond its own
		// resources is withdrawn, as with any grant taken away.
		withdrawn, werr := r.withdrawRefused(ctx, st, network, powers)
		if werr != nil {
			return st.failed(ctx, network, "", werr)
		}
		return st.failed(ctx, withdrawn, "", err)
	}
	if network.IsImported() {
		return r.reconcileImportAsGranted(ctx, st, network, powers)
	}
	// Taken before anything is read: a check noted meanwhile waits for the next pass. A
	// pass that fails (or waits for its Neutron budget) leaves it to the next.
	key := cache.MetaObjectToName(network)
	checkedAt, checked := r.checks.take(key)
	defer func() {
		if err != nil && checked {
			r.Checked(key, checkedAt)
		}
	}()
	tenant, err := r.tenants.Of(ctx, network)
	if err != nil {
		return st.failed(ctx, network, "", err)
	}
	store := tenant.Store
	if network, err = r.finalizers.ensure(ctx, store, network, Owner(network, r.clusterID), tenant.Place); err != nil {
		return err
	}
	if err := r.tenants.Protect(ctx, network); err != nil {
		return st.failed(ctx, network, "", err)
	}
	st.pinPlace(network, tenant.Place)
	st.noteExpiry(ctx, network, r.expiryWarning(network, tenant), tenant.Expiry)
	st.notePassword(ctx, network, tenant.PasswordWarning)

	desired, err := Desired(network)
	if err != nil {
		return st.failed(ctx, network, "", invalidSpec(err.Error()))
	}
	p := &pass{network: network, store: store, owner: Owner(network, r.clusterID), desired: desired, recorder: r.recorder, enforcement: r.enforcement,
		admitOwnRouter: r.routerAdmission(network)}
	if err := p.resolveReferences(ctx); err != nil {
		return st.failed(ctx, network, network.Status.NetworkID, err)
	}
	if err := p.resolveExistingRouter(ctx); err != nil {
		return st.failed(ctx, network, network.Status.NetworkID, err)
	}
	// The pass's one look at the grants: from here on, desired is what they allow.
	p.grant(powers)
	if p.observed, err = store.Observe(ctx, p.owner, Recorded(network)); err != nil {
		return st.failed(ctx, network, "", err)
	}
	if NeedsShares(p.desired, p.observed) {
		if p.observed.Shares, err = store.Shares(ctx, p.observed.Network.ID); err != nil {
			return st.failed(ctx, network, p.observed.Network.ID, err)
		}
		p.observed.SharesKnown = true
	}
	if err := p.observeRouters(ctx); err != nil {
		return st.failed(ctx, network, network.Status.NetworkID, err)
	}
	p.keepInEffect()
	if err := p.resolveDefaults(ctx); err != nil {
		return st.failed(ctx, network, network.Status.NetworkID, err)
	}
	p.changes = Diff(p.desired, p.observed)
	p.attachNothingNew()
	if p.changes.Immutable != "" {
		return st.failed(ctx, network, p.observed.Network.ID, invalidSpec(p.changes.Immutable))
	}
	if len(p.withheld) > 0 && p.observed.Network == nil {
		// Nothing to undo: nothing is made for a spec that is refused.
		return st.failed(ctx, network, "", notGranted(network.Namespace, p.withheld, p.ungranted.denied))
	}

	if reportsOnly(network, p) {
		return st.driftHeld(ctx, network, DriftText(p.changes, p.observed, Recorded(network), false), checkedAt, checked)
	}

	r.grantMissing(ctx, st, network, p.kept)
	p.network = network
	// A pass that carries out a generation compared Neutron with it, and writes status
	// anyway; a repair between checks leaves lastSyncTime to the checks.
	carriesOut := !p.changes.None() && !settled(network)
	out, err := p.apply(ctx)
	if err != nil {
		p.forgetReferences(err)
		// The status names the network, so it tells what exists while the subnets wait.
		return st.failedApplying(ctx, p.network, out, overQuota(ctx, store, err))
	}
	if len(p.withheld) > 0 {
		return st.failedApplying(ctx, p.network, out, notGranted(network.Namespace, p.withheld, p.ungranted.denied))
	}
	st.noteDrift(network)
	switch {
	case checked:
		st.synced(checkedAt)
	case carriesOut:
		st.synced(r.clock.now())
	}
	return st.ready(ctx, p.network, out)
}

// reconcileImportAsGranted reports an import its powers allow, or one in effect before
// its grant went while grants are only warned about; any other is refused.
func (r *Reconciler) reconcileImportAsGranted(ctx context.Context, st *statusWriter, network *samplecrdv1.Network, powers grants.Powers) error {
	var kept []keptPower
	if !powers.AllowsImport() {
		if r.enforcement != grants.Warn || network.Status.NetworkID == "" {
			return st.failed(ctx, network, "", notGranted(network.Namespace, []string{"spec.import (allow.import)"}, powers.Denied()))
		}
		kept = append(kept, keptPower{grants.PowerImport, "spec.import (allow.import)"})
	}
	r.grantMissing(ctx, st, network, kept)
	return r.reconcileImport(ctx, st, network)
}
