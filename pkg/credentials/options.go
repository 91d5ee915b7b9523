package credentials

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/samplecrd/network-controller/pkg/credentials/grants"
	"github.com/samplecrd/network-controller/pkg/credentials/owncloud"
	"github.com/samplecrd/network-controller/pkg/credentials/registry"
)

// Options are the settings of the credentials, one a flag each (the command binds them).
type Options struct {
	// The controller's own cloud: a Neutron without authentication, or a cloud of
	// clouds.yaml, or none at all (RequireCredentialsRef).
	NeutronEndpoint       string
	OSCloud               string
	RequireCredentialsRef bool
	// OwnCloudNamespaces selects the namespaces that may use the controller's own cloud.
	OwnCloudNamespaces string
	// GrantEnforcement is warn or enforce (grants.Enforcement).
	GrantEnforcement string
	// TenantPasswords is warn, refuse or allow (what becomes of a tenant's password).
	TenantPasswords string
	// AllowedAuthURLs are the Keystone URLs tenants may name, comma-separated.
	AllowedAuthURLs    string
	AllowUnverifiedTLS bool
	// Bounds of the credentials Secrets watched.
	MaxSecretsPerNamespace int
	MaxSecrets             int
	// The rate of token requests for tenants' credentials, and where refusals are counted.
	KeystoneAuthQPS   float64
	KeystoneAuthBurst int
	RefusalsConfigMap string
	// ExpiryWarning is how long before credentials expire Networks say so; 0 never.
	ExpiryWarning time.Duration

	// Parsed by Validate.
	ownCloudSelector labels.Selector
	enforcement      grants.Enforcement
	passwords        registry.Passwords
}

// The defaults of GrantEnforcement and TenantPasswords.
const (
	DefaultGrantEnforcement = string(grants.Warn)
	DefaultTenantPasswords  = string(registry.PasswordsWarn)
)

// Validate returns every problem with the options, naming their flags, and keeps what it
// parsed.
func (o *Options) Validate() []error {
	var errs []error
	switch {
	case o.NeutronEndpoint != "" && o.OSCloud != "":
		errs = append(errs, errors.New("-neutron-endpoint and -os-cloud are exclusive"))
	case o.RequireCredentialsRef && o.NeutronEndpoint != "":
		errs = append(errs, errors.New("-require-credentials-ref leaves no use for -neutron-endpoint; give -os-cloud (for the default -allowed-auth-urls) or -allowed-auth-urls"))
	case o.RequireCredentialsRef && o.OSCloud == "" && o.AllowedAuthURLs == "":
		errs = append(errs, errors.New("-require-credentials-ref needs -allowed-auth-urls, or -os-cloud whose auth_url is then allowed"))
	case !o.RequireCredentialsRef && o.NeutronEndpoint == "" && o.OSCloud == "":
		errs = append(errs, errors.New("one of -neutron-endpoint or -os-cloud (or OS_CLOUD) is required, unless -require-credentials-ref"))
	}
	if _, err := registry.ParseAuthURLs(strings.Split(o.AllowedAuthURLs, ",")); err != nil {
		errs = append(errs, fmt.Errorf("-allowed-auth-urls: %w", err))
	}
	var err error
	if o.ownCloudSelector, err = labels.Parse(o.OwnCloudNamespaces); err != nil {
		errs = append(errs, fmt.Errorf("-own-cloud-namespace-selector: %w", err))
	}
	if o.enforcement, err = grants.ParseEnforcement(o.GrantEnforcement); err != nil {
		errs = append(errs, fmt.Errorf("-grant-enforcement: %w", err))
	}
	if o.passwords, err = registry.ParsePasswords(o.TenantPasswords); err != nil {
		errs = append(errs, fmt.Errorf("-tenant-passwords: %w", err))
	}
	if o.MaxSecretsPerNamespace < 0 || o.MaxSecrets < 0 {
		errs = append(errs, errors.New("-max-credentials-secrets-per-namespace and -max-credentials-secrets must not be negative"))
	}
	if o.KeystoneAuthQPS <= 0 || o.KeystoneAuthBurst < 1 {
		errs = append(errs, errors.New("-keystone-auth-qps and -keystone-auth-burst must be positive"))
	}
	if o.RefusalsConfigMap != "" {
		if msgs := validation.IsDNS1123Subdomain(o.RefusalsConfigMap); len(msgs) > 0 {
			errs = append(errs, fmt.Errorf("-keystone-refusals-configmap: %s", strings.Join(msgs, "; ")))
		}
	}
	if o.ExpiryWarning < 0 {
		errs = append(errs, errors.New("-credentials-expiry-warning must not be negative"))
	}
	return errs
}

// Enforcement is GrantEnforcement, once Validate parsed it.
func (o *Options) Enforcement() grants.Enforcement { return o.enforcement }

// ownCloudFlags are the options that name the controller's own cloud.
func (o *Options) ownCloudFlags() owncloud.Flags {
	return owncloud.Flags{RequireCredentialsRef: o.RequireCredentialsRef, NeutronEndpoint: o.NeutronEndpoint,
		OSCloud: o.OSCloud, AllowedAuthURLs: o.AllowedAuthURLs}
}
