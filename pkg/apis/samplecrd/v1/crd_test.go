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

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	"github.com/samplecrd/network-controller/pkg/apis/samplecrd"
)

// crdFile is the CRD that hack/update-codegen.sh generates from this package's types,
// relative to this package's directory (go test runs in it). These tests check what the
// generator does not: that its names match the registered types, that the printer
// columns point into the schema, and the conventions every field must follow.
var crdFile = filepath.Join("..", "..", "..", "..", "crd", "network.yaml")

// identityCRDFile is the CRD of ClusterIdentity, generated beside crdFile.
var identityCRDFile = filepath.Join("..", "..", "..", "..", "crd", "clusteridentity.yaml")

// loadCRD parses crd/network.yaml into generic maps.
func loadCRD(t *testing.T) map[string]any {
	t.Helper()
	return loadCRDFile(t, crdFile)
}

// loadCRDFile parses a CRD file into generic maps, through JSON as kubectl does (so
// numbers are float64). UnmarshalStrict rejects duplicate keys, which would otherwise
// silently hide part of the schema.
func loadCRDFile(t *testing.T, crdFile string) map[string]any {
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

// crdKinds are the CRDs of this package's kinds: file, kind, list kind, plural and scope.
var crdKinds = []struct {
	file, kind, listKind, plural, scope string
}{
	{crdFile, reflect.TypeFor[Network]().Name(), reflect.TypeFor[NetworkList]().Name(), "networks", "Namespaced"},
	{identityCRDFile, reflect.TypeFor[ClusterIdentity]().Name(), reflect.TypeFor[ClusterIdentityList]().Name(), "clusteridentities", "Cluster"},
}

func TestCRDNamesMatchAPI(t *testing.T) {
	// The kinds registered in the scheme by this package (not the meta/v1 helpers
	// AddToGroupVersion adds) are exactly the CRDs' kinds and list kinds.
	scheme := runtime.NewScheme()
	if err := AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	pkg := reflect.TypeFor[Network]().PkgPath()
	var registered, named []string
	for kind, typ := range scheme.KnownTypes(SchemeGroupVersion) {
		if typ.PkgPath() == pkg {
			registered = append(registered, kind)
		}
	}
	for _, want := range crdKinds {
		crd := loadCRDFile(t, want.file)
		named = append(named, checkCRDNames(t, crd, want.kind, want.listKind, want.plural, want.scope)...)
	}
	if slices.Sort(registered); !slices.Equal(registered, slices.Sorted(slices.Values(named))) {
		t.Errorf("registered kinds %v, the CRDs name kinds and list kinds %v", registered, named)
	}
}

// checkCRDNames checks one CRD's names, group, version and scope, and returns its kind
// and list kind.
func checkCRDNames(t *testing.T, crd map[string]any, wantKind, wantListKind, wantPlural, wantScope string) []string {
	t.Helper()
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
	kind := getString(t, crd, "spec", "names", "kind")
	listKind := getString(t, crd, "spec", "names", "listKind")
	if kind != wantKind || listKind != wantListKind {
		t.Errorf("CRD kind %q listKind %q, want %s and %s", kind, listKind, wantKind, wantListKind)
	}
	plural := getString(t, crd, "spec", "names", "plural")
	if plural != wantPlural {
		t.Errorf("%s: plural = %q, want %q", kind, plural, wantPlural)
	}
	if got := getString(t, crd, "spec", "names", "singular"); got != strings.ToLower(kind) {
		t.Errorf("%s: singular = %q, want %q", kind, got, strings.ToLower(kind))
	}
	if got, want := getString(t, crd, "metadata", "name"), Resource(plural).String(); got != want {
		t.Errorf("metadata.name = %q, want %q", got, want)
	}
	if got := getString(t, crd, "spec", "scope"); got != wantScope {
		t.Errorf("%s: scope = %q, want %s", kind, got, wantScope)
	}

	versions := get(t, crd, "spec", "versions").([]any)
	if len(versions) != 1 {
		t.Fatalf("%s: CRD has %d versions, want 1", kind, len(versions))
	}
	if got := getString(t, crd, "spec", "versions", "0", "name"); got != SchemeGroupVersion.Version || got != samplecrd.Version {
		t.Errorf("%s: version = %q, want %q", kind, got, SchemeGroupVersion.Version)
	}
	for _, flag := range []string{"served", "storage"} {
		if got, _ := get(t, crd, "spec", "versions", "0", flag).(bool); !got {
			t.Errorf("%s: version %s: %s is not true", kind, SchemeGroupVersion.Version, flag)
		}
	}
	// The controller writes status through the status subresource.
	getMap(t, crd, "spec", "versions", "0", "subresources", "status")
	return []string{kind, listKind}
}

// TestCRDPrinterColumnsExist checks that every printer column points at a field the
// schema has, so that renaming a field cannot leave an always-empty column behind.
func TestCRDPrinterColumnsExist(t *testing.T) {
	for _, k := range crdKinds {
		t.Run(k.kind, func(t *testing.T) { checkPrinterColumns(t, loadCRDFile(t, k.file)) })
	}
}

func checkPrinterColumns(t *testing.T, crd map[string]any) {
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

// TestCRDSchemaConventions checks what kubectl explain and the CEL cost estimator need:
// a description on every field and a maxLength on every string (a new field without a
// doc comment or a MaxLength marker fails here), plus the list semantics of conditions
// that types.go declares with +listType=map and +listMapKey=type.
func TestCRDSchemaConventions(t *testing.T) {
	for _, k := range crdKinds {
		root := schemaOf(t, loadCRDFile(t, k.file))
		for _, p := range checkConventions("", root) {
			t.Errorf("%s: %s", k.kind, p)
		}
		conditions := getMap(t, root, "properties", "status", "properties", "conditions")
		if got := conditions["x-kubernetes-list-type"]; got != "map" {
			t.Errorf("%s: status.conditions: x-kubernetes-list-type = %v, want map", k.kind, got)
		}
		if got, _ := conditions["x-kubernetes-list-map-keys"].([]any); len(got) != 1 || got[0] != "type" {
			t.Errorf("%s: status.conditions: x-kubernetes-list-map-keys = %v, want [type]", k.kind, got)
		}
	}
	root := schemaOf(t, loadCRD(t))

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

// TestCRDSubnetsList checks what types.go and subnets.go declare for the list form:
// items keyed by name, each holding every field of the one-subnet form; every such field
// refused at the top of the spec together with subnets; and an item's range immutable.
func TestCRDSubnetsList(t *testing.T) {
	root := schemaOf(t, loadCRD(t))
	spec := getMap(t, root, "properties", "spec")
	subnets := getMap(t, spec, "properties", "subnets")
	if got := subnets["x-kubernetes-list-type"]; got != "map" {
		t.Errorf("spec.subnets: x-kubernetes-list-type = %v, want map", got)
	}
	if got, _ := subnets["x-kubernetes-list-map-keys"].([]any); len(got) != 1 || got[0] != "name" {
		t.Errorf("spec.subnets: x-kubernetes-list-map-keys = %v, want [name]", got)
	}
	if got, _ := subnets["maxItems"].(float64); got != 8 {
		t.Errorf("spec.subnets: maxItems = %v, want 8 (it bounds the cost of the rules comparing all pairs)", subnets["maxItems"])
	}
	item := getMap(t, subnets, "items")
	if req, _ := item["required"].([]any); !slices.Contains(req, any("name")) {
		t.Errorf("spec.subnets items: required = %v, want name (the map key) among them", req)
	}
	itemProps := getMap(t, item, "properties")

	specRules := map[string]bool{}
	for _, r := range get(t, spec, "x-kubernetes-validations").([]any) {
		specRules[r.(map[string]any)["rule"].(string)] = true
	}
	fields := reflect.TypeFor[SubnetFields]()
	for i := range fields.NumField() {
		name, _, _ := strings.Cut(fields.Field(i).Tag.Get("json"), ",")
		if _, ok := itemProps[name]; !ok {
			t.Errorf("spec.subnets items have no %s, a field of SubnetFields", name)
		}
		if rule := fmt.Sprintf("!has(self.subnets) || !has(self.%s)", name); !specRules[rule] {
			t.Errorf("spec has no rule %q: the one-subnet form's %s must be refused together with subnets", rule, name)
		}
	}

	for _, field := range []string{"cidr", "subnetPool", "prefixLength"} {
		immutable := false
		rules, _ := getMap(t, itemProps, field)["x-kubernetes-validations"].([]any)
		for _, r := range rules {
			if r.(map[string]any)["rule"] == "self == oldSelf" {
				immutable = true
			}
		}
		if !immutable {
			t.Errorf("spec.subnets[].%s has no self == oldSelf rule: it must be immutable", field)
		}
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
	// metadata is an exception: the apiserver forbids a description on it. So are the
	// items of a list of strings or numbers: no Go declaration documents them, and
	// kubectl explain shows the list's own description.
	scalarItems := strings.HasSuffix(path, "[]") && s["type"] != "object"
	if d, _ := s["description"].(string); strings.TrimSpace(d) == "" && path != "metadata" && !scalarItems {
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
			// The apiserver falls back to message when messageExpression fails at run
			// time; without one, users read "failed rule: <the CEL>".
			if rule["messageExpression"] != nil && rule["message"] == nil {
				p = append(p, fmt.Sprintf("%s: validation rule %d has a messageExpression but no message to fall back on", name, i))
			}
			// The apiserver evaluates messageExpression with a plain oldSelf (null on a
			// create), not the optional one its rule sees, so oldSelf.hasValue() fails
			// there and the message falls back.
			if opt, _ := rule["optionalOldSelf"].(bool); opt {
				if m, _ := rule["messageExpression"].(string); strings.Contains(m, "oldSelf") {
					p = append(p, fmt.Sprintf("%s: validation rule %d has optionalOldSelf and uses oldSelf in its messageExpression", name, i))
				}
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
