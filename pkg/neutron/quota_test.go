package neutron

import (
	"slices"
	"strings"
	"testing"
)

func TestOverQuotaResourcesReadsNeutronsList(t *testing.T) {
	for _, tc := range []struct {
		message string
		want    []string
	}{
		{"Quota exceeded for resources: ['network'].", []string{"network"}},
		{"Quota exceeded for resources: ['network', 'subnet'].", []string{"network", "subnet"}},
		{"Quota exceeded for resources: ['rbac_policy'].", []string{"rbac_policy"}},
		{"Quota exceeded.", nil},
		// Only plain names, at most ten: nothing else of the message reaches a status.
		{"Quota exceeded for resources: ['net work', 'x\"); drop', 'Router'].", nil},
		{"Quota exceeded for resources: [" + strings.Repeat("'a',", 20) + "'b'].", slices.Repeat([]string{"a"}, 10)},
	} {
		if got := OverQuotaResources(tc.message); !slices.Equal(got, tc.want) {
			t.Errorf("OverQuotaResources(%q) = %q, want %q", tc.message, got, tc.want)
		}
	}
}
