package registry

import (
	"unicode/utf8"

	"k8s.io/client-go/tools/cache"

	"github.com/samplecrd/network-controller/pkg/metrics"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// CredentialsExpiry is when credentials in use expire, and whose they are.
type CredentialsExpiry struct {
	neutron.CredentialExpiry
	// Source is where they come from; nil for the controller's own cloud.
	Source *Source
}

// expiryOf returns when driver's credentials expire, if they do and Keystone said.
func expiryOf(driver neutron.Driver) *neutron.CredentialExpiry {
	expiring, ok := driver.(neutron.Expiring)
	if !ok {
		return nil
	}
	expiry, ok := expiring.CredentialExpiry()
	if !ok {
		return nil
	}
	return &expiry
}

// ExpiryOf returns when the credentials the Network key uses expire, if they do: nil
// before its first sync, or while its credentials do not authenticate.
func (r *Registry) ExpiryOf(key cache.ObjectName) *neutron.CredentialExpiry {
	r.mu.Lock()
	c := r.clients[r.users[key]]
	_, used := r.users[key]
	r.mu.Unlock()
	if c == nil || !used {
		return nil
	}
	if driver, _ := c.connected(); driver != nil {
		return expiryOf(driver)
	}
	return nil
}

// Expiries returns when each set of credentials in use expires, for those that do.
func (r *Registry) Expiries() []CredentialsExpiry {
	r.mu.Lock()
	clients := make(map[string]*client, len(r.clients))
	for fp, c := range r.clients {
		clients[fp] = c
	}
	r.mu.Unlock()
	var out []CredentialsExpiry
	for fp, c := range clients {
		driver, _ := c.connected()
		if driver == nil {
			continue
		}
		if expiry := expiryOf(driver); expiry != nil {
			e := CredentialsExpiry{CredentialExpiry: *expiry}
			if fp != ownFingerprint {
				e.Source = c.source.Load()
			}
			out = append(out, e)
		}
	}
	return out
}

// MetricExpiries lists, for the metrics, when the credentials in use expire.
func (r *Registry) MetricExpiries() []metrics.CredentialsExpiry {
	var out []metrics.CredentialsExpiry
	for _, e := range r.Expiries() {
		m := metrics.CredentialsExpiry{Kind: e.Kind, At: e.At}
		if e.Source != nil {
			// A cloud's name is the tenant's to choose, and may be long.
			m.Namespace, m.Secret, m.Cloud, m.Identity = e.Source.Secret.Namespace, e.Source.Secret.Name, shortLabel(e.Source.Cloud), e.Source.Identity
		}
		out = append(out, m)
	}
	return out
}

// shortLabel cuts a label value a tenant chose to 64 bytes, on a rune boundary.
func shortLabel(s string) string {
	if len(s) <= 64 {
		return s
	}
	end := 64
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end]
}
