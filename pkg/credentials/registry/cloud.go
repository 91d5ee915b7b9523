package registry

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutronclient"
)

// Keys of a credentials Secret.
const (
	KeyCloudsYAML = "clouds.yaml"
	KeyCACert     = "cacert"
)

// Cloud is a tenant's cloud, read from its Secret and checked.
type Cloud struct {
	neutronclient.Credentials
	// Method is how it authenticates: "password", "application credential" or "token".
	Method string
	// Fingerprint is the same for the same credentials and differs when anything that
	// reaches Keystone changes: a client is shared by equal fingerprints.
	Fingerprint string
	// AuthURL is the normalized identity endpoint (== Credentials.Auth.IdentityEndpoint).
	AuthURL string
	// Region and Interface select Neutron in Keystone's catalog.
	Region, Interface string
	// Principal names the Keystone account that authenticates, for per-account limits:
	// the auth URL plus the user (domain and name, or user ID) or the application
	// credential (ID, or name with its user); never a secret.
	Principal string
	// PasswordWarning is, for a password in a namespace's own Secret the operator warns
	// about (PasswordsWarn), what the Networks using it say.
	PasswordWarning string
}

// Policy is what the operator lets a credentials Secret's cloud choose.
type Policy struct {
	// AuthURLs are the Keystones a cloud may authenticate at.
	AuthURLs AuthURLs
	// AllowUnverifiedTLS lets a cloud set verify: false.
	AllowUnverifiedTLS bool
	// Passwords says what becomes of a password in a namespace's own Secret; "" is
	// PasswordsWarn. A ClusterIdentity's Secret is the operator's: never refused.
	Passwords Passwords
}

// Passwords is the operator's rule for passwords in tenants' Secrets, rolled out as grants
// are: Keystone locks a password's user out after refused logins, and whoever writes a
// Secret can name any user; application credentials are never locked out.
type Passwords string

const (
	// PasswordsWarn uses them, each Network saying so (PasswordCredentials).
	PasswordsWarn Passwords = "warn"
	// PasswordsRefuse refuses them (PasswordCredentialsRefused), before any token request.
	PasswordsRefuse Passwords = "refuse"
	// PasswordsAllow uses them without a word: the operator accepts the risk.
	PasswordsAllow Passwords = "allow"
)

// ParsePasswords returns the rule s names.
func ParsePasswords(s string) (Passwords, error) {
	switch p := Passwords(s); p {
	case PasswordsWarn, PasswordsRefuse, PasswordsAllow:
		return p, nil
	}
	return "", fmt.Errorf("unknown rule %q: want warn, refuse or allow", s)
}

// ParseCloud reads the cloud named cloudName from a credentials Secret's data, refusing
// what could turn the controller against its own host: files named in clouds.yaml, and
// Keystone URLs and TLS settings the operator did not allow. secret names the Secret in
// messages. It is ParseCloudsFile then CloudsFile.Cloud.
func ParseCloud(secret string, data map[string][]byte, cloudName string, policy Policy) (Cloud, error) {
	f, err := ParseCloudsFile(secret, data)
	if err != nil {
		return Cloud{}, err
	}
	return f.Cloud(cloudName, policy)
}

// RejectedReason is the Ready reason for credentials Keystone refused.
func (c Cloud) RejectedReason() string {
	switch c.Method {
	case methodApplicationCredential:
		return samplecrdv1.ReasonApplicationCredentialRejected
	case methodPassword:
		return samplecrdv1.ReasonPasswordRejected
	}
	return samplecrdv1.ReasonCredentialsRejected
}

// fingerprint identifies a cloud of a Secret's content (see contentDigest).
func fingerprint(cloudName string, digest [sha256.Size]byte) string {
	h := sha256.New()
	h.Write([]byte(cloudName))
	h.Write([]byte{0})
	h.Write(digest[:])
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// firstOf returns the first value that is not empty.
func firstOf(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}
