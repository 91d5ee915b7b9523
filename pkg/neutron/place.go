package neutron

import "fmt"

// Place is where a credential's calls land: the Keystone that issued its token, the
// Neutron and region of that token's catalog, and the project the token is scoped to. A
// project ID alone is only what some Keystone claims, and one project reaches different
// Neutrons in different regions; so two credentials share what the controller keeps about
// Neutron (a Store) only when their whole Places are equal, and a Network stays pinned to
// the Place its resources were made in.
type Place struct {
	// Identity is the Keystone URL the token came from; "" for a Neutron without
	// authentication.
	Identity string
	// Region is the region of the Neutron endpoint in the catalog; "" when it names none.
	Region string
	// Endpoint is Neutron's URL.
	Endpoint string
	// ProjectID is the project the token is scoped to; "" without authentication.
	ProjectID string
}

func (p Place) String() string {
	project := p.ProjectID
	if project == "" {
		project = "(no authentication)"
	}
	if p.Region == "" {
		return fmt.Sprintf("project %s at %s", project, p.Endpoint)
	}
	return fmt.Sprintf("project %s in region %s at %s", project, p.Region, p.Endpoint)
}
