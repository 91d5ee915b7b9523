package fake

import (
	"context"
	"slices"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// namedEntry is a resource of a collection that attributes name (neutron.Reference).
type namedEntry struct {
	neutron.Named
	shared bool
}

// PutNamed stores n in collection c as if its project had made it; a shared one is seen
// by every project, as Neutron shows what an RBAC policy shares.
func (d *Driver) PutNamed(c neutron.Collection, n neutron.Named, shared bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.named == nil {
		d.named = map[string][]namedEntry{}
	}
	d.named[c.Path] = append(d.named[c.Path], namedEntry{Named: n, shared: shared})
}

// ListNamed lists what this Driver's project can see of collection c, by IDs or Name.
func (d *Driver) ListNamed(_ context.Context, c neutron.Collection, f neutron.Filter) ([]neutron.Named, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.begin("list " + c.Path); err != nil {
		return nil, err
	}
	var out []neutron.Named
	for _, e := range d.named[c.Path] {
		visible := d.project == "" || e.shared || e.ProjectID == d.project
		if visible && (len(f.IDs) == 0 || slices.Contains(f.IDs, e.ID)) && (f.Name == "" || f.Name == e.Name) {
			out = append(out, e.Named)
		}
	}
	return out, nil
}
