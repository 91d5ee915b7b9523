// Package networktest builds what the unit tests of the reconciler, the Neutron resync
// and the controller's wiring start from: a Reconciler over a fake clientset, a hand-fed
// informer cache and a fake Neutron (Fixture), Networks in the states a test needs, the
// Neutron resources the controller would have made for them, and the checks those tests
// share. Nothing here runs outside tests.
package networktest
