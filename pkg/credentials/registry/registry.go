package registry

import (
	"context"
	"fmt"
	"sync"
	"time"

	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronclient"
	"github.com/samplecrd/network-controller/pkg/neutronstore"
)

// Connector authenticates with Keystone and returns a Driver for the Neutron of its
// catalog and the Place its calls land in (neutronclient.ConnectKeystone).
type Connector func(ctx context.Context, creds neutronclient.Credentials) (neutron.Driver, neutron.Place, error)

// Own is the controller's own cloud, for Networks that name no Secret.
type Own struct {
	Driver neutron.Driver
	// Place has no project for a Neutron without authentication.
	Place neutron.Place
}

// Tenant is where a Network's Neutron resources live and the way to reach them.
type Tenant struct {
	Place neutron.Place
	// Store is the Place's store, reached through the Network's credentials.
	Store *neutronstore.Store
	// Expiry is when those credentials expire; nil when they do not, or Keystone did
	// not say.
	Expiry *neutron.CredentialExpiry
	// PasswordWarning is what the Network should say of its password (Cloud).
	PasswordWarning string
}

// Registry hands out, for each Network, the Neutron store of its Place (Keystone,
// region, Neutron and project) reached with its credentials. Networks with the same
// credentials share one client, and so one Keystone token; Networks of one Place share one
// store, filled on its first use. Credentials that merely claim a project share nothing
// with another Place of that project. A client is dropped when no Network uses it any more.
//
// Registry is safe for concurrent use.
type Registry struct {
	clusterID string
	policy    Policy
	secrets   SecretSource
	connect   Connector
	// unavailableBackoff is how long a Keystone that did not answer is not asked again
	// for the same credentials.
	unavailableBackoff time.Duration
	own                *Own
	now                func() time.Time

	mu sync.Mutex
	// parsed keeps each credentials Secret as last parsed, with the resourceVersions it
	// was read at; bounded.
	parsed  *parsedCache
	clients map[string]*client
	users   map[cache.ObjectName]string
	places  map[neutron.Place]*project
}

// Config configures a Registry.
type Config struct {
	ClusterID string
	// Policy is what tenants' clouds may choose: Keystone URLs, TLS verification.
	Policy Policy
	// Own is nil when every Network must name its credentials.
	Own *Own
	// UnavailableBackoff is how long after Keystone did not answer for some credentials
	// they are not tried again; Networks that need them fail at once meanwhile.
	UnavailableBackoff time.Duration
}

// ownFingerprint stands for the controller's own cloud among the clients.
const ownFingerprint = ""

// NewRegistry returns a Registry reading Secrets from secrets and authenticating tenants
// through connect.
func NewRegistry(config Config, secrets SecretSource, connect Connector) *Registry {
	r := &Registry{
		clusterID:          config.ClusterID,
		policy:             config.Policy,
		secrets:            secrets,
		connect:            connect,
		unavailableBackoff: config.UnavailableBackoff,
		own:                config.Own,
		now:                time.Now,
		parsed:             newParsedCache(),
		clients:            map[string]*client{},
		users:              map[cache.ObjectName]string{},
		places:             map[neutron.Place]*project{},
	}
	if config.Own != nil {
		own := &client{}
		own.conn.Store(&connection{driver: config.Own.Driver, place: config.Own.Place})
		r.clients[ownFingerprint] = own
		r.places[config.Own.Place] = newProject(config.Own.Driver, config.ClusterID, config.Own.Place.ProjectID)
	}
	return r
}

// Own returns the controller's own cloud's tenant, filling its store on first use; ok is
// false when the controller has no cloud of its own.
func (r *Registry) Own(ctx context.Context) (t Tenant, ok bool, err error) {
	if r.own == nil {
		return Tenant{}, false, nil
	}
	t, err = r.tenantOf(ctx, r.own.Driver, r.own.Place)
	return t, true, err
}

// Resolve returns the tenant of the Network key, whose credentials are in src (nil for
// the controller's own cloud). A failure about the credentials is an *Error.
func (r *Registry) Resolve(ctx context.Context, key cache.ObjectName, src *Source) (Tenant, error) {
	if src == nil {
		if r.own == nil {
			r.Forget(key)
			return Tenant{}, errorf(samplecrdv1.ReasonCredentialsRefRequired,
				"this controller has no cloud of its own for Networks: set spec.cloudCredentialsRef to a Secret in namespace %s with the key %s", key.Namespace, KeyCloudsYAML)
		}
		r.use(key, ownFingerprint)
		t, _, err := r.Own(ctx)
		return t, err
	}
	cloud, err := r.cloudOf(ctx, src)
	if err != nil {
		r.Forget(key)
		return Tenant{}, err
	}
	c := r.use(key, cloud.Fingerprint)
	c.source.CompareAndSwap(nil, src)
	driver, place, err := c.connect(ctx, r, cloud)
	if err != nil {
		return Tenant{}, err
	}
	t, err := r.tenantOf(ctx, driver, place)
	t.PasswordWarning = cloud.PasswordWarning
	return t, err
}

// Forget tells that the Network key no longer uses any credentials (it is gone); a client
// it was the last user of is dropped.
func (r *Registry) Forget(key cache.ObjectName) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if fp, ok := r.users[key]; ok {
		delete(r.users, key)
		r.release(fp)
	}
}

// use records that key uses the credentials fp and returns their client.
func (r *Registry) use(key cache.ObjectName, fp string) *client {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := r.clients[fp]
	if c == nil {
		c = &client{}
		r.clients[fp] = c
	}
	if old, ok := r.users[key]; ok && old == fp {
		return c
	} else if ok {
		r.release(old)
	}
	r.users[key] = fp
	c.users++
	return c
}

// release drops a use of the client fp, and the client with its last use; r.mu is held.
func (r *Registry) release(fp string) {
	c := r.clients[fp]
	if c == nil || fp == ownFingerprint {
		return
	}
	c.users--
	if c.users <= 0 {
		delete(r.clients, fp)
	}
}

// tenantOf returns the tenant of place reached through driver, filling the place's store
// first if this is its first use.
func (r *Registry) tenantOf(ctx context.Context, driver neutron.Driver, place neutron.Place) (Tenant, error) {
	r.mu.Lock()
	p := r.places[place]
	if p == nil {
		p = newProject(driver, r.clusterID, place.ProjectID)
		r.places[place] = p
	}
	r.mu.Unlock()
	store := p.store.Using(driver)
	if err := p.fill(ctx, store); err != nil {
		return Tenant{}, fmt.Errorf("reading this cluster's Neutron resources in %s: %w", place, err)
	}
	return Tenant{Place: place, Store: store, Expiry: expiryOf(driver)}, nil
}

// Unfill makes every project's store fill again on its next use. A replica that takes a
// shard over calls it: the shard's last holder may have created resources in these
// projects since this replica filled them, and a store that did not list them would have
// the shard's Networks create them again.
func (r *Registry) Unfill() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range r.places {
		p.unfill()
	}
}

// Project is one Place's store, reached through credentials some Network uses now.
type Project struct {
	Place neutron.Place
	Store *neutronstore.Store
}

// Projects returns every Place whose store was filled and that some Network's
// credentials still reach; Places no one reaches any more are dropped.
func (r *Registry) Projects() []Project {
	r.mu.Lock()
	defer r.mu.Unlock()
	reach := map[neutron.Place]neutron.Driver{}
	for _, c := range r.clients {
		if d, place := c.connected(); d != nil {
			reach[place] = d
		}
	}
	var out []Project
	for place, p := range r.places {
		d, ok := reach[place]
		if !ok {
			delete(r.places, place)
			continue
		}
		if p.isFilled() {
			out = append(out, Project{Place: place, Store: p.store.Using(d)})
		}
	}
	return out
}

// CachedFor returns the store of the Place the Network key's credentials led to when it
// last resolved them (ownCloud: the controller's own, for a Network that names none), as
// last filled, to be read without calls. ok is false when the Network has not resolved
// its credentials in this process, or their store is not filled.
func (r *Registry) CachedFor(key cache.ObjectName, ownCloud bool) (store *neutronstore.Store, place neutron.Place, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fp, used := r.users[key]
	if !used && ownCloud && r.own != nil {
		fp, used = ownFingerprint, true
	}
	c := r.clients[fp]
	if !used || c == nil {
		return nil, neutron.Place{}, false
	}
	if d, place := c.connected(); d != nil {
		if p := r.places[place]; p != nil && p.isFilled() {
			return p.store, place, true
		}
	}
	return nil, neutron.Place{}, false
}

// OwnPlace is the Place of the controller's own cloud (zero without one).
func (r *Registry) OwnPlace() neutron.Place {
	if r.own == nil {
		return neutron.Place{}
	}
	return r.own.Place
}

// Len returns the number of Neutron networks the filled stores know.
func (r *Registry) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, p := range r.places {
		n += p.store.Len()
	}
	return n
}
