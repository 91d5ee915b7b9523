// Package lockout is the gate in front of Keystone for tenants' token requests (Gate):
// the controller-wide rate is shared in turns between namespaces (pkg/credentials/tokenturns),
// and no user gets more refused requests in a row than MaxRefusalsInARow, however many
// Secrets, namespaces, spellings and controllers name it, so that a tenant's clouds.yaml
// cannot get another team's user, or the controller's own, locked out. Refused
// requests are counted per user (accounts.go, users.go), and the counts kept in a
// ConfigMap every controller of the cluster shares (records.go, configmap.go, keep.go).
package lockout
