package neutron

import "fmt"

// Place is where a credential's calls land: the Keystone that issued its token, the
// Neutron and region of that token's catalog, the project the token is scoped to, and
// the TLS roots that vouch for all of it. A project ID alone is only what some Keystone
// claims, one project reaches different Neutrons in different regions, and a server
// trusted only by a tenant's own CA may answer for anyone; so two credentials share what
// the controller keeps about Neutron (a Store) and a request budget only when their whole
// Places are equal, and a Network stays pinned to the project and region its resources
// were made in.
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
	// Trust names the TLS roots a credentials Secret chose ("ca-sha256:..." for its CA,
	// "unverified" for none); "" for the system's roots or the operator's.
	Trust string
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
