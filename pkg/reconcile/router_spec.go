package reconcile

import (
	"fmt"
	"slices"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// desiredRouter returns the router spec asks for, nil for none. The error guards against a
// CRD installed without its rules, as Desired's do.
func desiredRouter(spec samplecrdv1.NetworkSpec) (*neutron.DesiredRouter, error) {
	r := spec.Router
	if r == nil {
		return nil, nil
	}
	ref := func(n *samplecrdv1.NeutronRef) *neutron.Ref {
		if n == nil {
			return nil
		}
		return &neutron.Ref{ID: n.ID, Name: n.Name}
	}
	out := &neutron.DesiredRouter{External: ref(r.ExternalNetwork), Existing: ref(r.Existing), EnableSNAT: r.EnableSNAT}
	if (out.External == nil) == (out.Existing == nil) {
		return nil, fmt.Errorf("router must have exactly one of externalNetwork or existing")
	}
	for _, item := range r.Subnets {
		if !slices.ContainsFunc(spec.Subnets, func(s samplecrdv1.NetworkSubnet) bool { return s.Name == item }) {
			return nil, fmt.Errorf("router subnets names %s, which is not an item of subnets", item)
		}
	}
	if len(r.Subnets) > 0 {
		out.Items = slices.Clone(r.Subnets)
	}
	return out, nil
}
