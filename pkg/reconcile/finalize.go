package reconcile

import (
	"context"
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronstore"
)

// finalize carries out the Network's deletion policy, as the spec says it now, on its
// Neutron side, then removes its finalizer.
func (r *Reconciler) finalize(ctx context.Context, st *statusWriter, network *samplecrdv1.Network) error {
	if !slices.Contains(network.Finalizers, samplecrdv1.FinalizerName) {
		return nil
	}
	if neverCreated(network) || network.IsImported() {
		// Its credentials never worked, or it was deleted before its first create, or it
		// imports a network the controller did not create: nothing to delete, and no
		// credentials needed to find that out.
		if removed, err := r.finalizers.remove(ctx, network); !removed {
			return err
		}
		klog.FromContext(ctx).Info("Removed finalizer: nothing was created in Neutron")
		return nil
	}
	tenant, err := r.tenants.Of(ctx, network)
	if err != nil {
		return st.failed(ctx, network, "", err)
	}
	if network.Spec.DeletionPolicy == samplecrdv1.DeletionPolicyRetain {
		powers, granted, err := r.tenants.RetainGranted(network)
		if err != nil {
			return err
		}
		if !granted {
			// Resources kept in a shared project without marks would belong to no one, and
			// deleting them would lose what the user asked to keep: the deletion waits.
			return st.failed(ctx, network, network.Status.NetworkID, retainNotGranted(network.Namespace, powers))
		}
		return r.finalizeRetain(ctx, st, tenant.Store, network)
	}
	return r.finalizeDelete(ctx, st, tenant.Store, network)
}

// finalizeDelete deletes the Neutron side. Neutron deletes a network's subnets with it,
// so this is one DELETE per network. A network that status names but that does not carry
// this Network's marks is left alone: status is a hint, not a proof of ownership.
func (r *Reconciler) finalizeDelete(ctx context.Context, st *statusWriter, store *neutronstore.Store, network *samplecrdv1.Network) error {
	res, err := store.DeleteOwned(ctx, Owner(network, r.clusterID), Recorded(network))
	if err != nil {
		return st.failed(ctx, network, "", err)
	}
	klog.FromContext(ctx).V(2).Info("Deleted Neutron networks with their subnets", "networkIDs", res.Deleted)
	if len(res.NotOwned) > 0 {
		if network, err = r.recordNotOwned(ctx, st, network, res.NotOwned); err != nil {
			return err
		}
	}
	if removed, err := r.finalizers.remove(ctx, network); !removed {
		return err
	}
	klog.FromContext(ctx).Info("Deleted Neutron resources and removed finalizer", "routerIDs", res.DeletedRouters)
	if len(res.DeletedRouters) > 0 {
		r.recorder.Eventf(network, corev1.EventTypeNormal, reasonNeutronDeleted, "Detached the subnets from the router and deleted router %s, then the Neutron network and its subnets",
			strings.Join(res.DeletedRouters, ", "))
	} else {
		r.recorder.Event(network, corev1.EventTypeNormal, reasonNeutronDeleted, "Deleted the Neutron network and its subnet")
	}
	return nil
}

// recordNotOwned records, in the Ready condition and a Warning Event, the networks status
// named that deleting the Network left untouched, and returns the Network as written.
func (r *Reconciler) recordNotOwned(ctx context.Context, st *statusWriter, network *samplecrdv1.Network, nets []neutron.Network) (*samplecrdv1.Network, error) {
	ids := make([]string, 0, len(nets))
	for _, n := range nets {
		ids = append(ids, n.ID)
	}
	klog.FromContext(ctx).Info("Left a Neutron network status named untouched: it is not this Network's", "networkIDs", ids)
	return st.notOwned(ctx, network, notOwned(fmt.Sprintf("status named Neutron network %s, which does not carry this Network's marks (this cluster's description and the Network's UID); "+
		"left it untouched and deleted only what this Network owns", strings.Join(ids, ", "))))
}

// finalizeRetain keeps the Neutron side and releases it from the cluster (see
// neutronstore.Store.ReleaseOwned): nothing is deleted.
func (r *Reconciler) finalizeRetain(ctx context.Context, st *statusWriter, store *neutronstore.Store, network *samplecrdv1.Network) error {
	released, err := store.ReleaseOwned(ctx, Owner(network, r.clusterID), Recorded(network))
	if err != nil {
		return st.failed(ctx, network, "", err)
	}
	if removed, err := r.finalizers.remove(ctx, network); !removed {
		return err
	}
	kept := keptText(released, network.Status)
	klog.FromContext(ctx).Info("Kept Neutron resources without this cluster's marks and removed finalizer", "kept", kept)
	r.recorder.Eventf(network, corev1.EventTypeNormal, reasonNeutronRetained,
		"Kept %s in Neutron (deletionPolicy Retain); removed this cluster's marks from them", kept)
	return nil
}

// keptText names what a release kept, e.g. `network 1f0c… "ns/name" with subnet 9ab2…`.
// A release resumed after a crash may find the work done: status then names what it kept.
func keptText(released []neutronstore.Released, status samplecrdv1.NetworkStatus) string {
	if len(released) == 0 {
		if status.NetworkID == "" {
			return "nothing (no Neutron network of this Network was found)"
		}
		return fmt.Sprintf("network %s with subnet %s", status.NetworkID, listOrNone([]string{status.SubnetID}))
	}
	parts := make([]string, 0, len(released))
	for _, r := range released {
		subnets := make([]string, 0, len(r.Subnets))
		for _, s := range r.Subnets {
			subnets = append(subnets, s.ID)
		}
		if len(subnets) == 0 && r.Network.ID == status.NetworkID && status.SubnetID != "" {
			subnets = append(subnets, status.SubnetID)
		}
		parts = append(parts, fmt.Sprintf("network %s %q with subnet %s", r.Network.ID, r.Network.Name, listOrNone(subnets)))
	}
	return strings.Join(parts, "; ")
}

func listOrNone(ids []string) string {
	if ids = slices.DeleteFunc(ids, func(id string) bool { return id == "" }); len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ", ")
}

// neverCreated reports whether a Network with its own credentials never reached the point
// of creating anything: its project is recorded before the first create.
func neverCreated(network *samplecrdv1.Network) bool {
	return network.Spec.CloudCredentialsRef != nil && network.Status.ProjectID == "" && network.Status.NetworkID == ""
}
