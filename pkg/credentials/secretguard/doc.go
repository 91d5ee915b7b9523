// Package secretguard keeps the controller's finalizer on a credentials Secret while a
// Network that names it may still have Neutron resources only those credentials can
// delete, so that deleting the Secret, alone or with its namespace, waits for the last
// such Network to clean up. A Network's sync puts the finalizer on (Guard.Protect) before
// anything is created; the Guard's own queue, keyed by Secret, takes it off when no
// Network needs it any more and puts it back if it was removed too early. It also indexes
// Networks by their Secret (BySecretIndex), for itself and the Network controller.
//
// It reads and patches Secrets' metadata only, never their data, and guards only Secrets
// of the Networks' own namespaces: a ClusterIdentity's Secret is the operator's to keep.
// It does not watch Secrets itself (SecretMetadata, in practice pkg/credentials/secretwatch, does).
package secretguard
