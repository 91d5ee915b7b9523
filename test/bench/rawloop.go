package main

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"sync"

	"github.com/gophercloud/gophercloud/v2"
	"github.com/gophercloud/gophercloud/v2/openstack/networking/v2/extensions/attributestags"
	"github.com/gophercloud/gophercloud/v2/openstack/networking/v2/networks"
	"github.com/gophercloud/gophercloud/v2/openstack/networking/v2/subnets"
)

// parallel runs fn(i) for i in [0, n) on workers goroutines and returns the first error.
// After an error the remaining items are skipped.
func parallel(ctx context.Context, n, workers int, fn func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	items := make(chan int)
	var (
		wg       sync.WaitGroup
		once     sync.Once
		firstErr error
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range items {
				if err := fn(ctx, i); err != nil {
					once.Do(func() { firstErr = err; cancel() })
				}
			}
		}()
	}
feed:
	for i := range n {
		select {
		case items <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(items)
	wg.Wait()
	if firstErr == nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return firstErr
}

// rawShape is what the raw loop makes on each network.
type rawShape int

const (
	// rawOneSubnet: the subnet benchSubnetOf(i), the one-subnet form's work.
	rawOneSubnet rawShape = iota
	// rawDual: the two subnets of benchDualOf(i), one POST each, the controller's way.
	rawDual
	// rawDualBulk: the same two subnets in one bulk POST of both.
	rawDualBulk
	// rawRouted: the subnet benchRoutedOf(i), then a router of the network's own with its
	// gateway on the external network, and the subnet attached to it: the routed stage.
	rawRouted
)

// rawLoop is the baseline: what a script doing the same job by hand would send.
type rawLoop struct {
	sc      *gophercloud.ServiceClient
	workers int
	prefix  string // name prefix of everything it creates, for cleanup
	shape   rawShape
	// external names the external network of rawRouted's routers.
	external string
	// routed are, for rawRouted, the i-th network's subnet and router, for delete.
	routed []rawRouter
}

// rawRouter is what the routed raw loop made besides a network: its subnet, attached to
// its router.
type rawRouter struct{ subnetID, routerID string }

// create makes n networks: POST network, PUT its tags, then its subnets (POST subnet for
// each, or one bulk POST, by the shape); for rawRouted, first one lookup of the external
// network by name, and for each network, after its subnet, POST router with its gateway
// and PUT add_router_interface. It returns the network IDs.
func (r *rawLoop) create(ctx context.Context, n int) ([]string, error) {
	ids := make([]string, n)
	var externalID string
	if r.shape == rawRouted {
		// Once per loop, as the controller looks it up once per process.
		id, err := externalNetworkID(ctx, r.sc, r.external)
		if err != nil {
			return ids, fmt.Errorf("raw loop: %w", err)
		}
		externalID, r.routed = id, make([]rawRouter, n)
	}
	err := parallel(ctx, n, r.workers, func(ctx context.Context, i int) error {
		name := fmt.Sprintf("%s-%04d", r.prefix, i)
		net, err := networks.Create(ctx, r.sc, networks.CreateOpts{
			Name: name, Description: "network-controller bench raw loop " + name,
		}).Extract()
		if err != nil {
			return fmt.Errorf("raw loop: creating network %s: %w", name, err)
		}
		ids[i] = net.ID
		tags := []string{"bench-raw=" + r.prefix, fmt.Sprintf("bench-index=%d", i)}
		if _, err := attributestags.ReplaceAll(ctx, r.sc, "networks", net.ID, attributestags.ReplaceAllOpts{Tags: tags}).Extract(); err != nil {
			return fmt.Errorf("raw loop: tagging network %s (%s): %w", name, net.ID, err)
		}
		switch r.shape {
		case rawDual, rawDualBulk:
			var opts []subnets.CreateOpts
			for _, it := range benchDualOf(i) {
				opts = append(opts, subnetCreateOpts(it.subnet, net.ID, name+"-"+it.name))
			}
			if r.shape == rawDualBulk {
				if err := createSubnetsBulk(ctx, r.sc, opts); err != nil {
					return fmt.Errorf("raw loop: creating subnets in bulk on network %s: %w", net.ID, err)
				}
				return nil
			}
			for _, o := range opts {
				if _, err := subnets.Create(ctx, r.sc, o).Extract(); err != nil {
					return fmt.Errorf("raw loop: creating subnet %s on network %s: %w", o.CIDR, net.ID, err)
				}
			}
			return nil
		case rawRouted:
			b := benchRoutedOf(i)
			sub, err := subnets.Create(ctx, r.sc, subnetCreateOpts(b, net.ID, name)).Extract()
			if err != nil {
				return fmt.Errorf("raw loop: creating subnet %s on network %s: %w", b.CIDR, net.ID, err)
			}
			r.routed[i].subnetID = sub.ID
			routerID, err := createRouter(ctx, r.sc, name, "network-controller bench raw loop "+name, externalID)
			if err != nil {
				return fmt.Errorf("raw loop: %w", err)
			}
			r.routed[i].routerID = routerID
			if err := routerInterface(ctx, r.sc, "add", routerID, sub.ID); err != nil {
				return fmt.Errorf("raw loop: %w", err)
			}
			return nil
		default:
			b := benchSubnetOf(i)
			if _, err := subnets.Create(ctx, r.sc, subnetCreateOpts(b, net.ID, name)).Extract(); err != nil {
				return fmt.Errorf("raw loop: creating subnet %s on network %s: %w", b.CIDR, net.ID, err)
			}
			return nil
		}
	})
	return ids, err
}

// subnetCreateOpts is the POST subnet of b, named name, on the network networkID.
func subnetCreateOpts(b benchSubnet, networkID, name string) subnets.CreateOpts {
	opts := subnets.CreateOpts{
		NetworkID: networkID, Name: name, CIDR: b.CIDR, IPVersion: gophercloud.IPVersion(b.IPVersion),
		Description:    "network-controller bench raw loop " + name,
		DNSNameservers: b.DNS, IPv6AddressMode: b.IPv6Mode, IPv6RAMode: b.IPv6Mode,
	}
	if !b.plain() {
		dhcp := true
		opts.HostRoutes = []subnets.HostRoute{{DestinationCIDR: b.RouteDestination, NextHop: b.RouteNextHop}}
		opts.EnableDHCP = &dhcp
	}
	for _, p := range b.Pools {
		opts.AllocationPools = append(opts.AllocationPools, subnets.AllocationPool{Start: p[0], End: p[1]})
	}
	if b.NoGateway {
		opts.GatewayIP = new(string) // "" is sent as null: no gateway
	}
	return opts
}

// createSubnetsBulk creates the subnets with Neutron's bulk create: one POST
// /v2.0/subnets of {"subnets": [...]}, all made or none.
func createSubnetsBulk(ctx context.Context, sc *gophercloud.ServiceClient, opts []subnets.CreateOpts) error {
	list := make([]any, 0, len(opts))
	for _, o := range opts {
		m, err := o.ToSubnetCreateMap()
		if err != nil {
			return err
		}
		list = append(list, m["subnet"])
	}
	var out struct {
		Subnets []struct {
			ID string `json:"id"`
		} `json:"subnets"`
	}
	if _, err := sc.Post(ctx, sc.ServiceURL("subnets"), map[string]any{"subnets": list}, &out,
		&gophercloud.RequestOpts{OkCodes: []int{http.StatusCreated}}); err != nil {
		return err
	}
	if len(out.Subnets) != len(opts) {
		return fmt.Errorf("Neutron answered %d subnets to a bulk create of %d", len(out.Subnets), len(opts))
	}
	return nil
}

// delete sends one DELETE per network; Neutron removes its subnet with it. For rawRouted,
// the controller's calls before it: GET the network's ports (to stop, naming them, when a
// port other than its router's interface is on it), PUT remove_router_interface, DELETE
// router.
func (r *rawLoop) delete(ctx context.Context, ids []string) error {
	return parallel(ctx, len(ids), r.workers, func(ctx context.Context, i int) error {
		if ids[i] == "" {
			return nil
		}
		if r.shape == rawRouted && r.routed[i].routerID != "" {
			rt := r.routed[i]
			if err := refuseOthersPorts(ctx, r.sc, ids[i], rt.routerID); err != nil {
				return fmt.Errorf("raw loop: %w", err)
			}
			if rt.subnetID != "" {
				if err := routerInterface(ctx, r.sc, "remove", rt.routerID, rt.subnetID); err != nil {
					return fmt.Errorf("raw loop: %w", err)
				}
			}
			if err := deleteRouter(ctx, r.sc, rt.routerID); err != nil {
				return fmt.Errorf("raw loop: %w", err)
			}
		}
		if err := deleteNetwork(ctx, r.sc, ids[i]); err != nil {
			return fmt.Errorf("raw loop: %w", err)
		}
		return nil
	})
}

// benchSubnet is the subnet of the i-th Network or pair. Every one has two DNS servers, a
// host route, DHCP on and two explicit allocation pools; every other one has no gateway,
// and every fourth (one without gateway) is an IPv6 /64 with both modes slaac: so the
// figures include what each subnet option costs. With -plain-subnets, every one is an
// IPv4 /24 with its CIDR alone.
type benchSubnet struct {
	CIDR                           string
	IPVersion                      int
	DNS                            []string
	RouteDestination, RouteNextHop string
	Pools                          [][2]string
	NoGateway                      bool
	IPv6Mode                       string
}

// plainSubnets (-plain-subnets) makes every subnet an IPv4 /24 given by its CIDR alone.
var plainSubnets bool

func benchSubnetOf(i int) benchSubnet {
	if plainSubnets {
		return benchSubnet{CIDR: ipv4Prefix(i) + "0/24", IPVersion: 4}
	}
	if i%4 == 3 {
		return benchIPv6Of(i)
	}
	return benchIPv4Of(i, i%2 == 1)
}

// ipv4Prefix is the first three octets of the i-th IPv4 /24, with the dot: "10.<i/256>.<i%256>.".
func ipv4Prefix(i int) string { return fmt.Sprintf("10.%d.%d.", (i/256)%256, i%256) }

// benchIPv4Of is the i-th IPv4 subnet, a distinct /24 with two DNS servers, a route, DHCP
// and two allocation pools (144 addresses), with or without gateway.
func benchIPv4Of(i int, noGateway bool) benchSubnet {
	p := ipv4Prefix(i)
	return benchSubnet{CIDR: p + "0/24", IPVersion: 4, DNS: []string{p + "2", p + "3"},
		RouteDestination: "172.16.0.0/12", RouteNextHop: p + "254",
		Pools: [][2]string{{p + "10", p + "99"}, {p + "200", p + "253"}}, NoGateway: noGateway}
}

// benchIPv6Of is the i-th IPv6 subnet: fd00:0:<i>::/64, a distinct /64, with both modes
// slaac, without gateway, with two DNS servers, a route and two allocation pools.
func benchIPv6Of(i int) benchSubnet {
	// The addresses in canonical text, as the CRD wants.
	addr := func(host uint16) string {
		return netip.AddrFrom16([16]byte{0xfd, 0, 0, 0, byte(i >> 8), byte(i), 14: byte(host >> 8), 15: byte(host)}).String()
	}
	return benchSubnet{CIDR: addr(0) + "/64", IPVersion: 6, DNS: []string{addr(2), addr(3)},
		RouteDestination: "fc00::/7", RouteNextHop: addr(0xfe),
		Pools: [][2]string{{addr(0x100), addr(0x1ff)}, {addr(0x1000), addr(0x1fff)}}, NoGateway: true, IPv6Mode: "slaac"}
}

// benchItem is one item of a list-form Network: its name and its subnet.
type benchItem struct {
	name   string
	subnet benchSubnet
}

// benchDualOf is the i-th dual-stack Network of the list form: an IPv4 /24 item "ipv4"
// (with gateway) and an IPv6 /64 item "ipv6" with both modes slaac, whatever -plain-subnets.
func benchDualOf(i int) []benchItem {
	return []benchItem{{name: "ipv4", subnet: benchIPv4Of(i, false)}, {name: "ipv6", subnet: benchIPv6Of(i)}}
}

// benchRoutedOf is the subnet of the i-th routed Network: the IPv4 /24 of benchIPv4Of
// with a gateway (a subnet attached to a router must have one), or with -plain-subnets the
// plain /24 (its gateway the default).
func benchRoutedOf(i int) benchSubnet {
	if plainSubnets {
		return benchSubnetOf(i)
	}
	return benchIPv4Of(i, false)
}

// benchIPv4ItemOf is the i-th list-form Network of the resync stage: one IPv4 /24 item "ipv4".
func benchIPv4ItemOf(i int) []benchItem {
	return []benchItem{{name: "ipv4", subnet: benchIPv4Of(i, false)}}
}

// plain reports a subnet of -plain-subnets: its CIDR and nothing else.
func (b benchSubnet) plain() bool { return b.RouteDestination == "" }
