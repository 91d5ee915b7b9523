package neutronclient

import (
	"context"
	"net/url"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

func (c *Client) ProjectQuota(ctx context.Context, projectID string) (map[string]neutron.QuotaUsage, error) {
	var doc struct {
		Quota map[string]neutron.QuotaUsage `json:"quota"`
	}
	err := c.call(ctx, "read quota", func() error {
		_, err := c.sc.Get(ctx, c.sc.ServiceURL("quotas", url.PathEscape(projectID), "details"), &doc, nil)
		return err
	})
	return doc.Quota, err
}

// OnOverQuota has f told about every call Neutron refused as over the project's quota.
func (c *Client) OnOverQuota(f func()) { c.onOverQuota = f }
