// Package crashpoint names the points in a create where the end-to-end tests crash the
// controller, to prove that the next run adopts what the crashed one made instead of
// creating it twice.
package crashpoint

const (
	NetworkCreated = "network-created" // after the Neutron create, before tagging
	NetworkTagged  = "network-tagged"  // after tagging, before the status write
)

// Reached does nothing unless the binary is built with the e2ecrash tag (crash.go).
var Reached = func(point string) {}
