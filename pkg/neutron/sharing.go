package neutron

import (
	"fmt"
	"slices"
	"strings"
)

// Sharing a network with other projects: one Neutron RBAC policy (access_as_shared) per
// project. A policy has no name, description or tags to carry the ownership marks, so the
// network carries the mark instead: SharingTag says that the controller manages the
// network's policies, which it then keeps to exactly the spec's projects. The tag goes on
// before the first policy is made (in the create's tag call for a new network) and comes
// off only after the last one is gone, so that a crash between the two always leaves a
// mark that makes the next run look for policies. A network without the tag costs no
// list of policies, at a start or any other time.

// SharingTag is carried by a network whose RBAC policies the controller manages.
const SharingTag = "k8s-sharing=managed"

// RBACPolicy is a Neutron RBAC policy that shares a network with one project.
type RBACPolicy struct {
	ID       string `json:"id"`
	ObjectID string `json:"object_id"`
	// TargetProject is the project the network is shared with.
	TargetProject string `json:"target_tenant"`
	// ProjectID is the project that made the policy: the network's.
	ProjectID string `json:"project_id"`
}

// ShareRequest creates the RBAC policy that shares network ObjectID with TargetProject.
type ShareRequest struct {
	ObjectType    string `json:"object_type"`
	ObjectID      string `json:"object_id"`
	Action        string `json:"action"`
	TargetProject string `json:"target_tenant"`
}

// NewShareRequest returns the request that shares networkID with project.
func NewShareRequest(networkID, project string) ShareRequest {
	return ShareRequest{ObjectType: "network", ObjectID: networkID, Action: "access_as_shared", TargetProject: project}
}

// ProjectKey is the form in which Neutron compares the projects RBAC policies target:
// its database (MySQL or MariaDB, case-insensitive collation) holds one policy per network,
// action and target_tenant, with "ABC" and "abc" the same target, and Keystone gives
// project IDs in lower case. Dashes are not Neutron's to ignore: a UUID spelt with them is
// another target, which Keystone's 32-hex IDs never match.
func ProjectKey(project string) string { return strings.ToLower(project) }

// SharingMarked reports whether n carries SharingTag.
func SharingMarked(n Network) bool { return slices.Contains(n.Tags, SharingTag) }

// SharesText names the projects of policies, e.g. "team-b (policy 5e1…), ...".
func SharesText(policies []RBACPolicy) string {
	parts := make([]string, len(policies))
	for i, p := range policies {
		parts[i] = fmt.Sprintf("%s (RBAC policy %s)", p.TargetProject, p.ID)
	}
	return strings.Join(parts, ", ")
}

// Project returns the project that made the policy.
func (p RBACPolicy) Project() string { return p.ProjectID }
