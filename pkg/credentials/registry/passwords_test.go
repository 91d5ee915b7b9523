package registry

import (
	"strings"
	"testing"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// A password in a namespace's Secret is warned about (the default), refused before any
// token request, or used without a word, as the operator's rule says; an application
// credential is none of its business.
func TestPasswordsInTenantsSecretsFollowTheOperatorsRule(t *testing.T) {
	for _, tc := range []struct {
		rule        Passwords
		wantRefused bool
		wantWarning bool
	}{
		{"", false, true},
		{PasswordsWarn, false, true},
		{PasswordsRefuse, true, false},
		{PasswordsAllow, false, false},
	} {
		f := newRegistryFixture(t, nil)
		f.registry.policy.Passwords = tc.rule
		f.keystone.passwords["alice"] = "pw"
		f.secrets.put("team-a", "os", "1", cloudsYAMLFor("alice", "pw"))
		tenant, err := f.resolve("team-a", "n", "os")
		if tc.wantRefused {
			e := wantReason(t, err, samplecrdv1.ReasonPasswordCredentialsRefused)
			if !strings.Contains(e.Message, "v3applicationcredential") || strings.Contains(e.Message, "pw") {
				t.Errorf("%q: message %q, want the way out and no secret", tc.rule, e.Message)
			}
			if n := f.keystone.attemptsOf("alice"); n != 0 {
				t.Errorf("%q: %d token requests for a refused password, want none", tc.rule, n)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", tc.rule, err)
		}
		if got := tenant.PasswordWarning != ""; got != tc.wantWarning {
			t.Errorf("%q: warning %q, want one: %v", tc.rule, tenant.PasswordWarning, tc.wantWarning)
		}
	}
}

func TestParsePasswords(t *testing.T) {
	for _, s := range []string{"warn", "refuse", "allow"} {
		if p, err := ParsePasswords(s); err != nil || string(p) != s {
			t.Errorf("ParsePasswords(%q) = %q, %v", s, p, err)
		}
	}
	if _, err := ParsePasswords("Refuse"); err == nil {
		t.Error("ParsePasswords accepted a misspelt rule")
	}
}
