package neutronclient

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"strings"
	"time"

	"github.com/gophercloud/gophercloud/v2"
	"github.com/gophercloud/gophercloud/v2/openstack/networking/v2/extensions/attributestags"
	"github.com/gophercloud/gophercloud/v2/openstack/networking/v2/networks"
	"github.com/gophercloud/gophercloud/v2/openstack/networking/v2/subnets"
	"github.com/gophercloud/gophercloud/v2/pagination"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// CallObserver is told about every Neutron call: its operation name, its error (nil on
// success) and how long it took. Metrics hang off it.
type CallObserver func(op string, err error, elapsed time.Duration)

// Client is the Driver backed by gophercloud.
type Client struct {
	sc      *gophercloud.ServiceClient
	observe CallObserver
	limits  RateLimits
	place   neutron.Place
	// user is the Keystone user of the token ("" without authentication).
	user TokenUser
	// refusal is set once Keystone refused to renew the token: later calls fail with it
	// at once instead of asking Keystone again, which locks users out after repeated
	// failures. It holds until new credentials come with a new Client, or, with
	// RetryRefusals, for a backoff.
	refusal refusal
	// onOverQuota is told about each OverQuota answer; nil: no one is.
	onOverQuota func()
	// expiry says when the credentials expire (nil without authentication); expiryErr
	// is why it could not be read.
	expiry    *expiryWatch
	expiryErr error
	// pause waits before a call is sent again; sleep unless a test sets it.
	pause func(context.Context, time.Duration) error
}

var _ neutron.Driver = (*Client)(nil)

// NewClient returns a Driver using sc, a networking v2 service client. observe may be nil.
func NewClient(sc *gophercloud.ServiceClient, observe CallObserver) *Client {
	if observe == nil {
		observe = func(string, error, time.Duration) {}
	}
	return &Client{sc: sc, observe: observe, pause: sleep}
}

// LimitRate makes every request keep to limits, so that a restart or a flood of new
// objects cannot overload a shared cloud, and one project cannot spend the whole total.
func (c *Client) LimitRate(limits RateLimits) {
	if limits.OnWait == nil {
		limits.OnWait = func(bool, time.Duration) {}
	}
	if limits.Now == nil {
		limits.Now = time.Now
	}
	c.limits = limits
}

// Place is where the Client's calls land.
func (c *Client) Place() neutron.Place { return c.place }

// TokenUser is the Keystone user a token was issued to, and its domain.
type TokenUser struct{ ID, Name, DomainID, DomainName string }

// User returns the Keystone user of the client's token (zero without authentication).
func (c *Client) User() TokenUser { return c.user }

// call runs fn as operation op after waiting for the rate limit, classifies its error and
// reports it to the observer.
func (c *Client) call(ctx context.Context, op string, fn func() error) error {
	if err := c.refusal.holding(); err != nil {
		return err
	}
	if err := c.waitForLimits(ctx, op); err != nil {
		return err
	}
	start := time.Now()
	err := fn()
	if refusedAfterRenewal(err) {
		// Sent once more, which renews the token again: a 401 means Neutron did nothing.
		if c.pause(ctx, revocationGrain) == nil {
			err = fn()
		}
	}
	err = wrapError(op, err)
	c.observe(op, err, time.Since(start))
	if c.onOverQuota != nil && neutron.KindOf(err) == neutron.KindOverQuota {
		c.onOverQuota()
	}
	return c.refusal.record(err)
}

// Refused returns Keystone's refusal to renew the token while it holds.
func (c *Client) Refused() error { return c.refusal.holding() }

// RetryRefusals makes a refusal hold for a backoff, from first doubling up to limit,
// after which one call asks Keystone again; meanwhile calls fail as unavailable, not as
// refused. For the controller's own credentials: a Keystone user disabled for a while
// must not stop the controller until a restart. onChange is told when a refusal starts
// and ends.
func (c *Client) RetryRefusals(first, limit time.Duration, onChange func(refused bool)) {
	c.refusal.retry(first, limit, onChange)
}

func (c *Client) Ping(ctx context.Context) error {
	return c.call(ctx, "ping", func() error {
		// The smallest real request: the first page of one network. Only that page:
		// following the next links would cost a request per network.
		return networks.List(c.sc, networks.ListOpts{Limit: 1}).EachPage(ctx,
			func(context.Context, pagination.Page) (bool, error) { return false, nil })
	})
}

func (c *Client) ListNetworks(ctx context.Context, f neutron.Filter) ([]neutron.Network, error) {
	var out []neutron.Network
	err := c.call(ctx, "list networks", func() error {
		// No page size: Neutron answers with every match in one response unless the
		// operator capped it, and the next links are followed when it did.
		query, err := networkQuery{networks.ListOpts{
			Tags:        strings.Join(f.Tags, ","),
			NotTags:     strings.Join(f.NotTags, ","),
			Description: f.Description,
			Name:        f.Name,
			ProjectID:   f.ProjectID,
		}, f.IDs}.ToNetworkListQuery()
		if err != nil {
			return err
		}
		if f.External {
			query = withRepeated(query, "router:external", []string{"true"})
		}
		out, err = listNetworks(ctx, c.sc, c.sc.ServiceURL("networks")+query)
		return err
	})
	return out, err
}

func (c *Client) CreateNetwork(ctx context.Context, req neutron.NetworkRequest) (neutron.Network, error) {
	return one[neutron.Network](ctx, c, "create network", "network", func() result { return networks.Create(ctx, c.sc, body{"network", req}) })
}

func (c *Client) UpdateNetwork(ctx context.Context, id string, change neutron.NetworkAttrs) (neutron.Network, error) {
	return one[neutron.Network](ctx, c, "update network", "network", func() result { return networks.Update(ctx, c.sc, id, body{"network", change}) })
}

func (c *Client) RelabelNetwork(ctx context.Context, id string, label neutron.Label) (neutron.Network, error) {
	return one[neutron.Network](ctx, c, "relabel network", "network", func() result { return networks.Update(ctx, c.sc, id, body{"network", label}) })
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

func (c *Client) ListSubnets(ctx context.Context, f neutron.Filter) ([]neutron.Subnet, error) {
	var out []neutron.Subnet
	err := c.call(ctx, "list subnets", func() error {
		query, err := subnetQuery{subnets.ListOpts{
			Tags:        strings.Join(f.Tags, ","),
			Description: f.Description,
			Name:        f.Name,
			ProjectID:   f.ProjectID,
		}, f.NetworkIDs}.ToSubnetListQuery()
		if err != nil {
			return err
		}
		out, err = listSubnets(ctx, c.sc, c.sc.ServiceURL("subnets")+query)
		return err
	})
	return out, err
}

func (c *Client) CreateSubnet(ctx context.Context, req neutron.SubnetRequest) (neutron.Subnet, error) {
	return one[neutron.Subnet](ctx, c, "create subnet", "subnet", func() result { return subnets.Create(ctx, c.sc, body{"subnet", req}) })
}

func (c *Client) UpdateSubnet(ctx context.Context, id string, change neutron.SubnetAttrs) (neutron.Subnet, error) {
	return one[neutron.Subnet](ctx, c, "update subnet", "subnet", func() result { return subnets.Update(ctx, c.sc, id, body{"subnet", change}) })
}

func (c *Client) RelabelSubnet(ctx context.Context, id string, label neutron.Label) (neutron.Subnet, error) {
	return one[neutron.Subnet](ctx, c, "relabel subnet", "subnet", func() result { return subnets.Update(ctx, c.sc, id, body{"subnet", label}) })
}

func (c *Client) DeleteSubnet(ctx context.Context, id string) error {
	return ignoreNotFound(c.call(ctx, "delete subnet", func() error {
		return subnets.Delete(ctx, c.sc, id).ExtractErr()
	}))
}

func (c *Client) ListSubnetPools(ctx context.Context, f neutron.Filter) ([]neutron.SubnetPool, error) {
	var out []neutron.SubnetPool
	err := c.call(ctx, "list subnet pools", func() error {
		var err error
		out, err = listAll[neutron.SubnetPool](ctx, c.sc, c.sc.ServiceURL("subnetpools")+subnetPoolQuery(f), "subnetpools")
		return err
	})
	return out, err
}

func (c *Client) ListNamed(ctx context.Context, coll neutron.Collection, f neutron.Filter) ([]neutron.Named, error) {
	var out []neutron.Named
	err := c.call(ctx, "list "+coll.Path, func() error {
		var err error
		query := withRepeated("", "id", f.IDs)
		if f.Name != "" {
			query = withRepeated(query, "name", []string{f.Name})
		}
		out, err = listAll[neutron.Named](ctx, c.sc, c.sc.ServiceURL(coll.Path)+withRepeated(query, "fields", namedFields), coll.Key)
		return err
	})
	return out, err
}

// namedFields are the fields a lookup of what an attribute names reads, and shared: where
// the policy that lets a member see another project's resource reads it (a QoS policy
// shared with the project on 2025.1 and later), a list that leaves it out hides the
// resource. A collection without the attribute ignores it.
var namedFields = []string{"id", "name", "project_id", "shared"}

func (c *Client) ListPorts(ctx context.Context, f neutron.Filter) ([]neutron.Port, error) {
	var out []neutron.Port
	err := c.call(ctx, "list ports", func() error {
		var err error
		out, err = listAll[neutron.Port](ctx, c.sc, c.sc.ServiceURL("ports")+portQuery(f), "ports")
		return err
	})
	return out, err
}

// body is a create or update request: fields, one of the JSON-tagged structs of
// resources.go, under the resource's key. Sent as they are, those structs need no mapping.
type body struct {
	resource string
	fields   any
}

func (b body) toMap() (map[string]any, error) {
	raw, err := json.Marshal(b.fields)
	if err != nil {
		return nil, fmt.Errorf("encoding the %s request: %w", b.resource, err)
	}
	return map[string]any{b.resource: json.RawMessage(raw)}, nil
}

func (b body) ToNetworkCreateMap() (map[string]any, error) { return b.toMap() }
func (b body) ToNetworkUpdateMap() (map[string]any, error) { return b.toMap() }
func (b body) ToSubnetCreateMap() (map[string]any, error)  { return b.toMap() }
func (b body) ToSubnetUpdateMap() (map[string]any, error)  { return b.toMap() }

// result is a gophercloud reply about one resource, e.g. {"network": {...}}.
type result interface {
	ExtractIntoStructPtr(to any, label string) error
}

// one runs as op a request whose reply is one resource, found under label.
func one[T any](ctx context.Context, c *Client, op, label string, send func() result) (T, error) {
	var out T
	err := c.call(ctx, op, func() error { return send().ExtractIntoStructPtr(&out, label) })
	return out, err
}

// The fields the controller reads, from the JSON names of the types in resources.go. Asking
// Neutron for only these (fields=) keeps the lists that fill the Store, one entry per
// Network of the cluster, small on the wire and in memory.
var (
	networkFields = jsonNames(reflect.TypeFor[neutron.Network]())
	subnetFields  = jsonNames(reflect.TypeFor[neutron.Subnet]())
	poolFields    = jsonNames(reflect.TypeFor[neutron.SubnetPool]())
	portFields    = jsonNames(reflect.TypeFor[neutron.Port]())
)

// jsonNames returns the JSON names of a struct's fields, those of embedded structs included.
func jsonNames(t reflect.Type) []string {
	var names []string
	for f := range t.Fields() {
		if f.Anonymous {
			names = append(names, jsonNames(f.Type)...)
			continue
		}
		if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && name != "-" {
			names = append(names, name)
		}
	}
	return names
}

// networkQuery is a network list query with several IDs, which Neutron takes as repeated
// id= parameters (any of them matches) and gophercloud's ListOpts cannot say.
type networkQuery struct {
	networks.ListOpts
	ids []string
}

func (q networkQuery) ToNetworkListQuery() (string, error) {
	query, err := q.ListOpts.ToNetworkListQuery()
	return withRepeated(withRepeated(query, "id", q.ids), "fields", networkFields), err
}

// subnetQuery is a subnet list query with several networks (repeated network_id=).
type subnetQuery struct {
	subnets.ListOpts
	networkIDs []string
}

func (q subnetQuery) ToSubnetListQuery() (string, error) {
	query, err := q.ListOpts.ToSubnetListQuery()
	return withRepeated(withRepeated(query, "network_id", q.networkIDs), "fields", subnetFields), err
}

// subnetPoolQuery is a subnet pool list query by IDs (repeated id=) and name. It has no
// project_id: the pools a project may allocate from are mostly another project's, shared.
func subnetPoolQuery(f neutron.Filter) string {
	query := withRepeated("", "id", f.IDs)
	if f.Name != "" {
		query = withRepeated(query, "name", []string{f.Name})
	}
	return withRepeated(query, "fields", poolFields)
}

// portQuery is a port list query by project, networks (repeated network_id=), device owner and subnet:
// Neutron's fixed_ips=subnet_id=<id> finds the ports holding an address on it.
func portQuery(f neutron.Filter) string {
	var query string
	if f.ProjectID != "" {
		query = withRepeated(query, "project_id", []string{f.ProjectID})
	}
	query = withRepeated(query, "network_id", f.NetworkIDs)
	if f.SubnetID != "" {
		query = withRepeated(query, "fixed_ips", []string{"subnet_id=" + f.SubnetID})
	}
	if f.DeviceOwner != "" {
		query = withRepeated(query, "device_owner", []string{f.DeviceOwner})
	}
	if f.DeviceID != "" {
		query = withRepeated(query, "device_id", []string{f.DeviceID})
	}
	return withRepeated(query, "fields", portFields)
}

// withRepeated appends key=value for each value to a query string that starts with "?" or
// is empty.
func withRepeated(query, key string, values []string) string {
	var b strings.Builder
	b.WriteString(query)
	for _, v := range values {
		if b.Len() == 0 {
			b.WriteString("?")
		} else {
			b.WriteString("&")
		}
		b.WriteString(key + "=" + url.QueryEscape(v))
	}
	return b.String()
}

func ignoreNotFound(err error) error {
	if neutron.IsNotFound(err) {
		return nil
	}
	return err
}
