package main

import (
	"context"
	"fmt"
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
		destination, nextHop := benchRoute(i)
		dhcp := true
		if _, err := subnets.Create(ctx, r.sc, subnets.CreateOpts{
			NetworkID: net.ID, Name: name, CIDR: benchCIDR(i), IPVersion: gophercloud.IPv4,
			Description:    "network-controller bench raw loop " + name,
			DNSNameservers: benchDNS(i), HostRoutes: []subnets.HostRoute{{DestinationCIDR: destination, NextHop: nextHop}},
			EnableDHCP: &dhcp,
		}).Extract(); err != nil {
			return fmt.Errorf("raw loop: creating subnet %s on network %s: %w", benchCIDR(i), net.ID, err)
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

// benchCIDR is the distinct /24 of the i-th Network or pair.
func benchCIDR(i int) string {
	return fmt.Sprintf("10.%d.%d.0/24", (i/256)%256, i%256)
}

// benchDNS and benchRoute are the DNS servers and the host route of the i-th Network or
// pair: every bench subnet has them (and DHCP on), so the figures include what they cost.
func benchDNS(i int) []string {
	return []string{fmt.Sprintf("10.%d.%d.2", (i/256)%256, i%256), fmt.Sprintf("10.%d.%d.3", (i/256)%256, i%256)}
}

func benchRoute(i int) (destination, nextHop string) {
	return "172.16.0.0/12", fmt.Sprintf("10.%d.%d.254", (i/256)%256, i%256)
}
