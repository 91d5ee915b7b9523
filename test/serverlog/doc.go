// Package serverlog reads the request lines the local servers write (neutron-server's log,
// with the audit lines of the Keystone-authenticated ones, and Keystone's request log in the
// format hack/local-keystone.sh sets), so that the e2e tests and the bench count calls on the
// servers' side the same way.
package serverlog
