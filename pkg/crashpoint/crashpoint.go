// Package crashpoint names the points in a create or a delete where the end-to-end tests
// crash the controller, to prove that the next run adopts what the crashed one made
// instead of creating it twice, and finishes a delete without leaving anything behind.
package crashpoint

const (
	NetworkCreated = "network-created" // after the Neutron create, before tagging
	NetworkTagged  = "network-tagged"  // after tagging, before the status write
	RouterCreated  = "router-created"  // after the router create, before attaching subnets

	InterfacesDetached = "interfaces-detached" // deleting: after detaching, before deleting the router
	RoutersDeleted     = "routers-deleted"     // deleting: after the routers, before the network
)

// Reached does nothing unless the binary is built with the e2ecrash tag (crash.go).
var Reached = func(point string) {}
