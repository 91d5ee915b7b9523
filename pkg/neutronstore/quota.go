package neutronstore

import (
	"context"
	"fmt"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// Quota returns the project's Neutron quota with its use, asked of Neutron each time (one
// call): it is read only to explain a refusal, when it has just changed. Without a
// project (a Neutron without authentication) there is none to read.
func (s *Store) Quota(ctx context.Context) (map[string]neutron.QuotaUsage, error) {
	if s.projectID == "" {
		return nil, nil
	}
	quota, err := s.driver.ProjectQuota(ctx, s.projectID)
	if err != nil {
		return nil, fmt.Errorf("reading the quota of project %s: %w", s.projectID, err)
	}
	return quota, nil
}
