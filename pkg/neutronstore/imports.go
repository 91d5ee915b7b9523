package neutronstore

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// The lookups of networks the controller did not create, which a Network imports to
// report them (its spec.import); neutron.Visible.Resolve decides from what they return.
// Nothing here writes to Neutron: they are lists. Unlike the Store's own lists they are
// not limited to its project: a network shared with the project is one a Network may
// import and report.

// LookupImport lists what the credentials can see of the network ref names: the networks
// with its ID or name (one call) and, when exactly one of them is not this cluster's,
// that network's subnets (one more).
func (s *Store) LookupImport(ctx context.Context, ref neutron.ImportRef) (neutron.Visible, error) {
	// The whole list, not one: Resolve tells the cluster's networks from the others, and
	// takes the project's own first among those.
	nets, err := listByRef(ctx, s.driver.ListNetworks, refQuery{ref: neutron.Ref{ID: ref.NetworkID, Name: ref.NetworkName}, anyCaseID: true})
	if err != nil {
		return neutron.Visible{}, fmt.Errorf("looking up imported Neutron network %s: %w", ref, err)
	}
	v := neutron.Visible{ClusterID: s.clusterID, ProjectID: s.projectID, Networks: nets}
	return v, s.listImportedSubnets(ctx, &v, []neutron.ImportRef{ref})
}

// maxNetworksPerList bounds the network IDs of one subnet list, whose URL carries them all.
const maxNetworksPerList = 100

// ListVisible lists what the credentials can see for all of refs at once: every network
// without the cluster's tag (one call, whatever the number of refs), and the subnets of
// the networks refs name without ambiguity (one call per 100 such networks). A network of
// the cluster that a ref names is found in the store's memory instead: the list leaves
// tagged ones out, which keeps it small in a project of many Networks.
func (s *Store) ListVisible(ctx context.Context, refs []neutron.ImportRef) (neutron.Visible, error) {
	nets, err := s.driver.ListNetworks(ctx, neutron.Filter{NotTags: []string{neutron.ClusterTag(s.clusterID)}})
	if err != nil {
		return neutron.Visible{}, fmt.Errorf("listing the Neutron networks imports may name: %w", err)
	}
	v := neutron.Visible{ClusterID: s.clusterID, ProjectID: s.projectID, Networks: nets, Held: map[neutron.ImportRef]bool{}}
	for _, ref := range refs {
		if s.holds(ref) {
			v.Held[ref] = true
		}
	}
	return v, s.listImportedSubnets(ctx, &v, refs)
}

// listImportedSubnets fills v.Subnets for the networks refs name without ambiguity.
func (s *Store) listImportedSubnets(ctx context.Context, v *neutron.Visible, refs []neutron.ImportRef) error {
	ids := v.SubnetsToList(refs)
	v.Subnets = map[string][]neutron.Subnet{}
	for chunk := range slices.Chunk(ids, maxNetworksPerList) {
		subnets, err := s.driver.ListSubnets(ctx, neutron.Filter{NetworkIDs: chunk})
		if err != nil {
			return fmt.Errorf("listing the subnets of imported Neutron networks: %w", err)
		}
		for _, sub := range subnets {
			v.Subnets[sub.NetworkID] = append(v.Subnets[sub.NetworkID], sub)
		}
	}
	return nil
}

// holds reports whether the store knows the network ref names as one of the cluster's.
func (s *Store) holds(ref neutron.ImportRef) bool {
	if ref.FoundID != "" {
		n, _, ok := s.index.Network(strings.ToLower(ref.FoundID))
		return ok && ref.Names(n)
	}
	if ref.NetworkID != "" {
		return s.index.Has(strings.ToLower(ref.NetworkID))
	}
	uid, ok := neutron.OwnerUID(neutron.Network{Name: ref.NetworkName})
	return ok && slices.ContainsFunc(s.index.Networks(uid), func(n neutron.Network) bool { return n.Name == ref.NetworkName })
}
