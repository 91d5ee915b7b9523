// Package fake is an in-memory neutron.Driver for unit tests of the controller. It is never
// linked into the controller binary; the controller always talks to a real Neutron.
package fake

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// Driver keeps networks, subnets, subnet pools, ports, RBAC policies and routers in maps and can be told to fail
// operations.
type Driver struct {
	mu       sync.Mutex
	networks map[string]neutron.Network
	subnets  map[string]neutron.Subnet
	pools    map[string]neutron.SubnetPool
	ports    map[string]neutron.Port
	policies map[string]neutron.RBACPolicy
	routers  map[string]neutron.Router
	// externals are the IDs of external networks.
	externals map[string]bool
	denySNAT  bool
	nextID    int
	failures  map[string]error
	// lostReplies are failures reported after the operation was carried out, once each.
	lostReplies map[string]error
	calls       []string
	// bodies are the JSON bodies of the create and update requests, by operation.
	bodies map[string][]string
	now    func() time.Time
	// project is the project of what this Driver creates, as a token scoped to it would.
	project string
	// quota holds the limits SetQuota set, by resource.
	quota map[string]int
	// expiry is what SetCredentialExpiry set.
	expiry *neutron.CredentialExpiry
	// named are the resources attributes name, by collection path (PutNamed).
	named map[string][]namedEntry
}

var _ neutron.Driver = (*Driver)(nil)

// New returns an empty fake Neutron.
func New() *Driver {
	return &Driver{
		networks:    map[string]neutron.Network{},
		subnets:     map[string]neutron.Subnet{},
		pools:       map[string]neutron.SubnetPool{},
		ports:       map[string]neutron.Port{},
		policies:    map[string]neutron.RBACPolicy{},
		routers:     map[string]neutron.Router{},
		externals:   map[string]bool{},
		failures:    map[string]error{},
		lostReplies: map[string]error{},
		bodies:      map[string][]string{},
		now:         time.Now,
	}
}

// FailWith makes every call of op (e.g. "create network") return err until cleared with
// a nil err.
func (d *Driver) FailWith(op string, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err == nil {
		delete(d.failures, op)
		return
	}
	d.failures[op] = err
}

// LoseReply makes the next call of op carry the operation out and then return err, as
// when Neutron commits a write but its reply never reaches the controller.
func (d *Driver) LoseReply(op string, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.lostReplies[op] = err
}

// CreateIn makes the networks and subnets created from now on belong to project, as
// when the caller's token is scoped to it.
func (d *Driver) CreateIn(project string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.project = project
}

// ClearCalls forgets the calls recorded so far.
func (d *Driver) ClearCalls() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.calls = nil
}

// Calls returns the operations called so far, in order.
func (d *Driver) Calls() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.calls)
}

// Bodies returns the JSON of the request of each create or update call of op (e.g.
// "update subnet") so far, in order: what the gophercloud driver sends under the
// resource's key.
func (d *Driver) Bodies(op string) []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.bodies[op])
}

// Networks returns every stored network.
func (d *Driver) Networks() []neutron.Network {
	d.mu.Lock()
	defer d.mu.Unlock()
	return mapValues(d.networks)
}

// Subnets returns every stored subnet.
func (d *Driver) Subnets() []neutron.Subnet {
	d.mu.Lock()
	defer d.mu.Unlock()
	return mapValues(d.subnets)
}

// PutNetwork stores n as if someone had created it in Neutron directly.
func (d *Driver) PutNetwork(n neutron.Network) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.networks[n.ID] = n
}

// PutSubnet stores s as if someone had created or changed it in Neutron directly.
func (d *Driver) PutSubnet(s neutron.Subnet) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.subnets[s.ID] = s
}

// begin records op and returns its injected failure, if any. Callers hold d.mu.
func (d *Driver) begin(op string) error {
	d.calls = append(d.calls, op)
	return d.failures[op]
}

// lostReply returns, once, the error to report after op was carried out. Callers hold d.mu.
func (d *Driver) lostReply(op string) error {
	err := d.lostReplies[op]
	delete(d.lostReplies, op)
	return err
}

func (d *Driver) newID(kind string) string {
	d.nextID++
	return fmt.Sprintf("%s-%d", kind, d.nextID)
}

func (d *Driver) Ping(context.Context) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.begin("ping")
}

func (d *Driver) ListNetworks(_ context.Context, f neutron.Filter) ([]neutron.Network, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.begin("list networks"); err != nil {
		return nil, err
	}
	var out []neutron.Network
	for _, n := range d.networks {
		// Neutron's database compares IDs without case: an ID in capitals finds the network.
		if matches(f, n.Tags, n.Description, n.Name, n.ProjectID) && (len(f.IDs) == 0 || slices.ContainsFunc(f.IDs, func(id string) bool { return strings.EqualFold(id, n.ID) })) &&
			(len(f.NotTags) == 0 || !hasAll(n.Tags, f.NotTags)) && (!f.External || d.externals[n.ID]) {
			out = append(out, n)
		}
	}
	return out, nil
}

func (d *Driver) CreateNetwork(_ context.Context, req neutron.NetworkRequest) (neutron.Network, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.begin("create network"); err != nil {
		return neutron.Network{}, err
	}
	n := neutron.Network{ID: d.newID("net"), CreatedAt: d.now(), ProjectID: d.project}
	d.apply("create network", &n, req)
	if n.QoSPolicyID == nil {
		// As Neutron's qos-default: a network made without a policy gets the project's
		// default. Only a create does; a PUT of null leaves the network without one.
		if id := d.defaultQoSPolicy(n.ProjectID); id != "" {
			n.QoSPolicyID = &id
		}
	}
	d.networks[n.ID] = n
	if err := d.lostReply("create network"); err != nil {
		return neutron.Network{}, err
	}
	return n, nil
}

func (d *Driver) UpdateNetwork(_ context.Context, id string, change neutron.NetworkAttrs) (neutron.Network, error) {
	return update(d, "update network", d.networks, id, change)
}

func (d *Driver) RelabelNetwork(_ context.Context, id string, label neutron.Label) (neutron.Network, error) {
	return update(d, "relabel network", d.networks, id, label)
}

func (d *Driver) SetNetworkTags(_ context.Context, id string, tags []string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.begin("tag network"); err != nil {
		return err
	}
	n, ok := d.networks[id]
	if !ok {
		return notFound("tag network")
	}
	n.Tags = slices.Clone(tags)
	d.networks[id] = n
	return nil
}

func (d *Driver) DeleteNetwork(_ context.Context, id string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.begin("delete network"); err != nil {
		return err
	}
	// As Neutron: ports other than those it deletes by itself (DHCP and the like) keep
	// the network, and its subnets, from going.
	var inUse []string
	for _, p := range d.ports {
		if p.NetworkID == id && !autoDeleted(p) {
			inUse = append(inUse, p.ID)
		}
	}
	if len(inUse) > 0 {
		slices.Sort(inUse)
		return &neutron.Error{Op: "delete network", Kind: neutron.KindInUse, Code: 409, Type: "NetworkInUse",
			Message: "Unable to complete operation on network " + id + ". There are one or more ports still in use on the network, id for these ports is: " + strings.Join(inUse, ",") + "."}
	}
	delete(d.networks, id)
	for pid, p := range d.ports {
		if p.NetworkID == id {
			delete(d.ports, pid)
		}
	}
	for sid, s := range d.subnets {
		if s.NetworkID == id {
			delete(d.subnets, sid)
		}
	}
	for pid, p := range d.policies {
		if p.ObjectID == id {
			delete(d.policies, pid)
		}
	}
	return nil
}

func (d *Driver) ListSubnets(_ context.Context, f neutron.Filter) ([]neutron.Subnet, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.begin("list subnets"); err != nil {
		return nil, err
	}
	var out []neutron.Subnet
	for _, s := range d.subnets {
		if matches(f, s.Tags, s.Description, s.Name, s.ProjectID) && (len(f.NetworkIDs) == 0 || slices.Contains(f.NetworkIDs, s.NetworkID)) {
			out = append(out, s)
		}
	}
	return out, nil
}

func (d *Driver) CreateSubnet(_ context.Context, req neutron.SubnetRequest) (neutron.Subnet, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.begin("create subnet"); err != nil {
		return neutron.Subnet{}, err
	}
	if _, ok := d.networks[req.NetworkID]; !ok {
		return neutron.Subnet{}, notFound("create subnet")
	}
	cidr, ipVersion := req.CIDR, req.IPVersion
	if req.SubnetPoolID != "" {
		pool, ok := d.pools[req.SubnetPoolID]
		if !ok || !d.visible(pool) {
			return neutron.Subnet{}, &neutron.Error{Op: "create subnet", Kind: neutron.KindNotFound, Code: 404, Type: "SubnetPoolNotFound",
				Message: "Subnet pool " + req.SubnetPoolID + " could not be found."}
		}
		ipVersion = pool.IPVersion
	}
	if ipVersion == 0 {
		ipVersion = versionOf(cidr)
	}
	for _, other := range d.subnets {
		// Neutron 21 (without address scopes): the subnets of one network and IP version
		// all come from one pool, or none.
		if other.NetworkID == req.NetworkID && subnetVersion(other) == ipVersion && other.SubnetPoolID != req.SubnetPoolID {
			return neutron.Subnet{}, &neutron.Error{Op: "create subnet", Kind: neutron.KindRejected, Code: 400, Type: "NetworkSubnetPoolAffinityError",
				Message: "Subnets hosted on the same network must be allocated from the same subnet pool."}
		}
	}
	if req.SubnetPoolID != "" {
		var err error
		if cidr, err = d.allocate(d.pools[req.SubnetPoolID], req); err != nil {
			return neutron.Subnet{}, err
		}
	}
	for _, other := range d.subnets {
		// Neutron refuses overlapping subnets on one network; a blind retry of a create
		// whose reply was lost therefore fails instead of duplicating.
		if other.NetworkID == req.NetworkID && other.CIDR == cidr {
			return neutron.Subnet{}, &neutron.Error{Op: "create subnet", Kind: neutron.KindRejected, Code: 400,
				Message: "Requested subnet with cidr " + cidr + " overlaps with another subnet"}
		}
	}
	s := neutron.Subnet{ID: d.newID("subnet"), CreatedAt: d.now(), ProjectID: d.project}
	d.apply("create subnet", &s, req)
	s.CIDR, s.IPVersion = cidr, ipVersion
	d.subnets[s.ID] = s
	if err := d.lostReply("create subnet"); err != nil {
		return neutron.Subnet{}, err
	}
	return s, nil
}

func (d *Driver) UpdateSubnet(_ context.Context, id string, change neutron.SubnetAttrs) (neutron.Subnet, error) {
	return update(d, "update subnet", d.subnets, id, change)
}

func (d *Driver) RelabelSubnet(_ context.Context, id string, label neutron.Label) (neutron.Subnet, error) {
	return update(d, "relabel subnet", d.subnets, id, label)
}

// update applies change to the stored resource id, as Neutron's PUT does.
func update[T any](d *Driver, op string, stored map[string]T, id string, change any) (T, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	var r T
	if err := d.begin(op); err != nil {
		return r, err
	}
	r, ok := stored[id]
	if !ok {
		return r, notFound(op)
	}
	d.apply(op, &r, change)
	stored[id] = r
	if err := d.lostReply(op); err != nil {
		var zero T
		return zero, err
	}
	return r, nil
}

func (d *Driver) DeleteSubnet(_ context.Context, id string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.begin("delete subnet"); err != nil {
		return err
	}
	// As Neutron: an address of a port other than those it deletes by itself (DHCP and the
	// like) keeps the subnet; those give theirs up.
	for _, p := range d.ports {
		if !autoDeleted(p) && slices.ContainsFunc(p.FixedIPs, func(ip neutron.FixedIP) bool { return ip.SubnetID == id }) {
			return &neutron.Error{Op: "delete subnet", Kind: neutron.KindInUse, Code: 409, Type: "SubnetInUse",
				Message: "Unable to complete operation on subnet " + id + ": One or more ports have an IP allocation from this subnet."}
		}
	}
	for pid, p := range d.ports {
		p.FixedIPs = slices.DeleteFunc(slices.Clone(p.FixedIPs), func(ip neutron.FixedIP) bool { return ip.SubnetID == id })
		d.ports[pid] = p
	}
	delete(d.subnets, id)
	return nil
}

func notFound(op string) error {
	return &neutron.Error{Op: op, Kind: neutron.KindNotFound, Code: 404, Message: "not found"}
}
