// Package credentials is the home of everything that decides which credentials a
// Network's Neutron calls use, and whether they may be used, and its one door: code
// outside this folder imports this package (and the vocabulary of grants) only.
//
// The door has two parts. New builds every part of the credentials from the Options (the
// command's flags) and the Env (clients, informers, metrics): the Credentials, which the
// controller wires to its queue (Requeue) and runs while it leads. Tenants is what the
// reconcile pass and the Neutron resync see: for each Network its Tenant (the place its
// resources are in, the store that reaches them, and what it should say of its
// credentials: a password in use, an expiry ahead), its powers there, and the projects
// the credentials reach.
//
// The sub-packages, lowest first:
//
//   - tokenturns: one rate of permits shared in turns (tenants' Keystone token requests).
//   - secretwatch: one metadata watch per credentials Secret that Networks name.
//   - grants: what a namespace may do in a shared project (ClusterIdentity grants), and the
//     projects identities delegate.
//   - tokenrequests: what a Keystone client's token requests pass through: counted, and
//     admitted by a gate.
//   - lockout: the gate in front of Keystone: token turns between namespaces, and no user
//     refused often enough to be locked out, counted in a ConfigMap every controller shares.
//   - registry: a Network's credentials (own cloud, its Secret, an identity's Secret) ->
//     a checked cloud, one Keystone client per credential, one store per project; when
//     they expire.
//   - owncloud: the controller's own cloud, and the Keystone URLs tenants may name.
//   - secretguard: the finalizer on a credentials Secret while Networks may need it.
//   - identitystatus: each ClusterIdentity's status.
//   - requeue: the Networks to try again when their Secret, identity, grant or expiry changes.
package credentials
