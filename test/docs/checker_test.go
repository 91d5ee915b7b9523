package docs

import (
	"bufio"
	"bytes"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// checker checks the links of one file against the repository: that the file or folder
// a link names exists, and that an anchor is one of the target's headings.
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
