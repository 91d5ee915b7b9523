package registry

import (
	"strings"
	"testing"
	"unicode"
)

// TestFoldToASCIIMatchesEqualFold checks foldToASCII against strings.EqualFold for every
// rune of the first planes and every ASCII character: the fold check must refuse exactly
// the keys a case-insensitive decoder would take for a known key.
func TestFoldToASCIIMatchesEqualFold(t *testing.T) {
	for r := rune(0); r < 0x20000; r++ {
		got, ok := foldToASCII(string(r))
		want, wantOK := "", false
		for c := rune(0); c <= unicode.MaxASCII; c++ {
			if strings.EqualFold(string(r), string(c)) {
				want, wantOK = string(unicode.ToLower(c)), true
				break
			}
		}
		if ok != wantOK || got != want {
			t.Errorf("foldToASCII(%U) = %q, %v; EqualFold says %q, %v", r, got, ok, want, wantOK)
		}
	}
}

func TestSchemaFoldsToTheKnownKey(t *testing.T) {
	for _, tt := range []struct {
		schema keySchema
		key    string
		want   string
	}{
		{authSchema, "AUTH_URL", "auth_url"},
		{authSchema, "auth_urL", "auth_url"},
		{authSchema, "to\u212aen", "token"},       // KELVIN SIGN folds to k
		{authSchema, "pa\u017fsword", "password"}, // LATIN SMALL LETTER LONG S folds to s
		{authSchema, "auth_url", ""},              // written exactly: known, not a fold
		{authSchema, "auth-url", ""},              // another key altogether
		{authSchema, "aut\u0127_url", ""},         // ħ folds to no h
		{cloudSchema, "\u212aey", "key"},          // a file key in another spelling
		{cloudSchema, "CACert", "cacert"},         //
		{cloudSchema, "Compute_API_Version", "compute_api_version"},
		{cloudSchema, "compute_api_version", ""},
		{topLevelSchema, "Clouds", "clouds"},
	} {
		if got := tt.schema.foldsTo(tt.key); got != tt.want {
			t.Errorf("foldsTo(%q) = %q, want %q", tt.key, got, tt.want)
		}
		if tt.want != "" && !strings.EqualFold(tt.key, tt.want) {
			t.Errorf("%q and %q are not EqualFold", tt.key, tt.want)
		}
	}
}

func TestAPIVersionKeysAreIgnored(t *testing.T) {
	for key, want := range map[string]bool{
		"identity_api_version": true, "compute_api_version": true, "block_storage_api_version": true,
		"_api_version": false, "api_version": false, "Compute_api_version": false, "compute-api_version": false,
	} {
		kind, ok := cloudSchema.lookup(key)
		if got := ok && kind == keyIgnored; got != want {
			t.Errorf("%s ignored: %v, want %v", key, got, want)
		}
	}
}
