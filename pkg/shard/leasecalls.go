package shard

import (
	"context"
	"errors"
	"fmt"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// Every Lease call of the Holder is here, each under its own deadline (callContext).

// list lists the group's Leases. It asks for a shard selector that matches every Lease,
// so that the answer says whether the apiserver serves shard selectors.
func (h *Holder) list(ctx context.Context) (*coordinationv1.LeaseList, error) {
	ctx, cancel := h.callContext(ctx)
	defer cancel()
	list, err := h.leases.List(ctx, metav1.ListOptions{
		LabelSelector: labels.SelectorFromSet(labels.Set{LabelGroup: h.cfg.Name}).String(),
		ShardSelector: Shard{Index: 0, Count: 1}.Selector().String(),
	})
	if err != nil {
		return nil, fmt.Errorf("listing the Leases of group %s/%s: %w", h.cfg.Namespace, h.cfg.Name, err)
	}
	return list, nil
}

// write creates lease or updates it at the version it was read at: a replica that read
// an older version loses the race. Errors keep the apiserver's status (conflict, not
// found) for apierrors to read.
func (h *Holder) write(ctx context.Context, lease *coordinationv1.Lease, create bool) (*coordinationv1.Lease, error) {
	ctx, cancel := h.callContext(ctx)
	defer cancel()
	var written *coordinationv1.Lease
	var err error
	switch {
	case create:
		written, err = h.leases.Create(ctx, lease, metav1.CreateOptions{FieldManager: h.cfg.FieldManager})
	case lease.ResourceVersion == "":
		err = errors.New("the Lease has no resourceVersion to update at")
	default:
		written, err = h.leases.Update(ctx, lease, metav1.UpdateOptions{FieldManager: h.cfg.FieldManager})
	}
	if err != nil {
		return nil, fmt.Errorf("writing Lease %s/%s: %w", lease.Namespace, lease.Name, err)
	}
	return written, nil
}

// deleteLease deletes the named Lease.
func (h *Holder) deleteLease(ctx context.Context, name string) error {
	ctx, cancel := h.callContext(ctx)
	defer cancel()
	if err := h.leases.Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
		return fmt.Errorf("deleting Lease %s/%s: %w", h.cfg.Namespace, name, err)
	}
	return nil
}

func (h *Holder) newLease(name string, extra map[string]string) *coordinationv1.Lease {
	l := map[string]string{LabelGroup: h.cfg.Name}
	for k, v := range extra {
		l[k] = v
	}
	return &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: h.cfg.Namespace, Labels: l}}
}

// stamp makes lease this replica's, renewed now (acquired now too when acquired).
func (h *Holder) stamp(lease *coordinationv1.Lease, now time.Time, acquired bool) {
	lease.Spec.HolderIdentity = ptr(h.cfg.Identity)
	lease.Spec.LeaseDurationSeconds = ptr(int32(h.cfg.LeaseDuration / time.Second))
	lease.Spec.RenewTime = &metav1.MicroTime{Time: now}
	if acquired {
		lease.Spec.AcquireTime = &metav1.MicroTime{Time: now}
	}
}

// release makes lease free, at once for whoever reads it.
func release(lease *coordinationv1.Lease, now time.Time) {
	lease.Spec.HolderIdentity = ptr("")
	lease.Spec.LeaseDurationSeconds = ptr(int32(1))
	lease.Spec.RenewTime = &metav1.MicroTime{Time: now}
}

func ptr[T any](v T) *T { return &v }

func ptrValue[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
