// Package neutronclient is the transport to OpenStack: a neutron.Driver over gophercloud,
// reached with a fixed endpoint or through Keystone (its catalog, its tokens and the
// refusals it answers with), the rate limits and per-project budgets every call waits
// for, and the mapping of Neutron's and Keystone's answers onto neutron.Errors.
package neutronclient
