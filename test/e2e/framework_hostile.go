//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"maps"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gophercloud/gophercloud/v2"
	"github.com/gophercloud/gophercloud/v2/openstack"
	"github.com/gophercloud/gophercloud/v2/openstack/identity/v3/users"
	"sigs.k8s.io/yaml"
)

// What the hostile-tenant tests need besides the other helpers: a stand-in for an
// attacker's server, networks made by the cloud's admin in a chosen project and shared
// by Neutron RBAC, and the admin switching a Keystone user off and on.

// Listener is a TCP listener on 127.0.0.1 that counts the connections made to it and
// answers none: an attacker's Keystone, or any address a tenant would like the
// controller to reach.
type Listener struct {
	Addr        string
	connections atomic.Int64
}

// NewListener listens on a free port of 127.0.0.1 until the end of the test.
func NewListener(t testing.TB) *Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listening: %v", err)
	}
	l := &Listener{Addr: ln.Addr().String()}
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			l.connections.Add(1)
			conn.Close()
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return l
}

// Connections returns how many connections were made to the listener.
func (l *Listener) Connections() int64 { return l.connections.Load() }

// CreateNetworkInProject creates, as Neutron's admin, a network owned by project with
// the description and tags given, and deletes it at the end of the test.
func CreateNetworkInProject(t testing.TB, project, name, description string, tags []string) NeutronNetwork {
	t.Helper()
	var doc struct {
		Network NeutronNetwork `json:"network"`
	}
	MustNeutron(t, http.MethodPost, "v2.0/networks", map[string]any{"network": map[string]any{
		"name": name, "description": description, "project_id": project,
	}}, &doc, http.StatusCreated)
	t.Cleanup(func() { DeleteNeutronNetworkTree(t, doc.Network.ID) })
	if len(tags) > 0 {
		MustNeutron(t, http.MethodPut, "v2.0/networks/"+doc.Network.ID+"/tags", map[string]any{"tags": tags}, nil, http.StatusOK)
		doc.Network.Tags = tags
	}
	return doc.Network
}

// ShareNetwork shares a network with project through Neutron RBAC (access_as_shared), as
// the network's owner or an admin does.
func ShareNetwork(t testing.TB, networkID, project string) {
	t.Helper()
	MustNeutron(t, http.MethodPost, "v2.0/rbac-policies", map[string]any{"rbac_policy": map[string]any{
		"object_type": "network", "object_id": networkID, "action": "access_as_shared", "target_tenant": project,
	}}, nil, http.StatusCreated)
}

// UserID returns the ID of the user of a password cloud, logging in as it.
func (k Keystone) UserID(t testing.TB, cloud string) string {
	t.Helper()
	_, userID := k.identityAs(t, cloud)
	return userID
}

// SetUserEnabled enables or disables a Keystone user, as the cloud's admin.
func (k Keystone) SetUserEnabled(t testing.TB, userID string, enabled bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	pc, _ := k.AuthenticatedAs(t, ctx, AdminCloud)
	identity, err := openstack.NewIdentityV3(pc, gophercloud.EndpointOpts{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := users.Update(ctx, identity, userID, users.UpdateOpts{Enabled: &enabled}).Extract(); err != nil {
		t.Fatalf("setting user %s enabled=%v: %v", userID, enabled, err)
	}
}

// MadeUpUsersCloudsYAML returns a clouds.yaml of n clouds c0, c1, ... like TenantA's, each
// with a user that does not exist (a new name each call) and password: Keystone refuses
// every one, and counts no lockout for users it does not have.
func (k Keystone) MadeUpUsersCloudsYAML(t testing.TB, n int, password string) string {
	t.Helper()
	var file struct {
		Clouds map[string]map[string]any `json:"clouds"`
	}
	if err := yaml.Unmarshal([]byte(k.CloudsYAMLOf(t, TenantA)), &file); err != nil {
		t.Fatal(err)
	}
	entry := file.Clouds[TenantA]
	clouds := map[string]any{}
	suffix := RandomSuffix(6)
	for i := range n {
		auth := maps.Clone(entry["auth"].(map[string]any))
		auth["username"], auth["password"] = fmt.Sprintf("made-up-%d-%s", i, suffix), password
		clouds[fmt.Sprintf("c%d", i)] = map[string]any{"auth": auth, "region_name": entry["region_name"]}
	}
	out, err := yaml.Marshal(map[string]any{"clouds": clouds})
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}
