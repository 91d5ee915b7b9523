package networktest

import (
	"crypto/sha256"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/subnetplan"
)

// NewNetwork is a new Network of the default namespace, of the one-subnet form.
func NewNetwork(name, cidr, gateway string) *samplecrdv1.Network {
	n := NewNetworkIn(metav1.NamespaceDefault, name, cidr)
	n.Spec.Gateway = gateway
	return n
}

// NewNetworkIn is a new Network of namespace, of the one-subnet form.
func NewNetworkIn(namespace, name, cidr string) *samplecrdv1.Network {
	return &samplecrdv1.Network{
		TypeMeta: metav1.TypeMeta{APIVersion: samplecrdv1.SchemeGroupVersion.String(), Kind: "Network"},
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: namespace, UID: uidFor(namespace, name),
			Generation: 1, ResourceVersion: "1",
		},
		Spec: samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: cidr}},
	}
}

// uidFor makes a UID shaped like the apiserver's (a 36-character UUID), fixed per object.
func uidFor(namespace, name string) types.UID {
	h := fmt.Sprintf("%x", sha256.Sum256([]byte(namespace+"/"+name)))
	return types.UID(h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32])
}

// OwnerOf is the owner in the marks of n's Neutron resources.
func OwnerOf(n *samplecrdv1.Network) neutron.Owner {
	return neutron.Owner{ClusterID: ClusterID, Namespace: n.Namespace, Name: n.Name, UID: string(n.UID)}
}

// RealizedNetwork is a Network whose status says it is Ready with the Neutron resources
// PutRealized makes.
func RealizedNetwork(name, cidr, gateway string) *samplecrdv1.Network {
	n := WithFinalizer(NewNetwork(name, cidr, gateway))
	plan, err := subnetplan.Plan(subnetplan.Spec{CIDR: cidr})
	if err != nil {
		panic(err)
	}
	n.Status = samplecrdv1.NetworkStatus{
		ObservedGeneration: 1, NetworkID: "net-of-" + name, SubnetID: "subnet-of-" + name, Gateway: plan.Gateway.String(),
		EnableDHCP: ptr.To(true), CIDRs: cidr,
	}
	SetReadyCondition(&n.Status, 1, metav1.ConditionTrue, samplecrdv1.ReasonProvisioned,
		fmt.Sprintf("Neutron network %s with subnet %s (%s, gateway %s)", n.Status.NetworkID, n.Status.SubnetID, cidr, plan.Gateway))
	return n
}

func WithFinalizer(n *samplecrdv1.Network) *samplecrdv1.Network {
	n.Finalizers = []string{samplecrdv1.FinalizerName}
	return n
}

func WithGeneration(n *samplecrdv1.Network, generation int64) *samplecrdv1.Network {
	n.Generation = generation
	return n
}

// Deleting marks n as being deleted.
func Deleting(n *samplecrdv1.Network) *samplecrdv1.Network {
	now := metav1.Now()
	n.DeletionTimestamp = &now
	return n
}

// SetReadyCondition sets the Ready condition as the controller writes it.
func SetReadyCondition(status *samplecrdv1.NetworkStatus, generation int64, s metav1.ConditionStatus, reason, message string) {
	meta.SetStatusCondition(&status.Conditions, metav1.Condition{
		Type: samplecrdv1.ConditionReady, Status: s, Reason: reason, Message: message, ObservedGeneration: generation,
	})
}
