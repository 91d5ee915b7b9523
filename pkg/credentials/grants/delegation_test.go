package grants

import (
	"errors"
	"slices"
	"testing"

	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// A delegating identity hands its Secret, its cloud and its own powers (no other
// identity's) to the namespaces it selects; every other namespace, and every name that
// is not such an identity, gets nothing.
func TestDelegationHandsTheIdentitysProjectToSelectedNamespacesOnly(t *testing.T) {
	team := map[string]string{"team": "a"}
	book, _, _, _ := startBook(t, nil, []*samplecrdv1.ClusterIdentity{
		identity("team-a-prod", team, true, samplecrdv1.IdentityAllow{Import: true}),
		identity("own-cloud", team, false, samplecrdv1.IdentityAllow{Retain: true}),
	}, namespace("a", team), namespace("b", map[string]string{"team": "b"}))

	d, err := book.Delegation("a", "team-a-prod")
	if err != nil {
		t.Fatal(err)
	}
	if d.Secret != cache.NewObjectName("ops", "creds") || d.Cloud != "prod" || !d.Powers.AllowsImport() || d.Powers.AllowsRetain() ||
		!slices.Equal(d.Powers.Identities, []string{"team-a-prod"}) {
		t.Errorf("delegation %+v: want Secret ops/creds, cloud prod, import allowed and nothing of own-cloud's", d)
	}
	for _, tc := range []struct {
		namespace, identity string
		want                error
	}{
		{"b", "team-a-prod", ErrNotSelected},
		{"a", "no-such-identity", ErrNotSelected},
		{"a", "own-cloud", ErrNotDelegating},
		{"b", "own-cloud", ErrNotSelected},
	} {
		if _, err := book.Delegation(tc.namespace, tc.identity); !errors.Is(err, tc.want) {
			t.Errorf("Delegation(%s, %s) = %v, want %v", tc.namespace, tc.identity, err, tc.want)
		}
	}
	if _, err := book.Delegation("not-cached-yet", "team-a-prod"); err == nil || errors.Is(err, ErrNotSelected) {
		t.Errorf("a namespace not in the cache gave %v, want an error to retry", err)
	}
	if got := book.DelegatesTo(cache.NewObjectName("ops", "creds")); !slices.Equal(got, []string{"team-a-prod"}) {
		t.Errorf("DelegatesTo(ops/creds) = %v, want [team-a-prod]", got)
	}
}
