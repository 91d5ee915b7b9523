package credentials

import (
	"context"
	"fmt"
	"sync"
	"time"

	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials/grants"
	"github.com/samplecrd/network-controller/pkg/credentials/registry"
	"github.com/samplecrd/network-controller/pkg/metrics"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronstore"
)

// Tenant is a Network's side of its credentials, as one pass sees it: where its Neutron
// resources live, the store that reaches them, and what its credentials should make it
// say.
type Tenant struct {
	Place neutron.Place
	// Store is the Place's store, reached through the Network's credentials.
	Store *neutronstore.Store
	// Expiry is when those credentials expire; nil when they do not, or Keystone did
	// not say.
	Expiry *neutron.CredentialExpiry
	// PasswordWarning is what the Network should say of its password; "" for none.
	PasswordWarning string
}

// Grants says what the Networks of a namespace may do in a project the cluster's
// operator hands out (grants.Book, or a test's), and when that may have changed.
type Grants interface {
	// OwnCloud fails for a namespace it does not know yet.
	OwnCloud(namespace string) (grants.Powers, error)
	// Delegation fails with grants.ErrNotSelected or grants.ErrNotDelegating when the
	// identity hands the namespace nothing, with another error for a namespace it does
	// not know yet.
	Delegation(namespace, identity string) (grants.Delegation, error)
	HasSynced() bool
	OnChange(changed func(namespace string)) error
	// DelegatesTo names the identities whose Secret is secret.
	DelegatesTo(secret cache.ObjectName) []string
}

// Guard keeps a Network's credentials Secret from going while the Network may still need
// it to delete what it made (secretguard.Guard).
type Guard interface {
	Protect(ctx context.Context, network *samplecrdv1.Network) error
}

// Own is the controller's own cloud, for Networks that name no credentials.
type Own = registry.Own

// SecretSource reads the credentials Secrets Networks name.
type SecretSource = registry.SecretSource

// Connector connects credentials to their Neutron.
type Connector = registry.Connector

// Project is a Place whose store was filled, and the store.
type Project = registry.Project

// TenantsConfig is what NewTenants works with; New fills it from the options.
type TenantsConfig struct {
	ClusterID string
	// Own is nil when every Network must name its credentials.
	Own *Own
	// AuthURLs are the Keystone URLs tenants' Secrets may name.
	AuthURLs []string
	// allowed is AuthURLs parsed (by New, from the options).
	allowed *registry.AuthURLs
	// AllowUnverifiedTLS lets a tenant's cloud turn TLS verification off.
	AllowUnverifiedTLS bool
	// Passwords says what becomes of a password in a namespace's Secret.
	Passwords registry.Passwords
	// UnavailableBackoff is how long credentials whose Keystone did not answer are not
	// tried again.
	UnavailableBackoff time.Duration
	Secrets            SecretSource
	Connect            Connector
	Grants             Grants
	// Guard protects credentials Secrets; nil when none are watched.
	Guard Guard
	// ExpiryWarning is how long before their credentials expire Networks say so; 0
	// never.
	ExpiryWarning time.Duration
	// Delegated are the projects identities delegate, visited by the orphan collection
	// whether or not a Network uses them.
	Delegated Delegated
}

// Tenants is the one view of credentials the reconciler and the resync have: each
// Network's tenant, its powers, what it should say of its credentials, and the projects
// the credentials reach.
//
// Tenants is safe for concurrent use.
type Tenants struct {
	registry      *registry.Registry
	grants        Grants
	guard         Guard
	expiryWindow  time.Duration
	delegated     Delegated
	reachingMu    sync.Mutex
	reachingUsers map[cache.ObjectName]bool
}

// NewTenants returns the Tenants of cfg.
func NewTenants(cfg TenantsConfig) (*Tenants, error) {
	if cfg.allowed == nil {
		allowed, err := registry.ParseAuthURLs(cfg.AuthURLs)
		if err != nil {
			return nil, err
		}
		cfg.allowed = &allowed
	}
	reg := registry.NewRegistry(registry.Config{
		ClusterID:          cfg.ClusterID,
		Policy:             registry.Policy{AuthURLs: *cfg.allowed, AllowUnverifiedTLS: cfg.AllowUnverifiedTLS, Passwords: cfg.Passwords},
		Own:                cfg.Own,
		UnavailableBackoff: cfg.UnavailableBackoff,
	}, cfg.Secrets, cfg.Connect)
	return &Tenants{registry: reg, grants: cfg.Grants, guard: cfg.Guard, expiryWindow: cfg.ExpiryWarning, delegated: cfg.Delegated}, nil
}

// Of returns the Network's tenant. Credentials that now lead to another project, or
// another region, than the one its resources are in are refused before any Neutron call:
// following them would create everything again there and leave the old resources behind.
func (t *Tenants) Of(ctx context.Context, network *samplecrdv1.Network) (Tenant, error) {
	src, err := t.sourceOf(network)
	if err != nil {
		return Tenant{}, err
	}
	return t.at(ctx, network, src)
}

// Reach returns the tenant the Network's credentials reach, wherever they are, without
// the checks against its status: an import's place may move.
func (t *Tenants) Reach(ctx context.Context, network *samplecrdv1.Network) (Tenant, error) {
	src, err := t.sourceOf(network)
	if err != nil {
		return Tenant{}, err
	}
	return t.resolve(ctx, network, src)
}

// FormerIdentity returns how to reach, for a delegated Network whose ClusterIdentity no
// longer selects its namespace, the project the identity delegated (with the identity's
// Secret), for what the Network made there only; ok is false when there is no such
// project to reach.
func (t *Tenants) FormerIdentity(network *samplecrdv1.Network) (reach func(context.Context, *samplecrdv1.Network) (Tenant, error), ok bool) {
	ref := network.Spec.CloudCredentialsRef
	if !ref.Delegated() {
		return nil, false
	}
	d, err := t.grants.Delegation(network.Namespace, ref.ClusterIdentity)
	if !isNotSelected(err) || d.Secret.Name == "" {
		return nil, false
	}
	src := &registry.Source{Secret: d.Secret, Cloud: d.Cloud, Identity: d.Identity}
	return func(ctx context.Context, network *samplecrdv1.Network) (Tenant, error) {
		return t.at(ctx, network, src)
	}, true
}

func (t *Tenants) at(ctx context.Context, network *samplecrdv1.Network, src *registry.Source) (Tenant, error) {
	tenant, err := t.resolve(ctx, network, src)
	if err != nil {
		return Tenant{}, err
	}
	if err := checkPinned(network, tenant.Place, t.registry.OwnPlace()); err != nil {
		return Tenant{}, err
	}
	return tenant, nil
}

func (t *Tenants) resolve(ctx context.Context, network *samplecrdv1.Network, src *registry.Source) (Tenant, error) {
	got, err := t.registry.Resolve(ctx, cache.MetaObjectToName(network), src)
	if err != nil {
		return Tenant{}, err
	}
	return Tenant{Place: got.Place, Store: got.Store, Expiry: got.Expiry, PasswordWarning: got.PasswordWarning}, nil
}

// FillOwn fills the store of the controller's own cloud, as a leader does before its
// workers start; ok is false when the controller has no cloud of its own.
func (t *Tenants) FillOwn(ctx context.Context) (ok bool, err error) {
	_, ok, err = t.registry.Own(ctx)
	return ok, err
}

// Protect makes sure the Secret the Network names is guarded before anything is created
// with it; without Secret watches there is nothing to guard.
func (t *Tenants) Protect(ctx context.Context, network *samplecrdv1.Network) error {
	if t.guard == nil {
		return nil
	}
	return t.guard.Protect(ctx, network)
}

// Forget lets go of what the Network key's credentials hold: its client, when no other
// Network uses it.
func (t *Tenants) Forget(key cache.ObjectName) { t.registry.Forget(key) }

// ExpiryOf returns when the credentials the Network key uses expire, if they do, as last
// read; nil before they are.
func (t *Tenants) ExpiryOf(key cache.ObjectName) *neutron.CredentialExpiry {
	return t.registry.ExpiryOf(key)
}

// OwnPlace is the controller's own cloud's place; zero without one.
func (t *Tenants) OwnPlace() neutron.Place { return t.registry.OwnPlace() }

// CachedFor returns the store and place the Network key's credentials reached when last
// resolved, without resolving them; ok is false when they were not.
func (t *Tenants) CachedFor(key cache.ObjectName, ownCloud bool) (*neutronstore.Store, neutron.Place, bool) {
	return t.registry.CachedFor(key, ownCloud)
}

// Projects returns every Place whose store was filled and that some Network's
// credentials still reach.
func (t *Tenants) Projects() []Project { return t.registry.Projects() }

// Len is the number of Neutron networks of the cluster the stores hold.
func (t *Tenants) Len() int { return t.registry.Len() }

// Unfill empties every store: its project's Networks may be another replica's now.
func (t *Tenants) Unfill() { t.registry.Unfill() }

// MetricExpiries are the expiries of the credentials in use, for the metrics.
func (t *Tenants) MetricExpiries() []metrics.CredentialsExpiry { return t.registry.MetricExpiries() }

// check is the Registry's check of an identity's Secret, for its status.
func (t *Tenants) check(ctx context.Context, src registry.Source) error {
	return t.registry.Check(ctx, src)
}

// credentialsOf names the credentials a Network uses, for messages.
func credentialsOf(network *samplecrdv1.Network) string {
	switch ref := network.Spec.CloudCredentialsRef; {
	case ref.Delegated():
		return fmt.Sprintf("the credentials of ClusterIdentity %s", ref.ClusterIdentity)
	case ref != nil:
		return fmt.Sprintf("the credentials of cloud %q in Secret %s/%s", ref.CloudName, network.Namespace, ref.SecretName)
	}
	return "the controller's own credentials"
}
