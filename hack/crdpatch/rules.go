package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"gopkg.in/yaml.v2"
)

// ruleGroup is an entry of a rules file: validation rules, each as the
// x-kubernetes-validations entry it becomes, and the schema nodes they go to, as dotted
// paths from openAPIV3Schema through "properties" ("items" is an array's items). Rules
// may be given one by one, or derived from the node's properties (OnlyWith).
type ruleGroup struct {
	Paths    []string  `yaml:"paths"`
	Rules    []rule    `yaml:"rules"`
	OnlyWith *onlyWith `yaml:"onlyWith"`
}

// onlyWith is one rule for every property of a node: with Field set, only the properties
// Allowed may be set too. It becomes one rule per other property the schema has, each
// naming its property, so that a field added to the type is covered with no line here.
type onlyWith struct {
	Field   string   `yaml:"field"`
	Allowed []string `yaml:"allowed"`
	// Because says why, after "<property> cannot be set together with <Field>: ".
	Because string `yaml:"because"`
}

// rules returns o's rule for each property of node other than Field and Allowed, in the
// properties' order by name.
func (o onlyWith) rules(node map[any]any) []rule {
	properties, _ := node["properties"].(map[any]any)
	var names []string
	for name := range properties {
		if n, _ := name.(string); n != o.Field && !slices.Contains(o.Allowed, n) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	allowed := strings.Join(o.Allowed, " and ")
	var out []rule
	for _, n := range names {
		out = append(out, rule{
			Rule:      fmt.Sprintf("!has(self.%s) || !has(self.%s)", o.Field, n),
			Message:   fmt.Sprintf("%s cannot be set together with %s: %s; remove %s, only %s may be set with %s", n, o.Field, o.Because, n, allowed, o.Field),
			FieldPath: "." + n,
			Reason:    "FieldValueForbidden",
		})
	}
	return out
}

// rule holds exactly the keys an XValidation marker can set.
type rule struct {
	Rule              string `yaml:"rule"`
	Message           string `yaml:"message,omitempty"`
	MessageExpression string `yaml:"messageExpression,omitempty"`
	FieldPath         string `yaml:"fieldPath,omitempty"`
	Reason            string `yaml:"reason,omitempty"`
	OptionalOldSelf   bool   `yaml:"optionalOldSelf,omitempty"`
}

// readRules reads a rules file; "" is none.
func readRules(file string) ([]ruleGroup, error) {
	if file == "" {
		return nil, nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var groups []ruleGroup
	if err := yaml.UnmarshalStrict(data, &groups); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	for i, g := range groups {
		if len(g.Paths) == 0 || (len(g.Rules) == 0) == (g.OnlyWith == nil) {
			return nil, fmt.Errorf("%s: entry %d needs paths, and rules or onlyWith (not both)", file, i+1)
		}
		if o := g.OnlyWith; o != nil && (o.Field == "" || len(o.Allowed) == 0 || o.Because == "") {
			return nil, fmt.Errorf("%s: entry %d: onlyWith needs field, allowed and because", file, i+1)
		}
		for _, r := range g.Rules {
			if r.Rule == "" || (r.Message == "" && r.MessageExpression == "") {
				return nil, fmt.Errorf("%s: entry %d: every rule needs rule and a message or messageExpression", file, i+1)
			}
		}
	}
	return groups, nil
}

// addRules appends each group's rules to the x-kubernetes-validations of the nodes it
// names, after the rules of the markers there.
func addRules(schema map[any]any, groups []ruleGroup) error {
	for _, g := range groups {
		for _, path := range g.Paths {
			var keys []string
			for _, segment := range strings.Split(path, ".") {
				if segment == "items" {
					keys = append(keys, "items")
				} else {
					keys = append(keys, "properties", segment)
				}
			}
			node, err := walk(schema, keys...)
			if err != nil {
				return fmt.Errorf("rules for %s: %w", path, err)
			}
			validations, _ := node["x-kubernetes-validations"].([]any)
			rules := g.Rules
			if g.OnlyWith != nil {
				rules = g.OnlyWith.rules(node)
			}
			for _, r := range rules {
				for _, v := range validations {
					if existing, _ := v.(map[any]any); existing["rule"] == r.Rule {
						return fmt.Errorf("%s has the rule %.60q... already: a marker and the rules file both give it", path, r.Rule)
					}
				}
				validations = append(validations, r.entry())
			}
			node["x-kubernetes-validations"] = validations
		}
	}
	return nil
}

// entry is r as controller-gen writes a marker's rule.
func (r rule) entry() map[any]any {
	e := map[any]any{"rule": r.Rule}
	for key, value := range map[string]string{"message": r.Message, "messageExpression": r.MessageExpression, "fieldPath": r.FieldPath, "reason": r.Reason} {
		if value != "" {
			e[key] = value
		}
	}
	if r.OptionalOldSelf {
		e["optionalOldSelf"] = true
	}
	return e
}
