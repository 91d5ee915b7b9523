package main

import (
	"context"
	"fmt"
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

// rawLoop is the baseline: what a script doing the same job by hand would send.
type rawLoop struct {
	sc      *gophercloud.ServiceClient
	workers int
	prefix  string // name prefix of everything it creates, for cleanup
}

// create makes n pairs: POST network, PUT its tags, POST subnet. It returns the network IDs.
func (r *rawLoop) create(ctx context.Context, n int) ([]string, error) {
	ids := make([]string, n)
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
		b := benchSubnetOf(i)
		opts := subnets.CreateOpts{
			NetworkID: net.ID, Name: name, CIDR: b.CIDR, IPVersion: gophercloud.IPVersion(b.IPVersion),
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
		if _, err := subnets.Create(ctx, r.sc, opts).Extract(); err != nil {
			return fmt.Errorf("raw loop: creating subnet %s on network %s: %w", b.CIDR, net.ID, err)
		}
		return nil
	})
	return ids, err
}

// delete sends one DELETE per network; Neutron removes its subnet with it.
func (r *rawLoop) delete(ctx context.Context, ids []string) error {
	return parallel(ctx, len(ids), r.workers, func(ctx context.Context, i int) error {
		if ids[i] == "" {
			return nil
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
	p := fmt.Sprintf("10.%d.%d.", (i/256)%256, i%256) // a distinct /24
	if plainSubnets {
		return benchSubnet{CIDR: p + "0/24", IPVersion: 4}
	}
	if i%4 == 3 {
		// fd00:0:<i>::/64, a distinct /64; the addresses in canonical text, as the CRD wants.
		addr := func(host uint16) string {
			return netip.AddrFrom16([16]byte{0xfd, 0, 0, 0, byte(i >> 8), byte(i), 14: byte(host >> 8), 15: byte(host)}).String()
		}
		return benchSubnet{CIDR: addr(0) + "/64", IPVersion: 6, DNS: []string{addr(2), addr(3)},
			RouteDestination: "fc00::/7", RouteNextHop: addr(0xfe),
			Pools: [][2]string{{addr(0x100), addr(0x1ff)}, {addr(0x1000), addr(0x1fff)}}, NoGateway: true, IPv6Mode: "slaac"}
	}
	return benchSubnet{CIDR: p + "0/24", IPVersion: 4, DNS: []string{p + "2", p + "3"},
		RouteDestination: "172.16.0.0/12", RouteNextHop: p + "254",
		Pools: [][2]string{{p + "10", p + "99"}, {p + "200", p + "253"}}, NoGateway: i%2 == 1}
}

// plain reports a subnet of -plain-subnets: its CIDR and nothing else.
func (b benchSubnet) plain() bool { return b.RouteDestination == "" }
