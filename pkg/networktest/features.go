package networktest

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// Public is the external network the routers of routed fixtures have their gateway on.
var Public = neutron.Network{ID: "ext-public", Name: "public", ProjectID: "admin"}

// WithRouter gives n a spec.router that set fills.
func WithRouter(n *samplecrdv1.Network, set func(*samplecrdv1.NetworkRouter)) *samplecrdv1.Network {
	n.Spec.Router = &samplecrdv1.NetworkRouter{}
	set(n.Spec.Router)
	return n
}

// External makes a router of its own with its gateway on the external network name.
func External(name string) func(*samplecrdv1.NetworkRouter) {
	return func(r *samplecrdv1.NetworkRouter) { r.ExternalNetwork = &samplecrdv1.NeutronRef{Name: name} }
}

// Existing attaches to the router name, which the Network does not own.
func Existing(name string) func(*samplecrdv1.NetworkRouter) {
	return func(r *samplecrdv1.NetworkRouter) { r.Existing = &samplecrdv1.NeutronRef{Name: name} }
}

// WithRouterInStatus records in status the owned router that a routed Network's
// fixture makes ("router-of-<name>", gateway 203.0.113.20), with the subnet.
func WithRouterInStatus(n *samplecrdv1.Network) *samplecrdv1.Network {
	n.Status.Router = &samplecrdv1.RouterStatus{RouterID: "router-of-" + n.Name, Owned: true,
		ExternalGatewayAddresses: []string{"203.0.113.20"}, SubnetIDs: []string{n.Status.SubnetID}}
	return n
}

func WithSharedWith(n *samplecrdv1.Network, projects ...string) *samplecrdv1.Network {
	for _, p := range projects {
		n.Spec.SharedWith = append(n.Spec.SharedWith, samplecrdv1.ProjectID(p))
	}
	return n
}

func WithPortSecurity(n *samplecrdv1.Network, on *bool) *samplecrdv1.Network {
	n.Spec.PortSecurityEnabled = on
	return n
}

// WithSharesInStatus lists in status a policy "rbac-<project>" per project of the spec.
func WithSharesInStatus(n *samplecrdv1.Network) *samplecrdv1.Network {
	for _, p := range n.Spec.SharedWith {
		n.Status.SharedWith = append(n.Status.SharedWith, samplecrdv1.ProjectShare{ProjectID: string(p), RBACPolicyID: "rbac-" + string(p)[len("team-"):]})
	}
	return n
}

// ImportedNetwork is a Network that imports the network ref names, with no status yet.
func ImportedNetwork(name string, ref samplecrdv1.NetworkImport, cidr string) *samplecrdv1.Network {
	n := NewNetwork(name, cidr, "")
	n.Spec.Import = &ref
	return n
}

// ReadyImport is an imported Network whose status says it imports network id with
// subnet <id>-0, as PutForeign stores them for 10.60.0.0/24.
func ReadyImport(name, id string) *samplecrdv1.Network {
	n := ImportedNetwork(name, samplecrdv1.NetworkImport{NetworkID: id}, "")
	n.Status = samplecrdv1.NetworkStatus{ObservedGeneration: 1, NetworkID: id, SubnetID: id + "-0", Gateway: "10.60.0.1", MTU: 1442,
		EnableDHCP: ptr.To(true), CIDRs: "10.60.0.0/24"}
	SetReadyCondition(&n.Status, 1, metav1.ConditionTrue, samplecrdv1.ReasonImported, "Imported Neutron network "+id+" with subnet "+id+"-0 (10.60.0.0/24, gateway 10.60.0.1)")
	return n
}
