package neutronclient

import (
	"context"
	"reflect"

	"github.com/gophercloud/gophercloud/v2"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// RBAC policies that share networks (Neutron's rbac-policies, object type network, action
// access_as_shared), sent as plain requests: the JSON types of pkg/neutron are the bodies.

var shareFields = jsonNames(reflect.TypeFor[neutron.RBACPolicy]())

func (c *Client) ListNetworkShares(ctx context.Context, f neutron.Filter) ([]neutron.RBACPolicy, error) {
	var out []neutron.RBACPolicy
	err := c.call(ctx, "list rbac policies", func() error {
		var err error
		out, err = listAll[neutron.RBACPolicy](ctx, c.sc, c.sc.ServiceURL("rbac-policies")+shareQuery(f), "rbac_policies")
		return err
	})
	return out, err
}

func (c *Client) ShareNetwork(ctx context.Context, req neutron.ShareRequest) (neutron.RBACPolicy, error) {
	var reply struct {
		Policy neutron.RBACPolicy `json:"rbac_policy"`
	}
	err := c.call(ctx, "create rbac policy", func() error {
		_, err := c.sc.Post(ctx, c.sc.ServiceURL("rbac-policies"), map[string]any{"rbac_policy": req}, &reply,
			&gophercloud.RequestOpts{OkCodes: []int{201}})
		return err
	})
	return reply.Policy, err
}

func (c *Client) DeleteRBACPolicy(ctx context.Context, id string) error {
	return ignoreNotFound(c.call(ctx, "delete rbac policy", func() error {
		_, err := c.sc.Delete(ctx, c.sc.ServiceURL("rbac-policies", id), nil)
		return err
	}))
}

// shareQuery is the list query of the policies that share networks, by the project that
// made them and the networks (repeated object_id=).
func shareQuery(f neutron.Filter) string {
	query := withRepeated("", "object_type", []string{"network"})
	query = withRepeated(query, "action", []string{"access_as_shared"})
	if f.ProjectID != "" {
		query = withRepeated(query, "project_id", []string{f.ProjectID})
	}
	query = withRepeated(query, "object_id", f.NetworkIDs)
	return withRepeated(query, "fields", shareFields)
}
