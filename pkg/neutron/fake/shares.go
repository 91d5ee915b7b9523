package fake

import (
	"context"
	"slices"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// RBAC policies that share networks with other projects.

// Shares returns every stored RBAC policy.
func (d *Driver) Shares() []neutron.RBACPolicy {
	d.mu.Lock()
	defer d.mu.Unlock()
	return mapValues(d.policies)
}

// PutShare stores p as if someone had created it in Neutron directly.
func (d *Driver) PutShare(p neutron.RBACPolicy) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.policies[p.ID] = p
}

// RemoveShare deletes the policy id as someone would in Neutron directly.
func (d *Driver) RemoveShare(id string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.policies, id)
}

func (d *Driver) ListNetworkShares(_ context.Context, f neutron.Filter) ([]neutron.RBACPolicy, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.begin("list rbac policies"); err != nil {
		return nil, err
	}
	var out []neutron.RBACPolicy
	for _, p := range d.policies {
		if (f.ProjectID == "" || p.ProjectID == f.ProjectID) && (len(f.NetworkIDs) == 0 || slices.Contains(f.NetworkIDs, p.ObjectID)) {
			out = append(out, p)
		}
	}
	return out, nil
}

func (d *Driver) ShareNetwork(_ context.Context, req neutron.ShareRequest) (neutron.RBACPolicy, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.begin("create rbac policy"); err != nil {
		return neutron.RBACPolicy{}, err
	}
	if _, ok := d.networks[req.ObjectID]; !ok {
		return neutron.RBACPolicy{}, notFound("create rbac policy")
	}
	for _, p := range d.policies {
		if p.ObjectID == req.ObjectID && neutron.ProjectKey(p.TargetProject) == neutron.ProjectKey(req.TargetProject) {
			// As Neutron: one policy per network, action and target, a target in
			// capitals the same (neutron.ProjectKey).
			return neutron.RBACPolicy{}, &neutron.Error{Op: "create rbac policy", Kind: neutron.KindConflict, Code: 409, Type: "DuplicateRbacPolicy",
				Message: "An RBAC policy already exists with those values."}
		}
	}
	p := neutron.RBACPolicy{ID: d.newID("rbac"), ObjectID: req.ObjectID, TargetProject: req.TargetProject, ProjectID: d.project}
	d.bodies["create rbac policy"] = append(d.bodies["create rbac policy"], req.ObjectID+" "+req.Action+" "+req.TargetProject)
	d.policies[p.ID] = p
	if err := d.lostReply("create rbac policy"); err != nil {
		return neutron.RBACPolicy{}, err
	}
	return p, nil
}

func (d *Driver) DeleteRBACPolicy(_ context.Context, id string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.begin("delete rbac policy"); err != nil {
		return err
	}
	delete(d.policies, id)
	return nil
}
