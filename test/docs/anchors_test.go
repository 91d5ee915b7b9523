package docs

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// The anchors GitHub gives a Markdown file's headings, and the text it renders for them.

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
