package neutronclient

import (
	"context"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// qosDefaultFields are the fields the lookup of a project's default QoS policy reads.
var qosDefaultFields = []string{"id", "project_id", "is_default"}

// DefaultQoSPolicy lists the project's own QoS policies and returns the one qos-default
// marks is_default. The flag is read, not filtered on: a Neutron without qos-default
// refuses is_default as a filter, and without it no policy is marked. Another project's
// default, shared with this one, is never this project's: the project_id filter, and the
// check of it, keep it out.
func (c *Client) DefaultQoSPolicy(ctx context.Context, projectID string) (string, error) {
	type policy struct {
		ID        string `json:"id"`
		ProjectID string `json:"project_id"`
		IsDefault bool   `json:"is_default"`
	}
	var id string
	err := c.call(ctx, "list "+neutron.QoSPolicies.Path, func() error {
		query := withRepeated(withRepeated("", "project_id", []string{projectID}), "fields", qosDefaultFields)
		found, err := listAll[policy](ctx, c.sc, c.sc.ServiceURL(neutron.QoSPolicies.Path)+query, neutron.QoSPolicies.Key)
		for _, p := range found {
			if p.IsDefault && p.ProjectID == projectID {
				id = p.ID
			}
		}
		return err
	})
	return id, err
}
