package neutron

import (
	"fmt"
	"slices"
	"strings"
)

// Ownership marks. Tags are what the controller searches by; the description carries the
// same facts because Neutron (before the tag-creation extension) cannot tag a resource in
// the request that creates it, and a crash between the create and the tag call must not
// leave a resource nobody can find again.
const (
	clusterTagPrefix = "k8s-cluster="
	ownerTagPrefix   = "k8s-uid="
	descriptionStart = "Managed by network-controller for "
)

// MaxClusterIDLength keeps the cluster tag within Neutron's oldest tag limit (60 characters).
const MaxClusterIDLength = 60 - len(clusterTagPrefix)

// ClusterTag is carried by every Neutron resource the controller of that cluster created.
// The controller never changes or deletes a resource without its own cluster tag.
func ClusterTag(clusterID string) string { return clusterTagPrefix + clusterID }

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

// Owner identifies the Network object a Neutron resource belongs to.
type Owner struct {
	ClusterID string
	Namespace string
	Name      string
	UID       string
}

// Tags are the ownership tags of the owner's resources.
func (o Owner) Tags() []string {
	return []string{ClusterTag(o.ClusterID), ownerTagPrefix + o.UID}
}

// ResourceName is the deterministic Neutron name of the owner's network and subnet.
// Kubernetes names never contain "_", so the parts cannot run into each other.
func (o Owner) ResourceName() string {
	return "k8s_" + o.Namespace + "_" + o.Name
}

// Description is written in the create request itself, so it identifies the resource
// even when the controller died before it could tag it.
func (o Owner) Description() string {
	return fmt.Sprintf("%scluster %s, Network %s/%s, uid %s", descriptionStart, o.ClusterID, o.Namespace, o.Name, o.UID)
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

// OwnerUID returns the Network UID recorded in tags, if any.
func OwnerUID(tags []string) (string, bool) {
	for _, t := range tags {
		if uid, ok := strings.CutPrefix(t, ownerTagPrefix); ok {
			return uid, true
		}
	}
	return "", false
}
