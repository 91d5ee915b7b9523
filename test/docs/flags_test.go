package docs

import (
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"k8s.io/klog/v2"
)

// The flags table of docs/operations.md against the flags the binary defines: those of
// the root package's functions that take a *flag.FlagSet (options.go's addFlags), read
// from the source since package main cannot be imported, and klog's.

const flagsDoc = "docs/operations.md"

// definedFlag is a flag the source defines, with its default when the source writes it
// as a literal (a string, a number, a bool, or a product of a number and time units).
type definedFlag struct {
	name       string
	pos        string
	def        string // the literal default as the documentation writes it
	hasDefault bool
}

// sourceFlags reads the flags the root package's non-test files define on a FlagSet
// parameter: fs.XxxVar(&v, "name", default, usage), fs.Var(&v, "name", usage) and
// fs.Xxx("name", default, usage).
func sourceFlags(t *testing.T) map[string]definedFlag {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(repoRoot, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]definedFlag{}
	for _, p := range files {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			sets := flagSetParams(fd)
			if len(sets) == 0 {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if recv, ok := sel.X.(*ast.Ident); !ok || !slices.Contains(sets, recv.Name) {
					return true
				}
				pos := fset.Position(call.Pos())
				pos.Filename = filepath.Base(pos.Filename)
				method := sel.Sel.Name
				if !flagDefiners.MatchString(method) {
					return true
				}
				nameArg, defArg := 0, 1
				if strings.HasSuffix(method, "Var") {
					nameArg, defArg = 1, 2
				}
				if method == "Var" {
					defArg = -1
				}
				if nameArg >= len(call.Args) {
					return true
				}
				lit, ok := call.Args[nameArg].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				name, _ := strconv.Unquote(lit.Value)
				df := definedFlag{name: name, pos: pos.String()}
				if defArg >= 0 && defArg < len(call.Args) && !slices.Contains([]string{"Func", "BoolFunc"}, method) {
					df.def, df.hasDefault = literalDefault(call.Args[defArg])
				}
				if prev, dup := out[name]; dup {
					t.Errorf("%s: -%s defined again (first at %s)", df.pos, name, prev.pos)
				}
				out[name] = df
				return true
			})
		}
	}
	return out
}

// flagSetParams returns the names of fd's parameters of type *flag.FlagSet.
func flagSetParams(fd *ast.FuncDecl) []string {
	var names []string
	for _, field := range fd.Type.Params.List {
		star, ok := field.Type.(*ast.StarExpr)
		if !ok {
			continue
		}
		sel, ok := star.X.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "FlagSet" {
			continue
		}
		if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "flag" {
			continue
		}
		for _, n := range field.Names {
			names = append(names, n.Name)
		}
	}
	return names
}

// flagDefiners are the FlagSet methods that define a flag.
var flagDefiners = regexp.MustCompile(`^((Bool|Int|Int64|Uint|Uint64|String|Float64|Duration|Text)Var|Var|Bool|Int|Int64|Uint|Uint64|String|Float64|Duration|Func|BoolFunc)$`)

var timeUnits = map[string]time.Duration{
	"Nanosecond": time.Nanosecond, "Microsecond": time.Microsecond, "Millisecond": time.Millisecond,
	"Second": time.Second, "Minute": time.Minute, "Hour": time.Hour,
}

// literalDefault returns a default the source writes as a literal, as text: a string, a
// number, true or false, or a duration (a product of numbers and time units).
func literalDefault(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			s, err := strconv.Unquote(e.Value)
			return s, err == nil
		}
		return e.Value, e.Kind == token.INT || e.Kind == token.FLOAT
	case *ast.Ident:
		return e.Name, e.Name == "true" || e.Name == "false"
	}
	if d, ok := durationOf(e); ok {
		return d.String(), true
	}
	return "", false
}

func durationOf(e ast.Expr) (time.Duration, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if n, err := strconv.ParseInt(e.Value, 10, 64); err == nil && e.Kind == token.INT {
			return time.Duration(n), true
		}
	case *ast.SelectorExpr:
		if pkg, ok := e.X.(*ast.Ident); ok && pkg.Name == "time" {
			d, ok := timeUnits[e.Sel.Name]
			return d, ok
		}
	case *ast.ParenExpr:
		return durationOf(e.X)
	case *ast.BinaryExpr:
		if e.Op == token.MUL {
			a, okA := durationOf(e.X)
			b, okB := durationOf(e.Y)
			return a * b, okA && okB
		}
	}
	return 0, false
}

// sameDefault says whether the documentation's default doc states the source's def: the
// same text (code spans unwrapped), number or duration, read from the cell's first word.
func sameDefault(def, doc string) bool {
	doc = strings.TrimSpace(strings.ReplaceAll(doc, "`", ""))
	if doc == def {
		return true
	}
	first, _, _ := strings.Cut(doc, " ")
	if a, err := strconv.ParseFloat(def, 64); err == nil {
		b, err := strconv.ParseFloat(first, 64)
		return err == nil && a == b
	}
	if a, err := time.ParseDuration(def); err == nil {
		b, err := time.ParseDuration(first)
		return err == nil && a == b
	}
	return false
}

// TestFlagsTable checks the Flags section of docs/operations.md: its table lists every
// flag the binary defines and no other (klog's in a row of their own), and each default
// the source writes as a literal is the one the table states, where it states one (an
// empty string's default is described, not written: "in-cluster", "all namespaces").
func TestFlagsTable(t *testing.T) {
	defined := sourceFlags(t)
	if len(defined) < 10 {
		t.Fatalf("found only %d flags in the source: %v", len(defined), slices.Sorted(maps.Keys(defined)))
	}
	klogFlags := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(klogFlags)

	lines, first, ok := section(readRepoFile(t, flagsDoc), "Flags")
	if !ok {
		t.Fatalf("%s has no section Flags", flagsDoc)
	}
	tbs := tables(lines, first)
	if len(tbs) == 0 || len(tbs[0].header) < 2 || tbs[0].header[0] != "flag" || tbs[0].header[1] != "default" {
		t.Fatalf("%s: the Flags section's first table is not | flag | default | ... |", flagsDoc)
	}
	documented := map[string]int{}
	checked := 0
	for _, r := range tbs[0].rows {
		var names []string
		for _, span := range codeSpans(r.cells[0]) {
			if name, ok := strings.CutPrefix(span, "-"); ok {
				names = append(names, strings.TrimPrefix(name, "-"))
			}
		}
		if len(names) == 0 {
			t.Errorf("%s:%d: a row without a flag", flagsDoc, r.line)
			continue
		}
		if strings.Contains(r.cells[0], "klog") {
			for _, n := range names {
				if klogFlags.Lookup(n) == nil {
					t.Errorf("%s:%d: -%s is no klog flag", flagsDoc, r.line, n)
				}
			}
			continue
		}
		defaults := strings.Split(r.cells[1], ", ")
		for i, n := range names {
			if prev, dup := documented[n]; dup {
				t.Errorf("%s:%d: -%s listed again (first on line %d)", flagsDoc, r.line, n, prev)
			}
			documented[n] = r.line
			df, ok := defined[n]
			if !ok {
				t.Errorf("%s:%d: -%s is listed, but the binary defines no such flag", flagsDoc, r.line, n)
				continue
			}
			if !df.hasDefault || df.def == "" || strings.TrimSpace(r.cells[1]) == "" {
				continue
			}
			if len(defaults) != len(names) {
				t.Errorf("%s:%d: %d defaults for %d flags; write one each, comma-separated", flagsDoc, r.line, len(defaults), len(names))
				break
			}
			checked++
			if !sameDefault(df.def, defaults[i]) {
				t.Errorf("%s:%d: -%s defaults to %s (%s); the table says %q", flagsDoc, r.line, n, df.def, df.pos, defaults[i])
			}
		}
	}
	for _, n := range slices.Sorted(maps.Keys(defined)) {
		if _, ok := documented[n]; !ok {
			t.Errorf("%s: -%s is defined, but the flags table of %s does not list it", defined[n].pos, n, flagsDoc)
		}
	}
	t.Logf("%d flags defined, %d listed, %d defaults compared", len(defined), len(documented), checked)
}
