package neutron

import (
	"encoding/json"
	"fmt"
	"reflect"
)

// Collection is a kind of Neutron resource that an attribute names by ID or by name.
type Collection struct {
	// Path is the collection's path in the API after /v2.0/, e.g. "qos/policies"; Key is
	// the JSON key of its list, e.g. "policies".
	Path, Key string
	// Noun names one in messages, e.g. "QoS policy".
	Noun string
}

// Named is what a lookup reads of a resource: enough to tell one from another.
type Named struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	ProjectID string `json:"project_id"`
}

// Project returns the project that owns the resource.
func (n Named) Project() string { return n.ProjectID }

// Referable is a resource that a Ref names, by its ID or its name: every kind a reference
// of a Network's spec may name, which a store looks up the one way.
type Referable interface {
	Project() string
	// AsNamed returns what tells the resource from another.
	AsNamed() Named
}

// AsNamed returns n.
func (n Named) AsNamed() Named { return n }

// AsNamed returns the network's ID, name and project.
func (n Network) AsNamed() Named { return Named{ID: n.ID, Name: n.Name, ProjectID: n.ProjectID} }

// AsNamed returns the pool's ID, name and project.
func (p SubnetPool) AsNamed() Named { return Named{ID: p.ID, Name: p.Name, ProjectID: p.ProjectID} }

// AsNamed returns the router's ID, name and project.
func (r Router) AsNamed() Named { return Named{ID: r.ID, Name: r.Name, ProjectID: r.ProjectID} }

// Reference is an attribute that names a resource of Collection by ID or by name. A pass
// resolves Ref to the ID of one resource its project can see (ResolvedID, and its name
// ResolvedName, which a grant by name needs) before comparing and sending it. In a
// desired state a nil *Reference is not managed; one that names nothing is "none", sent
// as null, unless it is ProjectDefault.
type Reference struct {
	Collection Collection
	Ref        Ref
	// ProjectDefault, with an empty Ref, is what Neutron gives a new network: the
	// project's default QoS policy (the qos-default extension), resolved to "" when the
	// project has none. A PUT of null would strip the default instead: Neutron applies it
	// only when it creates the network.
	ProjectDefault bool
	ResolvedID     string
	ResolvedName   string
}

// MarshalJSON sends the resolved ID, or null for none.
func (r Reference) MarshalJSON() ([]byte, error) {
	if r.ResolvedID == "" {
		return []byte("null"), nil
	}
	return json.Marshal(r.ResolvedID)
}

// Names reports whether r names a resource, rather than none.
func (r Reference) Names() bool { return r.Ref.ID != "" || r.Ref.Name != "" }

func (r Reference) String() string { return r.Collection.Noun + " " + r.Ref.String() }

// SpecReference is a Reference among an attribute struct's fields, with the spec field
// that sets it (the field's spec tag).
type SpecReference struct {
	*Reference
	Field string
}

// References returns the managed references among the fields of the attribute struct
// attrs points to (a *NetworkAttrs), to be resolved in place.
func References(attrs any) []SpecReference {
	var out []SpecReference
	v := reflect.ValueOf(attrs).Elem()
	for i := range v.NumField() {
		ref, ok := v.Field(i).Interface().(*Reference)
		if ok && ref != nil && ref.Names() {
			out = append(out, SpecReference{Reference: ref, Field: v.Type().Field(i).Tag.Get("spec")})
		}
	}
	return out
}

// ReferenceError is a Reference that names no resource the project can see (Found 0),
// or several (Found > 1).
type ReferenceError struct {
	Field     string
	Reference Reference
	ProjectID string
	Found     int
}

func (e *ReferenceError) Error() string {
	by := "name"
	if e.Reference.Ref.ID != "" {
		by = "id"
	}
	if e.Found == 0 {
		return fmt.Sprintf("%s names %s, which project %s cannot see (none has that %s, or it is not shared with the project); create or share it, or name another",
			e.Field, e.Reference, e.ProjectID, by)
	}
	return fmt.Sprintf("%s names %s, and project %s sees %d of that name; name it by id", e.Field, e.Reference, e.ProjectID, e.Found)
}
