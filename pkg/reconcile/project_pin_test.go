package reconcile_test

import (
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	core "k8s.io/client-go/testing"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	. "github.com/samplecrd/network-controller/pkg/networktest"
)

// TestCreateCutBeforeItsStatusWriteKeepsItsProject: status.projectID is written at the end
// of the create's pass, so the finalizer's write pins the project before the first create.
// A pass whose status write fails leaves the network made and the project pinned; should
// the credentials then lead elsewhere, they are refused, as status.projectID would.
func TestCreateCutBeforeItsStatusWriteKeepsItsProject(t *testing.T) {
	network := NewNetwork("cut", "10.39.0.0/24", "")
	f := NewInProject(t, "project-own", network)
	f.StartLeading()
	f.Client.PrependReactor("update", "networks", func(a core.Action) (bool, runtime.Object, error) {
		if a.GetSubresource() != "status" {
			return false, nil, nil
		}
		return true, nil, apierrors.NewServiceUnavailable("the apiserver is going away")
	})
	if err := f.Sync(network); err == nil {
		t.Fatal("the sync whose status write failed returned nil")
	}
	got := f.Refresh("default", "cut")
	if got.Annotations[samplecrdv1.AnnotationProject] != "project-own" || got.Status.ProjectID != "" {
		t.Fatalf("after the cut pass: annotation %s=%q, status.projectID %q; want the project pinned by the annotation alone",
			samplecrdv1.AnnotationProject, got.Annotations[samplecrdv1.AnnotationProject], got.Status.ProjectID)
	}
	if n := len(f.Neutron.Networks()); n != 1 {
		t.Fatalf("Neutron holds %d networks after the cut pass, want the 1 it made", n)
	}

	// The same Network, pinned to another project than its credentials now reach.
	moved := f.Refresh("default", "cut").DeepCopy()
	moved.Annotations[samplecrdv1.AnnotationProject] = "project-before"
	g := NewInProject(t, "project-own", moved)
	g.StartLeading()
	err := g.Sync(moved)
	if err == nil {
		t.Fatal("credentials of another project than the pinned one were followed")
	}
	WantNotReady(samplecrdv1.ReasonCredentialsProjectChanged, "resources are in project project-before (annotation "+samplecrdv1.AnnotationProject+")")(t, g.Refresh("default", "cut"))
	if calls := g.Neutron.Calls(); len(calls) != 0 {
		t.Errorf("Neutron calls %q for credentials of another project, want none", calls)
	}
}
