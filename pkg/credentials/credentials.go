package credentials

import (
	"context"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	clientset "github.com/samplecrd/network-controller/pkg/client/clientset/versioned"
	"github.com/samplecrd/network-controller/pkg/credentials/grants"
	"github.com/samplecrd/network-controller/pkg/credentials/identitystatus"
	"github.com/samplecrd/network-controller/pkg/credentials/lockout"
	"github.com/samplecrd/network-controller/pkg/credentials/owncloud"
	"github.com/samplecrd/network-controller/pkg/credentials/registry"
	"github.com/samplecrd/network-controller/pkg/credentials/requeue"
	"github.com/samplecrd/network-controller/pkg/credentials/secretguard"
	"github.com/samplecrd/network-controller/pkg/credentials/secretwatch"
	"github.com/samplecrd/network-controller/pkg/credentials/tokenrequests"
	"github.com/samplecrd/network-controller/pkg/fairqueue"
	"github.com/samplecrd/network-controller/pkg/metrics"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronclient"
	"github.com/samplecrd/network-controller/pkg/scope"
)

// Env is what the credentials work with besides their options: the clients, the
// Networks' informers, and the Neutron clients' metrics and rate limits.
type Env struct {
	Core     kubernetes.Interface
	Networks clientset.Interface
	Metadata metadata.Interface
	// NetworkInformers are the informers of the Networks watched, in Namespaces; Ownership
	// says which this replica acts for.
	NetworkInformers *scope.Informers
	Namespaces       scope.Namespaces
	Ownership        *scope.Ownership
	ClusterID        string
	FieldManager     string
	// LeaseNamespace holds the ConfigMap of refused token requests.
	LeaseNamespace string
	Metrics        *metrics.Metrics
	// ObserveOwn and ObserveTenant are told every Neutron call of the controller's own
	// cloud and of tenants' credentials; Limit puts a client under the rate limits.
	ObserveOwn, ObserveTenant neutronclient.CallObserver
	Limit                     func(*neutronclient.Client)
	// RetryBaseDelay and RetryMaxDelay bound the backoff of the Secrets' finalizers.
	RetryBaseDelay, RetryMaxDelay time.Duration
}

// Credentials are every part of the credentials of a controller: the tenants, the
// watches of credentials Secrets and their finalizers, the grants, the lockout gate in
// front of Keystone, the ClusterIdentities' status, and what wakes Networks whose
// credentials may have changed.
type Credentials struct {
	tenants  *Tenants
	grants   Grants
	networks *scope.Informers
	watched  scope.Namespaces
	requeue  *requeue.Networks
	// With watches (New) only; nil without (WithoutWatches).
	secrets                *secretwatch.Watches
	identities, namespaces cache.SharedIndexInformer
	identityStatus         *identitystatus.Writer
	guard                  *secretguard.Guard
	gate                   *lockout.Gate
	restoreLockouts        func(context.Context)
	own                    *registry.Own
}

// keystoneUnavailableBackoff is how long credentials whose Keystone did not answer are
// not tried again; the Networks using them are retried with their own backoff meanwhile.
const keystoneUnavailableBackoff = 5 * time.Second

// New builds the credentials from opts (validated) and connects the controller's own
// cloud, retrying until startup is done.
func New(ctx, startup context.Context, opts Options, env Env) (*Credentials, error) {
	m := env.Metrics
	m.DeclareKeystoneTokenOutcomes(tokenrequests.Outcomes)
	m.DeclareKeystoneHeldLimits(lockout.HeldLimits)
	own, err := connectOwnCloud(startup, opts, env)
	if err != nil {
		return nil, err
	}
	allowed, err := owncloud.TenantAuthURLs(opts.ownCloudFlags())
	if err != nil {
		return nil, err
	}
	klog.FromContext(ctx).Info("Credentials Secrets may authenticate at", "authURLs", allowed.String())
	c := &Credentials{networks: env.NetworkInformers, watched: env.Namespaces, own: own}
	c.secrets = secretwatch.New(env.Metadata, registry.StripSecretMetadata,
		secretwatch.Limits{PerNamespace: opts.MaxSecretsPerNamespace, Total: opts.MaxSecrets})
	c.gate = lockout.NewGate(opts.KeystoneAuthQPS, opts.KeystoneAuthBurst, m.KeystoneTokenRequestHeld, m.SetKeystoneAccountsHeld)
	c.gate.OnTurnWait(m.ObserveKeystoneTokenWait)
	owncloud.GuardAccount(c.gate, own)
	c.restoreLockouts = c.gate.KeepInConfigMap(ctx, env.Core, env.LeaseNamespace, opts.RefusalsConfigMap, env.FieldManager)
	c.identities, c.namespaces = grants.NewInformers(env.Networks, env.Metadata)
	book := grants.NewBook(c.identities, c.namespaces, opts.ownCloudSelector)
	c.grants = book
	if err := secretguard.IndexNetworks(env.NetworkInformers); err != nil {
		return nil, err
	}
	c.guard, err = secretguard.New(env.NetworkInformers, env.Ownership, c.secrets, env.Core.CoreV1(), env.FieldManager, env.RetryBaseDelay, env.RetryMaxDelay)
	if err != nil {
		return nil, err
	}
	c.tenants, err = NewTenants(TenantsConfig{
		ClusterID: env.ClusterID, Own: own, allowed: &allowed, AllowUnverifiedTLS: opts.AllowUnverifiedTLS, Passwords: opts.passwords,
		UnavailableBackoff: keystoneUnavailableBackoff,
		Secrets:            registry.NewWatchedSecrets(c.secrets, env.Core, registry.Grantee(ctx, env.Core)),
		Connect:            tenantConnector(env, c.gate),
		Grants:             book, Guard: c.guard, ExpiryWarning: opts.ExpiryWarning,
		// Force-removed Networks leave orphans in delegated projects that no Network may
		// reach again.
		Delegated: Delegated{Identities: c.identities.GetStore(), Delegation: book.Delegation, UseSecret: c.secrets.Use},
	})
	if err != nil {
		return nil, err
	}
	c.identityStatus, err = identitystatus.New(env.Networks, c.identities, c.namespaces, env.NetworkInformers, env.Ownership, c.tenants.check, env.FieldManager)
	if err != nil {
		return nil, err
	}
	c.secrets.AddEventHandler(requeue.SecretChanges(c.identityStatus.SecretChanged))
	m.ExportCredentialExpiries(opts.ExpiryWarning, c.tenants.MetricExpiries)
	return c, nil
}

// WithoutWatches returns the credentials of tenants alone: no credentials Secret is
// watched (a Network naming one does not find it) and no ClusterIdentity is read but
// through tenants' grants.
func WithoutWatches(tenants *Tenants, networks *scope.Informers, namespaces scope.Namespaces) *Credentials {
	return &Credentials{tenants: tenants, grants: tenants.grants, networks: networks, watched: namespaces}
}

// Tenants are the Networks' view of the credentials.
func (c *Credentials) Tenants() *Tenants { return c.tenants }

// HasSynced reports whether the grants are read: workers wait for them.
func (c *Credentials) HasSynced() bool { return c.grants.HasSynced() }

// Requeue makes enqueue wake the Networks whose credentials may have changed: their
// Secret, their identity or its Secret, or a grant of their namespace.
func (c *Credentials) Requeue(enqueue func(key cache.ObjectName, class fairqueue.Class)) error {
	requeued, err := requeue.New(c.networks, c.watched, c.tenants.registry, enqueue)
	if err != nil {
		return err
	}
	if c.secrets != nil {
		if err := requeued.OnSecrets(c.secrets, c.grants.DelegatesTo); err != nil {
			return err
		}
	}
	if err := requeued.OnGrantChanges(c.grants.OnChange); err != nil {
		return err
	}
	if c.identities != nil {
		if err := requeued.OnIdentitySecrets(c.identities, c.secrets); err != nil {
			return err
		}
	}
	c.requeue = requeued
	return nil
}

// Start starts the watches the credentials read, leading or not.
func (c *Credentials) Start(ctx context.Context) {
	if c.secrets != nil {
		c.secrets.Start(ctx)
	}
	if c.identities != nil {
		go c.identities.RunWithContext(ctx)
		go c.namespaces.RunWithContext(ctx)
	}
}

// StartLeading runs, until ctx is done, what a leader does of the credentials from the
// moment it leads: the ClusterIdentities' status, and the log of the last leader's
// lockout counts (Networks whose credentials need none go on meanwhile).
func (c *Credentials) StartLeading(ctx context.Context) {
	if c.restoreLockouts != nil {
		go c.restoreLockouts(ctx)
	}
	if c.identityStatus != nil {
		go c.identityStatus.Run(ctx)
	}
}

// RunBesideWorkers runs, until ctx is done, what a leader does of the credentials once
// its workers run: the Secrets' finalizers, and (after Requeue) the check of the Networks
// whose expiry warning expiryOutOfDate says is out of date at now.
func (c *Credentials) RunBesideWorkers(ctx context.Context, now func() time.Time, expiryOutOfDate func(*samplecrdv1.Network, time.Time) bool) {
	if c.guard != nil {
		go c.guard.Run(ctx)
	}
	if c.tenants.expiryWindow > 0 && c.requeue != nil {
		go c.requeue.OnExpiry(ctx, requeue.ExpiryCheckPeriod, now, expiryOutOfDate)
	}
}

// SetKeystoneRate sets the rate of token requests for tenants' credentials (a replica's
// share of -keystone-auth-qps and -keystone-auth-burst).
func (c *Credentials) SetKeystoneRate(qps float64, burst int) {
	if c.gate != nil {
		c.gate.SetRate(qps, burst)
	}
}

// OwnCloudLog names the controller's own project in the log, or says there is none.
func (c *Credentials) OwnCloudLog() []any {
	if c.own == nil {
		return []any{"ownCloud", false}
	}
	return []any{"projectID", c.own.Place.ProjectID, "region", c.own.Place.Region}
}

// connectOwnCloud connects the controller's own cloud (nil: -require-credentials-ref),
// under the rate limits, its refused tokens retried.
func connectOwnCloud(ctx context.Context, opts Options, env Env) (*registry.Own, error) {
	own, err := owncloud.Connect(ctx, opts.ownCloudFlags(), tokenrequests.Hooks(env.ObserveOwn, env.Metrics.ObserveKeystoneTokenRequest, nil))
	if err != nil || own == nil {
		return own, err
	}
	client := own.Driver.(*neutronclient.Client)
	env.Limit(client)
	client.RetryRefusals(owncloud.RefusalRetryFirst, owncloud.RefusalRetryMax, env.Metrics.SetOwnCredentialsRefused)
	if err := client.ExpiryError(); err != nil {
		klog.FromContext(ctx).Info("Cannot tell when the controller's own credentials expire", "err", err)
	}
	return own, nil
}

// tenantConnector connects the credentials of a Secret or an identity, their token
// requests admitted by gate.
func tenantConnector(env Env, gate *lockout.Gate) registry.Connector {
	hooks := tokenrequests.Hooks(env.ObserveTenant, env.Metrics.ObserveKeystoneTokenRequest, gate)
	return func(ctx context.Context, creds neutronclient.Credentials) (neutron.Driver, neutron.Place, error) {
		client, err := neutronclient.ConnectKeystone(ctx, creds, hooks)
		if err != nil {
			return nil, neutron.Place{}, err
		}
		if err := client.ExpiryError(); err != nil {
			klog.FromContext(ctx).Info("Cannot tell when credentials expire", "credentials", creds.Name, "err", err)
		}
		env.Limit(client)
		return client, client.Place(), nil
	}
}
