package neutronclient

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/gophercloud/gophercloud/v2"
	"github.com/gophercloud/gophercloud/v2/openstack"
	"github.com/gophercloud/gophercloud/v2/openstack/identity/v3/tokens"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// What Keystone says of the credentials' expiry, with the roles they have: a token names
// its user's password_expires_at, and the application credential it was issued for,
// which its user may read (expires_at).

// tokenCredentials is the part of a token's body about the credentials it was issued for.
type tokenCredentials struct {
	User struct {
		ID                string  `json:"id"`
		Name              string  `json:"name"`
		PasswordExpiresAt *string `json:"password_expires_at"`
	} `json:"user"`
	ApplicationCredential *struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"application_credential"`
}

// expiryWatch says when a client's credentials expire. An application credential's
// expiry cannot change, so it is read once; a password's comes with every token, and is
// read again from the token in use whenever that changed.
type expiryWatch struct {
	pc *gophercloud.ProviderClient
	// fixed is an application credential's; nil for a password.
	fixed *neutron.CredentialExpiry

	mu        sync.Mutex
	lastToken string
	last      neutron.CredentialExpiry
	known     bool
}

// watchExpiry reads what the token pc holds says of its credentials, and the
// application credential it names (one request to Keystone). Failing to read it only
// leaves the expiry unknown: errors are returned for the log.
func watchExpiry(ctx context.Context, pc *gophercloud.ProviderClient) (*expiryWatch, error) {
	w := &expiryWatch{pc: pc}
	creds, err := tokenCredentialsOf(pc)
	if err != nil || creds.ApplicationCredential == nil {
		return w, err
	}
	ac := creds.ApplicationCredential
	w.fixed = &neutron.CredentialExpiry{Kind: neutron.ExpiryApplicationCredential,
		What: fmt.Sprintf("application credential %s (ID %s) of Keystone user %s", ac.Name, ac.ID, creds.User.Name)}
	identity, err := openstack.NewIdentityV3(pc, gophercloud.EndpointOpts{})
	if err != nil {
		return w, fmt.Errorf("reading application credential %s: %w", ac.ID, err)
	}
	var doc struct {
		ApplicationCredential struct {
			ExpiresAt *string `json:"expires_at"`
		} `json:"application_credential"`
	}
	if _, err := identity.Get(ctx, identity.ServiceURL("users", creds.User.ID, "application_credentials", ac.ID), &doc, nil); err != nil {
		return w, fmt.Errorf("reading application credential %s: %w", ac.ID, wrapError("read application credential", err))
	}
	w.fixed.At, err = keystoneTime(doc.ApplicationCredential.ExpiresAt)
	return w, err
}

// expiry returns when the credentials expire, if Keystone said.
func (w *expiryWatch) expiry() (neutron.CredentialExpiry, bool) {
	if w.fixed != nil {
		return *w.fixed, !w.fixed.At.IsZero()
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if token := w.pc.Token(); token != w.lastToken {
		w.lastToken, w.known = token, false
		if creds, err := tokenCredentialsOf(w.pc); err == nil {
			at, err := keystoneTime(creds.User.PasswordExpiresAt)
			w.last = neutron.CredentialExpiry{Kind: neutron.ExpiryPassword, At: at, What: "password of Keystone user " + creds.User.Name}
			w.known = err == nil && !at.IsZero()
		}
	}
	return w.last, w.known
}

func tokenCredentialsOf(pc *gophercloud.ProviderClient) (tokenCredentials, error) {
	var body tokenCredentials
	result, ok := pc.GetAuthResult().(tokens.CreateResult)
	if !ok {
		return body, fmt.Errorf("keystone issued no v3 token")
	}
	if err := result.ExtractInto(&body); err != nil {
		return body, fmt.Errorf("reading the user of the token Keystone issued: %w", err)
	}
	return body, nil
}

// keystoneTime reads a time as Keystone writes it, in UTC with or without a zone and
// microseconds; nil (never expires) is the zero time.
func keystoneTime(s *string) (time.Time, error) {
	if s == nil || *s == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999", "2006-01-02T15:04:05"} {
		if t, err := time.Parse(layout, strings.TrimSpace(*s)); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("keystone gave an expiry %q in no known form", *s)
}

var _ neutron.Expiring = (*Client)(nil)

// CredentialExpiry returns when the client's credentials expire, as Keystone last said.
func (c *Client) CredentialExpiry() (neutron.CredentialExpiry, bool) {
	if c.expiry == nil {
		return neutron.CredentialExpiry{}, false
	}
	return c.expiry.expiry()
}

// ExpiryError says why the expiry of the client's credentials could not be read when it
// connected (nil when it could, or there is none).
func (c *Client) ExpiryError() error { return c.expiryErr }
