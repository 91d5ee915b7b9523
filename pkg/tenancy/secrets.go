package tenancy

import (
	"context"
	"strings"

	"k8s.io/client-go/tools/cache"

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

// errorSize is what a parse that failed is counted as: its message and the error value.
const errorSize = 512

// cloudOf returns the cloud ref names in namespace, reading and parsing its Secret only
// when the watch reports a version not read before: once per version, however many
// Networks and cloud names use it.
func (r *Registry) cloudOf(ctx context.Context, namespace string, ref *samplecrdv1.CloudCredentialsRef) (Cloud, error) {
	key := cache.NewObjectName(namespace, ref.SecretName)
	version, err := r.secrets.Version(ctx, namespace, ref.SecretName)
	if err != nil {
		r.parsed.drop(key)
		return Cloud{}, err
	}
	p, ok := r.parsed.get(key)
	if !ok || !p.holds(version) {
		data, readVersion, err := r.secrets.Data(ctx, namespace, ref.SecretName)
		if err != nil {
			r.parsed.drop(key)
			return Cloud{}, err
		}
		p = &parsedSecret{versions: [2]string{version, readVersion}, size: errorSize}
		if p.file, p.err = ParseCloudsFile(key.String(), data); p.file != nil {
			p.size = p.file.Size()
		}
		r.parsed.put(key, p)
	}
	if p.err != nil {
		return Cloud{}, p.err
	}
	return p.file.Cloud(ref.CloudName, r.allowed)
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
	r.parsed.drop(cache.NewObjectName(namespace, name))
}
