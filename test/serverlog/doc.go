// Package serverlog reads the request lines the local servers write (neutron-server's log,
// Keystone's request log in the format hack/local-keystone.sh sets), so that the e2e
// tests and the bench count calls on the servers' side the same way.
package serverlog
