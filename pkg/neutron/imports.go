package neutron

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Networks the controller did not create, which a Network imports to report them (its
// spec.import). A store's lookups (pkg/neutronstore) list what the credentials can see,
// not only their project's: a network shared with the project is one a Network may import
// and report. Resolve decides from what they returned. A name finds the project's own
// networks first: one shared in under the same name is never picked over the project's
// own, and several of the project's are ambiguous. Once found, the network is followed by
// its ID (ImportRef.FoundID): a network that takes its name after it is gone is not
// imported in its place, which would hand the Network, and a power kept without a grant,
// a network no one chose.

// ImportRef names an imported network, by ID or by exact name, and the subnet of it to
// report.
type ImportRef struct {
	NetworkID   string
	NetworkName string
	// CIDR chooses the subnet; "" means the network's only one.
	CIDR string
	// FoundID is the network the ref resolved to before (the Network's status.networkID),
	// if any: then the ref names that network alone, as long as it has the ID or name.
	FoundID string
}

func (r ImportRef) String() string {
	if r.NetworkID != "" {
		return r.NetworkID
	}
	return fmt.Sprintf("named %q", r.NetworkName)
}

// Names reports whether n is a network r names.
func (r ImportRef) Names(n Network) bool {
	if r.FoundID != "" && !strings.EqualFold(n.ID, r.FoundID) {
		return false
	}
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
// networks' subnets, as a store's lookups found them.
type Visible struct {
	// ClusterID is the cluster whose marks keep a network from being imported.
	ClusterID string
	// ProjectID is the credentials' project, whose own networks a name finds first.
	ProjectID string
	Networks  []Network
	// Subnets are the subnets of each network an import names without ambiguity
	// (SubnetsToList), by network ID.
	Subnets map[string][]Subnet
	// Held are refs naming a network of this cluster that the list left out: it lists
	// only networks without the cluster's tag.
	Held map[ImportRef]bool
}

// Resolve returns what ref resolves to. When ref found a network before (FoundID), that
// network's absence now means it is gone, whatever network has its name.
func (v Visible) Resolve(ref ImportRef) ImportResult {
	var foreign, instead []Network
	ours := v.Held[ref]
	unfound := ref
	unfound.FoundID = ""
	for _, n := range v.Networks {
		switch {
		case !ref.Names(n):
			if unfound.Names(n) && !v.carriesMarks(n) {
				instead = append(instead, n)
			}
		case v.carriesMarks(n):
			ours = true
		default:
			foreign = append(foreign, n)
		}
	}
	foreign = OwnFirst(foreign, v.ProjectID)
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
	case ref.FoundID != "" && ref.NetworkID != "":
		return ImportResult{Problem: ImportDeleted, Message: fmt.Sprintf(
			"imported Neutron network %s is gone: deleted in Neutron, or no longer shared with the credentials' project; "+
				"the controller never recreates an imported network", ref.FoundID)}
	case ref.FoundID != "":
		message := fmt.Sprintf("imported Neutron network %s (%s) is gone: deleted or renamed in Neutron, or no longer shared with the credentials' project; "+
			"the controller never recreates an imported network", ref.FoundID, ref)
		if len(instead) > 0 {
			message += fmt.Sprintf(", and does not follow Neutron network %s, which has the name now", idsOf(instead))
		}
		return ImportResult{Problem: ImportDeleted, Message: message +
			": an import follows the network it found by ID; to import another, delete this Network and create it again"}
	}
	return ImportResult{Problem: ImportNotFound, Message: fmt.Sprintf(
		"no Neutron network %s is visible to the credentials (in their project or shared with it); checked again at every Neutron resync", ref)}
}

// chooseSubnet resolves ref on network n: the subnet with ref's CIDR, or n's only one.
func (v Visible) chooseSubnet(ref ImportRef, n Network) ImportResult {
	subnets := slices.SortedFunc(slices.Values(v.Subnets[n.ID]), func(a, b Subnet) int {
		return cmp.Or(cmp.Compare(a.CIDR, b.CIDR), cmp.Compare(a.ID, b.ID))
	})
	if ref.CIDR != "" {
		if i := slices.IndexFunc(subnets, func(s Subnet) bool { return SamePrefix(s.CIDR, ref.CIDR) }); i >= 0 {
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
	return n.Description == ClusterDescription(v.ClusterID) || slices.Contains(n.Tags, ClusterTag(v.ClusterID))
}

// single returns the one network without the cluster's marks that ref names, if exactly
// one (of the project's own, when it has any of that name).
func (v Visible) single(ref ImportRef) (Network, bool) {
	var found []Network
	for _, n := range v.Networks {
		if ref.Names(n) && !v.carriesMarks(n) {
			found = append(found, n)
		}
	}
	if found = OwnFirst(found, v.ProjectID); len(found) != 1 {
		return Network{}, false
	}
	return found[0], true
}

// SubnetsToList returns the IDs of the networks whose subnets Resolve needs for refs: the
// networks refs name without ambiguity, each once.
func (v Visible) SubnetsToList(refs []ImportRef) []string {
	var ids []string
	for _, ref := range refs {
		if n, ok := v.single(ref); ok && !slices.Contains(ids, n.ID) {
			ids = append(ids, n.ID)
		}
	}
	return ids
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
