// Package docs checks the links of the repository's documentation: every relative link of
// the tracked Markdown files (README.md, docs/, deploy/, test/; vendor/ and _output/ left
// out), every link of theirs to this repository on GitHub
// (https://github.com/<module>/blob/<branch>/<path>), and the same URLs in the alert rules
// and dashboard of deploy/monitoring, which is how their runbook URLs are written. The
// file or folder a link names must exist, and a #anchor into a Markdown file must be the
// anchor GitHub gives one of its headings. External links are not fetched.
//
// It also checks what the documentation prints against what the code prints: the
// columns of kubectl get against the CRDs of crd/ and README's listing against example/
// (columns_test.go, examples_test.go), the metrics table against the series the
// controller registers (metrics_test.go), and the flags table against the flags the
// binary defines (flags_test.go).
package docs

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// repoRoot is the repository's top folder, seen from this package's folder.
const repoRoot = "../.."

// urlFiles are the files besides Markdown whose URLs into the repository are checked:
// the alert rules and dashboard, which hold the runbook URLs, and the rules' unit tests,
// which repeat them.
var urlFiles = []string{"deploy/monitoring/*.yaml", "deploy/monitoring/*.json", "test/monitoring/*.yaml"}

// globFiles returns the files of root that patterns match, relative to root.
func globFiles(t *testing.T, root string, patterns []string) []string {
	t.Helper()
	var files []string
	for _, pattern := range patterns {
		matches, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(pattern)))
		if err != nil {
			t.Fatal(err)
		}
		if len(matches) == 0 {
			t.Errorf("no file matches %s", pattern)
		}
		for _, m := range matches {
			rel, err := filepath.Rel(root, m)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, filepath.ToSlash(rel))
		}
	}
	return files
}

// ---- GitHub's anchors ----

// link is a link target found in a file, with the line it is on (1-based).
type link struct {
	line   int
	target string
}

var (
	inlineLinkRe = regexp.MustCompile(`\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)`)
	refDefRe     = regexp.MustCompile(`(?m)^ {0,3}\[[^\]]+\]:[ \t]*(<[^>]*>|\S+)`)
	autolinkRe   = regexp.MustCompile(`<([A-Za-z][A-Za-z0-9+.-]*:[^<>\s]+)>`)
)

// markdownLinks returns the targets of the inline links, reference definitions and
// autolinks of a Markdown document, outside code. Bare URLs into this repository are
// returned by repoURLs.
func markdownLinks(src string) []link {
	text := strings.Join(markdownLines(src), "\n")
	// Blank code spans, keeping their newlines, so that a link in code is no link.
	text = codeSpanRe.ReplaceAllStringFunc(text, func(s string) string {
		return strings.Map(func(r rune) rune {
			if r == '\n' {
				return r
			}
			return ' '
		}, s)
	})
	type found struct {
		offset int // where the target starts in text
		target string
	}
	var all []found
	for _, re := range []*regexp.Regexp{inlineLinkRe, refDefRe, autolinkRe} {
		for _, m := range re.FindAllStringSubmatchIndex(text, -1) {
			target := strings.TrimSuffix(strings.TrimPrefix(text[m[2]:m[3]], "<"), ">")
			all = append(all, found{m[2], target})
		}
	}
	slices.SortFunc(all, func(a, b found) int { return a.offset - b.offset })
	out := make([]link, 0, len(all))
	for _, f := range all {
		out = append(out, link{line: 1 + strings.Count(text[:f.offset], "\n"), target: f.target})
	}
	return out
}

// repoURLRe matches a URL of a file or folder of this repository on GitHub; the prefix
// is filled in from go.mod.
func repoURLRe(repoURL string) *regexp.Regexp {
	return regexp.MustCompile(regexp.QuoteMeta(repoURL) + `/(?:blob|tree|raw)/[^/\s]+/[^\s)>"'\]` + "`" + `,]*`)
}

// repoURLs returns every URL of this repository's files in src, wherever it stands.
func repoURLs(src string, re *regexp.Regexp) []link {
	var out []link
	for _, m := range re.FindAllStringIndex(src, -1) {
		// A URL at the end of a sentence.
		target := strings.TrimRight(src[m[0]:m[1]], ".:;")
		out = append(out, link{line: 1 + strings.Count(src[:m[0]], "\n"), target: target})
	}
	return out
}

// ---- checking ----

// markdownFiles returns the Markdown files git tracks under root (all of them when root
// is no git work tree or git is missing), vendor/ and _output/ left out.
func markdownFiles(root string) ([]string, error) {
	var files []string
	if out, err := exec.Command("git", "-C", root, "ls-files", "-z", "--", "*.md").Output(); err == nil {
		for _, f := range strings.Split(string(out), "\x00") {
			if f != "" {
				files = append(files, f)
			}
		}
	} else {
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			rel = filepath.ToSlash(rel)
			if d.IsDir() && (rel == ".git" || rel == "vendor" || rel == "_output") {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(strings.ToLower(rel), ".md") {
				files = append(files, rel)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	files = slices.DeleteFunc(files, func(f string) bool {
		if strings.HasPrefix(f, "vendor/") || strings.HasPrefix(f, "_output/") {
			return true
		}
		// Tracked, but deleted in the work tree and not yet committed.
		_, err := os.Stat(filepath.Join(root, filepath.FromSlash(f)))
		return err != nil
	})
	slices.Sort(files)
	return files, nil
}

// ---- tests ----

func TestMarkdownLinks(t *testing.T) {
	src := "See [the API](docs/api.md#fields) and [Running in the\ncluster](operations.md#running-in-the-cluster).\n" +
		"`[not a link](code.md)` and ``[nor](this.md)``\n" +
		"```\n[in a block](block.md)\n```\n" +
		"[ref]: deploy/README.md\n" +
		"<https://example.com/x> and [title](a.md \"Title\") and [angle](<b c.md>)\n"
	want := []link{
		{1, "docs/api.md#fields"},
		{2, "operations.md#running-in-the-cluster"},
		{7, "deploy/README.md"},
		{8, "https://example.com/x"},
		{8, "a.md"},
		{8, "b c.md"},
	}
	got := markdownLinks(src)
	if !slices.EqualFunc(got, want, func(a, b link) bool { return a == b }) {
		t.Errorf("markdownLinks =\n\t%v\nwant\n\t%v", got, want)
	}
}

// TestRepositoryLinks checks every tracked Markdown file and the files of urlFiles.
func TestRepositoryLinks(t *testing.T) {
	c, err := newChecker(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	files, err := markdownFiles(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"README.md", "docs/api.md", "docs/operations.md"} {
		if !slices.Contains(files, want) {
			t.Errorf("%s is not among the Markdown files checked (%v)", want, files)
		}
	}
	files = append(files, globFiles(t, repoRoot, urlFiles)...)
	total := 0
	for _, f := range files {
		problems, checked, err := c.checkFile(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		total += checked
		for _, p := range problems {
			t.Error(p)
		}
	}
	t.Logf("%d links in %d files", total, len(files))
}

var runbookRe = regexp.MustCompile(`runbook_url:\s*(\S+)`)

// TestRunbookURLsAreChecked makes sure every runbook URL is of a form TestRepositoryLinks
// checks: a URL of a file of this repository on GitHub.
func TestRunbookURLsAreChecked(t *testing.T) {
	c, err := newChecker(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	files := globFiles(t, repoRoot, urlFiles)
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range runbookRe.FindAllStringSubmatch(string(data), -1) {
			n++
			u := strings.Trim(m[1], `"'`)
			if !c.urlRe.MatchString(u) || c.urlRe.FindString(u) != u || !strings.Contains(u, "#") {
				t.Errorf("%s: runbook_url %s is not a URL of a section of a file of %s, which this test could check", f, u, c.repoURL)
			}
		}
	}
	if n == 0 {
		t.Errorf("no runbook_url in %v", files)
	}
}
