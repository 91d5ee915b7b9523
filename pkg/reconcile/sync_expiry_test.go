package reconcile_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"
	"k8s.io/klog/v2/ktesting"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials"
	"github.com/samplecrd/network-controller/pkg/credentials/grants"
	. "github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
	neutronfake "github.com/samplecrd/network-controller/pkg/neutron/fake"
	"github.com/samplecrd/network-controller/pkg/neutronclient"
	"github.com/samplecrd/network-controller/pkg/reconcile"
)

// operatorCredential is an application credential of the operator's: its name, ID and
// user are for the operator's log and metrics, never a tenant's condition or Event.
func operatorCredential(at time.Time) *neutron.CredentialExpiry {
	return &neutron.CredentialExpiry{What: "application credential ops-ci (ID ac-0p5) of Keystone user cloud-admin",
		Kind: neutron.ExpiryApplicationCredential, At: at}
}

// wantOperatorHidden fails unless the warning says want and none of the operator's
// credential's names is in the condition or the Events, while the log names them.
func wantOperatorHidden(t *testing.T, got *samplecrdv1.Network, events []string, log, want string) {
	t.Helper()
	c := meta.FindStatusCondition(got.Status.Conditions, samplecrdv1.ConditionCredentialsExpiring)
	if c == nil || c.Status != metav1.ConditionTrue || c.Reason != samplecrdv1.ReasonCredentialsExpiring || !strings.HasPrefix(c.Message, want) {
		t.Fatalf("CredentialsExpiring = %+v, want True saying %q", c, want)
	}
	if !HasEvent(events, "Warning CredentialsExpiring "+want) {
		t.Errorf("Events = %q, want a Warning CredentialsExpiring saying %q", events, want)
	}
	for _, name := range []string{"cloud-admin", "ac-0p5", "ops-ci"} {
		if strings.Contains(c.Message, name) || HasEvent(events, name) {
			t.Errorf("the tenant sees the operator's %q: condition %q, Events %q", name, c.Message, events)
		}
		if !strings.Contains(log, name) {
			t.Errorf("the log does not name the operator's %q:\n%s", name, log)
		}
	}
}

// bufferLogs makes f's syncs log into a buffer, returned by the func.
func bufferLogs(t *testing.T, f *Fixture) func() string {
	logger := ktesting.NewLogger(t, ktesting.NewConfig(ktesting.BufferLogs(true)))
	f.Ctx = klog.NewContext(f.Ctx, logger)
	return func() string { return logger.GetSink().(ktesting.Underlier).GetBuffer().String() }
}

// Credentials that expire within the warning window put CredentialsExpiring beside a
// Ready that stays True, with a Warning Event once; credentials that no longer expire
// soon take it away, without a Neutron call either way. They are the controller's own:
// the tenant is told whose and when, the operator's log which.
func TestCredentialsExpiringSaysSoBesideReady(t *testing.T) {
	network := NewNetwork("soon", "10.22.0.0/24", "")
	f := NewInProject(t, "project-e", network)
	f.WarnOfExpiry(7 * 24 * time.Hour)
	log := bufferLogs(t, f)
	f.StartLeading()
	at := time.Now().Add(48 * time.Hour).UTC().Truncate(time.Second)
	f.Neutron.SetCredentialExpiry(operatorCredential(at))

	if err := f.Sync(network); err != nil {
		t.Fatal(err)
	}
	got := f.Refresh(network.Namespace, network.Name)
	WantReady("10.22.0.1")(t, got)
	wantOperatorHidden(t, got, f.Events(), log(),
		"the controller's own credentials expire at "+at.Format(time.RFC3339)+", within the 7 days this controller warns ahead; the operator rotates them")

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

// A Network of a ClusterIdentity whose credentials expire soon is told whose they are
// and when; which Keystone user and application credential they are stays with the
// operator, whose Secret it is.
func TestCredentialsExpiringOfAClusterIdentityNamesOnlyTheIdentity(t *testing.T) {
	network := withIdentity(NewNetwork("delegated", "10.23.0.0/24", ""), "team-a-prod")
	f := NewFakes(t, "project-e", network)
	delegate("team-a-prod", grants.Powers{Identities: []string{"team-a-prod"}})(f)
	at := time.Now().Add(48 * time.Hour).UTC().Truncate(time.Second)
	identity := neutronfake.New()
	identity.SetCredentialExpiry(operatorCredential(at))
	f.UseTenants(func(c *credentials.TenantsConfig) {
		c.AuthURLs, c.Secrets, c.ExpiryWarning = []string{"https://keystone.example.com:5000/v3"}, identitySecret{}, 7*24*time.Hour
		c.Connect = func(context.Context, neutronclient.Credentials) (neutron.Driver, neutron.Place, error) {
			return identity, neutron.Place{ProjectID: "project-d"}, nil
		}
	})
	f.Reconciler = reconcile.New(f.ReconcilerConfig())
	log := bufferLogs(t, f)
	f.StartLeading()

	if err := f.Sync(network); err != nil {
		t.Fatal(err)
	}
	got := f.Refresh(network.Namespace, network.Name)
	WantReady("10.23.0.1")(t, got)
	if got.Status.ProjectID != "project-d" {
		t.Fatalf("status.projectID = %q, want the identity's project-d", got.Status.ProjectID)
	}
	wantOperatorHidden(t, got, f.Events(), log(),
		"the credentials of ClusterIdentity team-a-prod expire at "+at.Format(time.RFC3339)+", within the 7 days this controller warns ahead; the operator rotates them")
}

// identitySecret is the Secret of every ClusterIdentity: an application credential of
// cloud "prod".
type identitySecret struct{}

func (identitySecret) Version(context.Context, string, string) (string, error) { return "1", nil }
func (identitySecret) Data(context.Context, string, string) (map[string][]byte, string, error) {
	return map[string][]byte{credentials.KeyCloudsYAML: []byte(`clouds:
  prod:
    auth:
      auth_url: https://keystone.example.com:5000/v3
      application_credential_id: ac-0p5
      application_credential_secret: s
    auth_type: v3applicationcredential
`)}, "1", nil
}
