package tenancy

import (
	"bytes"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"errors"
	"regexp"
	"slices"
	"strings"

	"github.com/gophercloud/gophercloud/v2/openstack/config/clouds"
	"sigs.k8s.io/yaml"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// Keys of a credentials Secret.
const (
	KeyCloudsYAML = "clouds.yaml"
	KeyCACert     = "cacert"
)

// Cloud is a tenant's cloud, read from its Secret and checked.
type Cloud struct {
	neutron.Credentials
	// Method is how it authenticates: "password", "application credential" or "token".
	Method string
	// Fingerprint is the same for the same credentials and differs when anything that
	// reaches Keystone changes: a client is shared by equal fingerprints.
	Fingerprint string
}

// ParseCloud reads the cloud named cloudName from a credentials Secret's data, refusing
// what could turn the controller against its own host: files named in clouds.yaml and
// Keystone URLs the operator did not allow. secret names the Secret in messages.
func ParseCloud(secret string, data map[string][]byte, cloudName string, allowed AuthURLs) (Cloud, error) {
	raw := data[KeyCloudsYAML]
	if len(bytes.TrimSpace(raw)) == 0 {
		return Cloud{}, errorf(samplecrdv1.ReasonCredentialsKeyMissing,
			"Secret %s has no key %s (or it is empty); put the clouds.yaml with cloud %q there", secret, KeyCloudsYAML, cloudName)
	}
	var file clouds.Clouds
	if err := yaml.Unmarshal(raw, &file); err != nil {
		return Cloud{}, errorf(samplecrdv1.ReasonCloudsYAMLInvalid,
			"key %s of Secret %s is not a valid clouds.yaml: %s", KeyCloudsYAML, secret, describeYAMLError(err))
	}
	cloud, ok := file.Clouds[cloudName]
	if !ok {
		names := make([]string, 0, len(file.Clouds))
		for name := range file.Clouds {
			names = append(names, name)
		}
		slices.Sort(names)
		return Cloud{}, errorf(samplecrdv1.ReasonCloudNotFound,
			"key %s of Secret %s has no cloud %q (clouds in it: %s)", KeyCloudsYAML, secret, cloudName, orNone(names))
	}
	where := "cloud " + quote(cloudName) + " in key " + KeyCloudsYAML + " of Secret " + secret
	if err := refuseFiles(where, cloud); err != nil {
		return Cloud{}, err
	}
	if cloud.AuthInfo == nil || cloud.AuthInfo.AuthURL == "" {
		return Cloud{}, errorf(samplecrdv1.ReasonCloudsYAMLInvalid, "%s has no auth.auth_url", where)
	}
	if !allowed.Allows(cloud.AuthInfo.AuthURL) {
		return Cloud{}, errorf(samplecrdv1.ReasonAuthURLNotAllowed,
			"%s authenticates at %s, which this controller does not allow (allowed: %s)", where, cloud.AuthInfo.AuthURL, allowed)
	}
	tlsConfig, err := tlsOf(secret, data, cloud)
	if err != nil {
		return Cloud{}, err
	}
	// Explicit options override what gophercloud would otherwise take from the
	// controller's own environment (OS_REGION_NAME, OS_INTERFACE).
	authOpts, endpointOpts, _, err := clouds.Parse(
		clouds.WithCloudsYAML(bytes.NewReader(raw)),
		clouds.WithCloudName(cloudName),
		clouds.WithRegion(cloud.RegionName),
		clouds.WithEndpointType(firstOf(cloud.EndpointType, cloud.Interface, "public")),
	)
	if err != nil {
		// What is left to fail here is the shape of the entry (a system scope other than
		// "all"); gophercloud's message names fields, not values.
		return Cloud{}, &Error{Reason: samplecrdv1.ReasonCloudsYAMLInvalid, Message: where + " is not usable: " + err.Error(), Err: err}
	}
	c := Cloud{
		Credentials: neutron.Credentials{Name: where, Auth: authOpts, Endpoint: endpointOpts, TLS: tlsConfig},
		Method:      methodOf(cloud.AuthInfo),
		Fingerprint: fingerprint(cloudName, raw, data[KeyCACert]),
	}
	return c, nil
}

// refuseFiles refuses entries that make gophercloud read files of the controller's host:
// a CA, client certificate or key path, or a profile from clouds-public.yaml.
func refuseFiles(where string, cloud clouds.Cloud) error {
	var named []string
	for key, value := range map[string]string{"cacert": cloud.CACertFile, "cert": cloud.ClientCertFile, "key": cloud.ClientKeyFile, "profile": cloud.Profile, "cloud": cloud.Cloud} {
		if value != "" {
			named = append(named, key)
		}
	}
	if len(named) == 0 {
		return nil
	}
	slices.Sort(named)
	return errorf(samplecrdv1.ReasonCredentialsFileRefused,
		"%s sets %s, which would make the controller read a file of its own host; remove it (a private CA goes, as PEM, into the Secret's key %s)",
		where, strings.Join(named, ", "), KeyCACert)
}

// tlsOf returns the TLS settings of a tenant's connections: the Secret's CA if it has
// one, and verification unless the cloud turns it off.
func tlsOf(secret string, data map[string][]byte, cloud clouds.Cloud) (*tls.Config, error) {
	insecure := cloud.Verify != nil && !*cloud.Verify
	pem, hasCA := data[KeyCACert]
	if !hasCA && !insecure {
		return nil, nil
	}
	config := &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: insecure} //nolint:gosec // the tenant's own choice for its own cloud
	if hasCA {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(bytes.TrimSpace(pem)) {
			return nil, errorf(samplecrdv1.ReasonCACertInvalid, "key %s of Secret %s holds no PEM certificate", KeyCACert, secret)
		}
		config.RootCAs = pool
	}
	return config, nil
}

func methodOf(auth *clouds.AuthInfo) string {
	switch {
	case auth.ApplicationCredentialID != "" || auth.ApplicationCredentialName != "":
		return "application credential"
	case auth.Token != "":
		return "token"
	}
	return "password"
}

// RejectedReason is the Ready reason for credentials Keystone refused.
func (c Cloud) RejectedReason() string {
	switch c.Method {
	case "application credential":
		return samplecrdv1.ReasonApplicationCredentialRejected
	case "password":
		return samplecrdv1.ReasonPasswordRejected
	}
	return samplecrdv1.ReasonCredentialsRejected
}

func fingerprint(cloudName string, cloudsYAML, caCert []byte) string {
	h := sha256.New()
	for _, part := range [][]byte{[]byte(cloudName), cloudsYAML, caCert} {
		h.Write(part)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

var yamlLine = regexp.MustCompile(`line \d+`)

// describeYAMLError says where the document is wrong without quoting it: a parser's
// message may carry a piece of the document, and that piece may be a password.
func describeYAMLError(err error) string {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		if typeErr.Field == "" {
			return "the document must be a mapping with the key clouds, not of type " + typeErr.Value
		}
		return "field " + typeErr.Field + " has the wrong type (" + typeErr.Value + ")"
	}
	if line := yamlLine.FindString(err.Error()); line != "" {
		return "syntax error at " + line
	}
	return "it does not parse as a YAML mapping with the key clouds"
}

func firstOf(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

func quote(s string) string { return `"` + s + `"` }
