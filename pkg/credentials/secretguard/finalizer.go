package secretguard

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// setCredentialsFinalizer adds (on) or removes (off) the controller's finalizer on a
// Secret, leaving every other finalizer as the cached copy shows it. The patch carries
// the cached resourceVersion as a precondition, so a list that changed meanwhile is
// answered with a conflict and read again instead of being overwritten; it carries
// nothing else, which is all deploy/'s ValidatingAdmissionPolicy lets the controller
// change.
func setCredentialsFinalizer(ctx context.Context, client typedcorev1.SecretsGetter, manager string, secret metav1.Object, on bool) error {
	finalizers := slices.DeleteFunc(slices.Clone(secret.GetFinalizers()), func(f string) bool {
		return f == samplecrdv1.CredentialsFinalizerName
	})
	if on {
		finalizers = append(finalizers, samplecrdv1.CredentialsFinalizerName)
	}
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{
		"resourceVersion": secret.GetResourceVersion(),
		"finalizers":      finalizers,
	}})
	if err != nil {
		return fmt.Errorf("encoding the finalizer patch of Secret %s/%s: %w", secret.GetNamespace(), secret.GetName(), err)
	}
	_, err = client.Secrets(secret.GetNamespace()).Patch(ctx, secret.GetName(), types.MergePatchType, patch,
		metav1.PatchOptions{FieldManager: manager})
	if err != nil {
		verb := "removing"
		if on {
			verb = "adding"
		}
		return fmt.Errorf("%s finalizer %s on Secret %s/%s: %w", verb, samplecrdv1.CredentialsFinalizerName, secret.GetNamespace(), secret.GetName(), err)
	}
	return nil
}
