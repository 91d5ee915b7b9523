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
	// isDefault marks its project's default QoS policy (qos-default).
	isDefault bool
}

// PutNamed stores n in collection c as if its project had made it; a shared one is seen
// by every project, as Neutron shows what an RBAC policy shares.
func (d *Driver) PutNamed(c neutron.Collection, n neutron.Named, shared bool) {
	d.putNamed(c, namedEntry{Named: n, shared: shared})
}

// PutDefaultQoSPolicy stores n as the default QoS policy of its project, as an admin makes
// one with is_default: networks created in the project without a policy get it.
func (d *Driver) PutDefaultQoSPolicy(n neutron.Named, shared bool) {
	d.putNamed(neutron.QoSPolicies, namedEntry{Named: n, shared: shared, isDefault: true})
}

func (d *Driver) putNamed(c neutron.Collection, e namedEntry) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.named == nil {
		d.named = map[string][]namedEntry{}
	}
	d.named[c.Path] = append(d.named[c.Path], e)
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

// DefaultQoSPolicy returns the default QoS policy of projectID, "" for none; recorded as
// the list of QoS policies it is in Neutron.
func (d *Driver) DefaultQoSPolicy(_ context.Context, projectID string) (string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.begin("list " + neutron.QoSPolicies.Path); err != nil {
		return "", err
	}
	return d.defaultQoSPolicy(projectID), nil
}

// defaultQoSPolicy is the default QoS policy of projectID. Callers hold d.mu.
func (d *Driver) defaultQoSPolicy(projectID string) string {
	for _, e := range d.named[neutron.QoSPolicies.Path] {
		if e.isDefault && e.ProjectID == projectID {
			return e.ID
		}
	}
	return ""
}
