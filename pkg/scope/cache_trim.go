package scope

import (
	"strings"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// CacheTrim is the Network informers' transform. The cache holds every watched Network
// for as long as the process runs, so before an object is stored it keeps only what the
// controller reads, and points the strings that many Networks repeat at one copy.
//
// What it removes: managedFields (about half of a small object) and every annotation but
// samplecrdv1.AnnotationReconcile and, until status.projectID is written,
// samplecrdv1.AnnotationProject (kubectl's last-applied-configuration alone is about as
// long as the spec). The controller writes Networks only by a patch of their finalizers
// and through the status subresource, which keep the stored object's metadata as it is,
// so what the cache leaves out stays in the API.
//
// What it shares, without changing a value: the namespace, the type meta, the
// controller's finalizers and its conditions' type, status and reason, which are the same
// in many Networks; and the status's network and subnet IDs, which the Ready message
// names, point into the message. Values are compared whole, never parsed.
//
// CacheTrim is safe for concurrent use; one serves every informer.
type CacheTrim struct {
	mu sync.Mutex
	// common holds one copy of each repeated string seen, up to commonMax of at most
	// commonLongest bytes: bounded, whatever the Networks' authors write.
	common map[string]string
}

const (
	commonMax     = 4096
	commonLongest = 128
)

// readAnnotations returns the annotations the controller reads of network: the pause,
// and the project its finalizer pinned while status.projectID does not name it yet.
func readAnnotations(network *samplecrdv1.Network) map[string]string {
	var kept map[string]string
	for _, key := range []string{samplecrdv1.AnnotationReconcile, samplecrdv1.AnnotationProject} {
		value, ok := network.Annotations[key]
		if !ok || (key == samplecrdv1.AnnotationProject && network.Status.ProjectID != "") {
			continue
		}
		if kept == nil {
			kept = map[string]string{}
		}
		kept[key] = value
	}
	if len(kept) == len(network.Annotations) {
		return network.Annotations
	}
	return kept
}

// NewCacheTrim returns a transform that shares the controller's own words from the start.
func NewCacheTrim() *CacheTrim {
	t := &CacheTrim{common: map[string]string{}}
	for _, s := range []string{samplecrdv1.FinalizerName, samplecrdv1.CredentialsFinalizerName, samplecrdv1.ConditionReady,
		string(metav1.ConditionTrue), string(metav1.ConditionFalse), string(metav1.ConditionUnknown), samplecrdv1.SchemeGroupVersion.String(), "Network"} {
		t.common[s] = s
	}
	return t
}

// Transform trims obj, a freshly decoded object that the informer owns and no one else
// holds yet; anything but a *Network (a tombstone) passes through unchanged.
func (t *CacheTrim) Transform(obj any) (any, error) {
	network, ok := obj.(*samplecrdv1.Network)
	if !ok {
		return obj, nil
	}
	network.ManagedFields = nil
	network.Annotations = readAnnotations(network)

	t.mu.Lock()
	defer t.mu.Unlock()
	network.Namespace = t.shared(network.Namespace)
	network.APIVersion, network.Kind = t.shared(network.APIVersion), t.shared(network.Kind)
	for i, f := range network.Finalizers {
		network.Finalizers[i] = t.shared(f)
	}
	status := &network.Status
	for i := range status.Conditions {
		c := &status.Conditions[i]
		c.Type, c.Reason = t.shared(c.Type), t.shared(c.Reason)
		c.Status = metav1.ConditionStatus(t.shared(string(c.Status)))
		if c.Type == samplecrdv1.ConditionReady {
			status.NetworkID = within(c.Message, status.NetworkID)
			status.SubnetID = within(c.Message, status.SubnetID)
		}
	}
	return network, nil
}

// shared returns the one copy of s, keeping s as that copy while there is room.
func (t *CacheTrim) shared(s string) string {
	if s == "" || len(s) > commonLongest {
		return s
	}
	if c, ok := t.common[s]; ok {
		return c
	}
	if len(t.common) < commonMax {
		t.common[s] = s
	}
	return s
}

// within returns s as the part of text equal to it, if text has one, so that s takes no
// memory of its own.
func within(text, s string) string {
	if s == "" {
		return s
	}
	if i := strings.Index(text, s); i >= 0 {
		return text[i : i+len(s)]
	}
	return s
}
