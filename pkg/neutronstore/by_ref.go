package neutronstore

import (
	"context"
	"slices"
	"strings"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// The one lookup of what a reference of a Network's spec names, by ID or by name: the
// network it imports, a subnet pool, the project's router, an external network, a QoS
// policy. Each is one list call; what the caller makes of none or several is its own.

// refQuery is a reference, and where the resource it names may be.
type refQuery struct {
	ref neutron.Ref
	// scope holds the filter's other fields: the project (the answer is held to it too),
	// external networks only.
	scope neutron.Filter
	// anyCaseID matches an ID whatever its capitals, as Neutron does: an import follows
	// the network its ID names in any spelling (neutron.ImportRef.Names). Other references
	// keep the ID as written, which the diff compares with what Neutron holds (a subnet's
	// pool ID), so an ID in other capitals does not resolve.
	anyCaseID bool
}

// names reports whether q's reference names n: its ID, or exactly its name.
func (q refQuery) names(n neutron.Named) bool {
	switch {
	case q.ref.ID == "":
		return n.Name == q.ref.Name
	case q.anyCaseID:
		return strings.EqualFold(n.ID, q.ref.ID)
	}
	return n.ID == q.ref.ID
}

// listByRef lists what q names (one call): by ID, or by name, within q's scope. Only an
// exact match is kept, whatever filters a Neutron applied (a database that compares names
// without case, a project filter left out). Errors are list's, for the caller to say
// what it looked up.
func listByRef[T neutron.Referable](ctx context.Context, list func(context.Context, neutron.Filter) ([]T, error), q refQuery) ([]T, error) {
	filter := q.scope
	if q.ref.ID != "" {
		filter.IDs = []string{q.ref.ID}
	} else {
		filter.Name = q.ref.Name
	}
	found, err := list(ctx, filter)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(neutron.InProject(found, q.scope.ProjectID), func(item T) bool { return !q.names(item.AsNamed()) }), nil
}

// findByRef is listByRef, keeping projectID's own when any is (neutron.OwnFirst): the
// reference resolves when exactly one is left.
func findByRef[T neutron.Referable](ctx context.Context, list func(context.Context, neutron.Filter) ([]T, error), q refQuery, projectID string) ([]T, error) {
	found, err := listByRef(ctx, list, q)
	if err != nil {
		return nil, err
	}
	return neutron.OwnFirst(found, projectID), nil
}
