package v1

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The CRD's schema is written by hand; these tests keep it and the Go types in step.

// TestCRDSchemaMatchesGoTypes compares the schema with the Go types field by field,
// both ways: names, JSON types, and required (= json tag without omitempty).
func TestCRDSchemaMatchesGoTypes(t *testing.T) {
	root := schemaOf(t, loadCRD(t))
	for _, p := range compareSchema("", root, reflect.TypeFor[Network]()) {
		t.Error(p)
	}
}

// TestCompareSchemaDetectsDrift makes sure compareSchema would catch drift: it
// runs it on variants of NetworkSpec against the real spec schema.
func TestCompareSchemaDetectsDrift(t *testing.T) {
	spec := getMap(t, schemaOf(t, loadCRD(t)), "properties", "spec")

	if p := compareSchema("spec", spec, reflect.TypeFor[NetworkSpec]()); len(p) != 0 {
		t.Fatalf("NetworkSpec itself does not match: %v", p)
	}
	type extraField struct {
		CIDR    string `json:"cidr"`
		Gateway string `json:"gateway,omitempty"`
		VLAN    int32  `json:"vlan,omitempty"`
	}
	type missingField struct {
		CIDR string `json:"cidr"`
	}
	type nowRequired struct {
		CIDR    string `json:"cidr,omitempty"`
		Gateway string `json:"gateway"`
	}
	type wrongType struct {
		CIDR    []string `json:"cidr"`
		Gateway string   `json:"gateway,omitempty"`
	}
	type renamed struct {
		CIDR    string `json:"cidr"`
		Gateway string `json:"gatewayIP,omitempty"`
	}
	for _, tt := range []struct {
		typ  reflect.Type
		want string
	}{
		{reflect.TypeFor[extraField](), "spec.vlan: Go field VLAN has no property in the CRD schema"},
		{reflect.TypeFor[missingField](), "spec.gateway: property in the CRD schema has no Go field"},
		{reflect.TypeFor[nowRequired](), "spec: required is [], the Go json tags (fields without omitempty) say [gateway]"},
		{reflect.TypeFor[wrongType](), `spec.cidr: type is "string", Go type []string wants "array"`},
		{reflect.TypeFor[renamed](), "spec.gatewayIP: Go field Gateway has no property in the CRD schema"},
	} {
		problems := compareSchema("spec", spec, tt.typ)
		if !slices.Contains(problems, tt.want) {
			t.Errorf("%v: problems %q, want one to be %q", tt.typ, problems, tt.want)
		}
	}
}

// jsonField is one field of a Go struct as encoding/json sees it.
type jsonField struct {
	name      string
	goName    string
	omitempty bool
	typ       reflect.Type
}

// jsonFields lists the JSON fields of a struct, with embedded structs (such as
// metav1.TypeMeta, `json:",inline"`) flattened as encoding/json does.
func jsonFields(typ reflect.Type) []jsonField {
	var fields []jsonField
	for f := range typ.Fields() {
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			fields = append(fields, jsonFields(f.Type)...)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		omit := slices.Contains(strings.Split(opts, ","), "omitempty") || slices.Contains(strings.Split(opts, ","), "omitzero")
		fields = append(fields, jsonField{name: name, goName: f.Name, omitempty: omit, typ: f.Type})
	}
	return fields
}

// compareSchema returns the differences between the schema node s at path and the Go
// type typ.
func compareSchema(path string, s map[string]any, typ reflect.Type) []string {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	at := func(format string, args ...any) string {
		p := path
		if p == "" {
			p = "<root>"
		}
		return p + ": " + fmt.Sprintf(format, args...)
	}
	schemaType, _ := s["type"].(string)
	expectType := func(want string) []string {
		if schemaType != want {
			return []string{at("type is %q, Go type %v wants %q", schemaType, typ, want)}
		}
		return nil
	}

	// Types with their own JSON encoding.
	switch typ {
	case reflect.TypeFor[metav1.ObjectMeta]():
		// The apiserver owns the schema of metadata: it rejects a CRD whose metadata
		// says anything but "type: object" (even a description).
		p := expectType("object")
		if len(s) != 1 {
			p = append(p, at("metadata must be exactly {type: object}, not %v", s))
		}
		return p
	case reflect.TypeFor[metav1.Time]():
		p := expectType("string")
		if s["format"] != "date-time" {
			p = append(p, at("format is %v, metav1.Time wants date-time", s["format"]))
		}
		return p
	}

	switch typ.Kind() {
	case reflect.String:
		return expectType("string")
	case reflect.Bool:
		return expectType("boolean")
	case reflect.Int32, reflect.Int64, reflect.Int:
		p := expectType("integer")
		want := fmt.Sprintf("int%d", typ.Bits())
		if s["format"] != want {
			p = append(p, at("format is %v, Go type %v wants %s", s["format"], typ, want))
		}
		return p
	case reflect.Slice:
		p := expectType("array")
		if len(p) != 0 {
			return p
		}
		items, ok := s["items"].(map[string]any)
		if !ok {
			return []string{at("array without items")}
		}
		return compareSchema(path+"[]", items, typ.Elem())
	case reflect.Struct:
		p := expectType("object")
		if len(p) != 0 {
			return p
		}
		props, _ := s["properties"].(map[string]any)
		child := func(name string) string {
			if path == "" {
				return name
			}
			return path + "." + name
		}
		var wantRequired []string
		seen := map[string]bool{}
		for _, f := range jsonFields(typ) {
			seen[f.name] = true
			if !f.omitempty {
				wantRequired = append(wantRequired, f.name)
			}
			ps, ok := props[f.name].(map[string]any)
			if !ok {
				p = append(p, fmt.Sprintf("%s: Go field %s has no property in the CRD schema", child(f.name), f.goName))
				continue
			}
			p = append(p, compareSchema(child(f.name), ps, f.typ)...)
		}
		for _, name := range sortedKeys(props) {
			if !seen[name] {
				p = append(p, fmt.Sprintf("%s: property in the CRD schema has no Go field", child(name)))
			}
		}
		var required []string
		if r, ok := s["required"].([]any); ok {
			for _, v := range r {
				required = append(required, fmt.Sprint(v))
			}
		}
		sort.Strings(required)
		sort.Strings(wantRequired)
		if !slices.Equal(required, wantRequired) {
			p = append(p, at("required is %v, the Go json tags (fields without omitempty) say %v", required, wantRequired))
		}
		return p
	default:
		return []string{at("Go type %v is not handled by this test; extend compareSchema", typ)}
	}
}
