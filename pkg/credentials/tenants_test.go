package credentials_test

import (
	"testing"
	"time"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials"
	"github.com/samplecrd/network-controller/pkg/credentials/grants"
	. "github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

func withIdentity(n *samplecrdv1.Network, identity string) *samplecrdv1.Network {
	n.Spec.CloudCredentialsRef = &samplecrdv1.CloudCredentialsRef{ClusterIdentity: identity}
	return n
}

// A namespace the operator hands nothing is refused for good, with the reason that says
// which way out there is; a Secret of its own has every power, and a grant some.
func TestPowersRefuseWhatTheOperatorHandsNot(t *testing.T) {
	g := &Grants{Powers: grants.Powers{OwnCloudRefusedBy: "tier=gold"}, NotDelegating: []string{"grants-only"},
		Delegations: map[string]grants.Delegation{"prod": {Identity: "prod", Powers: grants.Powers{Retain: true, Identities: []string{"prod"}}}}}
	tenants, err := credentials.NewTenants(credentials.TenantsConfig{ClusterID: ClusterID, Own: &credentials.Own{}, Secrets: NoSecrets{}, Grants: g})
	if err != nil {
		t.Fatal(err)
	}
	own := NewNetwork("own", "10.0.0.0/24", "")
	secret := NewNetwork("secret", "10.0.0.0/24", "")
	secret.Spec.CloudCredentialsRef = &samplecrdv1.CloudCredentialsRef{SecretName: "openstack", CloudName: "team-a"}
	for _, tc := range []struct {
		network    *samplecrdv1.Network
		wantReason string
		wantRetain bool
	}{
		{own, samplecrdv1.ReasonCredentialsRefRequired, false},
		{withIdentity(NewNetwork("gone", "10.0.0.0/24", ""), "gone"), samplecrdv1.ReasonNamespaceNotSelected, false},
		{withIdentity(NewNetwork("grants-only", "10.0.0.0/24", ""), "grants-only"), samplecrdv1.ReasonClusterIdentityNotDelegating, false},
		{withIdentity(NewNetwork("prod", "10.0.0.0/24", ""), "prod"), "", true},
		{secret, "", true},
	} {
		powers, err := tenants.Powers(tc.network)
		ce, refused := credentials.AsError(err)
		switch {
		case tc.wantReason == "" && err != nil:
			t.Errorf("%s: Powers = %v, want its powers", tc.network.Name, err)
		case tc.wantReason != "" && (!refused || ce.Reason != tc.wantReason || !ce.Terminal() || ce.Message == ""):
			t.Errorf("%s: Powers = %+v, want a terminal %s with a message", tc.network.Name, err, tc.wantReason)
		}
		if tc.network == secret && !powers.Unfenced {
			t.Errorf("a Network of a Secret of its own has powers %+v, want every power", powers)
		}
		if _, retain, _ := tenants.RetainGranted(tc.network); retain != tc.wantRetain {
			t.Errorf("%s: RetainGranted = %v, want %v", tc.network.Name, retain, tc.wantRetain)
		}
	}
}

// A Network whose resources are in a project (or region) its credentials no longer lead
// to is refused, and says where they are.
func TestPinnedToItsPlace(t *testing.T) {
	place := neutron.Place{ProjectID: "p-1", Region: "r-1"}
	network := NewNetwork("pinned", "10.0.0.0/24", "")
	if credentials.PinnedTo(network, place, place) {
		t.Error("a Network that never made anything is pinned")
	}
	network.Status.ProjectID, network.Status.Region = "p-1", "r-1"
	if !credentials.PinnedTo(network, place, neutron.Place{}) {
		t.Error("a Network of p-1/r-1 is not pinned to it")
	}
	for _, other := range []neutron.Place{{ProjectID: "p-2", Region: "r-1"}, {ProjectID: "p-1", Region: "r-2"}} {
		if credentials.PinnedTo(network, other, neutron.Place{}) {
			t.Errorf("a Network of p-1/r-1 is pinned to %+v", other)
		}
	}
	network.Status = samplecrdv1.NetworkStatus{}
	network.Annotations = map[string]string{samplecrdv1.AnnotationProject: "p-1"}
	if !credentials.PinnedTo(network, neutron.Place{ProjectID: "p-1", Region: "any"}, neutron.Place{}) {
		t.Error("the finalizer's annotation does not pin the project")
	}
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
	delegated := withIdentity(NewNetwork("delegated", "10.0.0.0/24", ""), "team-a-prod")
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
			"the controller's own credentials expired at 2026-11-29T11:59:00Z; Keystone refuses them once the token in use expires; the operator rotates them (the controller's clouds.yaml, read at startup)"},
		{"within, a ClusterIdentity", delegated, password(now.Add(3 * 24 * time.Hour)), week,
			"the credentials of ClusterIdentity team-a-prod expire at 2026-12-02T12:00:00Z, within the 7 days this controller warns ahead; the operator rotates them (the ClusterIdentity's Secret); the warning clears when the controller reads them"},
		{"expired, a ClusterIdentity", delegated, password(now.Add(-time.Minute)), week,
			"the credentials of ClusterIdentity team-a-prod expired at 2026-11-29T11:59:00Z; Keystone refuses them once the token in use expires; the operator rotates them (the ClusterIdentity's Secret); the warning clears when the controller reads them"},
	} {
		if got := credentials.ExpiryWarning(tc.network, tc.expiry, now, tc.window); got != tc.want {
			t.Errorf("%s: ExpiryWarning = %q, want %q", tc.name, got, tc.want)
		}
	}
}
