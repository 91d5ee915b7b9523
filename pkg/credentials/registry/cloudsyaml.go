package registry

import (
	"errors"
	"fmt"

	"go.yaml.in/yaml/v3"
)

// Bounds of a clouds.yaml, so that what a tenant's Secret costs the controller is small
// whatever the tenant writes into it.
const (
	// MaxCloudsYAMLBytes is the largest clouds.yaml read; a larger one is refused unparsed.
	MaxCloudsYAMLBytes = 64 << 10
	// MaxClouds is the most clouds one clouds.yaml may hold.
	MaxClouds = 64
)

// cloudEntry is one cloud of a clouds.yaml as the strict decoder read it: known keys
// only, each written exactly and once; the values are what authentication then uses.
type cloudEntry struct {
	// text holds the cloud's honoured scalar keys (auth_type, region_name, ...).
	text map[string]string
	// verify is nil when the cloud does not set it.
	verify *bool
	// auth holds the keys of auth; nil when the cloud has no auth.
	auth map[string]string
	// files lists the keys naming files of the controller's host (cacert, profile, ...).
	files []string
}

// decodeCloudsYAML decodes a clouds.yaml strictly into its clouds by name. It refuses
// what readers of clouds.yaml could read differently (see yamlnodes.go), unknown keys at
// every level, and more than MaxClouds clouds. A parser panic is a refusal, not a crash.
func decodeCloudsYAML(raw []byte) (clouds map[string]*cloudEntry, err error) {
	defer func() {
		if recover() != nil {
			clouds, err = nil, errors.New("it does not parse as YAML")
		}
	}()
	root, err := parseOneDocument(raw)
	if err != nil {
		return nil, err
	}
	const rootWhat = "the document"
	if root.Kind != yaml.MappingNode {
		return nil, errors.New("the document must be a mapping with the key clouds")
	}
	if err := checkPlainNode(root, rootWhat); err != nil {
		return nil, err
	}
	top, err := keysOf(root, topLevelSchema, samePath, "")
	if err != nil {
		return nil, err
	}
	if len(top) == 0 {
		return nil, errors.New("the document has no key clouds")
	}
	return decodeClouds(top[0].value)
}

// decodeClouds decodes the mapping of clouds by name.
func decodeClouds(n *yaml.Node) (map[string]*cloudEntry, error) {
	if err := mappingNode(n, "key clouds"); err != nil {
		return nil, err
	}
	if count := len(n.Content) / 2; count > MaxClouds {
		return nil, fmt.Errorf("it holds %d clouds, more than the %d this controller reads", count, MaxClouds)
	}
	clouds := make(map[string]*cloudEntry, len(n.Content)/2)
	lines := make(map[string]int, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		name, err := mappingKeyText(n.Content[i], "a cloud name")
		if err != nil {
			return nil, err
		}
		if line, dup := lines[name]; dup {
			return nil, fmt.Errorf("cloud %s appears twice (lines %d and %d)", displayName(name), line, n.Content[i].Line)
		}
		lines[name] = n.Content[i].Line
		entry, err := decodeCloud(n.Content[i+1], displayName(name))
		if err != nil {
			return nil, err
		}
		clouds[name] = entry
	}
	return clouds, nil
}

// decodeCloud decodes one cloud; name is its name as messages write it.
func decodeCloud(n *yaml.Node, name string) (*cloudEntry, error) {
	if err := mappingNode(n, "cloud "+name); err != nil {
		return nil, err
	}
	of := " of cloud " + name
	keys, err := keysOf(n, cloudSchema, samePath, of)
	if err != nil {
		return nil, err
	}
	entry := &cloudEntry{text: map[string]string{}}
	for _, k := range keys {
		what := "key " + k.name + of
		switch k.kind {
		case keyScalar:
			if entry.text[k.name], err = scalarText(k.value, what); err != nil {
				return nil, err
			}
		case keyBool:
			v, err := scalarBool(k.value, what)
			if err != nil {
				return nil, err
			}
			entry.verify = &v
		case keyMapping:
			if entry.auth, err = decodeAuth(k.value, of); err != nil {
				return nil, err
			}
		case keyIgnored, keyFile:
			if _, err := scalarText(k.value, what); err != nil {
				return nil, err
			}
			if k.kind == keyFile {
				entry.files = append(entry.files, k.name)
			}
		}
	}
	return entry, nil
}

// decodeAuth decodes the auth mapping of a cloud.
func decodeAuth(n *yaml.Node, of string) (map[string]string, error) {
	if err := mappingNode(n, "key auth"+of); err != nil {
		return nil, err
	}
	authPath := func(key string) string { return "auth." + key }
	keys, err := keysOf(n, authSchema, authPath, of)
	if err != nil {
		return nil, err
	}
	auth := make(map[string]string, len(keys))
	for _, k := range keys {
		v, err := scalarText(k.value, "key auth."+k.name+of)
		if err != nil {
			return nil, err
		}
		if k.kind == keyScalar {
			auth[k.name] = v
		}
	}
	return auth, nil
}

func samePath(key string) string { return key }

// size estimates the bytes the entry keeps in memory.
func (e *cloudEntry) size() int {
	const mapEntry, header = 48, 128
	n := header
	for k, v := range e.text {
		n += mapEntry + len(k) + len(v)
	}
	for k, v := range e.auth {
		n += mapEntry + len(k) + len(v)
	}
	return n + 16*len(e.files)
}
