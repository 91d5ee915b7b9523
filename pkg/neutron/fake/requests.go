package fake

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// How a request changes what the fake stores, and which stored resources a filter selects.

// matches applies the filters networks and subnets share.
func matches(f neutron.Filter, tags []string, description, name, project string) bool {
	if !hasAll(tags, f.Tags) {
		return false
	}
	if f.ProjectID != "" && f.ProjectID != project {
		return false
	}
	if f.Description != "" && f.Description != description {
		return false
	}
	return f.Name == "" || f.Name == name
}

func hasAll(tags, want []string) bool {
	for _, t := range want {
		if !slices.Contains(tags, t) {
			return false
		}
	}
	return true
}

// apply sets on resource the fields request sends, as Neutron does: a request's JSON
// names are the resource's, and fields it leaves out keep their values. It records the
// body as op's. Callers hold d.mu.
func (d *Driver) apply(op string, resource, request any) {
	raw, err := json.Marshal(request)
	if err == nil {
		err = overlay(resource, raw)
	}
	if err != nil {
		panic(fmt.Sprintf("fake Neutron: applying %T to %T: %v", request, resource, err))
	}
	d.bodies[op] = append(d.bodies[op], string(raw))
}

// overlay sets the attributes of the request body raw on resource, a pointer to a struct,
// as Neutron does: a null clears the attribute (json.Unmarshal alone would keep it).
func overlay(resource any, raw []byte) error {
	var current, change map[string]any
	stored, err := json.Marshal(resource)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(stored, &current); err != nil {
		return err
	}
	if err := json.Unmarshal(raw, &change); err != nil {
		return err
	}
	for k, v := range change {
		if v == nil {
			delete(current, k)
		} else {
			current[k] = v
		}
	}
	merged, err := json.Marshal(current)
	if err != nil {
		return err
	}
	reflect.ValueOf(resource).Elem().SetZero()
	return json.Unmarshal(merged, resource)
}

func mapValues[T any](m map[string]T) []T {
	out := make([]T, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}
