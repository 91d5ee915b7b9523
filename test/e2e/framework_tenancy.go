//go:build e2e

package e2e

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/gophercloud/gophercloud/v2"
	"github.com/gophercloud/gophercloud/v2/openstack"
	"github.com/gophercloud/gophercloud/v2/openstack/config/clouds"
	"github.com/gophercloud/gophercloud/v2/openstack/identity/v3/applicationcredentials"
	"github.com/gophercloud/gophercloud/v2/openstack/identity/v3/tokens"
	"github.com/gophercloud/gophercloud/v2/openstack/identity/v3/users"
	"github.com/gophercloud/gophercloud/v2/openstack/networking/v2/networks"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// The tenants hack/local-keystone.sh makes: each a project with a member-role user.
const (
	// TenantA logs in with a password.
	TenantA = "team-a"
	// TenantB logs in with an application credential.
	TenantB = "team-b"
)

// CloudsYAMLOf returns a clouds.yaml holding only the entry cloud of the local
// Keystone's clouds.yaml: what a tenant puts into its Secret.
func (k Keystone) CloudsYAMLOf(t testing.TB, cloud string) string {
	t.Helper()
	raw, err := os.ReadFile(k.CloudsYAML)
	if err != nil {
		t.Fatalf("reading %s: %v", k.CloudsYAML, err)
	}
	var file struct {
		Clouds map[string]any `json:"clouds"`
	}
	if err := yaml.Unmarshal(raw, &file); err != nil {
		t.Fatalf("parsing %s: %v", k.CloudsYAML, err)
	}
	entry, ok := file.Clouds[cloud]
	if !ok {
		t.Fatalf("%s has no cloud %q", k.CloudsYAML, cloud)
	}
	out, err := yaml.Marshal(map[string]any{"clouds": map[string]any{cloud: entry}})
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// SecretsOf returns the password or application credential secret of cloud: what must
// never appear in a log, Event or status.
func (k Keystone) SecretsOf(t testing.TB, cloud string) []string {
	t.Helper()
	var file struct {
		Clouds map[string]struct {
			Auth map[string]string `json:"auth"`
		} `json:"clouds"`
	}
	if err := yaml.Unmarshal([]byte(k.CloudsYAMLOf(t, cloud)), &file); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, key := range []string{"password", "application_credential_secret"} {
		if v := file.Clouds[cloud].Auth[key]; v != "" {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		t.Fatalf("cloud %s has no password or application credential secret", cloud)
	}
	return out
}

// PutCredentialsSecret creates or replaces the Secret ns/name with data, labelled as
// credentials for Networks.
func PutCredentialsSecret(t testing.TB, ns, name string, data map[string]string) {
	t.Helper()
	PutSecret(t, ns, name, map[string]string{samplecrdv1.CredentialsLabel: "true"}, data)
}

// PutSecret creates or replaces the Secret ns/name with labels and data.
func PutSecret(t testing.TB, ns, name string, labels, data map[string]string) {
	t.Helper()
	kube, _ := Clients(t)
	ctx := Ctx(t, 30*time.Second)
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: labels}, StringData: data}
	existing, err := kube.CoreV1().Secrets(ns).Get(ctx, name, metav1.GetOptions{})
	if err == nil {
		secret.ResourceVersion = existing.ResourceVersion
		_, err = kube.CoreV1().Secrets(ns).Update(ctx, secret, metav1.UpdateOptions{})
	} else {
		_, err = kube.CoreV1().Secrets(ns).Create(ctx, secret, metav1.CreateOptions{})
	}
	if err != nil {
		t.Fatalf("writing Secret %s/%s: %v", ns, name, err)
	}
}

// DeleteSecret deletes the Secret ns/name.
func DeleteSecret(t testing.TB, ns, name string) {
	t.Helper()
	kube, _ := Clients(t)
	if err := kube.CoreV1().Secrets(ns).Delete(Ctx(t, 30*time.Second), name, metav1.DeleteOptions{}); err != nil {
		t.Fatalf("deleting Secret %s/%s: %v", ns, name, err)
	}
}

// CreateTenantNetwork creates a Network whose credentials are cloud in Secret secret.
func CreateTenantNetwork(t testing.TB, ns, name, cidr, secret, cloud string) *samplecrdv1.Network {
	t.Helper()
	_, nets := Clients(t)
	n, err := nets.SamplecrdV1().Networks(ns).Create(Ctx(t, 30*time.Second), &samplecrdv1.Network{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: cidr},
			CloudCredentialsRef: &samplecrdv1.CloudCredentialsRef{SecretName: secret, CloudName: cloud}},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating Network %s/%s: %v", ns, name, err)
	}
	return n
}

// AuthenticatedAs logs in as cloud of the local Keystone's clouds.yaml and returns the
// client with its token, and the cloud's endpoint options.
func (k Keystone) AuthenticatedAs(t testing.TB, ctx context.Context, cloud string) (*gophercloud.ProviderClient, gophercloud.EndpointOpts) {
	t.Helper()
	ao, eo, _, err := clouds.Parse(clouds.WithLocations(k.CloudsYAML), clouds.WithCloudName(cloud))
	if err != nil {
		t.Fatalf("reading cloud %s from %s: %v", cloud, k.CloudsYAML, err)
	}
	// Tokens live 45 s here: a helper that works longer logs in again.
	ao.AllowReauth = true
	pc, err := openstack.AuthenticatedClient(ctx, ao)
	if err != nil {
		t.Fatalf("authenticating as %s: %v", cloud, err)
	}
	return pc, eo
}

// NetworkIDsSeenBy lists the IDs of the Neutron networks cloud's user sees, through the
// Keystone-authenticated Neutron.
func (k Keystone) NetworkIDsSeenBy(t testing.TB, cloud string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	pc, eo := k.AuthenticatedAs(t, ctx, cloud)
	sc, err := openstack.NewNetworkV2(pc, eo)
	if err != nil {
		t.Fatalf("network endpoint of %s: %v", cloud, err)
	}
	pages, err := networks.List(sc, networks.ListOpts{}).AllPages(ctx)
	if err != nil {
		t.Fatalf("listing networks as %s: %v", cloud, err)
	}
	all, err := networks.ExtractNetworks(pages)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, n := range all {
		out = append(out, n.ID)
	}
	slices.Sort(out)
	return out
}

// ApplicationCredential is one made by a user for itself.
type ApplicationCredential struct {
	ID, Secret string
	userID     string
	delete     func() error
}

// identityAs logs in as cloud's user (a password cloud) and returns an identity client
// with that token and the user's ID.
func (k Keystone) identityAs(t testing.TB, cloud string) (*gophercloud.ServiceClient, string) {
	t.Helper()
	ctx := Ctx(t, 60*time.Second)
	pc, _ := k.AuthenticatedAs(t, ctx, cloud)
	user, err := pc.GetAuthResult().(tokens.CreateResult).ExtractUser()
	if err != nil {
		t.Fatal(err)
	}
	identity, err := openstack.NewIdentityV3(pc, gophercloud.EndpointOpts{})
	if err != nil {
		t.Fatal(err)
	}
	return identity, user.ID
}

// NewApplicationCredential makes an application credential as cloud's user (a password
// cloud), as a user does on a real cloud; Delete deletes it.
func (k Keystone) NewApplicationCredential(t testing.TB, cloud, name string) ApplicationCredential {
	t.Helper()
	identity, userID := k.identityAs(t, cloud)
	secret := "e2e-" + RandomSuffix(24)
	cred, err := applicationcredentials.Create(Ctx(t, 60*time.Second), identity, userID, applicationcredentials.CreateOpts{Name: name, Secret: secret}).Extract()
	if err != nil {
		t.Fatalf("creating application credential %s as %s: %v", name, cloud, err)
	}
	return ApplicationCredential{ID: cred.ID, Secret: secret, userID: userID, delete: func() error {
		// A fresh login: the token of the create may have expired since (tokens live 45 s
		// here).
		identity, _ := k.identityAs(t, cloud)
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		return applicationcredentials.Delete(ctx, identity, userID, cred.ID).ExtractErr()
	}}
}

// ChangePassword changes the password of cloud's user to password, as the user does it
// itself, and changes it back when the test ends: other tests log in with the password
// in clouds.yaml.
func (k Keystone) ChangePassword(t testing.TB, cloud, password string) {
	t.Helper()
	original := k.SecretsOf(t, cloud)[0]
	_, userID := k.identityAs(t, cloud)
	// Without a token: the original password is the proof, and Keystone revokes the
	// user's tokens when the password changes.
	anonymous := &gophercloud.ServiceClient{ProviderClient: &gophercloud.ProviderClient{}, Endpoint: k.AuthURL + "/"}
	change := func(from, to string) error {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		return users.ChangePassword(ctx, anonymous, userID, users.ChangePasswordOpts{OriginalPassword: from, Password: to}).ExtractErr()
	}
	if err := change(original, password); err != nil {
		t.Fatalf("changing the password of cloud %s's user: %v", cloud, err)
	}
	t.Cleanup(func() {
		if err := change(password, original); err != nil {
			t.Errorf("changing the password of cloud %s's user back: %v", cloud, err)
		}
	})
}

// Delete deletes the application credential in Keystone.
func (a ApplicationCredential) Delete(t testing.TB) {
	t.Helper()
	if err := a.delete(); err != nil {
		t.Fatalf("deleting application credential %s: %v", a.ID, err)
	}
}

// CloudsYAML is a clouds.yaml whose cloud name authenticates with the credential.
func (a ApplicationCredential) CloudsYAML(authURL, name string) string {
	return "clouds:\n  " + name + ":\n    auth_type: v3applicationcredential\n    auth:\n      auth_url: " + authURL +
		"\n      application_credential_id: " + a.ID + "\n      application_credential_secret: " + a.Secret + "\n    region_name: RegionOne\n"
}

// StartTenantController starts a controller, with k's own cloud MemberCloud, for a new
// namespace whose credentials Secret "openstack" holds cloudsYAML, and returns both.
func StartTenantController(t testing.TB, k Keystone, cloudsYAML string) (string, *Controller) {
	t.Helper()
	ns := NewNamespace(t)
	PutCredentialsSecret(t, ns, "openstack", map[string]string{"clouds.yaml": cloudsYAML})
	return ns, StartController(t, ControllerOptions{Namespaces: []string{ns}, Args: k.ControllerArgs(MemberCloud), Env: k.ControllerEnv()})
}
