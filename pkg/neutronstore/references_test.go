package neutronstore_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutron/fake"
)

var testPolicies = neutron.Collection{Path: "qos/policies", Key: "policies", Noun: "QoS policy"}

// What an attribute names resolves to the one resource the project can see, its own over
// one shared in under the same name; none, another project's not shared, or several, is a
// ReferenceError; an answer is kept until forgotten.
func TestReferencesResolveToWhatTheProjectSees(t *testing.T) {
	ctx := context.Background()
	d := fake.New()
	d.PutNamed(testPolicies, neutron.Named{ID: "q-ours", Name: "gold", ProjectID: ourProject}, false)
	d.PutNamed(testPolicies, neutron.Named{ID: "q-bait", Name: "gold", ProjectID: otherProject}, true)
	d.PutNamed(testPolicies, neutron.Named{ID: "q-shared", Name: "silver", ProjectID: otherProject}, true)
	d.PutNamed(testPolicies, neutron.Named{ID: "q-private", Name: "bronze", ProjectID: otherProject}, false)
	d.PutNamed(testPolicies, neutron.Named{ID: "q-twin-a", Name: "lead", ProjectID: otherProject}, true)
	d.PutNamed(testPolicies, neutron.Named{ID: "q-twin-b", Name: "lead", ProjectID: "p-third"}, true)
	s := newProjectStore(t, d)
	for _, tc := range []struct {
		ref   neutron.Ref
		want  string
		found int
	}{
		{neutron.Ref{Name: "gold"}, "q-ours", 1},
		{neutron.Ref{Name: "silver"}, "q-shared", 1},
		{neutron.Ref{ID: "q-shared"}, "q-shared", 1},
		{neutron.Ref{Name: "bronze"}, "", 0},
		{neutron.Ref{ID: "q-private"}, "", 0},
		{neutron.Ref{Name: "lead"}, "", 2},
	} {
		id, err := s.Resolve(ctx, testPolicies, tc.ref)
		var re *neutron.ReferenceError
		if tc.want != "" && (err != nil || id != tc.want) {
			t.Errorf("Resolve(%v) = %q, %v; want %s", tc.ref, id, err, tc.want)
		}
		if tc.want == "" && (!errors.As(err, &re) || re.Found != tc.found) {
			t.Errorf("Resolve(%v) = %q, %v; want a ReferenceError finding %d", tc.ref, id, err, tc.found)
		}
	}

	d.ClearCalls()
	if id, err := s.Resolve(ctx, testPolicies, neutron.Ref{Name: "gold"}); err != nil || id != "q-ours" || len(d.Calls()) != 0 {
		t.Errorf("a second Resolve = %q, %v with calls %q; want q-ours from memory", id, err, d.Calls())
	}
	s.Forget(testPolicies, neutron.Ref{Name: "gold"})
	if _, ok := s.CachedResolve(testPolicies, neutron.Ref{Name: "gold"}); ok {
		t.Error("CachedResolve answers what was forgotten")
	}
	if _, err := s.Resolve(ctx, testPolicies, neutron.Ref{Name: "gold"}); err != nil || !slices.Equal(d.Calls(), []string{"list qos/policies"}) {
		t.Errorf("Resolve after Forget: %v with calls %q; want one lookup", err, d.Calls())
	}
}
