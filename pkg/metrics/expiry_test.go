package metrics

import (
	"slices"
	"testing"
	"time"
)

func TestCredentialExpiriesAreExportedOncePerSecret(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	m := New()
	m.ExportCredentialExpiries(7*24*time.Hour, func() []CredentialsExpiry {
		return []CredentialsExpiry{
			{Kind: "password", At: now.Add(30 * 24 * time.Hour)},
			// The old and the new credentials of one Secret, both still in use.
			{Namespace: "team-b", Secret: "openstack", Cloud: "team-b", Kind: "application_credential", At: now.Add(2 * 24 * time.Hour)},
			{Namespace: "team-b", Secret: "openstack", Cloud: "team-b", Kind: "application_credential", At: now.Add(90 * 24 * time.Hour)},
		}
	})
	m.expiry.now = func() time.Time { return now } // the collector reads the clock at each scrape
	families, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	series := map[string][]float64{}
	for _, f := range families {
		for _, metric := range f.GetMetric() {
			series[f.GetName()] = append(series[f.GetName()], metric.GetGauge().GetValue())
		}
	}
	if got := series["network_controller_credentials_expiring"]; len(got) != 1 || got[0] != 1 {
		t.Errorf("network_controller_credentials_expiring = %v, want 1: the Secret's sooner one", got)
	}
	got := series["network_controller_credentials_expiry_timestamp_seconds"]
	if len(got) != 2 || !slices.Contains(got, float64(now.Add(2*24*time.Hour).Unix())) {
		t.Errorf("expiry series %v, want 2: the own cloud's and the Secret's sooner one", got)
	}
}
