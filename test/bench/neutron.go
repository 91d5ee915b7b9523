package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gophercloud/gophercloud/v2"
	"github.com/gophercloud/gophercloud/v2/openstack/networking/v2/networks"
)

// neutronClient returns a gophercloud networking client for a noauth Neutron, set up as
// plainly as a hand-written tool would (default transport, 30 s timeout): the baseline
// the controller is compared with.
func neutronClient(endpoint string) *gophercloud.ServiceClient {
	if !strings.HasSuffix(endpoint, "/") {
		endpoint += "/"
	}
	pc := &gophercloud.ProviderClient{HTTPClient: http.Client{Timeout: 30 * time.Second}}
	pc.UserAgent.Prepend("network-controller-bench")
	return &gophercloud.ServiceClient{ProviderClient: pc, Endpoint: endpoint, ResourceBase: endpoint + "v2.0/"}
}

// deleteNetwork deletes a Neutron network and, with it, its subnet. Already gone counts
// as deleted.
func deleteNetwork(ctx context.Context, sc *gophercloud.ServiceClient, id string) error {
	err := networks.Delete(ctx, sc, id).ExtractErr()
	if err != nil && !gophercloud.ResponseCodeIs(err, http.StatusNotFound) {
		return fmt.Errorf("deleting Neutron network %s: %w", id, err)
	}
	return nil
}

// isBenchNetwork recognises the Neutron networks a bench made, this run or an earlier
// one that was interrupted: tagged for a bench cluster ID, made by the raw loop, or
// named after an object of the bench namespace (a create that died before tagging).
func (b *bench) isBenchNetwork(n networks.Network) bool {
	for _, t := range n.Tags {
		if strings.HasPrefix(t, "k8s-cluster=bench-") || strings.HasPrefix(t, "bench-raw=") {
			return true
		}
	}
	for _, ns := range append([]string{b.o.namespace}, b.extraNamespaces...) {
		if strings.HasPrefix(n.Name, "k8s_"+ns+"_") {
			return true
		}
	}
	return strings.HasPrefix(n.Name, "bench-raw-")
}

// benchNetworks returns the IDs of the Neutron networks a bench made.
func (b *bench) benchNetworks(ctx context.Context) ([]string, error) {
	pages, err := networks.List(b.neutron, networks.ListOpts{}).AllPages(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing Neutron networks: %w", err)
	}
	all, err := networks.ExtractNetworks(pages)
	if err != nil {
		return nil, fmt.Errorf("listing Neutron networks: %w", err)
	}
	var ids []string
	for _, n := range all {
		if b.isBenchNetwork(n) {
			ids = append(ids, n.ID)
		}
	}
	return ids, nil
}

// sweepNeutron deletes the Neutron networks a bench made, apiWorkers at a time (it is
// not measured), and returns how many it deleted.
func (b *bench) sweepNeutron(ctx context.Context) (int, error) {
	doomed, err := b.benchNetworks(ctx)
	if err != nil {
		return 0, err
	}
	err = parallel(ctx, len(doomed), apiWorkers, func(ctx context.Context, i int) error {
		return deleteNetwork(ctx, b.neutron, doomed[i])
	})
	return len(doomed), err
}
