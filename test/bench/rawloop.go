package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gophercloud/gophercloud/v2"
	"github.com/gophercloud/gophercloud/v2/openstack/networking/v2/extensions/attributestags"
	"github.com/gophercloud/gophercloud/v2/openstack/networking/v2/networks"
	"github.com/gophercloud/gophercloud/v2/openstack/networking/v2/subnets"
	"github.com/gophercloud/gophercloud/v2/pagination"
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
		if _, err := subnets.Create(ctx, r.sc, subnets.CreateOpts{
			NetworkID: net.ID, Name: name, CIDR: benchCIDR(i), IPVersion: gophercloud.IPv4,
			Description: "network-controller bench raw loop " + name,
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
		if err := networks.Delete(ctx, r.sc, ids[i]).ExtractErr(); err != nil && !gophercloud.ResponseCodeIs(err, http.StatusNotFound) {
			return fmt.Errorf("raw loop: deleting network %s: %w", ids[i], err)
		}
		return nil
	})
}

// benchCIDR is the distinct /24 of the i-th Network or pair.
func benchCIDR(i int) string {
	return fmt.Sprintf("10.%d.%d.0/24", (i/256)%256, i%256)
}

// sweepNeutron deletes every network that match accepts, with workers in parallel, and
// returns how many it deleted. Subnets go with their networks.
func sweepNeutron(ctx context.Context, sc *gophercloud.ServiceClient, workers int, match func(networks.Network) bool) (int, error) {
	var doomed []string
	err := networks.List(sc, networks.ListOpts{}).EachPage(ctx, func(_ context.Context, page pagination.Page) (bool, error) {
		nets, err := networks.ExtractNetworks(page)
		if err != nil {
			return false, err
		}
		for _, n := range nets {
			if match(n) {
				doomed = append(doomed, n.ID)
			}
		}
		return true, nil
	})
	if err != nil {
		return 0, fmt.Errorf("listing Neutron networks for cleanup: %w", err)
	}
	err = parallel(ctx, len(doomed), workers, func(ctx context.Context, i int) error {
		err := networks.Delete(ctx, sc, doomed[i]).ExtractErr()
		if err != nil && !gophercloud.ResponseCodeIs(err, http.StatusNotFound) {
			return fmt.Errorf("cleanup: deleting Neutron network %s: %w", doomed[i], err)
		}
		return nil
	})
	return len(doomed), err
}
