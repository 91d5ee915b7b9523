package main

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

func TestDropUnreadFromCacheKeepsWhatTheControllerReads(t *testing.T) {
	now := metav1.Now()
	dhcp := true
	in := &samplecrdv1.Network{
		ObjectMeta: metav1.ObjectMeta{
			Name: "net", Namespace: "team", UID: "uid-1", ResourceVersion: "42", Generation: 3,
			Finalizers: []string{samplecrdv1.FinalizerName}, DeletionTimestamp: &now,
			Labels:      map[string]string{"app": "x"},
			Annotations: map[string]string{"kubectl.kubernetes.io/last-applied-configuration": `{"spec":{}}`},
			ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubectl", Operation: metav1.ManagedFieldsOperationApply,
				FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:spec":{"f:cidr":{}}}`)}}},
		},
		Spec: samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: "10.0.0.0/24", EnableDHCP: &dhcp}},
		Status: samplecrdv1.NetworkStatus{NetworkID: "n-1", ObservedGeneration: 3,
			Conditions: []metav1.Condition{{Type: samplecrdv1.ConditionReady, Status: metav1.ConditionTrue, Reason: "Created"}}},
	}
	want := in.DeepCopy()
	want.ManagedFields, want.Annotations = nil, nil

	out, err := dropUnreadFromCache(in)
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

// TestDropUnreadFromCacheKeepsThePause: the pause annotation is read, so it stays, alone.
func TestDropUnreadFromCacheKeepsThePause(t *testing.T) {
	in := &samplecrdv1.Network{ObjectMeta: metav1.ObjectMeta{Name: "net", Annotations: map[string]string{
		samplecrdv1.AnnotationReconcile: "paused", "kubectl.kubernetes.io/last-applied-configuration": `{"spec":{}}`}}}
	out, err := dropUnreadFromCache(in)
	if err != nil {
		t.Fatal(err)
	}
	if got := out.(*samplecrdv1.Network).Annotations; len(got) != 1 || got[samplecrdv1.AnnotationReconcile] != "paused" {
		t.Errorf("annotations = %v, want only %s=paused", got, samplecrdv1.AnnotationReconcile)
	}
}

func TestDropUnreadFromCachePassesOtherObjectsThrough(t *testing.T) {
	tombstone := cache.DeletedFinalStateUnknown{Key: "team/net", Obj: &samplecrdv1.Network{}}
	out, err := dropUnreadFromCache(tombstone)
	if err != nil || out != any(tombstone) {
		t.Errorf("transform(tombstone) = %v, %v; want it unchanged", out, err)
	}
}
