package neutronstore

import (
	"context"
	"reflect"
	"testing"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// What a Neutron may answer a list by ID or name with, beyond the exact matches: a name
// in other capitals (a database that compares names without case), another project's
// resource (a project filter left out), an ID in other capitals.
func TestListByRefAsksOnceAndKeepsOnlyExactMatches(t *testing.T) {
	answer := []neutron.Named{
		{ID: "a1", Name: "web", ProjectID: "p1"},
		{ID: "b2", Name: "Web", ProjectID: "p1"},
		{ID: "c3", Name: "web", ProjectID: "p2"},
	}
	for _, tc := range []struct {
		name       string
		q          refQuery
		wantFilter neutron.Filter
		want       []string
	}{
		{name: "by name", q: refQuery{ref: neutron.Ref{Name: "web"}},
			wantFilter: neutron.Filter{Name: "web"}, want: []string{"a1", "c3"}},
		{name: "by name in a project", q: refQuery{ref: neutron.Ref{Name: "web"}, scope: neutron.Filter{ProjectID: "p1"}},
			wantFilter: neutron.Filter{Name: "web", ProjectID: "p1"}, want: []string{"a1"}},
		{name: "by id", q: refQuery{ref: neutron.Ref{ID: "b2"}, scope: neutron.Filter{External: true}},
			wantFilter: neutron.Filter{IDs: []string{"b2"}, External: true}, want: []string{"b2"}},
		{name: "by id in other capitals", q: refQuery{ref: neutron.Ref{ID: "B2"}},
			wantFilter: neutron.Filter{IDs: []string{"B2"}}, want: nil},
		{name: "by id in other capitals, any case", q: refQuery{ref: neutron.Ref{ID: "B2"}, anyCaseID: true},
			wantFilter: neutron.Filter{IDs: []string{"B2"}}, want: []string{"b2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var filters []neutron.Filter
			list := func(_ context.Context, f neutron.Filter) ([]neutron.Named, error) {
				filters = append(filters, f)
				return append([]neutron.Named(nil), answer...), nil
			}
			found, err := listByRef(context.Background(), list, tc.q)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(filters, []neutron.Filter{tc.wantFilter}) {
				t.Errorf("asked %+v, want one list with %+v", filters, tc.wantFilter)
			}
			var ids []string
			for _, n := range found {
				ids = append(ids, n.ID)
			}
			if !reflect.DeepEqual(ids, tc.want) {
				t.Errorf("found %v, want %v", ids, tc.want)
			}
		})
	}
}
