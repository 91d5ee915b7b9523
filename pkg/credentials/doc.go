// Package credentials is the home of everything that decides which credentials a
// Network's Neutron calls use, and whether they may be used. Its sub-packages, lowest first:
//
//   - tokenturns: one rate of permits shared in turns (tenants' Keystone token requests).
//   - secretwatch: one metadata watch per credentials Secret that Networks name.
//   - grants: what a namespace may do in a shared project (ClusterIdentity grants), and the
//     projects identities delegate.
//   - lockout: the gate in front of Keystone: token turns between namespaces, and no user
//     refused often enough to be locked out, counted in a ConfigMap every controller shares.
//   - registry: a Network's credentials (own cloud, its Secret, an identity's Secret) ->
//     a checked cloud, one Keystone client per credential, one store per project; when
//     they expire.
//   - owncloud: the controller's own cloud, and the Keystone URLs tenants may name.
//   - secretguard: the finalizer on a credentials Secret while Networks may need it.
//   - identitystatus: each ClusterIdentity's status.
//   - requeue: the Networks to try again when their Secret, identity, grant or expiry changes.
//
// Outside this folder a Network's credentials are a registry.Tenant: a place and its store.
package credentials
