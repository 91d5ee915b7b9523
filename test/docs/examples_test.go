package docs

import (
	"net/netip"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// README's listing of example/ against the files of example/.

// exampleFiles are the files kubectl apply -f example/ reads.
func exampleFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, pattern := range []string{"*.yaml", "*.yml", "*.json"} {
		matches, err := filepath.Glob(filepath.Join(repoRoot, "example", pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range matches {
			files = append(files, "example/"+filepath.Base(m))
		}
	}
	if len(files) == 0 {
		t.Fatal("example/ has no files")
	}
	return files
}

// exampleNetworks returns the Networks of example/ by name; each file must hold one.
func exampleNetworks(t *testing.T) map[string]*samplecrdv1.Network {
	t.Helper()
	out := map[string]*samplecrdv1.Network{}
	for _, f := range exampleFiles(t) {
		var found int
		for doc := range strings.SplitSeq(readRepoFile(t, f), "\n---") {
			if strings.TrimSpace(doc) == "" {
				continue
			}
			var n samplecrdv1.Network
			if err := yaml.UnmarshalStrict([]byte(doc), &n); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if n.Kind != "Network" {
				continue
			}
			found++
			if _, dup := out[n.Name]; dup {
				t.Errorf("%s: a second Network %s in example/", f, n.Name)
			}
			out[n.Name] = &n
		}
		if found != 1 {
			t.Errorf("%s holds %d Networks; README counts one a file", f, found)
		}
	}
	return out
}

// exampleCIDRs is what the CIDR column shows of a Network of example/ once it is made:
// its subnets' ranges in the spec's order.
func exampleCIDRs(n *samplecrdv1.Network) string {
	if len(n.Spec.Subnets) == 0 {
		return n.Spec.CIDR
	}
	var cidrs []string
	for _, s := range n.Spec.Subnets {
		cidrs = append(cidrs, s.CIDR)
	}
	return strings.Join(cidrs, ",")
}

// exampleGateway is what the GATEWAY column shows: the one-subnet form's gateway, the
// first address after the network's when the spec gives none (Neutron's default), none
// without gateway and for the list form.
func exampleGateway(n *samplecrdv1.Network) string {
	switch {
	case len(n.Spec.Subnets) > 0, n.Spec.GatewayMode == samplecrdv1.GatewayModeNone:
		return ""
	case n.Spec.Gateway != "":
		return n.Spec.Gateway
	}
	p, err := netip.ParsePrefix(n.Spec.CIDR)
	if err != nil {
		return "(cidr " + n.Spec.CIDR + " does not parse)"
	}
	return p.Masked().Addr().Next().String()
}

var (
	applyExamplesRe = regexp.MustCompile(`kubectl apply -f example/\s+#\s*(\w+) Networks`)
	numberWords     = []string{"no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"}
)

// TestREADMEListsTheExamples checks README's `kubectl apply -f example/` (the number of
// Networks its comment says) and its output of kubectl get networks after it: one row for
// each Network of example/, by name in kubectl's order (TestKubectlGetOutputs checks
// their cells).
func TestREADMEListsTheExamples(t *testing.T) {
	const file = "README.md"
	examples := exampleNetworks(t)
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range examples {
			if !yield(n) {
				return
			}
		}
	})
	src := readRepoFile(t, file)
	m := applyExamplesRe.FindStringSubmatch(src)
	if m == nil {
		t.Errorf("%s has no `kubectl apply -f example/  # <number> Networks`", file)
	} else if i := slices.Index(numberWords, m[1]); i != len(examples) {
		t.Errorf("%s says kubectl apply -f example/ makes %s Networks; example/ has %d: %v", file, m[1], len(examples), names)
	}
	listed := 0
	for _, ko := range kubectlOutputs(t, file) {
		if c, ok := crdNamed(t, ko.resource); !ok || c.file != "crd/network.yaml" || ko.all || ko.named {
			continue
		}
		header, rows, _ := printedTable(ko.out)
		if len(header) == 0 || header[0] != "NAME" || len(rows) == 0 || !strings.HasPrefix(rows[0][0], "example-network") {
			continue
		}
		listed++
		var got []string
		for _, r := range rows {
			got = append(got, r[0])
		}
		if !slices.Equal(got, names) {
			t.Errorf("%s:%d: kubectl get lists the Networks of example/ by name,\n\t%q\nthe example shows\n\t%q", file, ko.line, names, got)
		}
	}
	if listed == 0 {
		t.Errorf("%s shows no output of kubectl get networks listing example/", file)
	}
}
