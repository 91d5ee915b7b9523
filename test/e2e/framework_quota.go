//go:build e2e

package e2e

import (
	"net/http"
	"testing"
)

// RaiseQuota sets project's Neutron quota of resource (e.g. "rbac_policy") to at least
// limit through the admin endpoint, and puts the old limit back at the end of the test.
// The local cloud leaves some quotas at Neutron's defaults: rbac_policy is 10 per project.
// Only a test that holds the cluster alone may change a quota the others share.
func RaiseQuota(t testing.TB, project, resource string, limit int) {
	t.Helper()
	var doc struct {
		Quota map[string]int `json:"quota"`
	}
	MustNeutron(t, http.MethodGet, "v2.0/quotas/"+project, nil, &doc, http.StatusOK)
	old, ok := doc.Quota[resource]
	if !ok {
		t.Fatalf("Neutron has no quota %q for project %s: %v", resource, project, doc.Quota)
	}
	if old < 0 || old >= limit {
		return
	}
	MustNeutron(t, http.MethodPut, "v2.0/quotas/"+project, map[string]any{"quota": map[string]int{resource: limit}}, nil, http.StatusOK)
	t.Logf("raised project %s's quota of %s from %d to %d for this test", project, resource, old, limit)
	t.Cleanup(func() {
		code, body, err := neutronDo(http.MethodPut, "v2.0/quotas/"+project, map[string]any{"quota": map[string]int{resource: old}})
		if err != nil || code != http.StatusOK {
			t.Errorf("putting project %s's quota of %s back to %d: %d %v %s", project, resource, old, code, err, body)
		}
	})
}
