package reconcile

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronstore"
)

// overQuota explains Neutron's OverQuota refusal: it names the quotas the refusal names,
// each with its limit and use from the project's quota (one call, made only after a
// refusal; a member may read its own project's). Any other error stays as it is, and so
// does a refusal that names no resource; a quota that cannot be read leaves the limits
// out.
func overQuota(ctx context.Context, store *neutronstore.Store, err error) error {
	var ne *neutron.Error
	if !errors.As(err, &ne) || ne.Kind != neutron.KindOverQuota {
		return err
	}
	resources := neutron.OverQuotaResources(ne.Message)
	if len(resources) == 0 {
		return err
	}
	quota, qerr := store.Quota(ctx)
	if qerr != nil {
		klog.FromContext(ctx).V(2).Info("Could not read the project's quota for the refusal's message", "err", qerr)
	}
	named := make([]string, len(resources))
	for i, resource := range resources {
		named[i] = resource
		if q, ok := quota[resource]; ok && q.Limit >= 0 {
			named[i] = fmt.Sprintf("%s (limit %d, %d in use)", resource, q.Limit, q.Used)
		}
	}
	return &Failure{Reason: samplecrdv1.ReasonOverQuota, Err: err, Message: fmt.Sprintf(
		"Neutron quota of the project exhausted: %s (%s: %s); retrying with backoff; raise the quota or free some",
		strings.Join(named, ", "), ne.Op, strings.TrimSuffix(ne.Message, "."))}
}
