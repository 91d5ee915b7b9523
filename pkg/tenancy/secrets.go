package tenancy

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// SecretSource reads credentials Secrets: their versions from a watch, their data only
// when a Network needs a version not read before.
type SecretSource interface {
	// Version returns the resourceVersion the watch last saw of the Secret, and false
	// when it does not exist.
	Version(namespace, name string) (string, bool)
	// Data reads the Secret's data and resourceVersion from the API.
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
	version, exists := r.secrets.Version(namespace, ref.SecretName)
	if !exists {
		r.dropParsed(key)
		return Cloud{}, secretNotFound(secret, namespace)
	}
	r.mu.Lock()
	p := r.parsed[key]
	r.mu.Unlock()
	if p != nil && (p.versions[0] == version || p.versions[1] == version) {
		return p.cloud, p.err
	}

	data, readVersion, err := r.secrets.Data(ctx, namespace, ref.SecretName)
	if apierrors.IsNotFound(err) {
		r.dropParsed(key)
		return Cloud{}, secretNotFound(secret, namespace)
	}
	if err != nil {
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
