package docs

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The table of "The path of one Network" in docs/design.md is measured and written by
// hack/path-of-one-network.sh --write between these two lines; the tree moves on without
// it, so these tests check that what it names is still there.
const (
	pathSection    = "The path of one Network"
	pathBeginMark  = "<!-- path-of-one-network:begin -->"
	pathEndMark    = "<!-- path-of-one-network:end -->"
	pathRootColumn = "root"
)

var (
	pathCountsRe    = regexp.MustCompile(`\b(\d+) files of (\d+) packages\b`)
	pathReconcileRe = regexp.MustCompile("the (\\d+) files of `pkg/reconcile`; the (\\d+) others")
	pathDateRe      = regexp.MustCompile(`measured on \d{4}-\d{2}-\d{2}\b`)
)

// pathTableProblems checks the marked part of the section pathSection of src (a design.md)
// against the files of root: the table "| package | files |" names existing, hand-written
// Go files (no test, vendor/, pkg/client/ or zz_generated* file), each in the package of
// its row ("root" for the repository's top folder), each once; and the counts of the
// prose ("N files of M packages", "the K files of `pkg/reconcile`; the L others") are the
// table's.
func pathTableProblems(src, root string) []string {
	lines, first, ok := section(src, pathSection)
	if !ok {
		return []string{fmt.Sprintf("no section %q", pathSection)}
	}
	begin, end := -1, -1
	for i, l := range lines {
		switch strings.TrimSpace(l) {
		case pathBeginMark:
			begin = i
		case pathEndMark:
			end = i
		}
	}
	if begin < 0 || end < begin {
		return []string{fmt.Sprintf("section %q has no %s ... %s", pathSection, pathBeginMark, pathEndMark)}
	}
	marked := lines[begin+1 : end]
	at := func(line int) string { return fmt.Sprintf("line %d", line) }

	var problems []string
	tbs := tables(marked, first+begin+1)
	if len(tbs) != 1 {
		return []string{fmt.Sprintf("%s: %d tables between the markers, want 1", at(first+begin), len(tbs))}
	}
	tb := tbs[0]
	if strings.Join(tb.header, "|") != "package|files" {
		problems = append(problems, fmt.Sprintf("%s: header %q, want | package | files |", at(tb.line), tb.header))
	}
	seenFile, seenPackage := map[string]bool{}, map[string]bool{}
	files, reconcileFiles := 0, 0
	for _, row := range tb.rows {
		if len(row.cells) != 2 {
			problems = append(problems, fmt.Sprintf("%s: %d cells, want 2", at(row.line), len(row.cells)))
			continue
		}
		dir := "."
		if row.cells[0] != pathRootColumn {
			spans := codeSpans(row.cells[0])
			if len(spans) != 1 || "`"+spans[0]+"`" != row.cells[0] {
				problems = append(problems, fmt.Sprintf("%s: package %q is neither %s nor one `dir`", at(row.line), row.cells[0], pathRootColumn))
				continue
			}
			dir = spans[0]
		}
		if seenPackage[dir] {
			problems = append(problems, fmt.Sprintf("%s: package %s has a second row", at(row.line), dir))
		}
		seenPackage[dir] = true
		names := codeSpans(row.cells[1])
		if len(names) == 0 {
			problems = append(problems, fmt.Sprintf("%s: no file", at(row.line)))
		}
		for _, name := range names {
			files++
			if dir == "pkg/reconcile" {
				reconcileFiles++
			}
			if p := pathFileProblem(root, dir, name); p != "" {
				problems = append(problems, fmt.Sprintf("%s: %s", at(row.line), p))
			}
			if seenFile[name] {
				problems = append(problems, fmt.Sprintf("%s: %s is listed twice", at(row.line), name))
			}
			seenFile[name] = true
		}
	}

	var prose []string
	for i, l := range marked {
		if line := first + begin + 1 + i; line < tb.line || line > tb.line+1+len(tb.rows) {
			prose = append(prose, strings.TrimSpace(l))
		}
	}
	text := strings.Join(prose, " ")
	switch counts := pathCountsRe.FindAllStringSubmatch(text, -1); {
	case len(counts) != 1:
		problems = append(problems, fmt.Sprintf("%d sentences \"N files of M packages\" between the markers, want 1", len(counts)))
	case atoi(counts[0][1]) != files || atoi(counts[0][2]) != len(tb.rows):
		problems = append(problems, fmt.Sprintf("the prose says %s, the table has %d files of %d packages", counts[0][0], files, len(tb.rows)))
	}
	if m := pathReconcileRe.FindStringSubmatch(text); m != nil && (atoi(m[1]) != reconcileFiles || atoi(m[2]) != files-reconcileFiles) {
		problems = append(problems, fmt.Sprintf("the prose says %q, the table has %d files of pkg/reconcile and %d others", m[0], reconcileFiles, files-reconcileFiles))
	}
	if !pathDateRe.MatchString(text) {
		problems = append(problems, "no \"measured on YYYY-MM-DD\" between the markers")
	}
	return problems
}

// pathFileProblem says what is wrong with name, listed in the row of package dir, or "".
func pathFileProblem(root, dir, name string) string {
	switch {
	case path.Clean(name) != name || strings.HasPrefix(name, "/") || strings.HasPrefix(name, "../"):
		return fmt.Sprintf("%s is not a clean path from the repository's top folder", name)
	case !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go"):
		return fmt.Sprintf("%s is not a Go file of the build", name)
	case strings.HasPrefix(name, "vendor/") || strings.HasPrefix(name, "pkg/client/") || strings.HasPrefix(path.Base(name), "zz_generated"):
		return fmt.Sprintf("%s is vendored or generated code, which the table leaves out", name)
	case path.Dir(name) != dir:
		return fmt.Sprintf("%s is not in the row's package %s", name, dir)
	}
	info, err := os.Stat(filepath.Join(root, filepath.FromSlash(name)))
	switch {
	case err != nil:
		return fmt.Sprintf("%s: no such file (moved or deleted? hack/path-of-one-network.sh --write measures the table again)", name)
	case !info.Mode().IsRegular():
		return fmt.Sprintf("%s is not a file", name)
	}
	return ""
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return -1
	}
	return n
}

// TestPathOfOneNetworkTable checks the table of docs/design.md against the tree.
func TestPathOfOneNetworkTable(t *testing.T) {
	for _, p := range pathTableProblems(readRepoFile(t, "docs/design.md"), repoRoot) {
		t.Errorf("docs/design.md, %q: %s", pathSection, p)
	}
}

// TestPathOfOneNetworkTableFindsProblems runs the check on a made-up repository whose
// table is wrong in every way it knows.
func TestPathOfOneNetworkTableFindsProblems(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{"main.go", "pkg/a/a.go", "pkg/a/b.go", "pkg/reconcile/pass.go", "pkg/client/c.go", "pkg/a/zz_generated.deepcopy.go"} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("package x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	doc := func(counts string, rows ...string) string {
		return "# Design\n\n### " + pathSection + "\n\nSteps.\n\n" + pathBeginMark + "\n" +
			"Every file, measured on 2026-12-01, is in " + counts + ":\n\n| package | files |\n|---|---|\n" +
			strings.Join(rows, "\n") + "\n\nThe logic of a Network lives in the 1 files of `pkg/reconcile`; the 3 others are the rest.\n" +
			pathEndMark + "\n\n### Next\n"
	}
	good := []string{
		"| root | `main.go` |",
		"| `pkg/a` | `pkg/a/a.go`, `pkg/a/b.go` |",
		"| `pkg/reconcile` | `pkg/reconcile/pass.go` |",
	}
	if got := pathTableProblems(doc("4 files of 3 packages", good...), root); len(got) != 0 {
		t.Errorf("a right table: %q", got)
	}
	if err := os.Rename(filepath.Join(root, "pkg/a/b.go"), filepath.Join(root, "pkg/a/moved.go")); err != nil {
		t.Fatal(err)
	}
	got := pathTableProblems(doc("4 files of 3 packages", good...), root)
	if len(got) != 1 || !strings.Contains(got[0], "pkg/a/b.go: no such file") {
		t.Errorf("a moved file: %q", got)
	}
	for _, c := range []struct {
		counts string
		rows   []string
		want   string
	}{
		{"5 files of 3 packages", good, "the prose says 5 files of 3 packages, the table has 4 files of 3 packages"},
		{"4 files of 3 packages", []string{good[0], "| `pkg/a` | `pkg/a/a.go`, `main.go` |", good[2]}, "main.go is not in the row's package pkg/a"},
		{"4 files of 3 packages", []string{good[0], "| `pkg/a` | `pkg/a/a.go`, `pkg/a/zz_generated.deepcopy.go` |", good[2]}, "is vendored or generated code"},
		{"4 files of 3 packages", []string{"| root | `main.go`, `pkg/client/c.go` |", "| `pkg/a` | `pkg/a/a.go` |", good[2]}, "pkg/client/c.go is vendored or generated code"},
		{"4 files of 3 packages", []string{good[0], "| `pkg/a` | `pkg/a/a.go`, `pkg/a/a_test.go` |", good[2]}, "is not a Go file of the build"},
		{"4 files of 3 packages", []string{good[0], "| `pkg/a` | `pkg/a/a.go`, `pkg/a/a.go` |", good[2]}, "pkg/a/a.go is listed twice"},
		{"3 files of 2 packages", []string{"| root | `main.go` |", "| `pkg/a` | `pkg/a/a.go`, `pkg/reconcile/pass.go` |"}, "the table has 0 files of pkg/reconcile and 3 others"},
	} {
		got := pathTableProblems(doc(c.counts, c.rows...), root)
		if !strings.Contains(strings.Join(got, "\n"), c.want) {
			t.Errorf("rows %q, %s: got %q, want a problem with %q", c.rows, c.counts, got, c.want)
		}
	}
	if got := pathTableProblems(strings.ReplaceAll(doc("4 files of 3 packages", good...), pathEndMark, ""), root); len(got) != 1 || !strings.Contains(got[0], "has no") {
		t.Errorf("no end marker: %q", got)
	}
}
