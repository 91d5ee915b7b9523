package docs

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/samplecrd/network-controller/pkg/metrics"
)

// The metrics table of docs/operations.md against the series the controller registers,
// read from the Go source (every Opts and NewDesc of the controller's packages) and from
// pkg/metrics' registry, gathered with every series it can export.

const metricsDoc = "docs/operations.md"

// metricSource are the folders whose non-test Go files register series: the binary's
// package and pkg/ (generated clients left out).
var metricSource = []string{".", "pkg"}

// series is a series the source registers: its name, its labels, where.
type series struct {
	name   string
	labels []string
	pos    string
}

var collectorCtors = map[string]bool{
	"NewCounter": true, "NewGauge": true, "NewHistogram": true, "NewSummary": true,
	"NewCounterVec": true, "NewGaugeVec": true, "NewHistogramVec": true, "NewSummaryVec": true,
	"NewCounterFunc": true, "NewGaugeFunc": true, "NewUntypedFunc": true,
}

// sourceSeries reads every series the Go files of the metricSource folders register with
// client_golang: the Opts of its constructors and the names of its NewDesc calls, with
// names and labels resolved from string literals, constants and []string literals of the
// same package. What it cannot resolve is an error: a series must not escape the check.
func sourceSeries(t *testing.T) map[string]series {
	t.Helper()
	out := map[string]series{}
	fset := token.NewFileSet()
	dirs := map[string][]*ast.File{}
	for _, top := range metricSource {
		root := filepath.Join(repoRoot, top)
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if p != root && (top == "." || d.Name() == "client" || d.Name() == "testdata") {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			dirs[filepath.Dir(p)] = append(dirs[filepath.Dir(p)], f)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, files := range dirs {
		var nodes []ast.Node
		for _, f := range files {
			nodes = append(nodes, f)
		}
		pkg := newResolver(nil, nodes)
		for _, f := range files {
			for _, decl := range f.Decls {
				// A function's own constants and variables first, then the package's.
				r := pkg
				if fd, ok := decl.(*ast.FuncDecl); ok {
					r = newResolver(pkg, []ast.Node{fd})
				}
				ast.Inspect(decl, func(n ast.Node) bool {
					call, ok := n.(*ast.CallExpr)
					if !ok {
						return true
					}
					fn, ok := promFunc(call.Fun)
					if !ok || (fn != "NewDesc" && !collectorCtors[fn]) {
						return true
					}
					pos := fset.Position(call.Pos())
					pos.Filename, _ = filepath.Rel(repoRoot, pos.Filename)
					s, err := r.series(fn, call)
					if err != nil {
						t.Errorf("%s: prometheus.%s: %v; teach this test to read it", pos, fn, err)
						return true
					}
					s.pos = pos.String()
					if prev, dup := out[s.name]; dup {
						t.Errorf("%s: %s registered again (first at %s)", s.pos, s.name, prev.pos)
					}
					out[s.name] = s
					return true
				})
			}
		}
	}
	return out
}

// promFunc returns the name of a function of the prometheus package fun calls.
func promFunc(fun ast.Expr) (string, bool) {
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	pkg, ok := sel.X.(*ast.Ident)
	if !ok || pkg.Name != "prometheus" {
		return "", false
	}
	return sel.Sel.Name, true
}

// resolver resolves the string and []string values of one scope: a function's, falling
// back to its package's, or a package's top level.
type resolver struct {
	parent *resolver
	strs   map[string]string
	slices map[string][]string
}

// newResolver reads the constants and variables of nodes: of a function, all it declares
// or assigns; of a package's files (parent nil), their top-level declarations.
func newResolver(parent *resolver, nodes []ast.Node) *resolver {
	r := &resolver{parent: parent, strs: map[string]string{}, slices: map[string][]string{}}
	bind := func(names []*ast.Ident, values []ast.Expr) {
		for i, name := range names {
			if i >= len(values) {
				return
			}
			if s, err := r.str(values[i]); err == nil {
				r.strs[name.Name] = s
			} else if l, err := r.list(values[i]); err == nil {
				r.slices[name.Name] = l
			}
		}
	}
	for _, node := range nodes {
		if f, ok := node.(*ast.File); ok {
			for _, d := range f.Decls {
				if gd, ok := d.(*ast.GenDecl); ok {
					for _, spec := range gd.Specs {
						if vs, ok := spec.(*ast.ValueSpec); ok {
							bind(vs.Names, vs.Values)
						}
					}
				}
			}
			continue
		}
		ast.Inspect(node, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				bind(n.Names, n.Values)
			case *ast.AssignStmt:
				var names []*ast.Ident
				for _, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						names = append(names, id)
					}
				}
				if len(names) == len(n.Lhs) {
					bind(names, n.Rhs)
				}
			}
			return true
		})
	}
	return r
}

func (r *resolver) str(e ast.Expr) (string, error) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			return strconv.Unquote(e.Value)
		}
	case *ast.Ident:
		if s, ok := r.strs[e.Name]; ok {
			return s, nil
		}
		if r.parent != nil {
			return r.parent.str(e)
		}
	case *ast.CallExpr:
		if fn, ok := promFunc(e.Fun); ok && fn == "BuildFQName" && len(e.Args) == 3 {
			var parts [3]string
			for i, a := range e.Args {
				s, err := r.str(a)
				if err != nil {
					return "", err
				}
				parts[i] = s
			}
			return prometheus.BuildFQName(parts[0], parts[1], parts[2]), nil
		}
	}
	return "", fmt.Errorf("%s is no string this test can resolve", types(e))
}

func (r *resolver) list(e ast.Expr) ([]string, error) {
	switch e := e.(type) {
	case *ast.Ident:
		if e.Name == "nil" {
			return nil, nil
		}
		if l, ok := r.slices[e.Name]; ok {
			return l, nil
		}
		if r.parent != nil {
			return r.parent.list(e)
		}
	case *ast.CompositeLit:
		if at, ok := e.Type.(*ast.ArrayType); ok {
			if id, ok := at.Elt.(*ast.Ident); ok && id.Name == "string" {
				out := []string{}
				for _, el := range e.Elts {
					s, err := r.str(el)
					if err != nil {
						return nil, err
					}
					out = append(out, s)
				}
				return out, nil
			}
		}
	}
	return nil, fmt.Errorf("%s is no []string this test can resolve", types(e))
}

func types(e ast.Expr) string { return fmt.Sprintf("%T", e) }

// series reads the series of one call of prometheus.fn.
func (r *resolver) series(fn string, call *ast.CallExpr) (series, error) {
	if fn == "NewDesc" {
		if len(call.Args) != 4 {
			return series{}, fmt.Errorf("%d arguments", len(call.Args))
		}
		name, err := r.str(call.Args[0])
		if err != nil {
			return series{}, err
		}
		labels, err := r.list(call.Args[2])
		return series{name: name, labels: labels}, err
	}
	if len(call.Args) == 0 {
		return series{}, fmt.Errorf("no Opts")
	}
	opts, ok := call.Args[0].(*ast.CompositeLit)
	if !ok {
		return series{}, fmt.Errorf("Opts not written in the call")
	}
	var parts [3]string
	for _, el := range opts.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return series{}, fmt.Errorf("Opts without field names")
		}
		key, ok := kv.Key.(*ast.Ident)
		if !ok {
			return series{}, fmt.Errorf("Opts with a field key %s", types(kv.Key))
		}
		i := slices.Index([]string{"Namespace", "Subsystem", "Name"}, key.Name)
		if i < 0 {
			continue
		}
		s, err := r.str(kv.Value)
		if err != nil {
			return series{}, fmt.Errorf("%s: %v", key.Name, err)
		}
		parts[i] = s
	}
	s := series{name: prometheus.BuildFQName(parts[0], parts[1], parts[2])}
	if strings.HasSuffix(fn, "Vec") {
		if len(call.Args) != 2 {
			return series{}, fmt.Errorf("%d arguments", len(call.Args))
		}
		l, err := r.list(call.Args[1])
		if err != nil {
			return series{}, err
		}
		s.labels = l
	}
	if s.name == "" {
		return series{}, fmt.Errorf("no Name")
	}
	return s, nil
}

// gatheredSeries builds pkg/metrics' registry as the controller does and makes it export
// every series it can (a child of each vector, a leader, a shard, a full subnet, an
// expiring credential), and returns the names gathered with their labels.
func gatheredSeries(t *testing.T) map[string][]string {
	t.Helper()
	m := metrics.New()
	m.SetLeader(true)
	m.SetBuildInfo("v0.0.0-test", "0123456789ab", "go")
	m.ObserveReconcile(metrics.ResultSuccess, time.Millisecond)
	m.ObserveNeutronCall("list_networks", "ok", time.Millisecond)
	m.ObserveAPIWrite(metrics.WriteStatus, time.Millisecond)
	m.ObserveKeystoneTokenWait(time.Millisecond)
	m.ObserveNeutronRateLimitWait(metrics.LimiterTotal, time.Millisecond)
	m.DeclareQueueClasses([]string{"user_change"})
	m.DeclareKeystoneHeldLimits([]string{"account"})
	m.DeclareKeystoneTokenOutcomes([]string{"ok"})
	m.DeclareQuotaProject("p")
	m.ObserveTimeToReady(metrics.ChangeCreate, time.Second)
	wq := m.WorkqueueProvider()
	wq.NewDepthMetric("networks")
	wq.NewAddsMetric("networks")
	wq.NewLatencyMetric("networks")
	wq.NewWorkDurationMetric("networks")
	wq.NewUnfinishedWorkSecondsMetric("networks")
	wq.NewLongestRunningProcessorSecondsMetric("networks")
	wq.NewRetriesMetric("networks")
	m.CountNetworks([]metrics.NetworkState{{Status: "True", Reason: "Provisioned"}}, func() map[metrics.NetworkState]int { return nil })
	m.CountNetworksWithoutGrant([]string{"retain"}, func() map[string]int { return nil })
	m.CountDriftedNetworks(func() map[string]int { return map[string]int{"ns": 1} })
	m.ExportShards(func() []metrics.ShardState { return []metrics.ShardState{{Shard: "0/1", Held: true}} })
	m.SetShardSelectorServed(true)
	m.ExportFullSubnets(func() []metrics.SubnetUse {
		return []metrics.SubnetUse{{Namespace: "ns", Network: "n", Subnet: "s", Used: 9, Total: 10}}
	})
	m.ExportCredentialExpiries(time.Hour, func() []metrics.CredentialsExpiry {
		return []metrics.CredentialsExpiry{{Kind: "password", At: time.Now()}}
	})
	families, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, f := range families {
		var labels []string
		if len(f.GetMetric()) > 0 {
			for _, l := range f.GetMetric()[0].GetLabel() {
				labels = append(labels, l.GetName())
			}
		}
		out[f.GetName()] = labels
	}
	return out
}

// runtimeSeries are the series of the Go runtime and process collectors, which the table
// does not list one by one.
func runtimeSeries(name string) bool {
	return strings.HasPrefix(name, "go_") || strings.HasPrefix(name, "process_")
}

// metricRow is a row of the metrics table: its series and the labels it names.
type metricRow struct {
	line   int
	names  []string
	labels []string
}

var (
	seriesNameRe = regexp.MustCompile(`^[a-zA-Z_:][a-zA-Z0-9_:]*$`)
	// A label in the labels cell: a name alone, or name="value", followed by " =", ",",
	// " (", " of" or the end of the cell; other code spans there are values or flags.
	labelSpanRe = regexp.MustCompile("`([a-z_][a-z0-9_]*)(?:=\"[^\"`]*\")?`(?:\\s*=|,|\\s+\\(|\\s+of\\b|\\s*$)")
)

// metricsTable reads the first table of the Metrics section of docs/operations.md.
func metricsTable(t *testing.T) (rows []metricRow, sectionLines []string) {
	t.Helper()
	lines, first, ok := section(readRepoFile(t, metricsDoc), "Metrics")
	if !ok {
		t.Fatalf("%s has no section Metrics", metricsDoc)
	}
	tbs := tables(lines, first)
	if len(tbs) == 0 || len(tbs[0].header) < 2 || tbs[0].header[0] != "series" || tbs[0].header[1] != "labels" {
		t.Fatalf("%s: the Metrics section's first table is not | series | labels | ... |", metricsDoc)
	}
	for _, r := range tbs[0].rows {
		row := metricRow{line: r.line}
		for _, n := range codeSpans(r.cells[0]) {
			if !seriesNameRe.MatchString(n) {
				t.Errorf("%s:%d: %q is no series name", metricsDoc, r.line, n)
			}
			row.names = append(row.names, n)
		}
		for _, m := range labelSpanRe.FindAllStringSubmatch(r.cells[1], -1) {
			if !slices.Contains(row.labels, m[1]) {
				row.labels = append(row.labels, m[1])
			}
		}
		rows = append(rows, row)
	}
	return rows, lines
}

// TestMetricsTable checks that the metrics table lists exactly the series the controller
// registers, each with its labels, and that the source reading finds every series the
// registry exports.
func TestMetricsTable(t *testing.T) {
	source := sourceSeries(t)
	gathered := gatheredSeries(t)
	rows, sectionLines := metricsTable(t)

	for name, labels := range gathered {
		if runtimeSeries(name) {
			continue
		}
		s, ok := source[name]
		if !ok {
			t.Errorf("pkg/metrics exports %s, which this test did not find in the source; teach sourceSeries to read it", name)
			continue
		}
		if !sameSet(labels, s.labels) {
			t.Errorf("%s: %s has the labels %q in the registry, %q in the source", s.pos, name, labels, s.labels)
		}
	}
	for name, s := range source {
		if _, ok := gathered[name]; !ok {
			t.Logf("%s: %s is not exported by gatheredSeries; its name and labels are checked from the source only", s.pos, name)
		}
	}

	documented := map[string]int{}
	for _, r := range rows {
		var want []string
		for _, name := range r.names {
			if prev, dup := documented[name]; dup {
				t.Errorf("%s:%d: %s listed again (first on line %d)", metricsDoc, r.line, name, prev)
			}
			documented[name] = r.line
			s, ok := source[name]
			if !ok {
				t.Errorf("%s:%d: %s is listed, but the controller registers no such series", metricsDoc, r.line, name)
				continue
			}
			for _, l := range s.labels {
				if !slices.Contains(want, l) {
					want = append(want, l)
				}
			}
		}
		if !sameSet(r.labels, want) {
			t.Errorf("%s:%d: %v have the labels %q; the table says %q", metricsDoc, r.line, r.names, want, r.labels)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(source)) {
		if _, ok := documented[name]; !ok {
			t.Errorf("%s: the series %s is registered, but the metrics table of %s does not list it", source[name].pos, name, metricsDoc)
		}
	}

	// The runtime series the section names must exist.
	for _, l := range sectionLines {
		if strings.HasPrefix(strings.TrimSpace(l), "|") {
			continue // the table's cells: labels such as go_version
		}
		for _, span := range codeSpans(l) {
			if runtimeSeries(span) && seriesNameRe.MatchString(span) {
				if _, ok := gathered[span]; !ok {
					t.Errorf("%s: the Metrics section names %s, which the Go runtime and process collectors do not export", metricsDoc, span)
				}
			}
		}
	}
	t.Logf("%d series in the source, %d gathered, %d rows", len(source), len(gathered), len(rows))
}

// metricMentionFiles are the files, besides README.md and docs/, whose series names are
// checked: the alert rules and dashboard.
var metricMentionFiles = []string{"deploy/monitoring/*.yaml", "deploy/monitoring/*.json"}

var seriesMentionRe = regexp.MustCompile(`\b(?:network_controller|workqueue)_[a-z0-9_]*[a-z0-9]`)

// TestSeriesNamedInTheDocsExist checks every series name of the controller (network_controller_*
// and workqueue_*) in README.md, docs/ and the alert rules and dashboard: each must be
// registered, or be a histogram's _bucket, _sum or _count.
func TestSeriesNamedInTheDocsExist(t *testing.T) {
	source := sourceSeries(t)
	files := append(docFiles(t), globFiles(t, repoRoot, metricMentionFiles)...)
	n := 0
	for _, f := range files {
		for i, l := range strings.Split(readRepoFile(t, f), "\n") {
			for _, name := range seriesMentionRe.FindAllString(l, -1) {
				n++
				base := name
				for _, suffix := range []string{"_bucket", "_sum", "_count"} {
					if b, ok := strings.CutSuffix(name, suffix); ok {
						if _, found := source[b]; found {
							base = b
						}
					}
				}
				if _, ok := source[base]; ok {
					continue
				}
				if _, ok := source["network_controller_"+base]; ok && strings.HasPrefix(base, "workqueue_") {
					continue // a name written without the prefix network_controller_
				}
				t.Errorf("%s:%d: %s is no series the controller registers", f, i+1, name)
			}
		}
	}
	t.Logf("%d names in %d files", n, len(files))
}

func sameSet(a, b []string) bool {
	return slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
}
