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
// not measured), and returns how many it deleted. The ports the bench made go first:
// Neutron deletes no network that has ports of a user.
func (b *bench) sweepNeutron(ctx context.Context) (int, error) {
	if n, err := deleteBenchPorts(ctx, b.neutron); err != nil {
		return 0, err
	} else if n > 0 {
		logf("deleted %d Neutron ports of the bench", n)
	}
	doomed, err := b.benchNetworks(ctx)
	if err != nil {
		return 0, err
	}
	err = parallel(ctx, len(doomed), apiWorkers, func(ctx context.Context, i int) error {
		return deleteNetwork(ctx, b.neutron, doomed[i])
	})
	return len(doomed), err
}

// benchPortOwner is the device_owner of the ports the bench makes, for its cleanup to find
// them.
const benchPortOwner = "network-controller-bench"

// portTarget is a subnet to put a port on.
type portTarget struct{ networkID, subnetID string }

// createPorts makes one port on each target subnet, with an address of it, workers at a
// time: POST /v2.0/ports (gophercloud's ports package is not vendored).
func createPorts(ctx context.Context, sc *gophercloud.ServiceClient, targets []portTarget, workers int) error {
	return parallel(ctx, len(targets), workers, func(ctx context.Context, i int) error {
		t := targets[i]
		body := map[string]any{"port": map[string]any{
			"network_id": t.networkID, "name": fmt.Sprintf("bench-port-%d", i), "device_owner": benchPortOwner,
			"fixed_ips": []map[string]string{{"subnet_id": t.subnetID}},
		}}
		if _, err := sc.Post(ctx, sc.ServiceURL("ports"), body, nil, &gophercloud.RequestOpts{OkCodes: []int{http.StatusCreated}}); err != nil {
			return fmt.Errorf("creating a port on subnet %s: %w", t.subnetID, err)
		}
		return nil
	})
}

// deleteBenchPorts deletes every port the bench made (by its device_owner) and returns
// how many.
func deleteBenchPorts(ctx context.Context, sc *gophercloud.ServiceClient) (int, error) {
	var list struct {
		Ports []struct {
			ID string `json:"id"`
		} `json:"ports"`
	}
	if _, err := sc.Get(ctx, sc.ServiceURL("ports")+"?fields=id&device_owner="+benchPortOwner, &list, nil); err != nil {
		return 0, fmt.Errorf("listing the bench's Neutron ports: %w", err)
	}
	err := parallel(ctx, len(list.Ports), apiWorkers, func(ctx context.Context, i int) error {
		_, err := sc.Delete(ctx, sc.ServiceURL("ports", list.Ports[i].ID), nil)
		if err != nil && !gophercloud.ResponseCodeIs(err, http.StatusNotFound) {
			return fmt.Errorf("deleting Neutron port %s: %w", list.Ports[i].ID, err)
		}
		return nil
	})
	return len(list.Ports), err
}
