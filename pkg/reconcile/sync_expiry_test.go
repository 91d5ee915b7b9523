package reconcile_test

import (
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	. "github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/reconcile"
)

// Credentials that expire within the warning window put CredentialsExpiring beside a
// Ready that stays True, with a Warning Event once; credentials that no longer expire
// soon take it away, without a Neutron call either way.
func TestCredentialsExpiringSaysSoBesideReady(t *testing.T) {
	network := NewNetwork("soon", "10.22.0.0/24", "")
	f := NewFakes(t, "project-e", network)
	f.Reconciler = reconcile.New(reconcile.Config{Client: f.Client, FieldManager: FieldManager, Tenants: f.Tenants, Grants: f.Grants,
		Networks: f.Networks, Recorder: f.Recorder, Metrics: f.Metrics, ClusterID: ClusterID, ExpiryWarning: 7 * 24 * time.Hour})
	f.StartLeading()
	at := time.Now().Add(48 * time.Hour).UTC().Truncate(time.Second)
	f.Neutron.SetCredentialExpiry(&neutron.CredentialExpiry{What: "application credential ci (ID ac-1) of Keystone user alice",
		Kind: neutron.ExpiryApplicationCredential, At: at})

	if err := f.Sync(network); err != nil {
		t.Fatal(err)
	}
	got := f.Refresh(network.Namespace, network.Name)
	WantReady("10.22.0.1")(t, got)
	c := meta.FindStatusCondition(got.Status.Conditions, samplecrdv1.ConditionCredentialsExpiring)
	want := "the application credential ci (ID ac-1) of Keystone user alice expires at " + at.Format(time.RFC3339) + ", within the 7 days"
	if c == nil || c.Status != metav1.ConditionTrue || c.Reason != samplecrdv1.ReasonCredentialsExpiring || !strings.HasPrefix(c.Message, want) {
		t.Fatalf("CredentialsExpiring = %+v, want True saying %q", c, want)
	}
	if events := f.Events(); !HasEvent(events, "Warning CredentialsExpiring") {
		t.Errorf("Events = %q, want a Warning CredentialsExpiring", events)
	}

	// Nothing changed: no write, no Event, no Neutron call.
	writes := len(f.Writes())
	f.Neutron.ClearCalls()
	if err := f.Sync(got); err != nil {
		t.Fatal(err)
	}
	got = f.Refresh(network.Namespace, network.Name)
	if len(f.Writes()) != writes || len(f.Events()) != 0 || len(f.Neutron.Calls()) != 0 {
		t.Errorf("a steady sync wrote %d, raised %q, called %q", len(f.Writes())-writes, f.Events(), f.Neutron.Calls())
	}

	// Rotated: the new credentials expire in a year.
	f.Neutron.SetCredentialExpiry(&neutron.CredentialExpiry{What: "application credential ci2", Kind: neutron.ExpiryApplicationCredential, At: time.Now().AddDate(1, 0, 0)})
	if err := f.Sync(got); err != nil {
		t.Fatal(err)
	}
	got = f.Refresh(network.Namespace, network.Name)
	if c := meta.FindStatusCondition(got.Status.Conditions, samplecrdv1.ConditionCredentialsExpiring); c != nil {
		t.Errorf("CredentialsExpiring = %+v after rotation, want none", c)
	}
	WantReady("10.22.0.1")(t, got)
}

func TestExpiryWarningSaysWhatAndWhatToDo(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	week := 7 * 24 * time.Hour
	password := func(at time.Time) *neutron.CredentialExpiry {
		return &neutron.CredentialExpiry{What: "password of Keystone user team-a-user", Kind: neutron.ExpiryPassword, At: at}
	}
	own := NewNetwork("own", "10.0.0.0/24", "")
	tenant := NewNetwork("tenant", "10.0.0.0/24", "")
	tenant.Spec.CloudCredentialsRef = &samplecrdv1.CloudCredentialsRef{SecretName: "openstack", CloudName: "team-a"}
	for _, tc := range []struct {
		name    string
		network *samplecrdv1.Network
		expiry  *neutron.CredentialExpiry
		window  time.Duration
		want    string
	}{
		{"no expiry", tenant, nil, week, ""},
		{"beyond the window", tenant, password(now.Add(8 * 24 * time.Hour)), week, ""},
		{"warning off", tenant, password(now.Add(time.Hour)), 0, ""},
		{"within, a Secret", tenant, password(now.Add(3 * 24 * time.Hour)), week,
			`the password of Keystone user team-a-user expires at 2026-12-02T12:00:00Z, within the 7 days this controller warns ahead: the credentials of cloud "team-a" in Secret default/openstack are used for this Network; put new credentials into the Secret before then; the warning clears when the controller reads them`},
		{"expired, own", own, password(now.Add(-time.Minute)), week,
			"the password of Keystone user team-a-user expired at 2026-11-29T11:59:00Z; Keystone refuses it once the token in use expires: the controller's own credentials are used for this Network; the operator rotates them (the controller's clouds.yaml, read at startup)"},
	} {
		if got := reconcile.ExpiryWarning(tc.network, tc.expiry, now, tc.window); got != tc.want {
			t.Errorf("%s: ExpiryWarning = %q, want %q", tc.name, got, tc.want)
		}
	}
}
