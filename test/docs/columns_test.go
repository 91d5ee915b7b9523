package docs

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"regexp"
	"slices"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// What kubectl get prints, checked against the CRDs of crd/ and the Networks of example/:
// the column tables of docs/api.md, every `$ kubectl get` output in README.md and docs/,
// and README's listing of the examples.

// crdFiles are the CRDs whose columns docs/api.md lists.
var crdFiles = []string{"crd/network.yaml", "crd/clusteridentity.yaml"}

// column is a printer column as kubectl get shows it.
type column struct {
	header   string // the name in upper case, as kubectl prints it
	jsonPath string
	wide     bool // priority > 0: only with -o wide
}

// crd is what kubectl get needs of a CRD: the names it answers to and its columns.
type crd struct {
	file    string
	names   []string // plural, singular, short names, and plural.group
	columns []column
}

// readCRD reads a CRD file of the repository: its one served version's printer columns.
func readCRD(t *testing.T, name string) crd {
	t.Helper()
	var def apiextensionsv1.CustomResourceDefinition
	for doc := range strings.SplitSeq(readRepoFile(t, name), "\n---\n") {
		if strings.Contains(doc, "kind: CustomResourceDefinition") {
			if err := yaml.Unmarshal([]byte(doc), &def); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
	}
	if len(def.Spec.Versions) != 1 {
		t.Fatalf("%s: %d versions; this test knows one", name, len(def.Spec.Versions))
	}
	n := def.Spec.Names
	c := crd{file: name, names: append([]string{n.Plural, n.Singular, n.Plural + "." + def.Spec.Group}, n.ShortNames...)}
	for _, pc := range def.Spec.Versions[0].AdditionalPrinterColumns {
		c.columns = append(c.columns, column{header: strings.ToUpper(pc.Name), jsonPath: pc.JSONPath, wide: pc.Priority > 0})
	}
	if len(c.columns) == 0 {
		t.Fatalf("%s has no printer columns", name)
	}
	return c
}

// headers are the column names kubectl get prints for the CRD.
func (c crd) headers(wide, allNamespaces bool) []string {
	h := []string{"NAME"}
	if allNamespaces {
		h = append([]string{"NAMESPACE"}, h...)
	}
	for _, col := range c.columns {
		if wide || !col.wide {
			h = append(h, col.header)
		}
	}
	return h
}

var (
	kubectlGetSpanRe = regexp.MustCompile("`kubectl get ([a-z.]+)`")
	columnCellRe     = regexp.MustCompile("^`([^`]+)`( \\(wide\\))?$")
)

// TestColumnTablesMatchTheCRDs checks the tables of docs/api.md that list what kubectl get
// shows (header "| column | from | |", after a line naming `kubectl get <resource>`): the
// columns of each CRD of crd/, in order, each with its JSONPath and whether only -o wide
// shows it.
func TestColumnTablesMatchTheCRDs(t *testing.T) {
	const file = "docs/api.md"
	src := readRepoFile(t, file)
	lines := markdownLines(src)
	documented := map[string]bool{}
	for _, tb := range tables(lines, 1) {
		if !slices.Equal(tb.header, []string{"column", "from", ""}) {
			continue
		}
		var resource string
		for i := tb.line - 2; i >= 0 && i >= tb.line-6 && resource == ""; i-- {
			if m := kubectlGetSpanRe.FindStringSubmatch(lines[i]); m != nil {
				resource = m[1]
			}
		}
		c, ok := crdNamed(t, resource)
		if !ok {
			t.Errorf("%s:%d: a column table after no `kubectl get <resource>` of crd/ (found %q)", file, tb.line, resource)
			continue
		}
		documented[c.file] = true
		var got []column
		for _, r := range tb.rows {
			m := columnCellRe.FindStringSubmatch(r.cells[0])
			from := codeSpans(r.cells[1])
			if m == nil || len(from) != 1 {
				t.Errorf("%s:%d: want | `COLUMN` or `COLUMN` (wide) | `jsonPath` | ... |, got %q", file, r.line, r.cells)
				continue
			}
			got = append(got, column{header: m[1], jsonPath: from[0], wide: m[2] != ""})
		}
		if !slices.Equal(got, c.columns) {
			t.Errorf("%s:%d: the columns of %s are\n\t%v\nthe table lists\n\t%v", file, tb.line, c.file, c.columns, got)
		}
	}
	for _, f := range crdFiles {
		if !documented[f] {
			t.Errorf("%s has no table of the columns of %s", file, f)
		}
	}
}

// crdNamed returns the CRD of crd/ that kubectl get knows by resource.
func crdNamed(t *testing.T, resource string) (crd, bool) {
	for _, f := range crdFiles {
		c := readCRD(t, f)
		if slices.Contains(c.names, resource) {
			return c, true
		}
	}
	return crd{}, false
}

// kubectlOutput is a `$ kubectl get <resource>` line of a code block and the lines it
// printed, up to the next `$ ` line or the end of the block.
type kubectlOutput struct {
	file     string
	line     int // the command's
	resource string
	wide     bool
	all      bool // -A: every namespace
	named    bool // names the objects to get
	out      []string
}

var (
	kubectlGetRe = regexp.MustCompile(`^\$ kubectl get ([a-z.]+)((?:\s+\S+)*)\s*$`)
	otherOutput  = regexp.MustCompile(`(^|\s)(-o|--output)(=|\s+)?(\S+)`)
)

// kubectlOutputs returns the tabular outputs of kubectl get in the code blocks of file:
// those without -o, or with -o wide.
func kubectlOutputs(t *testing.T, file string) []kubectlOutput {
	var out []kubectlOutput
	for _, b := range codeBlocks(readRepoFile(t, file)) {
		for i := 0; i < len(b.lines); i++ {
			m := kubectlGetRe.FindStringSubmatch(b.lines[i])
			if m == nil {
				continue
			}
			ko := kubectlOutput{file: file, line: b.line + i, resource: m[1]}
			args := m[2]
			if o := otherOutput.FindStringSubmatch(args); o != nil {
				if o[4] != "wide" {
					continue
				}
				ko.wide = true
			}
			ko.all = strings.Contains(" "+args+" ", " -A ") || strings.Contains(args, "--all-namespaces")
			ko.named = namesObjects(args)
			for j := i + 1; j < len(b.lines) && !strings.HasPrefix(b.lines[j], "$ "); j++ {
				if strings.TrimSpace(b.lines[j]) != "" {
					ko.out = append(ko.out, b.lines[j])
				}
			}
			if len(ko.out) > 0 {
				out = append(out, ko)
			}
		}
	}
	return out
}

// namesObjects says whether the arguments of kubectl get after the resource name objects.
func namesObjects(args string) bool {
	fields := strings.Fields(args)
	for i, f := range fields {
		if strings.HasPrefix(f, "-") {
			continue
		}
		if i > 0 && slices.Contains([]string{"-n", "--namespace", "-o", "--output", "-l", "--selector", "--field-selector"}, fields[i-1]) {
			continue
		}
		return true
	}
	return false
}

var headerWordRe = regexp.MustCompile(`\S+(?: \S+)*`)

// printedTable parses what kubectl get printed with its tab writer: the header's names,
// and each row's cells by the header's columns. It returns what is wrong with the layout:
// a column must be exactly as wide as its widest cell plus 3 spaces, or 6, as kubectl
// pads them.
func printedTable(out []string) (header []string, rows [][]string, problems []string) {
	var starts []int
	for _, loc := range headerWordRe.FindAllStringIndex(out[0], -1) {
		header = append(header, out[0][loc[0]:loc[1]])
		starts = append(starts, loc[0])
	}
	cells := func(line string) []string {
		var c []string
		for i, s := range starts {
			end := len(line)
			if i+1 < len(starts) {
				end = min(starts[i+1], len(line))
			}
			if s >= len(line) {
				c = append(c, "")
				continue
			}
			c = append(c, strings.TrimSpace(line[s:end]))
		}
		return c
	}
	widest := make([]int, len(starts))
	for _, line := range out {
		for i, c := range cells(line) {
			widest[i] = max(widest[i], len(c))
			if c != "" && starts[i] > 0 && (len(line) <= starts[i] || line[starts[i]-1] != ' ' || line[starts[i]] == ' ') {
				problems = append(problems, fmt.Sprintf("%q: %s does not start where the column %s does", line, c, header[i]))
			}
		}
		if line != out[0] {
			rows = append(rows, cells(line))
		}
	}
	for i := 0; i+1 < len(starts); i++ {
		if want := max(widest[i]+3, 6); starts[i+1]-starts[i] != want {
			problems = append(problems, fmt.Sprintf("column %s is %d characters wide; kubectl makes it %d (its widest cell, %d, and 3 spaces)",
				header[i], starts[i+1]-starts[i], want, widest[i]))
		}
	}
	return header, rows, problems
}

var ageRe = regexp.MustCompile(`^(\d+[smhdy]){1,2}$`)

// TestKubectlGetOutputs checks every `$ kubectl get` of a CRD of crd/ in README.md and
// docs/ that prints a table: the header is what the CRD's columns give (-o wide and -A
// included), the columns are laid out as kubectl lays them out, and a Network's cells are
// values the controller writes; for a Network of example/, the values its spec gives.
func TestKubectlGetOutputs(t *testing.T) {
	examples := exampleNetworks(t)
	reasons := append(slices.Clone(samplecrdv1.ReadyReasons), samplecrdv1.ReasonPaused, "")
	n := 0
	for _, file := range docFiles(t) {
		for _, ko := range kubectlOutputs(t, file) {
			c, ok := crdNamed(t, ko.resource)
			if !ok {
				continue
			}
			n++
			where := fmt.Sprintf("%s:%d", ko.file, ko.line)
			header, rows, problems := printedTable(ko.out)
			for _, p := range problems {
				t.Errorf("%s: %s", where, p)
			}
			if want := c.headers(ko.wide, ko.all); !slices.Equal(header, want) {
				t.Errorf("%s: kubectl get %s prints the columns\n\t%q\nthe example shows\n\t%q", where, ko.resource, want, header)
				continue
			}
			if c.file != "crd/network.yaml" {
				continue
			}
			for _, r := range rows {
				cell := map[string]string{}
				for i, h := range header {
					cell[h] = r[i]
				}
				for _, p := range networkRowProblems(cell, reasons, examples) {
					t.Errorf("%s: %s: %s", where, cell["NAME"], p)
				}
			}
		}
	}
	if n == 0 {
		t.Error("no output of kubectl get in README.md or docs/")
	}
	t.Logf("%d outputs of kubectl get", n)
}

// networkRowProblems says what is wrong with a row of kubectl get networks.
func networkRowProblems(cell map[string]string, reasons []string, examples map[string]*samplecrdv1.Network) []string {
	var problems []string
	if r := cell["READY"]; !slices.Contains([]string{"True", "False", "Unknown", ""}, r) {
		problems = append(problems, fmt.Sprintf("READY %q is no condition status", r))
	}
	if r := cell["REASON"]; !slices.Contains(reasons, r) {
		problems = append(problems, fmt.Sprintf("REASON %q is no Ready reason of pkg/apis/samplecrd/v1", r))
	}
	if a := cell["AGE"]; !ageRe.MatchString(a) {
		problems = append(problems, fmt.Sprintf("AGE %q is no age kubectl prints", a))
	}
	var prefixes []netip.Prefix
	if cidrs := cell["CIDR"]; cidrs != "" {
		for s := range strings.SplitSeq(cidrs, ",") {
			p, err := netip.ParsePrefix(s)
			if err != nil || p.Masked() != p {
				problems = append(problems, fmt.Sprintf("CIDR %q is no canonical CIDR", s))
			}
			prefixes = append(prefixes, p)
		}
	}
	if gw := cell["GATEWAY"]; gw != "" {
		a, err := netip.ParseAddr(gw)
		if err != nil || !slices.ContainsFunc(prefixes, func(p netip.Prefix) bool { return p.Contains(a) }) {
			problems = append(problems, fmt.Sprintf("GATEWAY %q is no address of CIDR %q", gw, cell["CIDR"]))
		}
	}
	if imp := cell["IMPORT"]; imp != "" {
		var ref samplecrdv1.NetworkImport
		if err := json.Unmarshal([]byte(imp), &ref); err != nil || (ref.NetworkID == "") == (ref.NetworkName == "") {
			problems = append(problems, fmt.Sprintf("IMPORT %q is not what kubectl prints of spec.import", imp))
		}
	}
	n, ok := examples[cell["NAME"]]
	if !ok || cell["NAMESPACE"] != "" {
		return problems
	}
	want := map[string]string{"CIDR": exampleCIDRs(n), "GATEWAY": exampleGateway(n), "IMPORT": ""}
	for _, h := range []string{"CIDR", "GATEWAY", "IMPORT"} {
		if cell[h] != want[h] {
			problems = append(problems, fmt.Sprintf("%s is %q, but example/ gives %q", h, cell[h], want[h]))
		}
	}
	return problems
}
