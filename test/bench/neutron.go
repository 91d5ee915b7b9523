package main

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
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
// not measured), and returns how many it deleted. The ports and the routers the bench
// made go first: Neutron deletes no network that has ports of a user or a router's
// interface.
func (b *bench) sweepNeutron(ctx context.Context) (int, error) {
	if n, err := deleteBenchPorts(ctx, b.neutron); err != nil {
		return 0, err
	} else if n > 0 {
		logf("deleted %d Neutron ports of the bench", n)
	}
	if n, err := b.sweepRouters(ctx); err != nil {
		return 0, err
	} else if n > 0 {
		logf("deleted %d Neutron routers of the bench", n)
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

// Routers, sent as plain requests (gophercloud's routers package is not vendored).

// routerInterfaceOwner is the device_owner of a router's port on a subnet.
const routerInterfaceOwner = "network:router_interface"

// externalNetworkID looks up the external network name (router:external) by its name: one
// GET /v2.0/networks, as the controller's lookup.
func externalNetworkID(ctx context.Context, sc *gophercloud.ServiceClient, name string) (string, error) {
	var list struct {
		Networks []struct {
			ID   string `json:"id"`
			Name string `json:"name"`
		} `json:"networks"`
	}
	u := sc.ServiceURL("networks") + "?name=" + url.QueryEscape(name) + "&router%3Aexternal=true"
	if _, err := sc.Get(ctx, u, &list, nil); err != nil {
		return "", fmt.Errorf("looking up external network %s: %w", name, err)
	}
	var ids []string
	for _, n := range list.Networks {
		if n.Name == name {
			ids = append(ids, n.ID)
		}
	}
	if len(ids) != 1 {
		return "", fmt.Errorf("%d external networks are named %s, want one (hack/local-neutron.sh start makes public)", len(ids), name)
	}
	return ids[0], nil
}

// createRouter makes a router with its gateway on the external network externalID: one
// POST /v2.0/routers. It returns its ID.
func createRouter(ctx context.Context, sc *gophercloud.ServiceClient, name, description, externalID string) (string, error) {
	body := map[string]any{"router": map[string]any{
		"name": name, "description": description,
		"external_gateway_info": map[string]any{"network_id": externalID},
	}}
	var out struct {
		Router struct {
			ID string `json:"id"`
		} `json:"router"`
	}
	if _, err := sc.Post(ctx, sc.ServiceURL("routers"), body, &out, &gophercloud.RequestOpts{OkCodes: []int{http.StatusCreated}}); err != nil {
		return "", fmt.Errorf("creating router %s: %w", name, err)
	}
	return out.Router.ID, nil
}

// routerInterface adds ("add") or removes ("remove") the router's interface on subnetID:
// one PUT /v2.0/routers/{id}/{add,remove}_router_interface. A removal that finds the
// interface or the router gone counts as done.
func routerInterface(ctx context.Context, sc *gophercloud.ServiceClient, action, routerID, subnetID string) error {
	_, err := sc.Put(ctx, sc.ServiceURL("routers", routerID, action+"_router_interface"), map[string]string{"subnet_id": subnetID}, nil,
		&gophercloud.RequestOpts{OkCodes: []int{http.StatusOK}})
	if err != nil && !(action == "remove" && gophercloud.ResponseCodeIs(err, http.StatusNotFound)) {
		return fmt.Errorf("%s interface of router %s on subnet %s: %w", action, routerID, subnetID, err)
	}
	return nil
}

// deleteRouter deletes a router without interfaces; already gone counts as deleted.
func deleteRouter(ctx context.Context, sc *gophercloud.ServiceClient, id string) error {
	_, err := sc.Delete(ctx, sc.ServiceURL("routers", id), nil)
	if err != nil && !gophercloud.ResponseCodeIs(err, http.StatusNotFound) {
		return fmt.Errorf("deleting router %s: %w", id, err)
	}
	return nil
}

// refuseOthersPorts lists the network's ports (one GET /v2.0/ports, as the controller does
// before a routed delete) and fails, naming them, when a port other than routerID's
// interface or Neutron's own DHCP port is on it: the network delete would fail.
func refuseOthersPorts(ctx context.Context, sc *gophercloud.ServiceClient, networkID, routerID string) error {
	var list struct {
		Ports []struct {
			ID          string `json:"id"`
			DeviceOwner string `json:"device_owner"`
			DeviceID    string `json:"device_id"`
		} `json:"ports"`
	}
	u := sc.ServiceURL("ports") + "?network_id=" + url.QueryEscape(networkID) + "&fields=id&fields=device_owner&fields=device_id"
	if _, err := sc.Get(ctx, u, &list, nil); err != nil {
		return fmt.Errorf("listing the ports of network %s: %w", networkID, err)
	}
	var others []string
	for _, p := range list.Ports {
		if p.DeviceOwner == "network:dhcp" || p.DeviceOwner == routerInterfaceOwner && p.DeviceID == routerID {
			continue
		}
		others = append(others, fmt.Sprintf("%s (%s %s)", p.ID, p.DeviceOwner, p.DeviceID))
	}
	if len(others) > 0 {
		return fmt.Errorf("network %s has ports of others on it: %s", networkID, strings.Join(others, ", "))
	}
	return nil
}

// isBenchRouter recognises the routers a bench made: the raw loop's (named like its
// networks), and the controller's for a bench cluster ID (described with it) or for an
// object of the bench namespaces (named like its network).
func (b *bench) isBenchRouter(name, description string) bool {
	if strings.HasPrefix(name, "bench-raw-") || strings.HasPrefix(description, "Managed by network-controller for cluster bench-") {
		return true
	}
	for _, ns := range append([]string{b.o.namespace}, b.extraNamespaces...) {
		if strings.HasPrefix(name, "k8s_"+ns+"_") {
			return true
		}
	}
	return false
}

// benchRouters returns the IDs of the Neutron routers a bench made. A Neutron without
// routers has none.
func (b *bench) benchRouters(ctx context.Context) ([]string, error) {
	sc := b.neutron
	var list struct {
		Routers []struct {
			ID          string `json:"id"`
			Name        string `json:"name"`
			Description string `json:"description"`
		} `json:"routers"`
	}
	if _, err := sc.Get(ctx, sc.ServiceURL("routers")+"?fields=id&fields=name&fields=description", &list, nil); err != nil {
		if gophercloud.ResponseCodeIs(err, http.StatusNotFound) {
			return nil, nil
		}
		return nil, fmt.Errorf("listing Neutron routers: %w", err)
	}
	var ids []string
	for _, r := range list.Routers {
		if b.isBenchRouter(r.Name, r.Description) {
			ids = append(ids, r.ID)
		}
	}
	return ids, nil
}

// sweepRouters deletes the routers a bench made, each after removing its interfaces (it is
// not measured), and returns how many it deleted.
func (b *bench) sweepRouters(ctx context.Context) (int, error) {
	sc := b.neutron
	doomed, err := b.benchRouters(ctx)
	if err != nil {
		return 0, err
	}
	err = parallel(ctx, len(doomed), apiWorkers, func(ctx context.Context, i int) error {
		id := doomed[i]
		var ports struct {
			Ports []struct {
				ID string `json:"id"`
			} `json:"ports"`
		}
		u := sc.ServiceURL("ports") + "?fields=id&device_owner=" + url.QueryEscape(routerInterfaceOwner) + "&device_id=" + url.QueryEscape(id)
		if _, err := sc.Get(ctx, u, &ports, nil); err != nil {
			return fmt.Errorf("listing the interfaces of router %s: %w", id, err)
		}
		for _, p := range ports.Ports {
			_, err := sc.Put(ctx, sc.ServiceURL("routers", id, "remove_router_interface"), map[string]string{"port_id": p.ID}, nil,
				&gophercloud.RequestOpts{OkCodes: []int{http.StatusOK}})
			if err != nil && !gophercloud.ResponseCodeIs(err, http.StatusNotFound) {
				return fmt.Errorf("removing interface %s of router %s: %w", p.ID, id, err)
			}
		}
		return deleteRouter(ctx, sc, id)
	})
	return len(doomed), err
}
