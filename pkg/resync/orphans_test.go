package resync

import "testing"

func TestOrphanLimit(t *testing.T) {
	for _, tc := range []struct{ held, want int }{{0, 10}, {50, 10}, {100, 10}, {150, 15}, {1000, 100}} {
		if got := orphanLimit(tc.held); got != tc.want {
			t.Errorf("orphanLimit(%d) = %d, want %d", tc.held, got, tc.want)
		}
	}
}
