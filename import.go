package main

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/fairqueue"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/tenancy"
)

// reconcileImport reports in status the network a Network imports (spec.import). It only
// reads Neutron, and the Network gets no finalizer: deleting it leaves Neutron alone.
//
// An import that got Neutron's answer for its generation, found or not, costs no call
// again: each Neutron resync looks at all of a project's imports at once (recheckImports)
// and hands what changed over to this.
func (c *Controller) reconcileImport(ctx context.Context, network *samplecrdv1.Network) error {
	tenant, err := c.tenants.Resolve(ctx, cache.MetaObjectToName(network), network.Spec.CloudCredentialsRef)
	if err != nil {
		return c.recordFailure(ctx, network, "", err)
	}
	// Credentials of another project than before are no harm here, unlike for a created
	// network: nothing was made in the first one. The import is looked up again.
	moved := network.Status.ProjectID != tenant.Place.ProjectID
	if network, err = c.recordProject(ctx, network, tenant.Place); err != nil {
		return err
	}

	ref := importRefOf(network)
	result, found := c.importFindings.take(network, tenant.Place)
	if !found {
		if importSettled(network) && !moved {
			return nil
		}
		visible, err := tenant.Store.LookupImport(ctx, ref)
		if err != nil {
			return c.recordFailure(ctx, network, "", err)
		}
		result = visible.Resolve(ref, network.Status.NetworkID)
	}
	return c.recordImport(ctx, network, result)
}

// recordImport records what the import resolved to: Ready=True with the network and
// subnet, or Ready=False with the problem's reason, which waits for Neutron to change.
func (c *Controller) recordImport(ctx context.Context, network *samplecrdv1.Network, result neutron.ImportResult) error {
	if result.Problem != 0 {
		return c.recordFailure(ctx, network, result.Network.ID, &importError{result: result})
	}
	stopwatch := c.readyStopwatch(network)
	if _, err := c.writeStatus(ctx, network, importedStatus(network, result)); err != nil {
		return err
	}
	if !network.IsReady() {
		klog.FromContext(ctx).Info("Network imports a Neutron network", "networkID", result.Network.ID, "subnetID", result.Subnet.ID)
		stopwatch()
		c.recorder.Eventf(network, corev1.EventTypeNormal, samplecrdv1.ReasonImported,
			"Imported Neutron network %s with subnet %s (%s), read-only", result.Network.ID, result.Subnet.ID, result.Subnet.Summary())
	}
	return nil
}

// importStatusOf returns the status recordImport would write for result.
func importStatusOf(network *samplecrdv1.Network, result neutron.ImportResult) *samplecrdv1.NetworkStatus {
	if result.Problem != 0 {
		reason, message := explain(&importError{result: result})
		return failedStatus(network, result.Network.ID, reason, message)
	}
	return importedStatus(network, result)
}

func importedStatus(network *samplecrdv1.Network, result neutron.ImportResult) *samplecrdv1.NetworkStatus {
	status := network.Status.DeepCopy()
	status.ObservedGeneration = network.Generation
	setRealized(status, result.Network, result.Subnet)
	setReady(status, network.Generation, metav1.ConditionTrue, samplecrdv1.ReasonImported,
		fmt.Sprintf("Imported Neutron network %s with subnet %s (%s)", result.Network.ID, result.Subnet.ID, result.Subnet.Summary()))
	setSettled(status)
	return status
}

// recheckImports looks at every import of a project with one list of the networks its
// credentials can see (and one of their subnets), and queues each imported Network whose
// status no longer tells the truth, with what was found: the worker records it without a
// lookup of its own. It returns how many it queued.
func (c *Controller) recheckImports(ctx context.Context, logger klog.Logger, project tenancy.Project, networks []*samplecrdv1.Network) int {
	refs := make([]neutron.ImportRef, 0, len(networks))
	for _, network := range networks {
		refs = append(refs, importRefOf(network))
	}
	visible, err := project.Store.ListVisible(ctx, refs)
	if err != nil {
		logger.Info("Skipping the imports of a project until the next Neutron resync", "place", project.Place.String(), "err", err)
		return 0
	}
	queued := 0
	for _, network := range networks {
		result := visible.Resolve(importRefOf(network), network.Status.NetworkID)
		if equality.Semantic.DeepEqual(network.Status, *importStatusOf(network, result)) {
			continue
		}
		logger.V(2).Info("Imported Neutron network changed", "network", klog.KObj(network), "networkID", result.Network.ID, "problem", result.Message)
		c.importFindings.put(network, project.Place, result)
		c.workqueue.addFor(cache.MetaObjectToName(network), fairqueue.Resync)
		queued++
	}
	return queued
}

// importSettled reports whether an imported Network's last look, for its generation, got
// through its credentials to Neutron's answer: Ready, or one of an import's problems. The
// resync looks at those again; the others wait for their retry, or for their spec or
// Secret to change.
func importSettled(network *samplecrdv1.Network) bool {
	c := network.ReadyCondition()
	if network.DeletionTimestamp != nil || c == nil || c.ObservedGeneration != network.Generation {
		return false
	}
	return c.Reason == samplecrdv1.ReasonImported || isImportReason(c.Reason)
}
