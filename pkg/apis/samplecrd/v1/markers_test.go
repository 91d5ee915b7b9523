package v1

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxMarkerLine is the longest marker line a reader is asked to read; a longer rule goes,
// folded, in network_rules.yaml.
const maxMarkerLine = 300

func TestMarkerLinesCanBeRead(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		if strings.HasPrefix(file, "zz_generated") {
			continue
		}
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		scanner := bufio.NewScanner(f)
		scanner.Buffer(nil, 1<<20)
		for n := 1; scanner.Scan(); n++ {
			line := strings.TrimSpace(scanner.Text())
			if strings.HasPrefix(line, "// +") && len(line) > maxMarkerLine {
				t.Errorf("%s:%d: a marker of %d characters (%d at most): move the rule to network_rules.yaml", file, n, len(line), maxMarkerLine)
			}
		}
		if err := scanner.Err(); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
}
