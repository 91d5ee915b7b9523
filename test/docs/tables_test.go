package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// What the tests of printed examples read from Markdown: sections, tables and the lines of
// code blocks.

// readRepoFile returns a file of the repository (a slash-separated path) as text.
func readRepoFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(data), "\r\n", "\n")
}

// section returns the lines of the section of src whose ATX heading's text is heading,
// up to the next heading of the same or a higher level (code blocks blanked, as in
// markdownLines), and the 1-based line its first line has in src.
func section(src, heading string) (lines []string, first int, ok bool) {
	all := markdownLines(src)
	level := 0
	for i, l := range all {
		m := atxRe.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		h := strings.TrimLeft(l, " ")
		n := len(h) - len(strings.TrimLeft(h, "#"))
		if level > 0 {
			if n <= level {
				return all[first-1 : i], first, true
			}
			continue
		}
		if headingText(m[1]) == heading {
			level, first = n, i+2
		}
	}
	if level == 0 {
		return nil, 0, false
	}
	return all[first-1:], first, true
}

// splitRow splits a Markdown table row into its trimmed cells; a | inside a code span
// does not split.
func splitRow(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	if strings.HasSuffix(line, "|") && !strings.HasSuffix(line, `\|`) {
		line = line[:len(line)-1]
	}
	var cells []string
	var cell strings.Builder
	inCode := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '`':
			inCode = !inCode
		case c == '\\' && i+1 < len(line) && line[i+1] == '|':
			cell.WriteByte('|')
			i++
			continue
		case c == '|' && !inCode:
			cells = append(cells, strings.TrimSpace(cell.String()))
			cell.Reset()
			continue
		}
		cell.WriteByte(c)
	}
	return append(cells, strings.TrimSpace(cell.String()))
}

var delimiterRowRe = regexp.MustCompile(`^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$`)

// table is a Markdown table: its header's cells, and each row's cells with the row's line
// (1-based, in the file).
type table struct {
	line   int // the header's line
	header []string
	rows   []tableRow
}

type tableRow struct {
	line  int
	cells []string
}

// tables returns the tables of lines, whose first line is line first of the file.
func tables(lines []string, first int) []table {
	var out []table
	for i := 0; i+1 < len(lines); i++ {
		if !strings.HasPrefix(strings.TrimSpace(lines[i]), "|") || !delimiterRowRe.MatchString(lines[i+1]) {
			continue
		}
		tb := table{line: first + i, header: splitRow(lines[i])}
		j := i + 2
		for ; j < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[j]), "|"); j++ {
			tb.rows = append(tb.rows, tableRow{line: first + j, cells: splitRow(lines[j])})
		}
		out = append(out, tb)
		i = j
	}
	return out
}

var spanRe = regexp.MustCompile("`([^`]+)`")

// codeSpans returns the text of the code spans of s, in order.
func codeSpans(s string) []string {
	var out []string
	for _, m := range spanRe.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

// codeBlock is the text of a fenced code block: its lines, and the 1-based line of the
// first of them in the file.
type codeBlock struct {
	line  int
	lines []string
}

// codeBlocks returns the fenced code blocks of src.
func codeBlocks(src string) []codeBlock {
	lines := strings.Split(src, "\n")
	var out []codeBlock
	fence := ""
	var cur codeBlock
	for i, l := range lines {
		m := fenceRe.FindStringSubmatch(l)
		if fence == "" {
			if m != nil {
				fence = m[1]
				cur = codeBlock{line: i + 2}
			}
			continue
		}
		if m != nil && m[1][0] == fence[0] && len(m[1]) >= len(fence) &&
			strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), m[1][:1])) == "" {
			out = append(out, cur)
			fence = ""
			continue
		}
		cur.lines = append(cur.lines, l)
	}
	return out
}

// docFiles are the Markdown files whose printed examples are checked: README.md and
// every page of docs/.
func docFiles(t *testing.T) []string {
	t.Helper()
	files := globFiles(t, repoRoot, []string{"README.md", "docs/*.md"})
	slices.Sort(files)
	return files
}

func TestMarkdownTables(t *testing.T) {
	src := "# T\n\n## Flags\n\n| flag | default |\n|---|---|\n| `-a`, `-b` | 1, 2 |\n| `x|y` | a \\| b |\n\ntext\n\n" +
		"```\n| not | a table |\n|---|---|\n```\n\n## Next\n\n| c |\n|---|\n| d |\n"
	lines, first, ok := section(src, "Flags")
	if !ok || first != 4 {
		t.Fatalf("section(Flags) = first line %d, %v; want 4, true", first, ok)
	}
	tbs := tables(lines, first)
	if len(tbs) != 1 {
		t.Fatalf("tables of the section = %d, want 1 (the one in the code block and the next section's are not)", len(tbs))
	}
	tb := tbs[0]
	if tb.line != 5 || !slices.Equal(tb.header, []string{"flag", "default"}) || len(tb.rows) != 2 {
		t.Fatalf("table = %+v", tb)
	}
	if got := tb.rows[1].cells; tb.rows[1].line != 8 || !slices.Equal(got, []string{"`x|y`", "a | b"}) {
		t.Errorf("row 2 = line %d %q", tb.rows[1].line, got)
	}
	if got := codeSpans(tb.rows[0].cells[0]); !slices.Equal(got, []string{"-a", "-b"}) {
		t.Errorf("codeSpans = %q", got)
	}
	blocks := codeBlocks(src)
	if len(blocks) != 1 || blocks[0].line != 13 || len(blocks[0].lines) != 2 {
		t.Errorf("codeBlocks = %+v", blocks)
	}
}
