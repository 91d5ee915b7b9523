package neutron

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Ownership marks. Every network and subnet the controller creates carries, from the create
// request itself, a description naming the cluster and a name naming the owner:
//
//   - The description is the same for all of a cluster's resources, so one exact-match list
//     call finds every one of them, including a network whose create was interrupted (by a
//     crash, or by a lost reply) before it could be tagged, and one that a deposed leader's
//     late create made. Neutron accepts no tags in a create request, so only fields of the
//     request itself are there the moment the resource exists.
//   - The name k8s_<namespace>_<name>_<uid> is unique to the owner, so one exact-match list
//     call finds the owner's network when nothing else can tell whether it exists.
//
// Networks are tagged as well, with the cluster and the owner's UID, right after the create:
// tags are what people filter on. Subnets are not tagged: a subnet belongs to the network it
// sits on, and a tag would cost a fourth call per create.
//
// The tags also carry the owner's deletion policy when it is Retain (RetainTag), in the
// same call: an orphan collector that finds the network without its owner then
// knows to release it (pkg/neutronstore's release.go) rather than delete it.
const (
	clusterTagPrefix = "k8s-cluster="
	ownerTagPrefix   = "k8s-uid="
	descriptionStart = "Managed by network-controller for cluster "
	namePrefix       = "k8s_"
)

// RetainTag is carried by a network whose owner's deletion policy is Retain.
const RetainTag = "k8s-deletion-policy=Retain"

// MaxClusterIDLength keeps the cluster tag within Neutron's oldest tag limit (60 characters).
const MaxClusterIDLength = 60 - len(clusterTagPrefix)

// MaxFieldLength is the longest name or description Neutron accepts.
const MaxFieldLength = 255

// ClusterTag is carried by every Neutron network the controller of that cluster tagged.
func ClusterTag(clusterID string) string { return clusterTagPrefix + clusterID }

// ClusterDescription is the description of every network and subnet the controller of that
// cluster creates. The controller never changes or deletes a resource without it, but to
// finish releasing one (pkg/neutronstore's release.go), whose description goes first.
func ClusterDescription(clusterID string) string { return descriptionStart + clusterID }

// ValidateClusterID rejects IDs that would not survive as a Neutron tag or a tag filter.
func ValidateClusterID(id string) error {
	switch {
	case id == "":
		return fmt.Errorf("cluster ID is empty")
	case len(id) > MaxClusterIDLength:
		return fmt.Errorf("cluster ID %q is longer than %d characters", id, MaxClusterIDLength)
	case strings.ContainsAny(id, ",/ "):
		return fmt.Errorf("cluster ID %q must not contain commas, slashes or spaces", id)
	}
	return nil
}

// Owner identifies the Network object a Neutron network belongs to.
type Owner struct {
	ClusterID string
	Namespace string
	Name      string
	UID       string
}

// Tags are the ownership tags of the owner's network.
func (o Owner) Tags() []string {
	return []string{ClusterTag(o.ClusterID), ownerTagPrefix + o.UID}
}

// ResourceName is the Neutron name of the owner's network and subnet,
// k8s_<namespace>_<name>_<uid>, shortened to fit Neutron's limit. Kubernetes names and UIDs
// never contain "_", so the parts cannot run into each other; the UID is never shortened.
func (o Owner) ResourceName() string {
	return fitWithHash(namePrefix+o.Namespace+"_"+o.Name, "_"+o.UID, MaxFieldLength)
}

// SubnetName is the Neutron name of the owner's subnet for the spec's item: the owner's
// ResourceName for the one-subnet form (item ""), and k8s_<namespace>_<name>_<uid>_<item>
// for an item of the list form. Item names are DNS labels, without "_".
func (o Owner) SubnetName(item string) string {
	if item == "" {
		return o.ResourceName()
	}
	return fitWithHash(namePrefix+o.Namespace+"_"+o.Name, "_"+o.UID+"_"+item, MaxFieldLength)
}

// SubnetItem returns the spec item that the owner's subnet s was made for, read from its
// name: "" for the one-subnet form, and for a name the controller did not give (whose
// subnet is then treated as the one-subnet form's).
func (o Owner) SubnetItem(s Subnet) string {
	i := strings.LastIndex(s.Name, "_"+o.UID)
	if i < 0 || !strings.HasPrefix(s.Name, namePrefix) {
		return ""
	}
	item, _ := strings.CutPrefix(s.Name[i+1+len(o.UID):], "_")
	return item
}

// Retained reports whether n's tags say that its owner's deletion policy is Retain.
func Retained(n Network) bool { return slices.Contains(n.Tags, RetainTag) }

// Marks are what a network's tags say besides its owner: the deletion policy, and that
// the controller manages its sharing (sharing.go) or its router (routers.go).
type Marks struct {
	Retain  bool
	Sharing bool
	Router  bool
	// RouterIDs are the project's routers (spec.router.existing) the network's subnets
	// may be attached to: their interfaces on it are the controller's (routers.go).
	RouterIDs []string
}

// MarksOf returns the marks n's tags carry.
func MarksOf(n Network) Marks {
	return Marks{Retain: Retained(n), Sharing: SharingMarked(n), Router: RouterMarked(n), RouterIDs: MarkedRouterIDs(n)}
}

// MarkedTags returns tags with the owner's ownership tags and marks in place of any of
// this cluster's marks they had; other tags are kept.
func MarkedTags(tags []string, owner Owner, marks Marks) []string {
	out := append(UnmarkedTags(tags, owner.ClusterID, owner.UID), owner.Tags()...)
	if marks.Retain {
		out = append(out, RetainTag)
	}
	if marks.Sharing {
		out = append(out, SharingTag)
	}
	if marks.Router {
		out = append(out, RouterTag)
	}
	for _, id := range marks.RouterIDs {
		out = append(out, routerIDTagPrefix+id)
	}
	return out
}

// UnmarkedTags returns tags without the marks of the cluster and the owner: what a
// network released from the cluster keeps.
func UnmarkedTags(tags []string, clusterID, ownerUID string) []string {
	return slices.DeleteFunc(slices.Clone(tags), func(t string) bool {
		return t == ClusterTag(clusterID) || t == ownerTagPrefix+ownerUID || t == RetainTag || t == SharingTag || t == RouterTag ||
			strings.HasPrefix(t, routerIDTagPrefix)
	})
}

// UnmarkedLabel returns a name and description without the marks of the cluster
// clusterID: no cluster description, and k8s_<namespace>_<name>_<uid> becomes
// <namespace>/<name> (the owner's UID is what the name is read for),
// k8s_<namespace>_<name>_<uid>_<item> of a list-form subnet <namespace>/<name>/<item>.
// Others are left as they are.
func UnmarkedLabel(name, description, clusterID, ownerUID string) Label {
	if description == ClusterDescription(clusterID) {
		description = ""
	}
	if rest, ok := strings.CutPrefix(name, namePrefix); ok {
		if i := strings.LastIndex(rest, "_"+ownerUID); i >= 0 {
			item, _ := strings.CutPrefix(rest[i+1+len(ownerUID):], "_")
			if namespace, objectName, ok := strings.Cut(rest[:i], "_"); ok {
				name = namespace + "/" + objectName
				if item != "" {
					name += "/" + item
				}
			}
		}
	}
	return Label{Name: name, Description: description}
}

// HasTags reports whether tags include every ownership tag of the owner.
func (o Owner) HasTags(tags []string) bool {
	for _, t := range o.Tags() {
		if !slices.Contains(tags, t) {
			return false
		}
	}
	return true
}

// OwnerUID returns the UID of the Network that n belongs to: from its tags, else from the
// name its create request gave it.
func OwnerUID(n Network) (string, bool) {
	for _, t := range n.Tags {
		if uid, ok := strings.CutPrefix(t, ownerTagPrefix); ok {
			return uid, true
		}
	}
	if !strings.HasPrefix(n.Name, namePrefix) {
		return "", false
	}
	i := strings.LastIndexByte(n.Name, '_')
	if uid := n.Name[i+1:]; i >= len(namePrefix) && uid != "" {
		return uid, true
	}
	return "", false
}

// OwnerNamespace returns the namespace of the Network that n belongs to, from the name its
// create request gave it (a namespace is never long enough to be shortened away).
func OwnerNamespace(n Network) (string, bool) {
	rest, ok := strings.CutPrefix(n.Name, namePrefix)
	if !ok {
		return "", false
	}
	namespace, _, ok := strings.Cut(rest, "_")
	return namespace, ok && namespace != ""
}

// hashLength is the number of hex digits of SHA-256 kept when a name is shortened: 48 bits
// make two shortened names of one cluster collide with negligible probability.
const hashLength = 12

// fitWithHash returns s+tail when it fits in limit bytes. Otherwise it cuts s and puts a
// short hash of the whole of s in place of the cut, so the result stays deterministic and
// two different values of s stay different. tail is never cut.
func fitWithHash(s, tail string, limit int) string {
	if len(s)+len(tail) <= limit {
		return s + tail
	}
	sum := sha256.Sum256([]byte(s))
	marker := "~" + hex.EncodeToString(sum[:])[:hashLength]
	keep := max(limit-len(tail)-len(marker), 0)
	for keep > 0 && !utf8.RuneStart(s[keep]) {
		keep--
	}
	return s[:keep] + marker + tail
}
