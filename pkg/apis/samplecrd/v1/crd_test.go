package v1

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	"github.com/samplecrd/network-controller/pkg/apis/samplecrd"
)

// crdFile is the hand-written CRD, relative to this package's directory (go test runs in it).
var crdFile = filepath.Join("..", "..", "..", "..", "crd", "network.yaml")

// loadCRD parses crd/network.yaml into generic maps, through JSON as kubectl does
// (so numbers are float64). UnmarshalStrict rejects duplicate keys, which would
// otherwise silently hide part of the schema.
func loadCRD(t *testing.T) map[string]any {
	t.Helper()
	data, err := os.ReadFile(crdFile)
	if err != nil {
		t.Fatalf("reading the CRD: %v", err)
	}
	var crd map[string]any
	if err := yaml.UnmarshalStrict(data, &crd); err != nil {
		t.Fatalf("parsing %s: %v", crdFile, err)
	}
	return crd
}

// get walks crd along keys (map keys, or "0", "1"... for list indexes) and fails the
// test when something is missing.
func get(t *testing.T, v any, keys ...string) any {
	t.Helper()
	for i, k := range keys {
		switch c := v.(type) {
		case map[string]any:
			next, ok := c[k]
			if !ok {
				t.Fatalf("CRD has no %s", strings.Join(keys[:i+1], "."))
			}
			v = next
		case []any:
			var idx int
			if _, err := fmt.Sscan(k, &idx); err != nil || idx < 0 || idx >= len(c) {
				t.Fatalf("CRD has no %s", strings.Join(keys[:i+1], "."))
			}
			v = c[idx]
		default:
			t.Fatalf("CRD: %s is a %T, not a map or list", strings.Join(keys[:i], "."), v)
		}
	}
	return v
}

func getMap(t *testing.T, v any, keys ...string) map[string]any {
	t.Helper()
	m, ok := get(t, v, keys...).(map[string]any)
	if !ok {
		t.Fatalf("CRD: %s is not a map", strings.Join(keys, "."))
	}
	return m
}

func getString(t *testing.T, v any, keys ...string) string {
	t.Helper()
	s, ok := get(t, v, keys...).(string)
	if !ok {
		t.Fatalf("CRD: %s is not a string", strings.Join(keys, "."))
	}
	return s
}

// schemaOf returns the openAPIV3Schema of the only version.
func schemaOf(t *testing.T, crd map[string]any) map[string]any {
	t.Helper()
	return getMap(t, crd, "spec", "versions", "0", "schema", "openAPIV3Schema")
}

func TestCRDNamesMatchAPI(t *testing.T) {
	crd := loadCRD(t)

	if got := getString(t, crd, "apiVersion"); got != "apiextensions.k8s.io/v1" {
		t.Errorf("apiVersion = %q, want apiextensions.k8s.io/v1", got)
	}
	if got := getString(t, crd, "kind"); got != "CustomResourceDefinition" {
		t.Errorf("kind = %q, want CustomResourceDefinition", got)
	}
	if got := getString(t, crd, "spec", "group"); got != samplecrd.GroupName || got != SchemeGroupVersion.Group {
		t.Errorf("spec.group = %q, want %q", got, samplecrd.GroupName)
	}
	if strings.HasSuffix(samplecrd.GroupName, ".k8s.io") || strings.HasSuffix(samplecrd.GroupName, ".kubernetes.io") {
		approval := getString(t, crd, "metadata", "annotations", "api-approved.kubernetes.io")
		if !strings.HasPrefix(approval, "unapproved") {
			t.Errorf("api-approved.kubernetes.io = %q: outside the Kubernetes project it must start with \"unapproved\"", approval)
		}
	}

	// The kinds registered in the scheme by this package (not the meta/v1 helpers
	// AddToGroupVersion adds) are exactly kind and listKind.
	scheme := runtime.NewScheme()
	if err := AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	pkg := reflect.TypeFor[Network]().PkgPath()
	var registered []string
	for kind, typ := range scheme.KnownTypes(SchemeGroupVersion) {
		if typ.PkgPath() == pkg {
			registered = append(registered, kind)
		}
	}
	sort.Strings(registered)
	kind := getString(t, crd, "spec", "names", "kind")
	listKind := getString(t, crd, "spec", "names", "listKind")
	if want := []string{kind, listKind}; !slices.Equal(registered, want) {
		t.Errorf("registered kinds %v, CRD names kind and listKind %v", registered, want)
	}
	if kind != reflect.TypeFor[Network]().Name() || listKind != reflect.TypeFor[NetworkList]().Name() {
		t.Errorf("CRD kind %q listKind %q, want Network and NetworkList", kind, listKind)
	}
	plural := getString(t, crd, "spec", "names", "plural")
	if plural != strings.ToLower(kind)+"s" {
		t.Errorf("plural = %q, want %q", plural, strings.ToLower(kind)+"s")
	}
	if got := getString(t, crd, "spec", "names", "singular"); got != strings.ToLower(kind) {
		t.Errorf("singular = %q, want %q", got, strings.ToLower(kind))
	}
	if got, want := getString(t, crd, "metadata", "name"), Resource(plural).String(); got != want {
		t.Errorf("metadata.name = %q, want %q", got, want)
	}
	if got := getString(t, crd, "spec", "scope"); got != "Namespaced" {
		t.Errorf("scope = %q, want Namespaced", got)
	}

	versions := get(t, crd, "spec", "versions").([]any)
	if len(versions) != 1 {
		t.Fatalf("CRD has %d versions, want 1", len(versions))
	}
	if got := getString(t, crd, "spec", "versions", "0", "name"); got != SchemeGroupVersion.Version || got != samplecrd.Version {
		t.Errorf("version = %q, want %q", got, SchemeGroupVersion.Version)
	}
	for _, flag := range []string{"served", "storage"} {
		if got, _ := get(t, crd, "spec", "versions", "0", flag).(bool); !got {
			t.Errorf("version %s: %s is not true", SchemeGroupVersion.Version, flag)
		}
	}
	// The controller writes status through the status subresource.
	getMap(t, crd, "spec", "versions", "0", "subresources", "status")
}

// TestCRDPrinterColumnsExist checks that every printer column points at a field the
// schema has, so that renaming a field cannot leave an always-empty column behind.
func TestCRDPrinterColumnsExist(t *testing.T) {
	crd := loadCRD(t)
	root := schemaOf(t, crd)
	filter := regexp.MustCompile(`\[\?\(@\.(\w+)=="[^"]*"\)\]`)
	columns, _ := get(t, crd, "spec", "versions", "0", "additionalPrinterColumns").([]any)
	if len(columns) == 0 {
		t.Fatal("CRD has no additionalPrinterColumns")
	}
	for _, c := range columns {
		col := c.(map[string]any)
		path, _ := col["jsonPath"].(string)
		if path == ".metadata.creationTimestamp" {
			continue
		}
		node := root
		// ".status.conditions[?(@.type=="Ready")].status" walks status, conditions,
		// the items (which must have the filtered field), then status.
		steps := strings.Split(strings.TrimPrefix(filter.ReplaceAllString(path, ".[]$1"), "."), ".")
		for i := 0; i < len(steps) && node != nil; i++ {
			step := steps[i]
			if strings.HasPrefix(step, "[]") {
				items, _ := node["items"].(map[string]any)
				props, _ := items["properties"].(map[string]any)
				if _, ok := props[strings.TrimPrefix(step, "[]")]; !ok {
					node = nil
					break
				}
				node = items
				continue
			}
			props, _ := node["properties"].(map[string]any)
			node, _ = props[step].(map[string]any)
		}
		if node == nil {
			t.Errorf("printer column %v: jsonPath %s is not in the schema", col["name"], path)
		}
	}
}

// TestCRDSchemaMatchesGoTypes compares the schema with the Go types field by field,
// both ways: names, JSON types, and required (= json tag without omitempty).
func TestCRDSchemaMatchesGoTypes(t *testing.T) {
	root := schemaOf(t, loadCRD(t))
	for _, p := range compareSchema("", root, reflect.TypeFor[Network]()) {
		t.Error(p)
	}
}

// TestCRDSchemaConventions checks what kubectl explain and the CEL cost estimator need:
// a description everywhere and a maxLength on every string, plus the list semantics of
// conditions that types.go declares with +listType=map and +listMapKey=type.
func TestCRDSchemaConventions(t *testing.T) {
	root := schemaOf(t, loadCRD(t))
	for _, p := range checkConventions("", root) {
		t.Error(p)
	}

	conditions := getMap(t, root, "properties", "status", "properties", "conditions")
	if got := conditions["x-kubernetes-list-type"]; got != "map" {
		t.Errorf("status.conditions: x-kubernetes-list-type = %v, want map", got)
	}
	if got, _ := conditions["x-kubernetes-list-map-keys"].([]any); len(got) != 1 || got[0] != "type" {
		t.Errorf("status.conditions: x-kubernetes-list-map-keys = %v, want [type]", got)
	}

	// types.go says cidr cannot change once set.
	cidr := getMap(t, root, "properties", "spec", "properties", "cidr")
	rules, _ := cidr["x-kubernetes-validations"].([]any)
	immutable := false
	for _, r := range rules {
		if r.(map[string]any)["rule"] == "self == oldSelf" {
			immutable = true
		}
	}
	if !immutable {
		t.Error("spec.cidr has no self == oldSelf rule: it must be immutable")
	}
}

// TestCompareSchemaDetectsDrift makes sure the comparison above would catch drift: it
// runs it on variants of NetworkSpec against the real spec schema.
func TestCompareSchemaDetectsDrift(t *testing.T) {
	spec := getMap(t, schemaOf(t, loadCRD(t)), "properties", "spec")

	if p := compareSchema("spec", spec, reflect.TypeFor[NetworkSpec]()); len(p) != 0 {
		t.Fatalf("NetworkSpec itself does not match: %v", p)
	}
	type extraField struct {
		CIDR    string `json:"cidr"`
		Gateway string `json:"gateway,omitempty"`
		MTU     int32  `json:"mtu,omitempty"`
	}
	type missingField struct {
		CIDR string `json:"cidr"`
	}
	type nowRequired struct {
		CIDR    string `json:"cidr"`
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
		{reflect.TypeFor[extraField](), "spec.mtu: Go field MTU has no property in the CRD schema"},
		{reflect.TypeFor[missingField](), "spec.gateway: property in the CRD schema has no Go field"},
		{reflect.TypeFor[nowRequired](), "spec: required is [cidr], the Go json tags (fields without omitempty) say [cidr gateway]"},
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

// checkConventions returns the schema nodes under s without a description, strings
// without maxLength, and validation rules without a message.
func checkConventions(path string, s map[string]any) []string {
	name := path
	if name == "" {
		name = "<root>"
	}
	var p []string
	if d, _ := s["description"].(string); strings.TrimSpace(d) == "" && path != "metadata" {
		// metadata is the exception: the apiserver forbids a description on it.
		p = append(p, name+": no description")
	}
	if s["type"] == "string" {
		if n, ok := s["maxLength"].(float64); !ok || n < 1 {
			p = append(p, name+": string without maxLength")
		}
	}
	if rules, ok := s["x-kubernetes-validations"].([]any); ok {
		for i, r := range rules {
			rule, _ := r.(map[string]any)
			if rule["message"] == nil && rule["messageExpression"] == nil {
				p = append(p, fmt.Sprintf("%s: validation rule %d has no message", name, i))
			}
		}
	}
	props, _ := s["properties"].(map[string]any)
	for _, k := range sortedKeys(props) {
		child := k
		if path != "" {
			child = path + "." + k
		}
		p = append(p, checkConventions(child, props[k].(map[string]any))...)
	}
	if items, ok := s["items"].(map[string]any); ok {
		p = append(p, checkConventions(path+"[]", items)...)
	}
	return p
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
