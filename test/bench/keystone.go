package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/gophercloud/gophercloud/v2"
	"github.com/gophercloud/gophercloud/v2/openstack"
	"github.com/gophercloud/gophercloud/v2/openstack/config/clouds"
	"github.com/gophercloud/gophercloud/v2/openstack/identity/v3/projects"
	"github.com/gophercloud/gophercloud/v2/openstack/identity/v3/roles"
	"github.com/gophercloud/gophercloud/v2/openstack/identity/v3/users"
	"sigs.k8s.io/yaml"

	"github.com/samplecrd/network-controller/test/serverlog"
)

// tenantCloud is the cloud name in every tenant's clouds.yaml.
const tenantCloud = "bench"

// ensureTenants makes, as adminCloud of the clouds.yaml at path, n projects
// "bench-tenant-<i>", each with a user holding only the member role there, whose password
// is new for this run, and returns the clouds.yaml of each user. They stay in Keystone for
// the next run, which finds them.
func ensureTenants(ctx context.Context, path, adminCloud string, n, workers int) ([]string, error) {
	ao, eo, _, err := clouds.Parse(clouds.WithLocations(path), clouds.WithCloudName(adminCloud))
	if err != nil {
		return nil, fmt.Errorf("reading cloud %s of %s: %w", adminCloud, path, err)
	}
	pc, err := openstack.AuthenticatedClient(ctx, ao)
	if err != nil {
		return nil, fmt.Errorf("logging in to Keystone as %s: %w", adminCloud, err)
	}
	pc.UserAgent.Prepend("network-controller-bench")
	identity, err := openstack.NewIdentityV3(pc, eo)
	if err != nil {
		return nil, fmt.Errorf("the identity endpoint of %s: %w", adminCloud, err)
	}
	member, err := roleID(ctx, identity, "member")
	if err != nil {
		return nil, err
	}
	out := make([]string, n)
	err = parallel(ctx, n, workers, func(ctx context.Context, i int) error {
		name := fmt.Sprintf("bench-tenant-%d", i)
		projectID, err := ensureProject(ctx, identity, name)
		if err != nil {
			return err
		}
		password := randomHex(24)
		userID, err := ensureUser(ctx, identity, name+"-user", password, projectID)
		if err != nil {
			return err
		}
		if err := roles.Assign(ctx, identity, member, roles.AssignOpts{UserID: userID, ProjectID: projectID}).ExtractErr(); err != nil {
			return fmt.Errorf("granting role member on project %s: %w", name, err)
		}
		out[i], err = memberCloudsYAML(ao.IdentityEndpoint, eo.Region, name+"-user", password, name)
		return err
	})
	return out, err
}

func roleID(ctx context.Context, identity *gophercloud.ServiceClient, name string) (string, error) {
	pages, err := roles.List(identity, roles.ListOpts{Name: name}).AllPages(ctx)
	if err != nil {
		return "", fmt.Errorf("looking up role %s: %w", name, err)
	}
	found, err := roles.ExtractRoles(pages)
	if err != nil || len(found) == 0 {
		return "", fmt.Errorf("looking up role %s: found %d (%v)", name, len(found), err)
	}
	return found[0].ID, nil
}

func ensureProject(ctx context.Context, identity *gophercloud.ServiceClient, name string) (string, error) {
	pages, err := projects.List(identity, projects.ListOpts{Name: name, DomainID: "default"}).AllPages(ctx)
	if err != nil {
		return "", fmt.Errorf("looking up project %s: %w", name, err)
	}
	if found, err := projects.ExtractProjects(pages); err != nil {
		return "", fmt.Errorf("looking up project %s: %w", name, err)
	} else if len(found) > 0 {
		return found[0].ID, nil
	}
	p, err := projects.Create(ctx, identity, projects.CreateOpts{Name: name, DomainID: "default", Description: "A tenant of the network-controller bench"}).Extract()
	if err != nil {
		return "", fmt.Errorf("creating project %s: %w", name, err)
	}
	return p.ID, nil
}

// ensureUser creates the user, or sets the password of the one there.
func ensureUser(ctx context.Context, identity *gophercloud.ServiceClient, name, password, projectID string) (string, error) {
	pages, err := users.List(identity, users.ListOpts{Name: name, DomainID: "default"}).AllPages(ctx)
	if err != nil {
		return "", fmt.Errorf("looking up user %s: %w", name, err)
	}
	found, err := users.ExtractUsers(pages)
	if err != nil {
		return "", fmt.Errorf("looking up user %s: %w", name, err)
	}
	if len(found) > 0 {
		if _, err := users.Update(ctx, identity, found[0].ID, users.UpdateOpts{Password: password}).Extract(); err != nil {
			return "", fmt.Errorf("setting the password of user %s: %w", name, err)
		}
		return found[0].ID, nil
	}
	u, err := users.Create(ctx, identity, users.CreateOpts{Name: name, DomainID: "default", Password: password, DefaultProjectID: projectID}).Extract()
	if err != nil {
		return "", fmt.Errorf("creating user %s: %w", name, err)
	}
	return u.ID, nil
}

func memberCloudsYAML(authURL, region, user, password, project string) (string, error) {
	out, err := yaml.Marshal(map[string]any{"clouds": map[string]any{tenantCloud: map[string]any{
		"auth": map[string]any{
			"auth_url": authURL, "username": user, "password": password, "project_name": project,
			"user_domain_name": "Default", "project_domain_name": "Default",
		},
		"region_name": region, "interface": "public", "identity_api_version": 3,
	}}})
	return string(out), err
}

// keystoneLog is Keystone's request log, where the controller's token requests are
// counted by its user agent.
type keystoneLog struct {
	path string
}

// controllerTokens returns how many tokens Keystone issued to the controller after line
// skip, and the number of lines read.
func (l keystoneLog) controllerTokens(skip int) (tokens, lines int, err error) {
	f, err := os.Open(l.path)
	if err != nil {
		return 0, 0, fmt.Errorf("opening Keystone's request log: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		lines++
		if lines <= skip {
			continue
		}
		r, ok := serverlog.ParseKeystoneRequest(sc.Text())
		// "network-controller/<version> (<commit>) gophercloud/…"; builds before the
		// version was stamped in sent "network-controller gophercloud/…".
		if ok && r.IsTokenIssue("201") && (strings.HasPrefix(r.UserAgent, "network-controller/") || strings.HasPrefix(r.UserAgent, "network-controller ")) {
			tokens++
		}
	}
	if err := sc.Err(); err != nil {
		return 0, 0, fmt.Errorf("reading Keystone's request log: %w", err)
	}
	return tokens, lines, nil
}
