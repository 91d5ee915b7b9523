package registry

import (
	"context"
	"fmt"
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

// Source is where a Network's credentials are: a cloud of the clouds.yaml in a Secret,
// one of the Network's namespace or the one a ClusterIdentity delegates to it.
type Source struct {
	Secret cache.ObjectName
	Cloud  string
	// Identity names the ClusterIdentity whose Secret it is; "" for the namespace's own.
	Identity string
}

// OwnSecret is the Source of a Network of namespace whose spec names a Secret of its own.
func OwnSecret(namespace string, ref *samplecrdv1.CloudCredentialsRef) *Source {
	return &Source{Secret: cache.NewObjectName(namespace, ref.SecretName), Cloud: ref.CloudName}
}

// Check reads the Secret of src, parses it and finds its cloud, as a Network using it
// would, without authenticating and without the watch a Network's use needs: nil, or the
// *Error a Network would get.
func (r *Registry) Check(ctx context.Context, src Source) error {
	data, _, err := r.secrets.Data(ctx, src.Secret.Namespace, src.Secret.Name)
	if err == nil {
		var file *CloudsFile
		if file, err = ParseCloudsFile(src.Secret.String(), data); err == nil {
			_, err = file.Cloud(src.Cloud, r.policy)
		}
	}
	return forIdentity(src, err)
}

// cloudOf returns the cloud src names, reading and parsing its Secret only when the watch
// reports a version not read before: once per version, however many Networks and cloud
// names use it.
func (r *Registry) cloudOf(ctx context.Context, src *Source) (Cloud, error) {
	cloud, err := r.parsedCloud(ctx, src)
	if err != nil {
		return Cloud{}, forIdentity(*src, err)
	}
	cloud.Requester.Source = src.Secret.String() + " cloud " + displayName(src.Cloud)
	cloud.Requester.Turn = src.Secret.Namespace
	if src.Identity != "" {
		cloud.Requester.Turn = "ClusterIdentity " + src.Identity
	}
	if src.Identity == "" && cloud.Requester.LockoutUser != "" {
		switch r.policy.Passwords {
		case PasswordsRefuse:
			return Cloud{}, errorf(samplecrdv1.ReasonPasswordCredentialsRefused,
				"cloud %s of Secret %s authenticates with a password, which this controller refuses in a namespace's Secrets (-tenant-passwords=refuse): Keystone locks a user out after refused logins, and a Secret can name any user. Put an application credential (auth_type: v3applicationcredential) into the Secret",
				displayName(src.Cloud), src.Secret)
		case PasswordsAllow:
		default:
			cloud.PasswordWarning = fmt.Sprintf(
				"cloud %s of Secret %s authenticates with a password: used for now, but refused once the operator sets -tenant-passwords=refuse (the default from the next version), since Keystone locks a user out after refused logins. Put an application credential (auth_type: v3applicationcredential) into the Secret",
				displayName(src.Cloud), src.Secret)
		}
	}
	return cloud, nil
}

// forIdentity names, in an *Error about a ClusterIdentity's Secret, the identity first:
// the tenant sees it, and the Secret is the operator's to fix.
func forIdentity(src Source, err error) error {
	e, ok := AsError(err)
	if !ok || src.Identity == "" {
		return err
	}
	return &Error{Reason: e.Reason, Transient: e.Transient, Err: e.Err,
		Message: fmt.Sprintf("ClusterIdentity %s cannot be used, ask the cluster's operator: %s", src.Identity, e.Message)}
}

func (r *Registry) parsedCloud(ctx context.Context, src *Source) (Cloud, error) {
	key := src.Secret
	version, err := r.secrets.Version(ctx, key.Namespace, key.Name)
	if err != nil {
		r.parsed.drop(key)
		return Cloud{}, err
	}
	p, ok := r.parsed.get(key)
	if !ok || !p.holds(version) {
		data, readVersion, err := r.secrets.Data(ctx, key.Namespace, key.Name)
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
	return p.file.Cloud(src.Cloud, r.policy)
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
		"Secret %s does not exist; create it in namespace %s with the key %s",
		secret, namespace, KeyCloudsYAML)
}

// ForgetSecret drops what was read from a deleted Secret.
func (r *Registry) ForgetSecret(namespace, name string) {
	r.parsed.drop(cache.NewObjectName(namespace, name))
}
