package registry

import (
	"context"
	"errors"
	"fmt"
	"strings"

	authenticationv1 "k8s.io/api/authentication/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials/secretwatch"
)

// CredentialsClusterRole is the ClusterRole deploy/ ships for namespaces to grant the
// controller their credentials Secrets, with a RoleBinding of their own.
const CredentialsClusterRole = "network-controller-credentials"

// WatchedSecrets is the SecretSource of a running controller: versions from the watch of
// each Secret a Network names (its metadata only), data by a GET of that one Secret.
type WatchedSecrets struct {
	watches *secretwatch.Watches
	client  kubernetes.Interface
	// grantee is how a RoleBinding names the controller, e.g.
	// "--serviceaccount=network-controller:network-controller".
	grantee string
}

// NewWatchedSecrets reads versions from watches and data through client; grantee names
// the controller in the RoleBinding command a namespace without the grant is shown.
func NewWatchedSecrets(watches *secretwatch.Watches, client kubernetes.Interface, grantee string) *WatchedSecrets {
	return &WatchedSecrets{watches: watches, client: client, grantee: grantee}
}

func (w *WatchedSecrets) Version(ctx context.Context, namespace, name string) (string, error) {
	version, err := w.watches.State(ctx, cache.NewObjectName(namespace, name))
	switch {
	case err == nil:
		return version, nil
	case errors.Is(err, secretwatch.ErrNotGranted):
		return "", w.notGranted(namespace)
	case errors.Is(err, secretwatch.ErrNotLabelled):
		return "", notLabelled(namespace + "/" + name)
	case errors.Is(err, secretwatch.ErrNotFound):
		return "", secretNotFound(namespace+"/"+name, namespace)
	case errors.Is(err, secretwatch.ErrOverLimit):
		return "", &Error{Reason: samplecrdv1.ReasonTooManyCredentialsSecrets, Transient: true, Err: err,
			Message: err.Error() + " (-max-credentials-secrets-per-namespace, -max-credentials-secrets)"}
	case errors.Is(err, secretwatch.ErrNotWatched):
		return "", &WaitingError{What: "the watch of Secret " + namespace + "/" + name}
	}
	return "", err
}

func (w *WatchedSecrets) Data(ctx context.Context, namespace, name string) (map[string][]byte, string, error) {
	secret, err := w.client.CoreV1().Secrets(namespace).Get(ctx, name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		return nil, "", secretNotFound(namespace+"/"+name, namespace)
	case apierrors.IsForbidden(err):
		return nil, "", w.notGranted(namespace)
	case err != nil:
		return nil, "", fmt.Errorf("reading Secret %s/%s: %w", namespace, name, err)
	case !secretwatch.Labelled(secret):
		// The label is checked on what is read, not only on what the watch saw.
		return nil, "", notLabelled(namespace + "/" + name)
	}
	return secret.Data, secret.ResourceVersion, nil
}

func (w *WatchedSecrets) notGranted(namespace string) *Error {
	return errorf(samplecrdv1.ReasonCredentialsNotGranted,
		"namespace %s has not granted the controller its credentials Secrets; grant it with: "+
			"kubectl create rolebinding network-controller-credentials --namespace %s --clusterrole %s %s "+
			"(add --resource-name ... to allow only the Secrets Networks name)",
		namespace, namespace, CredentialsClusterRole, w.grantee)
}

func notLabelled(secret string) *Error {
	return errorf(samplecrdv1.ReasonCredentialsSecretNotLabelled,
		"Secret %s is not marked as credentials for Networks; mark it with: kubectl label secret --namespace %s %s %s=true",
		secret, namespaceOf(secret), nameOf(secret), samplecrdv1.CredentialsLabel)
}

// WaitingError is a Network that waits for something about to happen; it is tried again
// soon, without a condition.
type WaitingError struct{ What string }

func (e *WaitingError) Error() string { return "waiting for " + e.What }

// IsWaiting reports whether err is a *WaitingError.
func IsWaiting(err error) bool {
	var w *WaitingError
	return errors.As(err, &w)
}

// StripSecretMetadata keeps, of a Secret's metadata, only what identifies it, its version
// and what the finalizer guard reads. The rest is not needed, and an annotation such as
// kubectl.kubernetes.io/last-applied-configuration holds a copy of the Secret's data.
func StripSecretMetadata(obj any) (any, error) {
	m, ok := obj.(*metav1.PartialObjectMetadata)
	if !ok {
		// A tombstone or anything else passes through unchanged.
		return obj, nil
	}
	return &metav1.PartialObjectMetadata{
		TypeMeta: m.TypeMeta,
		ObjectMeta: metav1.ObjectMeta{
			Name: m.Name, Namespace: m.Namespace, UID: m.UID, ResourceVersion: m.ResourceVersion,
			Finalizers: m.Finalizers, DeletionTimestamp: m.DeletionTimestamp,
		},
	}, nil
}

// Grantee returns how a RoleBinding names the identity kube authenticates as, asking the
// apiserver who that is (a SelfSubjectReview, which every authenticated user may make).
func Grantee(ctx context.Context, kube kubernetes.Interface) string {
	review, err := kube.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
	if err != nil {
		return "--serviceaccount <namespace>:<ServiceAccount of the controller>"
	}
	user := review.Status.UserInfo.Username
	if sa, ok := strings.CutPrefix(user, "system:serviceaccount:"); ok {
		return "--serviceaccount " + sa
	}
	return "--user " + user
}
