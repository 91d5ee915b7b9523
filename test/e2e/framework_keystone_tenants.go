//go:build e2e

package e2e

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/gophercloud/gophercloud/v2"
	"github.com/gophercloud/gophercloud/v2/openstack"
	"github.com/gophercloud/gophercloud/v2/openstack/identity/v3/applicationcredentials"
	"github.com/gophercloud/gophercloud/v2/openstack/identity/v3/projects"
	"github.com/gophercloud/gophercloud/v2/openstack/identity/v3/roles"
	"github.com/gophercloud/gophercloud/v2/openstack/identity/v3/users"
	"sigs.k8s.io/yaml"
)

// WithOwnUsers returns k with a clouds.yaml in which each of the named clouds (MemberCloud,
// TenantA, TenantB) is a project and a member-role user made for this test alone, as
// hack/local-keystone.sh makes the shared ones: password clouds get a user with a
// password, TenantB an application credential its user made (and "team-b-user" that
// user's password). A test that disables a user, changes its password or credentials,
// or counts what Keystone or Neutron log per project uses these, so that the tests beside
// it keep the shared ones. Users and projects are deleted at the end of the test.
func (k Keystone) WithOwnUsers(t testing.TB, clouds ...string) Keystone {
	t.Helper()
	raw, err := os.ReadFile(k.CloudsYAML)
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Clouds map[string]map[string]any `json:"clouds"`
	}
	if err := yaml.Unmarshal(raw, &file); err != nil {
		t.Fatalf("parsing %s: %v", k.CloudsYAML, err)
	}
	ctx := Ctx(t, 2*time.Minute)
	shared := k // its clouds.yaml outlives the test's, for the cleanups
	admin, memberRole := shared.adminIdentity(t, ctx)
	for _, cloud := range clouds {
		passwordCloud := cloud
		if cloud == TenantB {
			passwordCloud = "team-b-user"
		}
		name := "e2e-" + cloud + "-" + RandomSuffix(8)
		password := "e2e-" + RandomSuffix(24)
		project, err := projects.Create(ctx, admin, projects.CreateOpts{Name: name, DomainID: "default"}).Extract()
		if err != nil {
			t.Fatalf("creating project %s: %v", name, err)
		}
		user, err := users.Create(ctx, admin, users.CreateOpts{Name: name, DomainID: "default", DefaultProjectID: project.ID, Password: password}).Extract()
		if err != nil {
			t.Fatalf("creating user %s: %v", name, err)
		}
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			admin, _ := shared.adminIdentity(t, ctx)
			if err := users.Delete(ctx, admin, user.ID).ExtractErr(); err != nil {
				t.Logf("cleanup: deleting user %s: %v", name, err)
			}
			if err := projects.Delete(ctx, admin, project.ID).ExtractErr(); err != nil {
				t.Logf("cleanup: deleting project %s: %v", name, err)
			}
		})
		if err := roles.Assign(ctx, admin, memberRole, roles.AssignOpts{UserID: user.ID, ProjectID: project.ID}).ExtractErr(); err != nil {
			t.Fatalf("giving user %s the member role in project %s: %v", name, name, err)
		}
		entry := file.Clouds[passwordCloud]
		if entry == nil {
			t.Fatalf("%s has no cloud %s", k.CloudsYAML, passwordCloud)
		}
		auth, _ := entry["auth"].(map[string]any)
		auth["username"], auth["password"], auth["project_name"] = name, password, name
		if cloud == TenantB {
			k.putApplicationCredential(t, ctx, file.Clouds[TenantB], user.ID, name, password)
		}
	}
	out, err := yaml.Marshal(file)
	if err != nil {
		t.Fatal(err)
	}
	k.CloudsYAML = WriteFile(t, "clouds.yaml", string(out))
	return k
}

// putApplicationCredential makes an application credential as the user (name, password)
// and puts it into the application credential cloud entry.
func (k Keystone) putApplicationCredential(t testing.TB, ctx context.Context, entry map[string]any, userID, name, password string) {
	t.Helper()
	if entry == nil {
		t.Fatalf("%s has no cloud %s", k.CloudsYAML, TenantB)
	}
	pc, err := openstack.AuthenticatedClient(ctx, gophercloud.AuthOptions{
		IdentityEndpoint: k.AuthURL, Username: name, Password: password, DomainID: "default",
		Scope: &gophercloud.AuthScope{ProjectName: name, DomainID: "default"},
	})
	if err != nil {
		t.Fatalf("logging in as %s: %v", name, err)
	}
	identity, err := openstack.NewIdentityV3(pc, gophercloud.EndpointOpts{})
	if err != nil {
		t.Fatal(err)
	}
	secret := "e2e-" + RandomSuffix(24)
	cred, err := applicationcredentials.Create(ctx, identity, userID, applicationcredentials.CreateOpts{Name: "network-controller", Secret: secret}).Extract()
	if err != nil {
		t.Fatalf("creating an application credential as %s: %v", name, err)
	}
	auth, _ := entry["auth"].(map[string]any)
	auth["application_credential_id"], auth["application_credential_secret"] = cred.ID, secret
}

// adminIdentity is an identity client of the cloud's admin, and the member role's ID.
func (k Keystone) adminIdentity(t testing.TB, ctx context.Context) (*gophercloud.ServiceClient, string) {
	t.Helper()
	pc, _ := k.AuthenticatedAs(t, ctx, AdminCloud)
	identity, err := openstack.NewIdentityV3(pc, gophercloud.EndpointOpts{})
	if err != nil {
		t.Fatal(err)
	}
	pages, err := roles.List(identity, roles.ListOpts{Name: "member"}).AllPages(ctx)
	if err != nil {
		t.Fatalf("finding the member role: %v", err)
	}
	found, err := roles.ExtractRoles(pages)
	if err != nil || len(found) != 1 {
		t.Fatalf("finding the member role: %d roles named member (%v)", len(found), err)
	}
	return identity, found[0].ID
}

// ApplicationCredentialCloudsYAML makes another application credential of TenantB's user
// (a cloud of WithOwnUsers), expiring at expiresAt (nil: never), and returns a clouds.yaml
// whose TenantB entry authenticates with it.
func (k Keystone) ApplicationCredentialCloudsYAML(t testing.TB, expiresAt *time.Time) string {
	t.Helper()
	identity, userID := k.identityAs(t, "team-b-user")
	secret := "e2e-" + RandomSuffix(24)
	cred, err := applicationcredentials.Create(Ctx(t, time.Minute), identity, userID, applicationcredentials.CreateOpts{
		Name: "network-controller-" + RandomSuffix(6), Secret: secret, ExpiresAt: expiresAt}).Extract()
	if err != nil {
		t.Fatalf("creating an application credential of user %s: %v", userID, err)
	}
	var file struct {
		Clouds map[string]map[string]any `json:"clouds"`
	}
	if err := yaml.Unmarshal([]byte(k.CloudsYAMLOf(t, TenantB)), &file); err != nil {
		t.Fatal(err)
	}
	auth, _ := file.Clouds[TenantB]["auth"].(map[string]any)
	auth["application_credential_id"], auth["application_credential_secret"] = cred.ID, secret
	out, err := yaml.Marshal(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}
