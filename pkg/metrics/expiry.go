package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// CredentialsExpiry is when credentials in use expire, labelled by where they come from
// (all "" for the controller's own) and kind (password, application_credential).
type CredentialsExpiry struct {
	Namespace, Secret, Cloud, Identity, Kind string
	At                                       time.Time
}

// expiryCollector exports, at each scrape, when each set of credentials in use expires
// and how many expire within the warning window.
type expiryCollector struct {
	at, expiring *prometheus.Desc
	window       time.Duration
	now          func() time.Time
	list         func() []CredentialsExpiry
}

func (c *expiryCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.at; ch <- c.expiring }

func (c *expiryCollector) Collect(ch chan<- prometheus.Metric) {
	now, expiring := c.now(), 0
	// Old and new credentials of one Secret are both in use until every Network has
	// moved on: the sooner one stands for the Secret.
	soonest := map[CredentialsExpiry]time.Time{}
	for _, e := range c.list() {
		key := e
		key.At = time.Time{}
		if at, ok := soonest[key]; !ok || e.At.Before(at) {
			soonest[key] = e.At
		}
	}
	for e, at := range soonest {
		ch <- prometheus.MustNewConstMetric(c.at, prometheus.GaugeValue, float64(at.Unix()), e.Namespace, e.Secret, e.Cloud, e.Identity, e.Kind)
		if c.window > 0 && at.Sub(now) <= c.window {
			expiring++
		}
	}
	ch <- prometheus.MustNewConstMetric(c.expiring, prometheus.GaugeValue, float64(expiring))
}

// ExportCredentialExpiries exports network_controller_credentials_expiry_timestamp_seconds
// for each set of credentials list returns, and network_controller_credentials_expiring,
// how many of them expire within window (always exported, 0 without any).
func (m *Metrics) ExportCredentialExpiries(window time.Duration, list func() []CredentialsExpiry) {
	m.expiry = &expiryCollector{
		at: prometheus.NewDesc(prometheus.BuildFQName(namespace, "", "credentials_expiry_timestamp_seconds"),
			"When credentials in use expire, as Keystone says (an application credential's expires_at, a user's password_expires_at), in Unix seconds; only credentials that expire. namespace, secret and cloud name a credentials Secret, identity the ClusterIdentity it belongs to; all empty for the controller's own.",
			[]string{"namespace", "secret", "cloud", "identity", "kind"}, nil),
		expiring: prometheus.NewDesc(prometheus.BuildFQName(namespace, "", "credentials_expiring"),
			"Credentials in use that expire within -credentials-expiry-warning, or have expired.", nil, nil),
		window: window,
		now:    time.Now,
		list:   list,
	}
	m.registry.MustRegister(m.expiry)
}
