package v1

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A period admission would refuse (an object stored before the bound, or written past
// it) is held to the bounds: no Network is checked more than once a minute.
func TestDriftCheckPeriodIsHeldToItsBounds(t *testing.T) {
	for _, tc := range []struct {
		period *metav1.Duration
		want   time.Duration
	}{
		{nil, 5 * time.Minute},
		{&metav1.Duration{Duration: time.Second}, MinDriftCheckPeriod},
		{&metav1.Duration{Duration: -time.Hour}, MinDriftCheckPeriod},
		{&metav1.Duration{Duration: 10 * time.Minute}, 10 * time.Minute},
		{&metav1.Duration{Duration: 48 * time.Hour}, MaxDriftCheckPeriod},
	} {
		n := &Network{Spec: NetworkSpec{DriftCheck: &DriftCheck{Period: tc.period}}}
		if got := n.DriftCheckPeriod(5 * time.Minute); got != tc.want {
			t.Errorf("period %v: checked every %v, want %v", tc.period, got, tc.want)
		}
	}
	if got := (&Network{}).DriftPolicy(); got != DriftRepair {
		t.Errorf("policy without driftCheck = %q, want Repair", got)
	}
}
