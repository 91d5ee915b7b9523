// Package reconcile makes the Neutron side of one Network at a time match its spec and
// records the outcome in the Network's status, conditions and Events. Reconciler.Sync
// takes a live Network through its powers and credentials, the finalizer, the project
// pinned in status, the spec mapped onto the desired network, subnets, router and shares
// (Desired), what the project's neutronstore.Store holds, the difference (neutron.Diff),
// the calls that remove it, and the status write; a Network being deleted gets its
// deletion policy carried out, and an imported one is only looked up and reported. Every
// failure becomes a Failure, which says whether a retry can help.
//
// It does not queue or retry: the root package's workers call Sync and read
// RecordedFailure, and the Neutron resync (pkg/resync) finds drift and orphans. It
// reaches Neutron only through the store of the Network's project, which pkg/credentials/registry
// hands out; it does not read credentials Secrets, guard them (a CredentialsGuard does,
// pkg/credentials/secretguard) or decide what a namespace may do (Grants, pkg/credentials/grants).
package reconcile
