// Package owncloud connects the controller's own cloud, the one its flags name, which
// Networks without spec.cloudCredentialsRef use, and tells which Keystone URLs tenants'
// credentials may name when the operator listed none.
package owncloud

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gophercloud/gophercloud/v2/openstack/config/clouds"

	"github.com/samplecrd/network-controller/pkg/credentials/lockout"
	"github.com/samplecrd/network-controller/pkg/credentials/registry"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronclient"
	"github.com/samplecrd/network-controller/pkg/startup"
)

// Flags are the controller's flags that name its own cloud.
type Flags struct {
	// RequireCredentialsRef: no cloud of its own, every Network names its credentials.
	RequireCredentialsRef bool
	// NeutronEndpoint is a Neutron URL reached without Keystone (noauth); else OSCloud.
	NeutronEndpoint string
	// OSCloud is the cloud of clouds.yaml.
	OSCloud string
	// AllowedAuthURLs are the Keystone URLs tenants may use, comma-separated; "": the
	// auth_url of OSCloud.
	AllowedAuthURLs string
}

// How soon the controller's own credentials are tried again after Keystone refused to
// renew their token (a user disabled for a while, a password rotated late): soon enough
// to recover without a restart, seldom enough not to count towards a lockout.
const (
	RefusalRetryFirst = 15 * time.Second
	RefusalRetryMax   = 5 * time.Minute
)

// Connect opens the controller's own Neutron connection and checks that it answers,
// retrying while Keystone or Neutron do not answer yet. It returns nil when the
// controller has no cloud of its own for Networks (RequireCredentialsRef).
func Connect(ctx context.Context, flags Flags, hooks neutronclient.Hooks) (*registry.Own, error) {
	if flags.RequireCredentialsRef {
		return nil, nil
	}
	var (
		own   registry.Own
		where string
	)
	if flags.NeutronEndpoint != "" {
		where = flags.NeutronEndpoint
		// Only parses the URL: nothing a retry could change.
		driver, err := neutronclient.ConnectEndpoint(flags.NeutronEndpoint, hooks.Observe)
		if err != nil {
			return nil, err
		}
		own.Driver, own.Place = driver, driver.Place()
	} else {
		where = "cloud " + flags.OSCloud
	}
	err := startup.DefaultRetry.WaitFor(ctx, "Neutron at "+where, func(ctx context.Context) error {
		if own.Driver == nil {
			// Authenticates with Keystone, which may not answer yet either.
			driver, err := neutronclient.ConnectCloud(ctx, flags.OSCloud, hooks)
			if neutron.KindOf(err) == neutron.KindRejected {
				// Keystone refused the credentials: no retry will change its mind.
				return startup.Permanent(err)
			}
			if err != nil {
				return err
			}
			own.Driver, own.Place = driver, driver.Place()
		}
		return own.Driver.(*neutronclient.Client).Ping(ctx)
	})
	if err != nil {
		return nil, err
	}
	return &own, nil
}

// TenantAuthURLs returns the Keystone URLs tenants' clouds may use: the flag's, or else
// the auth_url of the controller's own cloud.
func TenantAuthURLs(flags Flags) (registry.AuthURLs, error) {
	if flags.AllowedAuthURLs != "" {
		return registry.ParseAuthURLs(strings.Split(flags.AllowedAuthURLs, ","))
	}
	if flags.OSCloud == "" {
		return registry.AuthURLs{}, nil
	}
	authOpts, _, _, err := clouds.Parse(clouds.WithCloudName(flags.OSCloud))
	if err != nil {
		return registry.AuthURLs{}, fmt.Errorf("reading cloud %q from clouds.yaml for the default -allowed-auth-urls: %w", flags.OSCloud, err)
	}
	return registry.ParseAuthURLs([]string{authOpts.IdentityEndpoint})
}

// GuardAccount tells the lockout gate the Keystone user of the controller's own cloud
// (nil: none), so that tenants' Secrets naming it cannot get it locked out.
func GuardAccount(gate *lockout.Gate, own *registry.Own) {
	if own == nil {
		return
	}
	client, ok := own.Driver.(*neutronclient.Client)
	if !ok {
		return
	}
	user := client.User()
	if user.ID == "" {
		return
	}
	keystone := own.Place.Identity
	if normalized, err := registry.NormalizeAuthURL(keystone); err == nil {
		keystone = normalized
	}
	gate.OwnAccount(keystone, user)
}
