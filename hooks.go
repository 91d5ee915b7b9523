package main

// Points in a create where the end-to-end tests crash the controller, to prove that the
// next run adopts what the crashed one made instead of creating it twice.
const (
	hookNetworkCreated = "network-created" // after the Neutron create, before tagging
	hookNetworkTagged  = "network-tagged"  // after tagging, before the status write
)

// testHook does nothing unless the binary is built with the e2ecrash tag (crashhook.go).
var testHook = func(point string) {}
