package registry

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// This file reads YAML nodes strictly, so that a document means one thing whichever
// parser reads it: no anchors, aliases, merge keys or explicit tags (gophercloud's yaml.v2
// would decode !!binary, expand aliases and merge keys), every key a string written once.
// Errors name the place (a key path and a line), never a value: values may be secrets.

// parseOneDocument parses raw as exactly one YAML document.
func parseOneDocument(raw []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("it holds no YAML document")
		}
		return nil, syntaxErrorOf(err)
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case errors.Is(err, io.EOF):
	case err != nil:
		return nil, syntaxErrorOf(err)
	default:
		return nil, fmt.Errorf("it holds more than one YAML document (another starts at line %d)", next.Line)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, errors.New("it holds no YAML document")
	}
	return doc.Content[0], nil
}

var yamlErrorLine = regexp.MustCompile(`line \d+`)

// syntaxErrorOf says where the document is wrong without quoting it: a parser's
// message may carry a piece of the document, and that piece may be a password.
func syntaxErrorOf(err error) error {
	if line := yamlErrorLine.FindString(err.Error()); line != "" {
		return errors.New("syntax error at " + line)
	}
	return errors.New("it does not parse as YAML")
}

// implicitScalarTags are the tags yaml.v3 resolves plain scalars to, read as their text
// (as gophercloud's yaml.v2 does for a string field); !!null is refused separately.
var implicitScalarTags = map[string]bool{"!!str": true, "!!int": true, "!!float": true, "!!bool": true, "!!timestamp": true, "!!null": true}

// checkPlainNode refuses anchors, aliases, merge keys and tags other than the plain ones.
// what names the node in messages.
func checkPlainNode(n *yaml.Node, what string) error {
	switch {
	case n.Kind == yaml.AliasNode:
		return fmt.Errorf("%s is an alias (*) at line %d; anchors and aliases are refused, write the value out", what, n.Line)
	case n.Anchor != "":
		return fmt.Errorf("%s sets an anchor (&) at line %d; anchors and aliases are refused, write the value out", what, n.Line)
	case n.Kind == yaml.ScalarNode && n.Tag == "!!merge":
		return fmt.Errorf("%s is a merge key (<<) at line %d; merge keys are refused, write the keys out", what, n.Line)
	}
	explicit := n.Style&yaml.TaggedStyle != 0
	var plain bool
	switch n.Kind {
	case yaml.MappingNode:
		plain = n.Tag == "!!map"
	case yaml.SequenceNode:
		plain = n.Tag == "!!seq"
	case yaml.ScalarNode:
		plain = n.Tag == "!!str" || (!explicit && implicitScalarTags[n.Tag])
	}
	if !plain {
		return fmt.Errorf("%s has a YAML tag (!...) at line %d; only plain values are read", what, n.Line)
	}
	return nil
}

// mappingKey is a key of a mapping with its value.
type mappingKey struct {
	name  string
	kind  keyKind
	value *yaml.Node
}

// keysOf returns the keys of mapping n, each known to schema, written exactly and once.
// path turns a key into its path for messages (e.g. auth.password); of says whose keys
// they are (e.g. ` of cloud "a"`, or "").
func keysOf(n *yaml.Node, schema keySchema, path func(string) string, of string) ([]mappingKey, error) {
	keys := make([]mappingKey, 0, len(n.Content)/2)
	seen := make(map[string]int, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		name, err := mappingKeyText(k, "a key"+of)
		if err != nil {
			return nil, err
		}
		what := "key " + path(displayKey(name)) + of
		if line, dup := seen[name]; dup {
			return nil, fmt.Errorf("%s appears twice (lines %d and %d)", what, line, k.Line)
		}
		seen[name] = k.Line
		kind, known := schema.lookup(name)
		if known && kind != keyUnsupported {
			keys = append(keys, mappingKey{name: name, kind: kind, value: n.Content[i+1]})
			continue
		}
		if known {
			return nil, fmt.Errorf("%s is not supported by this controller (line %d)", what, k.Line)
		}
		if folded := schema.foldsTo(name); folded != "" {
			return nil, fmt.Errorf("%s differs from the known key %s only by case (line %d)", what, path(folded), k.Line)
		}
		return nil, fmt.Errorf("%s is not a key this controller knows (line %d)", what, k.Line)
	}
	return keys, nil
}

// mappingKeyText returns the text of a mapping key, refusing keys that are not plain strings.
func mappingKeyText(k *yaml.Node, what string) (string, error) {
	if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
		return "", checkPlainNode(k, what)
	}
	if k.Kind != yaml.ScalarNode {
		return "", fmt.Errorf("%s at line %d is not a string", what, k.Line)
	}
	if err := checkPlainNode(k, what); err != nil {
		return "", err
	}
	if k.Tag != "!!str" {
		return "", fmt.Errorf("%s at line %d is not a string", what, k.Line)
	}
	return k.Value, nil
}

// mappingNode checks that n is a plain mapping.
func mappingNode(n *yaml.Node, what string) error {
	if n.Kind == yaml.MappingNode || n.Kind == yaml.AliasNode {
		return checkPlainNode(n, what)
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" && n.Style&yaml.TaggedStyle == 0 {
		return fmt.Errorf("%s has no value (line %d); it must be a mapping", what, n.Line)
	}
	return fmt.Errorf("%s must be a mapping (line %d)", what, n.Line)
}

// scalarText returns the text of a scalar value, refusing a missing value (null):
// gophercloud reads null as "", and ! null as the text null.
func scalarText(n *yaml.Node, what string) (string, error) {
	if n.Kind != yaml.ScalarNode && n.Kind != yaml.AliasNode {
		return "", fmt.Errorf("%s must be a single value, not a mapping or a list (line %d)", what, n.Line)
	}
	if err := checkPlainNode(n, what); err != nil {
		return "", err
	}
	if n.Tag == "!!null" {
		return "", fmt.Errorf("%s has no value (line %d); give it one or remove it", what, n.Line)
	}
	return n.Value, nil
}

// scalarBool returns a true or false value, written plainly.
func scalarBool(n *yaml.Node, what string) (bool, error) {
	if _, err := scalarText(n, what); err != nil {
		return false, err
	}
	if n.Tag != "!!bool" {
		return false, fmt.Errorf("%s must be true or false, unquoted (line %d)", what, n.Line)
	}
	return n.Value == "true" || n.Value == "True" || n.Value == "TRUE", nil
}

// displayKey writes a key of the document for a message: as is when it is a plain word,
// quoted with escapes otherwise, cut when long.
func displayKey(key string) string {
	const max = 64
	plain := len(key) > 0 && len(key) <= max
	for i := 0; plain && i < len(key); i++ {
		c := key[i]
		plain = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
	}
	if plain {
		return key
	}
	return displayName(key)
}

// displayName quotes a name for a message, with escapes, cut when long.
func displayName(name string) string {
	const max = 64
	if len(name) <= max {
		return strconv.QuoteToASCII(name)
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(name[cut]) {
		cut--
	}
	return strconv.QuoteToASCII(name[:cut]) + "..."
}
