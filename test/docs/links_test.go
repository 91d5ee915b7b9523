// Package docs checks the links of the repository's documentation: every relative link of
// the tracked Markdown files (README.md, docs/, deploy/, test/; vendor/ and _output/ left
// out), every link of theirs to this repository on GitHub
// (https://github.com/<module>/blob/<branch>/<path>), and the same URLs in the alert rules
// and dashboard of deploy/monitoring, which is how their runbook URLs are written. The
// file or folder a link names must exist, and a #anchor into a Markdown file must be the
// anchor GitHub gives one of its headings. External links are not fetched.
package docs

import (
	"bufio"
	"bytes"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
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

var (
	// A code span may run over a line break, not over a blank line. (Go's regexps have
	// no backreferences, so the closing run of backticks is not matched to the opening.)
	codeSpanRe  = regexp.MustCompile("(`+)((?:[^\\n]|\\n[ \\t]*[^\\s`])*?)`+")
	imageRe     = regexp.MustCompile(`!\[([^\]]*)\]\([^)]*\)`)
	linkTextRe  = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	refLinkRe   = regexp.MustCompile(`\[([^\]]*)\]\[[^\]]*\]`)
	htmlTagRe   = regexp.MustCompile(`</?[A-Za-z][^>]*>`)
	underlineRe = regexp.MustCompile(`(^|[^\p{L}\p{N}_])_+([^_]|[^_].*?[^_])_+($|[^\p{L}\p{N}_])`)
)

// headingText is the text GitHub renders for a heading's Markdown: link and image
// targets, code backticks, emphasis and HTML tags gone.
func headingText(md string) string {
	// Code spans keep their text as it is; everything else loses its markup.
	var out strings.Builder
	rest := md
	for {
		loc := codeSpanRe.FindStringSubmatchIndex(rest)
		if loc == nil {
			out.WriteString(stripInline(rest))
			break
		}
		out.WriteString(stripInline(rest[:loc[0]]))
		out.WriteString(rest[loc[4]:loc[5]])
		rest = rest[loc[1]:]
	}
	return strings.TrimSpace(out.String())
}

func stripInline(s string) string {
	s = imageRe.ReplaceAllString(s, "$1")
	s = linkTextRe.ReplaceAllString(s, "$1")
	s = refLinkRe.ReplaceAllString(s, "$1")
	s = htmlTagRe.ReplaceAllString(s, "")
	// _emphasis_ and __strong__ lose their underscores; snake_case keeps them. Asterisks
	// need no care: the slug drops them anyway.
	for {
		t := underlineRe.ReplaceAllString(s, "$1$2$3")
		if t == s {
			return s
		}
		s = t
	}
}

// slug is GitHub's anchor for a heading whose rendered text is text: lower case, every
// character but letters, marks, numbers, connector punctuation (such as _), hyphens and
// spaces dropped, and each space turned into a hyphen.
func slug(text string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-', unicode.IsLetter(r), unicode.IsMark(r), unicode.IsNumber(r), unicode.Is(unicode.Pc, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// slugger hands out the anchors of one document: a heading whose slug was taken before
// gets -1, -2, ... appended, as on GitHub (github-slugger): it counts, per slug, how often
// it was asked for again.
type slugger map[string]int

func (s slugger) anchor(text string) string {
	base := slug(text)
	a := base
	for {
		if _, taken := s[a]; !taken {
			break
		}
		s[base]++
		a = fmt.Sprintf("%s-%d", base, s[base])
	}
	s[a] = 0
	return a
}

var (
	fenceRe      = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})")
	atxRe        = regexp.MustCompile(`^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)
	setextRe     = regexp.MustCompile(`^ {0,3}(=+|-+)[ \t]*$`)
	notParaRe    = regexp.MustCompile(`^( {4}|\t| {0,3}([-*+>|#]|\d+[.)])( |$))`)
	htmlAnchorRe = regexp.MustCompile(`<[A-Za-z][^>]*\s(?:id|name)="([^"]+)"`)
)

// markdownLines returns src's lines with the lines of fenced code blocks (fences
// included) blanked, so that nothing in code counts as a heading or a link.
func markdownLines(src string) []string {
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	fence := ""
	for i, l := range lines {
		if fence != "" {
			if m := fenceRe.FindStringSubmatch(l); m != nil && m[1][0] == fence[0] && len(m[1]) >= len(fence) &&
				strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), m[1][:1])) == "" {
				fence = ""
			}
			lines[i] = ""
			continue
		}
		if m := fenceRe.FindStringSubmatch(l); m != nil {
			fence = m[1]
			lines[i] = ""
		}
	}
	return lines
}

// anchors returns every anchor of a Markdown document: its headings' (ATX and setext),
// and the id or name of HTML elements.
func anchors(src string) map[string]bool {
	lines := markdownLines(src)
	s := slugger{}
	out := map[string]bool{}
	for i, l := range lines {
		if m := atxRe.FindStringSubmatch(l); m != nil {
			out[s.anchor(headingText(m[1]))] = true
			continue
		}
		if i > 0 && setextRe.MatchString(l) && strings.TrimSpace(lines[i-1]) != "" &&
			!notParaRe.MatchString(lines[i-1]) && !atxRe.MatchString(lines[i-1]) && !setextRe.MatchString(lines[i-1]) {
			out[s.anchor(headingText(lines[i-1]))] = true
		}
		for _, m := range htmlAnchorRe.FindAllStringSubmatch(l, -1) {
			out[m[1]] = true
		}
	}
	return out
}

// ---- links ----

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

type checker struct {
	root    string         // the repository's folder
	repoURL string         // https://github.com/owner/name
	urlRe   *regexp.Regexp // a URL of a file or folder of the repository
	pathRe  *regexp.Regexp // the same, without #anchor: the path inside the repository
	cache   map[string]map[string]bool
}

func newChecker(root string) (*checker, error) {
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, err
	}
	module := ""
	sc := bufio.NewScanner(bytes.NewReader(gomod))
	for sc.Scan() {
		if m, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			module = strings.Trim(strings.TrimSpace(m), `"`)
			break
		}
	}
	repo, ok := strings.CutPrefix(module, "github.com/")
	if !ok {
		return nil, fmt.Errorf("go.mod: module %q is not on github.com", module)
	}
	repoURL := "https://github.com/" + repo
	return &checker{
		root:    root,
		repoURL: repoURL,
		urlRe:   repoURLRe(repoURL),
		pathRe:  regexp.MustCompile(`^` + regexp.QuoteMeta(repoURL) + `/(?:blob|tree|raw)/[^/]+/(.+)$`),
		cache:   map[string]map[string]bool{},
	}, nil
}

var (
	schemeRe     = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)
	lineAnchorRe = regexp.MustCompile(`^L\d+(C\d+)?(-L\d+(C\d+)?)?$`)
)

// check checks one link target of the file from (a slash-separated path relative to the
// repository's folder). It returns "" for a link that is fine or not this test's to
// check (an external URL), and otherwise what is wrong.
func (c *checker) check(from, target string) string {
	p, anchor, _ := strings.Cut(target, "#")
	p, _, _ = strings.Cut(p, "?")
	switch {
	case strings.HasPrefix(target, c.repoURL+"/"):
		m := c.pathRe.FindStringSubmatch(p)
		if m == nil {
			return "" // an issue, a pull request, the repository's front page
		}
		p = m[1]
	case target == c.repoURL, schemeRe.MatchString(target), strings.HasPrefix(target, "//"):
		return "" // external: not fetched
	case p == "":
		p = from // #anchor: a heading of the same file
	case strings.HasPrefix(p, "/"):
		p = strings.TrimPrefix(p, "/") // from the repository's folder, as on GitHub
	default:
		p = path.Join(path.Dir(from), p)
	}
	if unescaped, err := url.PathUnescape(p); err == nil {
		p = unescaped
	}
	p = path.Clean(p)
	if p == ".." || strings.HasPrefix(p, "../") {
		return fmt.Sprintf("%s points outside the repository", target)
	}
	info, err := os.Stat(filepath.Join(c.root, filepath.FromSlash(p)))
	if err != nil {
		return fmt.Sprintf("%s: no file or folder %s", target, p)
	}
	if anchor == "" {
		return ""
	}
	if info.IsDir() || !strings.HasSuffix(strings.ToLower(p), ".md") {
		if !info.IsDir() && lineAnchorRe.MatchString(anchor) {
			return "" // a line of a source file
		}
		return fmt.Sprintf("%s: #%s cannot be checked: %s is not a Markdown file", target, anchor, p)
	}
	as, ok := c.cache[p]
	if !ok {
		src, err := os.ReadFile(filepath.Join(c.root, filepath.FromSlash(p)))
		if err != nil {
			return fmt.Sprintf("%s: %v", target, err)
		}
		as = anchors(string(src))
		c.cache[p] = as
	}
	if !as[anchor] {
		return fmt.Sprintf("%s: %s has no heading with the anchor #%s", target, p, anchor)
	}
	return ""
}

// checkFile returns the problems of the links of one file (a slash-separated path relative
// to the repository's folder): a Markdown file's links, and in any file the URLs into this
// repository.
func (c *checker) checkFile(name string) (problems []string, checked int, err error) {
	data, err := os.ReadFile(filepath.Join(c.root, filepath.FromSlash(name)))
	if err != nil {
		return nil, 0, err
	}
	src := string(data)
	var links []link
	if strings.HasSuffix(strings.ToLower(name), ".md") {
		links = markdownLinks(src)
		// Bare URLs too, but not inside code blocks.
		links = append(links, repoURLs(strings.Join(markdownLines(src), "\n"), c.urlRe)...)
	} else {
		links = repoURLs(src, c.urlRe)
	}
	seen := map[link]bool{}
	for _, l := range links {
		if seen[l] {
			continue
		}
		seen[l] = true
		checked++
		if p := c.check(name, l.target); p != "" {
			problems = append(problems, fmt.Sprintf("%s:%d: %s", name, l.line, p))
		}
	}
	return problems, checked, nil
}

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

func TestSlug(t *testing.T) {
	for _, tc := range []struct{ heading, want string }{
		{"NetworkControllerNetworksNotReady", "networkcontrollernetworksnotready"},
		{"Keeping a network when its object goes: `spec.deletionPolicy: Retain`", "keeping-a-network-when-its-object-goes-specdeletionpolicy-retain"},
		{"Metrics over HTTPS, for the metrics-reader only", "metrics-over-https-for-the-metrics-reader-only"},
		{"What happens when ...", "what-happens-when-"},
		{"What `make bench` measures", "what-make-bench-measures"},
		{"Flags (`-v`, `-kubeconfig`)", "flags--v--kubeconfig"},
		{"snake_case and -dashes-", "snake_case-and--dashes-"},
		{"Two  spaces", "two--spaces"},
		{"C++ & Go!", "c--go"},
		{"A [link](docs/api.md#fields) in it", "a-link-in-it"},
		{"An ![image](x.png) in it", "an-image-in-it"},
		{"**Bold**, *italic*, _emphasis_ and __strong__", "bold-italic-emphasis-and-strong"},
		{"`_code_` keeps underscores", "_code_-keeps-underscores"},
		{"HTML <code>tags</code> go", "html-tags-go"},
		{"Größe ünd Ħeading 2", "größe-ünd-ħeading-2"},
		{"1.31 or newer?", "131-or-newer"},
	} {
		if got := slug(headingText(tc.heading)); got != tc.want {
			t.Errorf("slug(%q) = %q, want %q", tc.heading, got, tc.want)
		}
	}
}

func TestAnchors(t *testing.T) {
	src := "# Title\n\n## Usage\n\ntext\n\n## Usage\n\n### Usage ###\n\n" +
		"```sh\n# not a heading\n```\n\n" +
		"~~~~\n## Not one either\n~~~~\n\n" +
		"Setext heading\n--------------\n\n" +
		"| a | b |\n|---|---|\n\n" +
		"- a list item\n---\n\n" +
		"    # indented code, no heading\n\n" +
		"<a id=\"custom-anchor\"></a>\n\n" +
		"#no-space-no-heading\n\n" +
		"## Usage-1\n"
	got := slices.Sorted(func(yield func(string) bool) {
		for a := range anchors(src) {
			if !yield(a) {
				return
			}
		}
	})
	want := []string{"custom-anchor", "setext-heading", "title", "usage", "usage-1", "usage-1-1", "usage-2"}
	if !slices.Equal(got, want) {
		t.Errorf("anchors = %q, want %q", got, want)
	}
}

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

// TestCheckerFindsDeadLinks runs the checker on a made-up repository whose links are
// broken in every way it knows.
func TestCheckerFindsDeadLinks(t *testing.T) {
	root := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module github.com/example/repo\n\ngo 1.26\n")
	write("docs/ops.md", "# Operations\n\n## Alerts\n\n#### SomethingBroke\n\ntext\n")
	write("main.go", "package main\n")
	write("README.md", "# Repo\n\n## Two commands\n\n"+
		"[ok](docs/ops.md#alerts) [ok](docs/ops.md) [ok](#two-commands) [ok](docs/) [ok](/main.go#L1)\n"+
		"[ok](https://example.com/nowhere.md#none) [ok](https://github.com/example/repo/issues/1)\n"+
		"[ok](https://github.com/example/repo/blob/main/docs/ops.md#somethingbroke)\n"+
		"[dead file](docs/missing.md)\n"+
		"[dead anchor](docs/ops.md#nothing)\n"+
		"[dead local anchor](#three-commands)\n"+
		"[outside](../elsewhere.md)\n"+
		"[anchor on code](main.go#main)\n"+
		"bare https://github.com/example/repo/blob/main/README.md#gone in text\n")
	write("deploy/rules.yaml", "runbook_url: https://github.com/example/repo/blob/main/docs/ops.md#somethingbroke\n"+
		"runbook_url: https://github.com/example/repo/blob/main/docs/ops.md#somethingelse\n"+
		"runbook_url: https://github.com/example/repo/blob/main/README.md#alerts\n")

	c, err := newChecker(root)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range []string{"README.md", "deploy/rules.yaml"} {
		problems, _, err := c.checkFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, problems...)
	}
	want := []string{
		"README.md:8: docs/missing.md: no file or folder docs/missing.md",
		"README.md:9: docs/ops.md#nothing: docs/ops.md has no heading with the anchor #nothing",
		"README.md:10: #three-commands: README.md has no heading with the anchor #three-commands",
		"README.md:11: ../elsewhere.md points outside the repository",
		"README.md:12: main.go#main: #main cannot be checked: main.go is not a Markdown file",
		"README.md:13: https://github.com/example/repo/blob/main/README.md#gone: README.md has no heading with the anchor #gone",
		"deploy/rules.yaml:2: https://github.com/example/repo/blob/main/docs/ops.md#somethingelse: docs/ops.md has no heading with the anchor #somethingelse",
		"deploy/rules.yaml:3: https://github.com/example/repo/blob/main/README.md#alerts: README.md has no heading with the anchor #alerts",
	}
	if !slices.Equal(got, want) {
		t.Errorf("problems:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
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
