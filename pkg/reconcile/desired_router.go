package reconcile

import (
	"fmt"
	"regexp"
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
	out := &neutron.DesiredRouter{EnableSNAT: r.EnableSNAT}
	var err error
	if out.External, err = neutronRef("router externalNetwork", r.ExternalNetwork); err != nil {
		return nil, err
	}
	if out.Existing, err = neutronRef("router existing", r.Existing); err != nil {
		return nil, err
	}
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

// neutronRef returns what ref names, checked as the CRD checks it: by exactly one of a
// UUID or a name of at most 255 bytes.
func neutronRef(field string, ref *samplecrdv1.NeutronRef) (*neutron.Ref, error) {
	switch {
	case ref == nil:
		return nil, nil
	case (ref.ID == "") == (ref.Name == ""):
		return nil, fmt.Errorf("%s must name exactly one of id or name", field)
	case ref.ID != "" && !uuid.MatchString(ref.ID):
		return nil, fmt.Errorf("%s id %q is not the UUID of a Neutron resource", field, ref.ID)
	case len(ref.Name) > neutron.MaxFieldLength:
		return nil, fmt.Errorf("%s name is longer than %d bytes", field, neutron.MaxFieldLength)
	}
	return &neutron.Ref{ID: ref.ID, Name: ref.Name}, nil
}

// projectID is the form of an OpenStack project ID the CRD admits in sharedWith.
var projectID = regexp.MustCompile(`^[0-9A-Za-z_-]{1,64}$`)

// desiredSharing returns the projects spec shares the network with, checked as the CRD
// checks them: they go to Neutron as they are.
func desiredSharing(spec samplecrdv1.NetworkSpec) ([]string, error) {
	if len(spec.SharedWith) > 16 {
		return nil, fmt.Errorf("sharedWith lists %d projects: at most 16", len(spec.SharedWith))
	}
	out := make([]string, 0, len(spec.SharedWith))
	for _, p := range spec.SharedWith {
		if !projectID.MatchString(string(p)) {
			return nil, fmt.Errorf("sharedWith item %q is not an OpenStack project ID (letters, digits, \"-\" and \"_\"; \"*\" is every project, which only an admin may share with)", string(p))
		}
		if slices.Contains(out, string(p)) {
			return nil, fmt.Errorf("sharedWith lists project %s twice", p)
		}
		out = append(out, string(p))
	}
	return out, nil
}
