package tenancy

import (
	"context"

	"strings"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// SecretSource reads credentials Secrets: their versions from a watch, their data only
// when a Network needs a version not read before.
type SecretSource interface {
	// Version returns the resourceVersion the watch last saw of the Secret, or an
	// *Error saying why it cannot be used (missing, not labelled, not granted).
	Version(ctx context.Context, namespace, name string) (string, error)
	// Data reads the Secret's data and resourceVersion from the API; an *Error when it
	// cannot be used.
	Data(ctx context.Context, namespace, name string) (map[string][]byte, string, error)
}

type cloudKey struct{ namespace, secret, cloud string }

// parsedCloud is a cloud read from one version of its Secret, or why it is unusable.
type parsedCloud struct {
	// versions are the resourceVersions known to hold this content: the one the watch
	// reported and the one the read returned (newer, if the watch lags).
	versions [2]string
	cloud    Cloud
	err      error
}

// cloudOf returns the cloud ref names in namespace, reading its Secret only when the
// watch reports a version not read before.
func (r *Registry) cloudOf(ctx context.Context, namespace string, ref *samplecrdv1.CloudCredentialsRef) (Cloud, error) {
	key := cloudKey{namespace, ref.SecretName, ref.CloudName}
	secret := namespace + "/" + ref.SecretName
	version, err := r.secrets.Version(ctx, namespace, ref.SecretName)
	if err != nil {
		r.dropParsed(key)
		return Cloud{}, err
	}
	r.mu.Lock()
	p := r.parsed[key]
	r.mu.Unlock()
	if p != nil && (p.versions[0] == version || p.versions[1] == version) {
		return p.cloud, p.err
	}

	data, readVersion, err := r.secrets.Data(ctx, namespace, ref.SecretName)
	if err != nil {
		r.dropParsed(key)
		return Cloud{}, err
	}
	p = &parsedCloud{versions: [2]string{version, readVersion}}
	p.cloud, p.err = ParseCloud(secret, data, ref.CloudName, r.allowed)
	r.mu.Lock()
	r.parsed[key] = p
	r.mu.Unlock()
	return p.cloud, p.err
}

func (r *Registry) dropParsed(key cloudKey) {
	r.mu.Lock()
	delete(r.parsed, key)
	r.mu.Unlock()
}

func namespaceOf(secret string) string {
	namespace, _, _ := strings.Cut(secret, "/")
	return namespace
}

func nameOf(secret string) string {
	_, name, _ := strings.Cut(secret, "/")
	return name
}

func secretNotFound(secret, namespace string) *Error {
	return errorf(samplecrdv1.ReasonCredentialsSecretNotFound,
		"Secret %s does not exist; create it in namespace %s with the key %s (a Network only uses Secrets of its own namespace)",
		secret, namespace, KeyCloudsYAML)
}

// ForgetSecret drops what was read from a deleted Secret.
func (r *Registry) ForgetSecret(namespace, name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for key := range r.parsed {
		if key.namespace == namespace && key.secret == name {
			delete(r.parsed, key)
		}
	}
}
