// Package grants decides what the Networks of a namespace may do in a project that other
// namespaces share with them: the powers the ClusterIdentity objects selecting the
// namespace allow. Making a network, its subnets and its own router needs no grant;
// deletionPolicy Retain, spec.import, spec.sharedWith, spec.router.existing and
// spec.qosPolicy do.
package grants

import (
	"slices"
	"strings"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// Powers are what a namespace's Networks may do in a shared project beyond their own
// resources.
type Powers struct {
	// Unfenced is a project the namespace does not share: its own Secret's. Every power
	// is its own, whatever the fields below say.
	Unfenced bool
	Retain   bool
	Import   bool
	// SharedWith are the projects spec.sharedWith may name, in lower case.
	SharedWith []string
	// ExistingRouters are the routers, by id or by name, spec.router.existing may name.
	ExistingRouters []samplecrdv1.NeutronRef
	// QoSPolicies are the QoS policies, by id or by name, spec.qosPolicy may name.
	QoSPolicies []samplecrdv1.NeutronRef
	// RoutersPerNamespace bounds the namespace's routers of their own; nil: no bound.
	RoutersPerNamespace *int32
	// Identities name the ClusterIdentity objects the powers come from, for messages.
	Identities []string
	// OwnCloudRefusedBy is, when the namespace may not use the controller's own cloud at
	// all, the selector of the namespaces that may; the powers are then none.
	OwnCloudRefusedBy string
}

// Unfenced are the powers in a project only the namespace uses.
var Unfenced = Powers{Unfenced: true}

// AllowsRetain reports whether deletionPolicy Retain is allowed.
func (p Powers) AllowsRetain() bool { return p.Unfenced || p.Retain }

// AllowsImport reports whether spec.import is allowed.
func (p Powers) AllowsImport() bool { return p.Unfenced || p.Import }

// AllowsShare reports whether the network may be shared with project.
func (p Powers) AllowsShare(project string) bool {
	return p.Unfenced || slices.Contains(p.SharedWith, strings.ToLower(project))
}

// AllowsRouter reports whether subnets may be attached to the router with this id and
// name: one the project holds, found by what the spec names. A grant by name allows the
// router of that name only, a grant by id the router of that id only.
func (p Powers) AllowsRouter(id, name string) bool {
	return p.Unfenced || listed(p.ExistingRouters, id, name)
}

// AllowsQoSPolicy reports whether the network may have the QoS policy with this id and
// name: one the project sees, found by what the spec names. As with routers, a grant by
// name allows the policy of that name only, a grant by id the policy of that id only.
func (p Powers) AllowsQoSPolicy(id, name string) bool {
	return p.Unfenced || listed(p.QoSPolicies, id, name)
}

// listed reports whether refs name the resource with this id and name.
func listed(refs []samplecrdv1.NeutronRef, id, name string) bool {
	return slices.ContainsFunc(refs, func(r samplecrdv1.NeutronRef) bool {
		return (r.ID != "" && strings.EqualFold(r.ID, id)) || (r.Name != "" && r.Name == name)
	})
}

// add makes p also hold what allow grants.
func (p *Powers) add(identity string, allow samplecrdv1.IdentityAllow) {
	p.Identities = append(p.Identities, identity)
	p.Retain = p.Retain || allow.Retain
	p.Import = p.Import || allow.Import
	for _, project := range allow.SharedWith {
		if id := strings.ToLower(string(project)); !slices.Contains(p.SharedWith, id) {
			p.SharedWith = append(p.SharedWith, id)
		}
	}
	p.ExistingRouters = append(p.ExistingRouters, allow.ExistingRouters...)
	p.QoSPolicies = append(p.QoSPolicies, allow.QoSPolicies...)
	if bound := allow.RoutersPerNamespace; bound != nil && (p.RoutersPerNamespace == nil || *bound > *p.RoutersPerNamespace) {
		p.RoutersPerNamespace = bound
	}
}

// RouterBound returns the bound on the namespace's routers of their own, and whether
// there is one.
func (p Powers) RouterBound() (int, bool) {
	if p.Unfenced || p.RoutersPerNamespace == nil {
		return 0, false
	}
	return int(*p.RoutersPerNamespace), true
}

// Denied says, for a message, who did not grant what follows it.
func (p Powers) Denied() string {
	if len(p.Identities) == 0 {
		return "no ClusterIdentity selects it, so it may not use"
	}
	return "the ClusterIdentity objects that select it (" + strings.Join(p.Identities, ", ") + ") do not allow"
}
