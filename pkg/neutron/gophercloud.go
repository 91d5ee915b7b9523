package neutron

import (
	"context"
	"net/url"
	"strings"
	"time"

	"github.com/gophercloud/gophercloud/v2"
	"github.com/gophercloud/gophercloud/v2/openstack/networking/v2/extensions/attributestags"
	"github.com/gophercloud/gophercloud/v2/openstack/networking/v2/networks"
	"github.com/gophercloud/gophercloud/v2/openstack/networking/v2/subnets"
	"github.com/gophercloud/gophercloud/v2/pagination"
	"golang.org/x/time/rate"
)

// CallObserver is told about every Neutron call: its operation name, its error (nil on
// success) and how long it took. Metrics hang off it.
type CallObserver func(op string, err error, elapsed time.Duration)

// Client is the Driver backed by gophercloud.
type Client struct {
	sc      *gophercloud.ServiceClient
	observe CallObserver
	limiter *rate.Limiter
	onWait  func(time.Duration)
}

var _ Driver = (*Client)(nil)

// NewClient returns a Driver using sc, a networking v2 service client. observe may be nil.
func NewClient(sc *gophercloud.ServiceClient, observe CallObserver) *Client {
	if observe == nil {
		observe = func(string, error, time.Duration) {}
	}
	return &Client{sc: sc, observe: observe}
}

// LimitRate makes the client send at most qps requests per second on average, in bursts of
// up to burst, so that a restart or a flood of new objects cannot overload a shared cloud.
// onWait (may be nil) is told how long each request waited for its turn.
func (c *Client) LimitRate(qps float64, burst int, onWait func(time.Duration)) {
	if onWait == nil {
		onWait = func(time.Duration) {}
	}
	c.limiter = rate.NewLimiter(rate.Limit(qps), burst)
	c.onWait = onWait
}

// call runs fn as operation op after waiting for the rate limit, classifies its error and
// reports it to the observer.
func (c *Client) call(ctx context.Context, op string, fn func() error) error {
	if c.limiter != nil {
		start := time.Now()
		if err := c.limiter.Wait(ctx); err != nil {
			return wrapError(op, err)
		}
		c.onWait(time.Since(start))
	}
	start := time.Now()
	err := wrapError(op, fn())
	c.observe(op, err, time.Since(start))
	return err
}

func (c *Client) Ping(ctx context.Context) error {
	return c.call(ctx, "ping", func() error {
		// The smallest real request: the first page of one network. Only that page:
		// following the next links would cost a request per network.
		return networks.List(c.sc, networks.ListOpts{Limit: 1}).EachPage(ctx,
			func(context.Context, pagination.Page) (bool, error) { return false, nil })
	})
}

func (c *Client) ListNetworks(ctx context.Context, f Filter) ([]Network, error) {
	var out []Network
	err := c.call(ctx, "list networks", func() error {
		// No page size: Neutron answers with every match in one response unless the
		// operator capped it, and AllPages follows the next links when it did.
		pages, err := networks.List(c.sc, networkQuery{networks.ListOpts{
			Tags:        strings.Join(f.Tags, ","),
			Description: f.Description,
			Name:        f.Name,
		}}).AllPages(ctx)
		if err != nil {
			return err
		}
		nets, err := networks.ExtractNetworks(pages)
		for _, n := range nets {
			out = append(out, fromNetwork(n))
		}
		return err
	})
	return out, err
}

func (c *Client) CreateNetwork(ctx context.Context, name, description string) (Network, error) {
	var out Network
	err := c.call(ctx, "create network", func() error {
		n, err := networks.Create(ctx, c.sc, networks.CreateOpts{Name: name, Description: description}).Extract()
		if err == nil {
			out = fromNetwork(*n)
		}
		return err
	})
	return out, err
}

func (c *Client) SetNetworkTags(ctx context.Context, id string, tags []string) error {
	return c.call(ctx, "tag network", func() error {
		_, err := attributestags.ReplaceAll(ctx, c.sc, "networks", id, attributestags.ReplaceAllOpts{Tags: tags}).Extract()
		return err
	})
}

func (c *Client) DeleteNetwork(ctx context.Context, id string) error {
	return ignoreNotFound(c.call(ctx, "delete network", func() error {
		return networks.Delete(ctx, c.sc, id).ExtractErr()
	}))
}

func (c *Client) ListSubnets(ctx context.Context, f Filter) ([]Subnet, error) {
	var out []Subnet
	err := c.call(ctx, "list subnets", func() error {
		pages, err := subnets.List(c.sc, subnetQuery{subnets.ListOpts{
			Tags:        strings.Join(f.Tags, ","),
			Description: f.Description,
			Name:        f.Name,
			NetworkID:   f.NetworkID,
		}}).AllPages(ctx)
		if err != nil {
			return err
		}
		subs, err := subnets.ExtractSubnets(pages)
		for _, s := range subs {
			out = append(out, fromSubnet(s))
		}
		return err
	})
	return out, err
}

func (c *Client) CreateSubnet(ctx context.Context, req SubnetRequest) (Subnet, error) {
	var out Subnet
	err := c.call(ctx, "create subnet", func() error {
		gateway := req.GatewayIP
		s, err := subnets.Create(ctx, c.sc, subnets.CreateOpts{
			NetworkID:       req.NetworkID,
			Name:            req.Name,
			Description:     req.Description,
			CIDR:            req.CIDR,
			IPVersion:       gophercloud.IPVersion(req.IPVersion),
			GatewayIP:       &gateway,
			AllocationPools: toPools(req.AllocationPools),
		}).Extract()
		if err == nil {
			out = fromSubnet(*s)
		}
		return err
	})
	return out, err
}

func (c *Client) UpdateSubnetGateway(ctx context.Context, id, gateway string, pools []Pool) (Subnet, error) {
	var out Subnet
	err := c.call(ctx, "update subnet", func() error {
		s, err := subnets.Update(ctx, c.sc, id, subnets.UpdateOpts{
			GatewayIP:       &gateway,
			AllocationPools: toPools(pools),
		}).Extract()
		if err == nil {
			out = fromSubnet(*s)
		}
		return err
	})
	return out, err
}

func (c *Client) DeleteSubnet(ctx context.Context, id string) error {
	return ignoreNotFound(c.call(ctx, "delete subnet", func() error {
		return subnets.Delete(ctx, c.sc, id).ExtractErr()
	}))
}

// The fields the controller reads. Asking Neutron for only these (fields=) keeps the lists
// that fill the index, one entry per Network of the cluster, small on the wire and in memory.
var (
	networkFields = []string{"id", "name", "description", "tags", "created_at"}
	subnetFields  = []string{"id", "network_id", "name", "description", "tags", "cidr", "ip_version",
		"gateway_ip", "allocation_pools", "created_at"}
)

type networkQuery struct{ networks.ListOpts }

func (q networkQuery) ToNetworkListQuery() (string, error) {
	query, err := q.ListOpts.ToNetworkListQuery()
	return withFields(query, networkFields), err
}

type subnetQuery struct{ subnets.ListOpts }

func (q subnetQuery) ToSubnetListQuery() (string, error) {
	query, err := q.ListOpts.ToSubnetListQuery()
	return withFields(query, subnetFields), err
}

// withFields appends a fields= selection to a query string that starts with "?" or is empty.
func withFields(query string, fields []string) string {
	var b strings.Builder
	b.WriteString(query)
	for _, f := range fields {
		if b.Len() == 0 {
			b.WriteString("?")
		} else {
			b.WriteString("&")
		}
		b.WriteString("fields=" + url.QueryEscape(f))
	}
	return b.String()
}

func ignoreNotFound(err error) error {
	if IsNotFound(err) {
		return nil
	}
	return err
}

func fromNetwork(n networks.Network) Network {
	return Network{ID: n.ID, Name: n.Name, Description: n.Description, Tags: n.Tags, CreatedAt: n.CreatedAt}
}

func fromSubnet(s subnets.Subnet) Subnet {
	pools := make([]Pool, 0, len(s.AllocationPools))
	for _, p := range s.AllocationPools {
		pools = append(pools, Pool{Start: p.Start, End: p.End})
	}
	return Subnet{
		ID: s.ID, NetworkID: s.NetworkID, Name: s.Name, Description: s.Description, Tags: s.Tags,
		CIDR: s.CIDR, IPVersion: s.IPVersion, GatewayIP: s.GatewayIP, AllocationPools: pools, CreatedAt: s.CreatedAt,
	}
}

func toPools(pools []Pool) []subnets.AllocationPool {
	out := make([]subnets.AllocationPool, 0, len(pools))
	for _, p := range pools {
		out = append(out, subnets.AllocationPool{Start: p.Start, End: p.End})
	}
	return out
}
