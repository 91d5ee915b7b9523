package v1

import (
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ConditionReady is the summary condition: True when the Neutron network and its subnets
// exist and match the spec of the generation named in status.observedGeneration.
const ConditionReady = "Ready"

// Reasons of the Ready condition. Transient reasons (TransientReasons) are retried with
// backoff; terminal ones wait for the spec, or the credentials Secret, to change (an
// import's, for Neutron to change).
const (
	// ReasonProvisioned: Neutron matches the spec.
	ReasonProvisioned = "Provisioned"
	// ReasonProvisioning (transient): a Neutron resource the change relied on went away
	// during it (deleted outside the controller); the retry creates it again.
	ReasonProvisioning = "Provisioning"
	// ReasonNeutronUnavailable (transient): Neutron could not be reached or answered 5xx.
	ReasonNeutronUnavailable = "NeutronUnavailable"
	// ReasonNeutronConflict (transient): Neutron answered 409 to a change, or refused a
	// subnet create as overlapping a subnet it already holds on the network.
	ReasonNeutronConflict = "NeutronConflict"
	// ReasonOverQuota (transient): the Neutron project quota is exhausted; retried slowly.
	ReasonOverQuota = "OverQuota"
	// ReasonInvalidSpec (terminal): Neutron or the controller rejected the spec.
	ReasonInvalidSpec = "InvalidSpec"
	// ReasonSubnetInUse (transient): deletion waits because ports still use the subnet.
	ReasonSubnetInUse = "SubnetInUse"
	// ReasonNeutronResourceNotOwned (terminal): while deleting, status named a Neutron
	// network that lacks this cluster's or this Network's marks (a status restored from a
	// backup, or written by someone else); it was left untouched.
	ReasonNeutronResourceNotOwned = "NeutronResourceNotOwned"
	// ReasonRouterNotFound (terminal): the router spec.router.existing names is not in the
	// project (deleted by someone else); each Neutron resync looks again.
	ReasonRouterNotFound = "RouterNotFound"
	// ReasonReferenceNotFound (terminal): an attribute of the spec names a Neutron resource
	// (such as spec.qosPolicy) that the project cannot see: none has that ID or name, or it
	// is not shared with the project; each Neutron resync looks again.
	ReasonReferenceNotFound = "ReferenceNotFound"
	// ReasonReferenceAmbiguous (terminal): an attribute of the spec names a Neutron
	// resource by a name several that the project can see have; each Neutron resync looks
	// again.
	ReasonReferenceAmbiguous = "ReferenceAmbiguous"
	// ReasonRouterOfAnotherNetwork (terminal): the router spec.router.existing names is one
	// the controller made for a Network: only that Network attaches to it.
	ReasonRouterOfAnotherNetwork = "RouterOfAnotherNetwork"
	// ReasonNotGranted (terminal): in a project other namespaces share, the spec asks for
	// a power (deletionPolicy Retain, spec.import, spec.sharedWith, spec.router.existing)
	// that no ClusterIdentity selecting the namespace allows; what the grant no longer
	// covers is undone.
	ReasonNotGranted = "NotGranted"
	// ReasonRetainNotGranted (terminal): the deletion of a Network with deletionPolicy
	// Retain waits, its Neutron side untouched, because no grant allows Retain in the
	// project: an operator's grant, or deletionPolicy Delete, lets it go on.
	ReasonRetainNotGranted = "RetainNotGranted"
)

// Reasons of an imported Network (spec.import). All but ReasonImported are terminal for
// the workqueue: only a change in Neutron can help, and each Neutron resync looks again.
const (
	// ReasonImported: the imported network exists, with the subnet status names.
	ReasonImported = "Imported"
	// ReasonImportNotFound: no network the credentials can see has that ID or name.
	ReasonImportNotFound = "ImportNotFound"
	// ReasonImportAmbiguous: several networks the credentials can see have that name; the
	// message names their IDs.
	ReasonImportAmbiguous = "ImportAmbiguous"
	// ReasonImportedNetworkDeleted: the network status names was deleted in Neutron. It
	// is never recreated.
	ReasonImportedNetworkDeleted = "ImportedNetworkDeleted"
	// ReasonImportSubnetNotFound: the network has no subnet with spec.cidr, or no subnet.
	ReasonImportSubnetNotFound = "ImportSubnetNotFound"
	// ReasonImportSubnetAmbiguous: spec.cidr is omitted and the network has several
	// subnets; the message names them.
	ReasonImportSubnetAmbiguous = "ImportSubnetAmbiguous"
	// ReasonImportManagedNetwork: the network carries this cluster's marks: the
	// controller created it for a Network, and only that Network manages it.
	ReasonImportManagedNetwork = "ImportManagedNetwork"
)

// Reasons about the credentials of spec.cloudCredentialsRef. All but
// ReasonKeystoneUnavailable are terminal: they wait for the Secret or the spec to change.
const (
	// ReasonCredentialsRefRequired: the controller runs without a cloud of its own for
	// Networks (-require-credentials-ref) and the spec names no Secret.
	ReasonCredentialsRefRequired = "CredentialsRefRequired"
	// ReasonCredentialsSecretNotFound: the Secret is not in the Network's namespace.
	ReasonCredentialsSecretNotFound = "CredentialsSecretNotFound"
	// ReasonCredentialsNotGranted: the controller may not read Secrets in the Network's
	// namespace: the namespace has not bound the credentials ClusterRole to it.
	ReasonCredentialsNotGranted = "CredentialsNotGranted"
	// ReasonCredentialsSecretNotLabelled: the Secret exists but does not carry
	// CredentialsLabel, so it is not used as credentials.
	ReasonCredentialsSecretNotLabelled = "CredentialsSecretNotLabelled"
	// ReasonCredentialsKeyMissing: the Secret has no clouds.yaml key.
	ReasonCredentialsKeyMissing = "CredentialsKeyMissing"
	// ReasonCloudsYAMLInvalid: clouds.yaml is not a valid clouds.yaml document.
	ReasonCloudsYAMLInvalid = "CloudsYAMLInvalid"
	// ReasonCloudNotFound: clouds.yaml has no entry named cloudName.
	ReasonCloudNotFound = "CloudNotFound"
	// ReasonCredentialsFileRefused: the cloud names a file of the controller's host (a
	// CA, client certificate or key path, or a profile read from disk).
	ReasonCredentialsFileRefused = "CredentialsFileRefused"
	// ReasonAuthURLNotAllowed: the cloud's auth_url is not in the controller's allowlist.
	ReasonAuthURLNotAllowed = "AuthURLNotAllowed"
	// ReasonCACertInvalid: the Secret's cacert key holds no PEM certificate, something
	// other than certificates, or more certificates or bytes than the controller reads.
	ReasonCACertInvalid = "CACertInvalid"
	// ReasonTLSVerificationRefused: the cloud sets verify: false, and the operator did
	// not allow it.
	ReasonTLSVerificationRefused = "TLSVerificationRefused"
	// ReasonPasswordRejected: Keystone refused the user name and password.
	ReasonPasswordRejected = "PasswordRejected"
	// ReasonApplicationCredentialRejected: Keystone refused the application credential
	// (wrong secret, expired or deleted).
	ReasonApplicationCredentialRejected = "ApplicationCredentialRejected"
	// ReasonCredentialsRejected: Keystone refused to renew the token of credentials that
	// worked before, or refused a token given in clouds.yaml.
	ReasonCredentialsRejected = "CredentialsRejected"
	// ReasonKeystoneUnavailable (transient): Keystone could not be reached or answered 5xx.
	ReasonKeystoneUnavailable = "KeystoneUnavailable"
	// ReasonKeystoneAccountHeld (transient): Keystone refused the password's user too
	// often in a row for another refusal to be safe from its lockout (or the request
	// could not be recorded first); the controller does not ask for it until credentials
	// of the user get a token again, or the operator lifts the hold.
	ReasonKeystoneAccountHeld = "KeystoneAccountHeld"
	// ReasonCredentialsProjectChanged: the credentials now resolve to another project than
	// status.projectID, where the Network's resources are.
	ReasonCredentialsProjectChanged = "CredentialsProjectChanged"
	// ReasonCredentialsRegionChanged: the credentials now lead to another region than
	// status.region, where the Network's resources are.
	ReasonCredentialsRegionChanged = "CredentialsRegionChanged"
	// ReasonTooManyCredentialsSecrets (transient): the Networks of the namespace name
	// more credentials Secrets than the controller watches per namespace (or in all);
	// the Network waits until one of them is no longer named.
	ReasonTooManyCredentialsSecrets = "TooManyCredentialsSecrets"
	// ReasonCredentialsSecretDeleting (transient): the Secret is being deleted and does
	// not carry CredentialsFinalizerName, so nothing is created with credentials that
	// could be gone before they are needed to delete it again.
	ReasonCredentialsSecretDeleting = "CredentialsSecretDeleting"
	// ReasonNamespaceNotSelected: no ClusterIdentity of the name spec.cloudCredentialsRef
	// gives selects the Network's namespace (one that does not exist reads the same, so
	// that names cannot be probed).
	ReasonNamespaceNotSelected = "NamespaceNotSelected"
	// ReasonClusterIdentityNotDelegating: the ClusterIdentity selects the namespace but has
	// no secretRef: it grants powers in the controller's own cloud, and delegates nothing.
	ReasonClusterIdentityNotDelegating = "ClusterIdentityNotDelegating"
	// ReasonPasswordCredentialsRefused: the cloud of the namespace's Secret authenticates
	// with a password, and the operator refuses those (-tenant-passwords=refuse).
	ReasonPasswordCredentialsRefused = "PasswordCredentialsRefused"
)

// ReadyReasons lists every reason of the Ready condition, for those (metrics, alert
// rules) that must know each one before it first occurs.
var ReadyReasons = []string{
	ReasonProvisioned, ReasonProvisioning, ReasonNeutronUnavailable, ReasonNeutronConflict,
	ReasonOverQuota, ReasonInvalidSpec, ReasonSubnetInUse, ReasonNeutronResourceNotOwned, ReasonRouterNotFound, ReasonReferenceNotFound, ReasonReferenceAmbiguous, ReasonRouterOfAnotherNetwork, ReasonNotGranted, ReasonRetainNotGranted, ReasonImported,
	ReasonImportNotFound, ReasonImportAmbiguous, ReasonImportedNetworkDeleted,
	ReasonImportSubnetNotFound, ReasonImportSubnetAmbiguous, ReasonImportManagedNetwork,
	ReasonCredentialsRefRequired, ReasonCredentialsSecretNotFound,
	ReasonCredentialsNotGranted, ReasonCredentialsSecretNotLabelled, ReasonCredentialsKeyMissing, ReasonCloudsYAMLInvalid, ReasonCloudNotFound,
	ReasonCredentialsFileRefused, ReasonAuthURLNotAllowed, ReasonCACertInvalid, ReasonTLSVerificationRefused,
	ReasonPasswordRejected, ReasonApplicationCredentialRejected, ReasonCredentialsRejected,
	ReasonKeystoneUnavailable, ReasonKeystoneAccountHeld, ReasonCredentialsProjectChanged, ReasonCredentialsRegionChanged,
	ReasonCredentialsSecretDeleting, ReasonTooManyCredentialsSecrets, ReasonNamespaceNotSelected, ReasonClusterIdentityNotDelegating,
	ReasonPasswordCredentialsRefused,
}

// TransientReasons are the failure reasons the controller retries by itself, with
// Reconciling=True beside Ready=False; every other failure reason of ReadyReasons comes
// with Stalled=True and waits for the spec, the credentials Secret or, for an import, the
// Neutron network it names to change. For alert rules and dashboards: the controller
// itself learns whether a failure is terminal from the failure, not from this list.
var TransientReasons = []string{
	ReasonProvisioning, ReasonNeutronUnavailable, ReasonNeutronConflict, ReasonOverQuota, ReasonSubnetInUse,
	ReasonKeystoneUnavailable, ReasonKeystoneAccountHeld, ReasonCredentialsSecretDeleting, ReasonTooManyCredentialsSecrets,
}

// FinalizerName keeps a Network in the API until the controller has deleted its Neutron
// network.
const FinalizerName = "samplecrd.k8s.io/neutron-cleanup"

// CredentialsLabel marks a Secret as credentials for Networks: the controller watches
// and reads only Secrets that carry it with the value "true".
const CredentialsLabel = "network-controller.samplecrd.k8s.io/credentials"

// CredentialsFinalizerName keeps a credentials Secret in the API while a Network that
// uses it holds FinalizerName: deleting the Network's Neutron resources needs it.
const CredentialsFinalizerName = "samplecrd.k8s.io/credentials-in-use"

// ReadyCondition returns the Network's Ready condition, or nil.
func (n *Network) ReadyCondition() *metav1.Condition {
	return meta.FindStatusCondition(n.Status.Conditions, ConditionReady)
}

// IsReady reports whether the Network is Ready=True for its current generation: its
// Neutron side matches the spec as it is now, not an earlier one.
func (n *Network) IsReady() bool {
	c := n.ReadyCondition()
	return c != nil && c.Status == metav1.ConditionTrue && c.ObservedGeneration == n.Generation &&
		n.Status.ObservedGeneration == n.Generation
}

// IsRejected reports whether the Network's current generation was refused for good: it
// is Stalled for this generation, and only a change of the spec can help.
func (n *Network) IsRejected() bool {
	c := meta.FindStatusCondition(n.Status.Conditions, ConditionStalled)
	return c != nil && c.Status == metav1.ConditionTrue && c.ObservedGeneration == n.Generation
}
