package v1

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strings"
	"testing"
)

// TestReadyReasonsListsEveryReason keeps ReadyReasons in step with the Reason constants.
func TestReadyReasonsListsEveryReason(t *testing.T) {
	file, err := parser.ParseFile(token.NewFileSet(), "conditions.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	for _, decl := range file.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.CONST {
			continue
		}
		for _, spec := range gen.Specs {
			for _, name := range spec.(*ast.ValueSpec).Names {
				if strings.HasPrefix(name.Name, "Reason") {
					declared = append(declared, name.Name)
				}
			}
		}
	}
	if len(declared) < 20 {
		t.Fatalf("found only %d Reason constants in conditions.go: %q", len(declared), declared)
	}
	values := map[string]string{}
	for _, name := range declared {
		values[name] = strings.TrimPrefix(name, "Reason")
	}
	for name, value := range values {
		if !slices.Contains(ReadyReasons, value) {
			t.Errorf("ReadyReasons lacks %s (%q)", name, value)
		}
	}
	if len(ReadyReasons) != len(declared) {
		t.Errorf("ReadyReasons has %d entries, conditions.go declares %d Reason constants", len(ReadyReasons), len(declared))
	}
}
