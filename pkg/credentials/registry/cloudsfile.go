package registry

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"slices"
	"strings"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutronclient"
)

// CloudsFile is a Secret's clouds.yaml (and cacert), decoded and checked once.
type CloudsFile struct {
	secret string
	clouds map[string]*cloudEntry
	// roots is the Secret's CA (key cacert), nil without one.
	roots *caRoots
	// digest identifies the content, for fingerprints.
	digest [sha256.Size]byte
}

// ParseCloudsFile decodes a credentials Secret's clouds.yaml strictly, once, into the
// values authentication then uses, and reads its CA. secret names the Secret in messages.
// What concerns one cloud (files, auth URL, auth type) is checked by Cloud.
func ParseCloudsFile(secret string, data map[string][]byte) (*CloudsFile, error) {
	raw := data[KeyCloudsYAML]
	if len(raw) > MaxCloudsYAMLBytes {
		return nil, errorf(samplecrdv1.ReasonCloudsYAMLInvalid,
			"key %s of Secret %s holds %d bytes, more than the %d this controller reads; keep only the clouds in use",
			KeyCloudsYAML, secret, len(raw), MaxCloudsYAMLBytes)
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, errorf(samplecrdv1.ReasonCredentialsKeyMissing,
			"Secret %s has no key %s (or it is empty); put the clouds.yaml there", secret, KeyCloudsYAML)
	}
	clouds, err := decodeCloudsYAML(raw)
	if err != nil {
		return nil, &Error{Reason: samplecrdv1.ReasonCloudsYAMLInvalid, Err: err,
			Message: fmt.Sprintf("key %s of Secret %s is not a valid clouds.yaml: %v", KeyCloudsYAML, secret, err)}
	}
	f := &CloudsFile{secret: secret, clouds: clouds, digest: contentDigest(raw, data)}
	if pem, ok := data[KeyCACert]; ok {
		if f.roots, err = parseCACert(secret, pem); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// Cloud returns the named cloud checked against the operator's policy: no file of the
// controller's host, TLS verified unless allowed otherwise, an allowed auth URL, a
// supported auth type with its credentials.
func (f *CloudsFile) Cloud(name string, policy Policy) (Cloud, error) {
	entry, ok := f.clouds[name]
	if !ok {
		return Cloud{}, errorf(samplecrdv1.ReasonCloudNotFound, "key %s of Secret %s has no cloud %s (clouds in it: %s)",
			KeyCloudsYAML, f.secret, displayName(name), f.someNames())
	}
	where := "cloud " + displayName(name) + " in key " + KeyCloudsYAML + " of Secret " + f.secret
	if err := refuseFiles(where, entry); err != nil {
		return Cloud{}, err
	}
	if err := refuseUnverified(where, entry, policy); err != nil {
		return Cloud{}, err
	}
	authURL, err := checkedAuthURL(where, entry, policy.AuthURLs)
	if err != nil {
		return Cloud{}, err
	}
	method, err := methodOf(where, entry)
	if err != nil {
		return Cloud{}, err
	}
	auth, err := authOptionsOf(where, entry, authURL)
	if err != nil {
		return Cloud{}, err
	}
	endpoint, err := endpointOptsOf(where, entry)
	if err != nil {
		return Cloud{}, err
	}
	lockoutUser, lockoutDomain, err := lockoutUserOf(where, method, auth)
	if err != nil {
		return Cloud{}, err
	}
	tlsConfig, trust := tlsOf(f.roots, entry.verify)
	principal := principalOf(method, auth)
	return Cloud{
		Credentials: neutronclient.Credentials{Name: where, Auth: auth, Endpoint: endpoint, TLS: tlsConfig, Trust: trust,
			Requester: neutronclient.TokenRequester{Account: principal, Keystone: authURL, LockoutUser: lockoutUser, LockoutDomain: lockoutDomain}},
		Method:      method,
		Fingerprint: fingerprint(name, f.digest),
		AuthURL:     authURL,
		Region:      endpoint.Region,
		Interface:   string(endpoint.Availability),
		Principal:   principal,
	}, nil
}

// Size is an estimate in bytes of what the parsed file keeps in memory (for a bounded cache).
func (f *CloudsFile) Size() int {
	const header = 256
	n := header + len(f.secret)
	if f.roots != nil {
		n += f.roots.size
	}
	for name, e := range f.clouds {
		n += len(name) + e.size()
	}
	return n
}

// someNames lists a few cloud names, sorted, for a message that stays short whatever the
// file holds.
func (f *CloudsFile) someNames() string {
	const shown = 5
	names := make([]string, 0, len(f.clouds))
	for name := range f.clouds {
		names = append(names, name)
	}
	if len(names) == 0 {
		return "none"
	}
	slices.Sort(names)
	list := make([]string, 0, shown)
	for _, name := range names[:min(shown, len(names))] {
		list = append(list, displayKey(name))
	}
	s := strings.Join(list, ", ")
	if more := len(names) - shown; more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return s
}

// contentDigest hashes what reaches Keystone from the Secret: clouds.yaml and the CA.
func contentDigest(cloudsYAML []byte, data map[string][]byte) [sha256.Size]byte {
	h := sha256.New()
	for _, part := range [][]byte{cloudsYAML, data[KeyCACert]} {
		h.Write(part)
		h.Write([]byte{0})
	}
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}
