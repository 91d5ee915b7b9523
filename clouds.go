package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gophercloud/gophercloud/v2/openstack/config/clouds"

	"github.com/samplecrd/network-controller/pkg/metrics"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronclient"
	"github.com/samplecrd/network-controller/pkg/startup"
	"github.com/samplecrd/network-controller/pkg/tenancy"
)

// How the binary reaches OpenStack: its own cloud, the Keystone URLs tenants may use, and
// what every Neutron call reports to the metrics.

// keystoneUnavailableBackoff is how long credentials whose Keystone did not answer are
// not tried again; the Networks using them are retried with their own backoff meanwhile.
const keystoneUnavailableBackoff = 5 * time.Second

// How soon the controller's own credentials are tried again after Keystone refused to
// renew their token (a user disabled for a while, a password rotated late): soon enough
// to recover without a restart, seldom enough not to count towards a lockout.
const (
	ownRefusalRetryFirst = 15 * time.Second
	ownRefusalRetryMax   = 5 * time.Minute
)

// neutronObserver reports every Neutron call's outcome to the metrics and to onCall.
func neutronObserver(m *metrics.Metrics, onCall func(error)) neutronclient.CallObserver {
	return func(op string, err error, elapsed time.Duration) {
		outcome := "ok"
		if err != nil {
			outcome = neutron.KindOf(err).String()
		}
		m.ObserveNeutronCall(op, outcome, elapsed)
		onCall(err)
	}
}

// rateLimitObserver reports the time Neutron calls waited for, or were deferred by, the
// client-side rate limits.
func rateLimitObserver(m *metrics.Metrics) func(project bool, d time.Duration) {
	return func(project bool, d time.Duration) {
		if project {
			m.ObserveNeutronRateLimitWait(metrics.LimiterProject, d)
		} else {
			m.ObserveNeutronRateLimitWait(metrics.LimiterTotal, d)
		}
	}
}

// connectOwnCloud opens the controller's own Neutron connection, the one the flags name,
// and checks that it answers. It returns nil when the controller has no cloud of its own
// for Networks (-require-credentials-ref).
func connectOwnCloud(ctx context.Context, opts options, hooks neutronclient.Hooks) (*tenancy.Own, error) {
	if opts.requireCredentialsRef {
		return nil, nil
	}
	var (
		own   tenancy.Own
		where string
	)
	if opts.neutronEndpoint != "" {
		where = opts.neutronEndpoint
		// Only parses the URL: nothing a retry could change.
		driver, err := neutronclient.ConnectEndpoint(opts.neutronEndpoint, hooks.Observe)
		if err != nil {
			return nil, err
		}
		own.Driver, own.Place = driver, driver.Place()
	} else {
		where = "cloud " + opts.osCloud
	}
	err := startup.DefaultRetry.WaitFor(ctx, "Neutron at "+where, func(ctx context.Context) error {
		if own.Driver == nil {
			// Authenticates with Keystone, which may not answer yet either.
			driver, err := neutronclient.ConnectCloud(ctx, opts.osCloud, hooks)
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

// tenantAuthURLs returns the Keystone URLs tenants' clouds may use: the flag's, or else
// the auth_url of the controller's own cloud.
func tenantAuthURLs(opts options) (tenancy.AuthURLs, error) {
	if opts.allowedAuthURLs != "" {
		return tenancy.ParseAuthURLs(strings.Split(opts.allowedAuthURLs, ","))
	}
	if opts.osCloud == "" {
		return tenancy.AuthURLs{}, nil
	}
	authOpts, _, _, err := clouds.Parse(clouds.WithCloudName(opts.osCloud))
	if err != nil {
		return tenancy.AuthURLs{}, fmt.Errorf("reading cloud %q from clouds.yaml for the default -allowed-auth-urls: %w", opts.osCloud, err)
	}
	return tenancy.ParseAuthURLs([]string{authOpts.IdentityEndpoint})
}
