// Package resync is the periodic Neutron resync: it catches changes made on the Neutron
// side, which informer events do not report. Each pass (Resyncer.Once) refills the store
// of every project that Networks use, and of every project a ClusterIdentity delegates
// (delegated.go), then requeues each Network whose Neutron side drifted from its spec and
// status (with a Warning Event saying how), whose retry may have been lost, or whose
// subnets' address counts changed; collects this cluster's Neutron networks whose Network
// no longer exists, once past a grace period (deleted, or released when their deletion
// policy was Retain), unless a namespace has so many in a project, or all of them together
// do, that a circuit breaker stops it (breaker.go); and looks at the imported networks
// again, with one list per project.
//
// It repairs no drift itself and writes no status: the workers of the root package
// reconcile the Networks it requeues. Its only writes are Events, and in Neutron the
// orphans it collects.
package resync
