package scope

import (
	"fmt"
	"testing"
	"unsafe"

	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// decoded returns a Network whose strings are each of their own, as a decoder makes them.
func decoded(name string) *samplecrdv1.Network {
	own := func(s string) string { return string([]byte(s)) }
	now := metav1.Now()
	dhcp := true
	return &samplecrdv1.Network{
		TypeMeta: metav1.TypeMeta{APIVersion: own("samplecrd.k8s.io/v1"), Kind: own("Network")},
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: own("team"), UID: types.UID("uid-" + name), ResourceVersion: "42", Generation: 3,
			Finalizers: []string{own(samplecrdv1.FinalizerName)}, DeletionTimestamp: &now,
			Labels:      map[string]string{"app": "x"},
			Annotations: map[string]string{"kubectl.kubernetes.io/last-applied-configuration": `{"spec":{}}`},
			ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubectl", Operation: metav1.ManagedFieldsOperationApply,
				FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:spec":{"f:cidr":{}}}`)}}},
		},
		Spec: samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: "10.0.0.0/24", EnableDHCP: &dhcp}},
		Status: samplecrdv1.NetworkStatus{NetworkID: own("n-" + name), SubnetID: own("s-" + name), ObservedGeneration: 3,
			Conditions: []metav1.Condition{{Type: own(samplecrdv1.ConditionReady), Status: metav1.ConditionStatus(own("True")),
				Reason: own("Provisioned"), Message: fmt.Sprintf("Neutron network n-%s with subnet s-%s (10.0.0.0/24)", name, name)}}},
	}
}

func TestCacheTrimKeepsWhatTheControllerReads(t *testing.T) {
	in := decoded("net")
	want := in.DeepCopy()
	want.ManagedFields, want.Annotations = nil, nil

	out, err := NewCacheTrim().Transform(in)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := out.(*samplecrdv1.Network)
	if !ok {
		t.Fatalf("transform returned %T", out)
	}
	if !equality.Semantic.DeepEqual(got, want) {
		t.Errorf("transform changed more than managedFields and annotations:\ngot  %+v\nwant %+v", got, want)
	}
}

// Strings repeated by many Networks point at one copy; the IDs point into the message.
func TestCacheTrimSharesRepeatedStrings(t *testing.T) {
	trim := NewCacheTrim()
	a, _ := trim.Transform(decoded("a"))
	b, _ := trim.Transform(decoded("b"))
	na, nb := a.(*samplecrdv1.Network), b.(*samplecrdv1.Network)
	same := func(what, x, y string) {
		t.Helper()
		if x != y || unsafe.StringData(x) != unsafe.StringData(y) {
			t.Errorf("%s: %q and %q are two copies, want one", what, x, y)
		}
	}
	same("namespace", na.Namespace, nb.Namespace)
	same("apiVersion", na.APIVersion, nb.APIVersion)
	same("kind", na.Kind, nb.Kind)
	same("finalizer", na.Finalizers[0], samplecrdv1.FinalizerName)
	ca, cb := na.Status.Conditions[0], nb.Status.Conditions[0]
	same("condition type", ca.Type, cb.Type)
	same("condition status", string(ca.Status), string(cb.Status))
	same("condition reason", ca.Reason, cb.Reason)
	for _, id := range []string{na.Status.NetworkID, na.Status.SubnetID} {
		start := uintptr(unsafe.Pointer(unsafe.StringData(ca.Message)))
		at := uintptr(unsafe.Pointer(unsafe.StringData(id)))
		if at < start || at >= start+uintptr(len(ca.Message)) {
			t.Errorf("status ID %q has a copy of its own, want it to point into the Ready message %q", id, ca.Message)
		}
	}
	if na.Status.NetworkID != "n-a" || na.Status.SubnetID != "s-a" {
		t.Errorf("status IDs = %q, %q; want n-a, s-a", na.Status.NetworkID, na.Status.SubnetID)
	}
}

// What authors write fills the shared copies only up to a bound.
func TestCacheTrimSharesBoundedCopies(t *testing.T) {
	trim := NewCacheTrim()
	for i := range commonMax + 100 {
		n := decoded("x")
		n.Namespace = fmt.Sprintf("ns-%d", i)
		n.Status.Conditions[0].Reason = string(make([]byte, commonLongest+1))
		if _, err := trim.Transform(n); err != nil {
			t.Fatal(err)
		}
	}
	if len(trim.common) > commonMax {
		t.Errorf("%d shared strings, want at most %d", len(trim.common), commonMax)
	}
}

// The pause annotation is read, so it stays, alone.
func TestCacheTrimKeepsThePause(t *testing.T) {
	in := &samplecrdv1.Network{ObjectMeta: metav1.ObjectMeta{Name: "net", Annotations: map[string]string{
		samplecrdv1.AnnotationReconcile: "paused", "kubectl.kubernetes.io/last-applied-configuration": `{"spec":{}}`}}}
	out, err := NewCacheTrim().Transform(in)
	if err != nil {
		t.Fatal(err)
	}
	if got := out.(*samplecrdv1.Network).Annotations; len(got) != 1 || got[samplecrdv1.AnnotationReconcile] != "paused" {
		t.Errorf("annotations = %v, want only %s=paused", got, samplecrdv1.AnnotationReconcile)
	}
}

func TestCacheTrimKeepsThePinnedProjectUntilStatusNamesIt(t *testing.T) {
	annotations := func() map[string]string {
		return map[string]string{samplecrdv1.AnnotationProject: "project-a", "kubectl.kubernetes.io/last-applied-configuration": `{"spec":{}}`}
	}
	fresh := &samplecrdv1.Network{ObjectMeta: metav1.ObjectMeta{Name: "n", Annotations: annotations()}}
	out, err := NewCacheTrim().Transform(fresh)
	if err != nil {
		t.Fatal(err)
	}
	if got := out.(*samplecrdv1.Network).Annotations; len(got) != 1 || got[samplecrdv1.AnnotationProject] != "project-a" {
		t.Errorf("annotations before status names the project = %v, want only %s=project-a", got, samplecrdv1.AnnotationProject)
	}
	recorded := &samplecrdv1.Network{ObjectMeta: metav1.ObjectMeta{Name: "n", Annotations: annotations()}}
	recorded.Status.ProjectID = "project-a"
	if out, err = NewCacheTrim().Transform(recorded); err != nil {
		t.Fatal(err)
	}
	if got := out.(*samplecrdv1.Network).Annotations; len(got) != 0 {
		t.Errorf("annotations once status names the project = %v, want none", got)
	}
}

func TestCacheTrimPassesOtherObjectsThrough(t *testing.T) {
	tombstone := cache.DeletedFinalStateUnknown{Key: "team/net", Obj: &samplecrdv1.Network{}}
	out, err := NewCacheTrim().Transform(tombstone)
	if err != nil || out != any(tombstone) {
		t.Errorf("transform(tombstone) = %v, %v; want it unchanged", out, err)
	}
}
