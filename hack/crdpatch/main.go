// Command crdpatch finishes the CustomResourceDefinition that controller-gen writes from
// pkg/apis: it adds a maxLength to the strings whose schema comes from types outside this
// repository, which no marker here can reach, so that every string of the schema has one
// (pkg/apis/samplecrd/v1's TestCRDSchemaConventions checks that), and the validation
// rules of a rules file: those too long for a marker line, kept folded over lines there so
// that they can be read. hack/update-codegen.sh runs it:
//
//	crdpatch CONTROLLER-GEN-OUTPUT crd/network.yaml pkg/apis/samplecrd/v1/network_rules.yaml
//	crdpatch CONTROLLER-GEN-OUTPUT crd/clusteridentity.yaml
//
// The output is written the way controller-gen writes it (its header, then the object
// through gopkg.in/yaml.v2), so the patched file differs from controller-gen's only in
// the values added here.
package main

import (
	"bytes"
	"fmt"
	"os"

	"gopkg.in/yaml.v2"
)

// maxLengths are the values added, by path from openAPIV3Schema through "properties" and
// "items". Each must not have a maxLength yet: when a newer controller-gen or
// apimachinery sets one, drop it here rather than override it.
// An entry with a plural applies to that CRD only; the others to every CRD.
var maxLengths = []struct {
	plural string
	path   []string
	max    int
}{
	// metav1.TypeMeta: a group (a DNS subdomain, 253), "/" and a version (a DNS label, 63).
	{"", []string{"properties", "apiVersion"}, 317},
	// metav1.TypeMeta: a kind is at most a DNS label long.
	{"", []string{"properties", "kind"}, 63},
	// metav1.Condition: True, False or Unknown.
	{"", []string{"properties", "status", "properties", "conditions", "items", "properties", "status"}, 7},
	// metav1.Condition: an RFC 3339 date-time.
	{"", []string{"properties", "status", "properties", "conditions", "items", "properties", "lastTransitionTime"}, 64},
	// metav1.LabelSelector: a label value, a label key (a DNS subdomain prefix, "/" and a
	// name), an operator (DoesNotExist is the longest).
	{"clusteridentities", []string{"properties", "spec", "properties", "namespaceSelector", "properties", "matchLabels", "additionalProperties"}, 63},
	{"clusteridentities", []string{"properties", "spec", "properties", "namespaceSelector", "properties", "matchExpressions", "items", "properties", "key"}, 317},
	{"clusteridentities", []string{"properties", "spec", "properties", "namespaceSelector", "properties", "matchExpressions", "items", "properties", "operator"}, 12},
	{"clusteridentities", []string{"properties", "spec", "properties", "namespaceSelector", "properties", "matchExpressions", "items", "properties", "values", "items"}, 63},
}

func main() {
	if len(os.Args) != 3 && len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: crdpatch CONTROLLER-GEN-OUTPUT OUTPUT [RULES]")
		os.Exit(2)
	}
	rules := ""
	if len(os.Args) == 4 {
		rules = os.Args[3]
	}
	if err := run(os.Args[1], os.Args[2], rules); err != nil {
		fmt.Fprintln(os.Stderr, "crdpatch:", err)
		os.Exit(1)
	}
}

func run(in, out, rulesFile string) error {
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	groups, err := readRules(rulesFile)
	if err != nil {
		return err
	}
	// controller-gen writes its header, then "---" and the object.
	header, body, found := bytes.Cut(data, []byte("---\n"))
	if !found || (len(header) > 0 && !bytes.HasSuffix(header, []byte("\n"))) {
		return fmt.Errorf("%s: no \"---\" line before the CustomResourceDefinition", in)
	}
	var crd map[string]any
	if err := yaml.UnmarshalStrict(body, &crd); err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	spec, _ := crd["spec"].(map[any]any)
	versions, _ := spec["versions"].([]any)
	if len(versions) == 0 {
		return fmt.Errorf("%s: no spec.versions", in)
	}
	names, _ := spec["names"].(map[any]any)
	plural, _ := names["plural"].(string)
	for _, v := range versions {
		version, _ := v.(map[any]any)
		schema, err := walk(version, "schema", "openAPIV3Schema")
		if err != nil {
			return fmt.Errorf("%s: version %v: %w", in, version["name"], err)
		}
		for _, m := range maxLengths {
			if m.plural != "" && m.plural != plural {
				continue
			}
			node, err := walk(schema, m.path...)
			if err != nil {
				return fmt.Errorf("%s: version %v: %w", in, version["name"], err)
			}
			if node["type"] != "string" {
				return fmt.Errorf("%s: version %v: %v is of type %v, not string", in, version["name"], m.path, node["type"])
			}
			if old, ok := node["maxLength"]; ok {
				return fmt.Errorf("%s: version %v: %v has a maxLength already (%v); remove it from hack/crdpatch", in, version["name"], m.path, old)
			}
			node["maxLength"] = m.max
		}
		if err := addRules(schema, groups); err != nil {
			return fmt.Errorf("%s: version %v: %w", in, version["name"], err)
		}
	}
	patched, err := yaml.Marshal(crd)
	if err != nil {
		return err
	}
	return os.WriteFile(out, append(append(header, "---\n"...), patched...), 0o644)
}

// walk follows keys through nested YAML maps.
func walk(node map[any]any, keys ...string) (map[any]any, error) {
	for i, k := range keys {
		next, ok := node[k].(map[any]any)
		if !ok {
			return nil, fmt.Errorf("openAPIV3Schema has no map at %v", keys[:i+1])
		}
		node = next
	}
	return node, nil
}
