// Package registry gives each Network the place its Neutron resources live in and the way
// to reach it. Registry resolves a Network's credentials (the controller's own cloud, a
// Secret of its namespace, or a ClusterIdentity's Secret) to a Tenant: the Place
// (Keystone, region, Neutron and project) and its neutronstore.Store, filled on first use.
// Networks with the same credentials share one client and one Keystone token, Networks of
// one Place share one store. A credentials Secret's clouds.yaml is decoded strictly and
// checked (ParseCloudsFile, CloudsFile.Cloud): no file of the controller's host, a
// Keystone URL on the operator's allowlist (AuthURLs), a supported authentication method.
// A failure is an *Error with the Ready reason the Network gets.
//
// It has no HTTP client of its own (Keystone is reached through its Connector, from
// pkg/neutronclient, behind the lockout gate of pkg/credentials/lockout, and Neutron
// through the stores), does not watch Secrets (WatchedSecrets reads the watches of
// pkg/credentials/secretwatch), and does not decide what a namespace may do in a project
// (pkg/credentials/grants).
package registry
