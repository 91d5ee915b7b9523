//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/samplecrd/network-controller/pkg/credentials/lockout"
)

// The lockout gate counts a user ID or name only in printable ASCII, as one user exactly
// when two spellings are equal in lower case. This holds the rule against Keystone's own
// database: for the collations of its user ID and name columns, and every collation
// MariaDB may give them by default, two printable ASCII characters (between letters, so
// that trailing spaces count) compare equal exactly when their lower cases are equal; and
// spellings outside ASCII that these collations take for the user are refused by the gate.
func TestASCIISpellingsCompareAsTheDatabaseDoes(t *testing.T) {
	t.Parallel()
	LocalKeystone(t) // the local Keystone and its database are up
	cnf := filepath.Join(RepoRoot, "_output", "local", "neutron", "my.cnf")
	if dir := os.Getenv("NEUTRON_STATE_DIR"); dir != "" {
		cnf = filepath.Join(dir, "my.cnf")
	}
	try := func(query string) (string, error) {
		out, err := exec.Command("mariadb", "--defaults-file="+cnf, "-N", "-B", "keystone", "-e", query).CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("mariadb -e %q: %w\n%s", query, err, out)
		}
		return strings.TrimSpace(string(out)), nil
	}
	sql := func(query string) string {
		t.Helper()
		out, err := try(query)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	collations := []string{}
	for _, column := range []string{"user.id", "local_user.name", "local_user.user_id"} {
		table, col, _ := strings.Cut(column, ".")
		c := sql(fmt.Sprintf("SELECT COLLATION_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA='keystone' AND TABLE_NAME='%s' AND COLUMN_NAME='%s'", table, col))
		t.Logf("Keystone's %s is compared under %s", column, c)
		collations = append(collations, c)
	}
	// A collation the server has. Not looked up in information_schema.COLLATIONS: MariaDB
	// 11 lists its UCA 14.0 collations there without their character set's prefix.
	for _, c := range []string{"utf8mb3_general_ci", "utf8mb4_general_ci", "utf8mb4_unicode_ci", "utf8mb4_unicode_520_ci", "utf8mb4_uca1400_ai_ci", "utf8mb3_uca1400_ai_ci"} {
		charset, _, _ := strings.Cut(c, "_")
		if _, err := try(fmt.Sprintf("SELECT CONVERT('a' USING %s) COLLATE %s", charset, c)); err == nil {
			collations = append(collations, c)
		}
	}
	slices.Sort(collations)
	collations = slices.Compact(collations)
	for _, coll := range collations {
		// A collation's name starts with its character set's (utf8mb3_uca1400_ai_ci).
		charset, _, _ := strings.Cut(coll, "_")
		var values []string
		for c := 0x20; c <= 0x7e; c++ {
			values = append(values, fmt.Sprintf("(%d, CONCAT('a', CHAR(%d USING %s), 'a'))", c, c, charset))
		}
		pairs := sql(fmt.Sprintf("CREATE TEMPORARY TABLE spellings (i INT, s VARCHAR(8) CHARACTER SET %s COLLATE %s); INSERT INTO spellings VALUES %s; "+
			"SELECT a.i, b.i FROM spellings a JOIN spellings b ON a.s = b.s AND a.i < b.i ORDER BY a.i",
			charset, coll, strings.Join(values, ", ")))
		var equal []string
		for _, line := range strings.Split(pairs, "\n") {
			if line != "" {
				equal = append(equal, line)
			}
		}
		var want []string
		for c := 'A'; c <= 'Z'; c++ {
			want = append(want, fmt.Sprintf("%d\t%d", c, c+32))
		}
		if !slices.Equal(equal, want) {
			t.Errorf("%s compares these printable ASCII characters equal: %q, want only the 26 letters with their capitals", coll, equal)
		}
		// What the gate refuses, the database may well take for the user.
		var taken []string
		for _, s := range []string{"álice", "alıce", "aliße", "alice   "} {
			if sql(fmt.Sprintf("SELECT CONVERT('%s' USING %s) COLLATE %s = CONVERT('alice' USING %s)", s, charset, coll, charset)) == "1" ||
				sql(fmt.Sprintf("SELECT CONVERT('%s' USING %s) COLLATE %s = CONVERT('alisse' USING %s)", s, charset, coll, charset)) == "1" {
				taken = append(taken, s)
			}
			if _, err := lockout.CanonicalName(s); err == nil {
				t.Errorf("the gate takes %q, a spelling outside printable ASCII", s)
			}
		}
		t.Logf("%s: only letters and their capitals compare equal among printable ASCII; it takes %q for alice or alisse, which the gate refuses", coll, taken)
	}
}
