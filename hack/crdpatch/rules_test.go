package main

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v2"
)

// withRule is in with a marker's rule on status.
var withRule = strings.Replace(in, `          status:
            properties:`, `          status:
            x-kubernetes-validations:
            - message: from a marker
              rule: has(self.conditions)
            properties:`, 1)

func TestRulesAreAddedAfterTheMarkersOnOneLine(t *testing.T) {
	out, err := patchWithRules(t, withRule, `
- paths: [status, status.conditions.items]
  rules:
  - rule: >-
      !has(self.conditions)
      || self.conditions.size() < 10
    message: >-
      too many
      conditions
    fieldPath: .conditions
    optionalOldSelf: true
`)
	if err != nil {
		t.Fatal(err)
	}
	var crd map[string]any
	if err := yaml.Unmarshal([]byte(strings.SplitN(out, "---\n", 2)[1]), &crd); err != nil {
		t.Fatal(err)
	}
	schema, err := walk(crd["spec"].(map[any]any)["versions"].([]any)[0].(map[any]any), "schema", "openAPIV3Schema")
	if err != nil {
		t.Fatal(err)
	}
	status, _ := walk(schema, "properties", "status")
	got := status["x-kubernetes-validations"].([]any)
	if len(got) != 2 || got[0].(map[any]any)["rule"] != "has(self.conditions)" {
		t.Fatalf("status rules = %v, want the marker's then the file's", got)
	}
	added := got[1].(map[any]any)
	if added["rule"] != "!has(self.conditions) || self.conditions.size() < 10" || added["message"] != "too many conditions" ||
		added["fieldPath"] != ".conditions" || added["optionalOldSelf"] != true || len(added) != 4 {
		t.Errorf("added rule = %v, want the folded rule and message on one line, its fieldPath and optionalOldSelf", added)
	}
	items, _ := walk(schema, "properties", "status", "properties", "conditions", "items")
	if rules, _ := items["x-kubernetes-validations"].([]any); len(rules) != 1 {
		t.Errorf("conditions items rules = %v, want the one of the file", rules)
	}
}

func TestRulesFileMistakesAreRefused(t *testing.T) {
	for name, tc := range map[string]struct{ rules, want string }{
		"a path the schema does not have": {`[{paths: [status.nowhere], rules: [{rule: "true", message: m}]}]`, "nowhere"},
		"a rule a marker gives already":   {`[{paths: [status], rules: [{rule: has(self.conditions), message: m}]}]`, "already"},
		"a key no marker has":             {`[{paths: [status], rules: [{rule: "true", message: m, severity: high}]}]`, "severity"},
		"a rule without a message":        {`[{paths: [status], rules: [{rule: "true"}]}]`, "message"},
		"a group without paths":           {`[{rules: [{rule: "true", message: m}]}]`, "paths"},
		"rules and onlyWith together":     {`[{paths: [status], rules: [{rule: "true", message: m}], onlyWith: {field: a, allowed: [b], because: c}}]`, "not both"},
		"onlyWith without a reason":       {`[{paths: [status], onlyWith: {field: a, allowed: [b]}}]`, "because"},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := patchWithRules(t, withRule, tc.rules); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v, want one mentioning %q", err, tc.want)
			}
		})
	}
}

// onlyWith derives one rule per property of the node, so a property added to the schema is
// covered without a line in the rules file; the field itself and the allowed ones get none.
func TestOnlyWithCoversEveryOtherProperty(t *testing.T) {
	out, err := patchWithRules(t, in, `
- paths: [status.conditions.items]
  onlyWith: {field: status, allowed: [kind], because: a status says it all}
`)
	if err != nil {
		t.Fatal(err)
	}
	var crd map[string]any
	if err := yaml.Unmarshal([]byte(strings.SplitN(out, "---\n", 2)[1]), &crd); err != nil {
		t.Fatal(err)
	}
	items, err := walk(crd["spec"].(map[any]any)["versions"].([]any)[0].(map[any]any), "schema", "openAPIV3Schema",
		"properties", "status", "properties", "conditions", "items")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := items["x-kubernetes-validations"].([]any)
	if len(got) != 1 {
		t.Fatalf("rules = %v, want one, for lastTransitionTime", got)
	}
	r := got[0].(map[any]any)
	if r["rule"] != "!has(self.status) || !has(self.lastTransitionTime)" || r["fieldPath"] != ".lastTransitionTime" ||
		r["reason"] != "FieldValueForbidden" ||
		r["message"] != "lastTransitionTime cannot be set together with status: a status says it all; remove lastTransitionTime, only kind may be set with status" {
		t.Errorf("rule = %v", r)
	}
}
