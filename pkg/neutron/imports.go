package neutron

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
)

// Networks the controller did not create, which a Network imports to report them (its
// spec.import). Nothing here writes to Neutron: the lookups are lists, and Resolve decides
// from what they returned. Unlike the Store's own lists they are not limited to its
// project: a network shared with the project is one a Network may import and report. A
// name finds the project's own networks first: one shared in under the same name is
// never picked over the project's own, and several of the project's are ambiguous.

// ImportRef names an imported network, by ID or by exact name, and the subnet of it to
// report.
type ImportRef struct {
	NetworkID   string
	NetworkName string
	// CIDR chooses the subnet; "" means the network's only one.
	CIDR string
}

func (r ImportRef) String() string {
	if r.NetworkID != "" {
		return r.NetworkID
	}
	return fmt.Sprintf("named %q", r.NetworkName)
}

// names reports whether n is a network r names.
func (r ImportRef) names(n Network) bool {
	if r.NetworkID != "" {
		// Neutron matches IDs case-insensitively (UUIDs in a case-insensitive column), so
		// an ID spelled in capitals finds the network: it must also be recognised here.
		return strings.EqualFold(n.ID, r.NetworkID)
	}
	return n.Name == r.NetworkName
}

// ImportProblem is why an import does not resolve to one network and one subnet.
type ImportProblem int

const (
	// ImportNotFound: no network the credentials can see is the one named.
	ImportNotFound ImportProblem = iota + 1
	// ImportAmbiguous: several networks have the name.
	ImportAmbiguous
	// ImportDeleted: the network found before is gone.
	ImportDeleted
	// ImportManaged: the network carries this cluster's marks.
	ImportManaged
	// ImportSubnetNotFound: the network has no subnet with the CIDR, or none at all.
	ImportSubnetNotFound
	// ImportSubnetAmbiguous: no CIDR, and the network has several subnets.
	ImportSubnetAmbiguous
)

// ImportResult is what an import resolves to: the network and its subnet, or the Problem,
// described for the user in Message (candidates by ID, sorted, so that it reads the same
// at every look).
type ImportResult struct {
	Network Network
	Subnet  Subnet
	Problem ImportProblem
	Message string
}

// Visible is what some credentials can see of the networks that imports name, and those
// networks' subnets.
type Visible struct {
	clusterID string
	// projectID is the credentials' project, whose own networks a name finds first.
	projectID string
	networks  []Network
	// subnets are the subnets of each network an import names without ambiguity.
	subnets map[string][]Subnet
	// held are refs naming a network of this cluster that the list left out: it lists
	// only networks without the cluster's tag.
	held map[ImportRef]bool
}

// Resolve returns what ref resolves to. recordedNetworkID is the network that ref resolved
// to before, if any: its absence now means it was deleted.
func (v Visible) Resolve(ref ImportRef, recordedNetworkID string) ImportResult {
	var foreign []Network
	ours := v.held[ref]
	for _, n := range v.networks {
		switch {
		case !ref.names(n):
		case v.carriesMarks(n):
			ours = true
		default:
			foreign = append(foreign, n)
		}
	}
	foreign = ownFirst(foreign, v.projectID)
	switch {
	case len(foreign) > 1:
		return ImportResult{Problem: ImportAmbiguous, Message: fmt.Sprintf(
			"%d Neutron networks %s are visible to the credentials: %s; import one of them by networkID",
			len(foreign), ref, idsOf(foreign))}
	case len(foreign) == 1:
		return v.chooseSubnet(ref, foreign[0])
	case ours:
		return ImportResult{Problem: ImportManaged, Message: fmt.Sprintf(
			"Neutron network %s was created by this cluster's controller for a Network (it carries the cluster's marks) and is managed by that Network; "+
				"import only networks the controller did not create", ref)}
	case recordedNetworkID != "" && ref.NetworkID != "":
		return ImportResult{Problem: ImportDeleted, Message: fmt.Sprintf(
			"imported Neutron network %s is gone: deleted in Neutron, or no longer shared with the credentials' project; "+
				"the controller never recreates an imported network", recordedNetworkID)}
	case recordedNetworkID != "":
		return ImportResult{Problem: ImportDeleted, Message: fmt.Sprintf(
			"imported Neutron network %s (%s) is gone: deleted in Neutron, or no longer shared with the credentials' project; "+
				"the controller never recreates an imported network, and imports a network of that name once exactly one exists", recordedNetworkID, ref)}
	}
	return ImportResult{Problem: ImportNotFound, Message: fmt.Sprintf(
		"no Neutron network %s is visible to the credentials (in their project or shared with it); checked again at every Neutron resync", ref)}
}

// chooseSubnet resolves ref on network n: the subnet with ref's CIDR, or n's only one.
func (v Visible) chooseSubnet(ref ImportRef, n Network) ImportResult {
	subnets := slices.SortedFunc(slices.Values(v.subnets[n.ID]), func(a, b Subnet) int {
		return cmp.Or(cmp.Compare(a.CIDR, b.CIDR), cmp.Compare(a.ID, b.ID))
	})
	if ref.CIDR != "" {
		if i := slices.IndexFunc(subnets, func(s Subnet) bool { return samePrefix(s.CIDR, ref.CIDR) }); i >= 0 {
			return ImportResult{Network: n, Subnet: subnets[i]}
		}
		return ImportResult{Network: n, Problem: ImportSubnetNotFound, Message: fmt.Sprintf(
			"imported Neutron network %s has no subnet %s (spec.cidr); its subnets: %s", n.ID, ref.CIDR, subnetsText(subnets))}
	}
	switch len(subnets) {
	case 1:
		return ImportResult{Network: n, Subnet: subnets[0]}
	case 0:
		return ImportResult{Network: n, Problem: ImportSubnetNotFound, Message: fmt.Sprintf(
			"imported Neutron network %s has no subnet", n.ID)}
	}
	return ImportResult{Network: n, Problem: ImportSubnetAmbiguous, Message: fmt.Sprintf(
		"imported Neutron network %s has %d subnets: %s; set spec.cidr to the one to report", n.ID, len(subnets), subnetsText(subnets))}
}

// carriesMarks reports whether n carries this cluster's marks: its description or its tag.
func (v Visible) carriesMarks(n Network) bool {
	return n.Description == ClusterDescription(v.clusterID) || slices.Contains(n.Tags, ClusterTag(v.clusterID))
}

// single returns the one network without the cluster's marks that ref names, if exactly
// one (of the project's own, when it has any of that name).
func (v Visible) single(ref ImportRef) (Network, bool) {
	var found []Network
	for _, n := range v.networks {
		if ref.names(n) && !v.carriesMarks(n) {
			found = append(found, n)
		}
	}
	if found = ownFirst(found, v.projectID); len(found) != 1 {
		return Network{}, false
	}
	return found[0], true
}

// LookupImport lists what the credentials can see of the network ref names: the networks
// with its ID or name (one call) and, when exactly one of them is not this cluster's,
// that network's subnets (one more).
func (s *Store) LookupImport(ctx context.Context, ref ImportRef) (Visible, error) {
	filter := Filter{Name: ref.NetworkName}
	if ref.NetworkID != "" {
		filter = Filter{IDs: []string{ref.NetworkID}}
	}
	nets, err := s.driver.ListNetworks(ctx, filter)
	if err != nil {
		return Visible{}, fmt.Errorf("looking up imported Neutron network %s: %w", ref, err)
	}
	v := Visible{clusterID: s.clusterID, projectID: s.projectID, networks: nets}
	return v, s.listImportedSubnets(ctx, &v, []ImportRef{ref})
}

// maxNetworksPerList bounds the network IDs of one subnet list, whose URL carries them all.
const maxNetworksPerList = 100

// ListVisible lists what the credentials can see for all of refs at once: every network
// without the cluster's tag (one call, whatever the number of refs), and the subnets of
// the networks refs name without ambiguity (one call per 100 such networks). A network of
// the cluster that a ref names is found in the store's memory instead: the list leaves
// tagged ones out, which keeps it small in a project of many Networks.
func (s *Store) ListVisible(ctx context.Context, refs []ImportRef) (Visible, error) {
	nets, err := s.driver.ListNetworks(ctx, Filter{NotTags: []string{ClusterTag(s.clusterID)}})
	if err != nil {
		return Visible{}, fmt.Errorf("listing the Neutron networks imports may name: %w", err)
	}
	v := Visible{clusterID: s.clusterID, projectID: s.projectID, networks: nets, held: map[ImportRef]bool{}}
	for _, ref := range refs {
		if s.holds(ref) {
			v.held[ref] = true
		}
	}
	return v, s.listImportedSubnets(ctx, &v, refs)
}

// listImportedSubnets fills v.subnets for the networks refs name without ambiguity.
func (s *Store) listImportedSubnets(ctx context.Context, v *Visible, refs []ImportRef) error {
	var ids []string
	for _, ref := range refs {
		if n, ok := v.single(ref); ok && !slices.Contains(ids, n.ID) {
			ids = append(ids, n.ID)
		}
	}
	v.subnets = map[string][]Subnet{}
	for chunk := range slices.Chunk(ids, maxNetworksPerList) {
		subnets, err := s.driver.ListSubnets(ctx, Filter{NetworkIDs: chunk})
		if err != nil {
			return fmt.Errorf("listing the subnets of imported Neutron networks: %w", err)
		}
		for _, sub := range subnets {
			v.subnets[sub.NetworkID] = append(v.subnets[sub.NetworkID], sub)
		}
	}
	return nil
}

// holds reports whether the store knows the network ref names as one of the cluster's.
func (s *Store) holds(ref ImportRef) bool {
	if ref.NetworkID != "" {
		return s.index.Has(strings.ToLower(ref.NetworkID))
	}
	uid, ok := OwnerUID(Network{Name: ref.NetworkName})
	return ok && slices.ContainsFunc(s.index.Networks(uid), func(n Network) bool { return n.Name == ref.NetworkName })
}

func idsOf(nets []Network) string {
	ids := make([]string, len(nets))
	for i, n := range nets {
		ids[i] = n.ID
	}
	slices.Sort(ids)
	return strings.Join(ids, ", ")
}

func subnetsText(subnets []Subnet) string {
	if len(subnets) == 0 {
		return "none"
	}
	parts := make([]string, len(subnets))
	for i, s := range subnets {
		parts[i] = s.ID + " (" + s.CIDR + ")"
	}
	return strings.Join(parts, ", ")
}
