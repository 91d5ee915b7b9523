package scope

import (
	"slices"
	"strings"
	"testing"
)

func TestNamespacesFlag(t *testing.T) {
	var n Namespaces
	if !n.All() || !n.Contains("anything") || n.String() != "all" {
		t.Fatalf("no -namespace: All %v, Contains %v, String %q; want every namespace", n.All(), n.Contains("anything"), n.String())
	}
	for _, v := range []string{"team-a", "team-b, team-c", "team-a"} {
		if err := n.Set(v); err != nil {
			t.Fatalf("Set(%q): %v", v, err)
		}
	}
	if want := (Namespaces{"team-a", "team-b", "team-c"}); !slices.Equal(n, want) {
		t.Errorf("namespaces = %q, want %q (repeated flag and lists, no duplicates)", n, want)
	}
	if n.All() || !n.Contains("team-b") || n.Contains("team-d") {
		t.Errorf("All %v, Contains(team-b) %v, Contains(team-d) %v", n.All(), n.Contains("team-b"), n.Contains("team-d"))
	}
	for _, bad := range []string{"", "Team_A", "a,,b"} {
		var m Namespaces
		if err := m.Set(bad); err == nil || !strings.Contains(err.Error(), "is not a namespace name") {
			t.Errorf("Set(%q) = %v, want an error naming the bad value", bad, err)
		}
	}
}
