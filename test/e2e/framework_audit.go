//go:build e2e

package e2e

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// What the cluster audit (cluster_audit.go) reads of Neutron besides networks and subnets:
// routers, router interfaces and RBAC policies, all through the admin (noauth) endpoint, so
// that it sees every project's.

// NeutronRouter is a router as Neutron's API shows it to an admin.
type NeutronRouter struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	ProjectID   string `json:"project_id"`
	Gateway     *struct {
		NetworkID string            `json:"network_id"`
		FixedIPs  []neutron.FixedIP `json:"external_fixed_ips"`
	} `json:"external_gateway_info"`
}

// GetID returns the router's ID.
func (r NeutronRouter) GetID() string { return r.ID }

// GatewayAddresses returns the addresses of the router's gateway, sorted.
func (r NeutronRouter) GatewayAddresses() []string {
	if r.Gateway == nil {
		return nil
	}
	out := make([]string, 0, len(r.Gateway.FixedIPs))
	for _, ip := range r.Gateway.FixedIPs {
		out = append(out, ip.IPAddress)
	}
	slices.Sort(out)
	return out
}

// names reports whether the router's name or description names value: the marks
// docs/design.md promises on the router the controller makes for a Network (the name of
// its network, k8s_<namespace>_<name>_<UID>, and the cluster's description).
func (r NeutronRouter) names(value string) bool {
	return strings.Contains(r.Name, value) || strings.Contains(r.Description, value)
}

// NeutronRBACPolicy is an RBAC policy as Neutron's API shows it to an admin.
type NeutronRBACPolicy struct {
	ID            string `json:"id"`
	ObjectType    string `json:"object_type"`
	ObjectID      string `json:"object_id"`
	Action        string `json:"action"`
	TargetProject string `json:"target_tenant"`
	ProjectID     string `json:"project_id"`
}

// GetID returns the policy's ID.
func (p NeutronRBACPolicy) GetID() string { return p.ID }

// NeutronPort is a port as Neutron's API shows it to an admin.
type NeutronPort neutron.Port

// GetID returns the port's ID.
func (p NeutronPort) GetID() string { return p.ID }

// auditNetwork is a network with the attributes the audit compares besides its marks.
type auditNetwork struct {
	NeutronNetwork
	PortSecurityEnabled *bool `json:"port_security_enabled"`
	External            bool  `json:"router:external"`
}

// AuditState is all of Neutron the cluster audit compares the Networks with.
type AuditState struct {
	NeutronState
	// PortSecurity is each network's port_security_enabled, by network ID (nil when
	// Neutron reports none).
	PortSecurity map[string]*bool
	// External are the IDs of the external networks (router:external), by name.
	External map[string][]string
	// Routers are every project's routers.
	Routers []NeutronRouter
	// Interfaces are the router interfaces (ports of device owner
	// network:router_interface), by network ID.
	Interfaces map[string][]NeutronPort
	// Policies are the RBAC policies on networks (object_type network).
	Policies []NeutronRBACPolicy
}

// ReadAuditState lists every network, subnet, router, router interface and network RBAC
// policy through the admin endpoint: five calls.
func ReadAuditState() (AuditState, error) {
	var nets struct {
		Networks []auditNetwork `json:"networks"`
	}
	var subs struct {
		Subnets []NeutronSubnet `json:"subnets"`
	}
	var routers struct {
		Routers []NeutronRouter `json:"routers"`
	}
	var ports struct {
		Ports []NeutronPort `json:"ports"`
	}
	var policies struct {
		Policies []NeutronRBACPolicy `json:"rbac_policies"`
	}
	for _, l := range []struct {
		path string
		out  any
	}{
		{"v2.0/networks", &nets},
		{"v2.0/subnets", &subs},
		{"v2.0/routers", &routers},
		{"v2.0/ports?device_owner=" + url.QueryEscape(neutron.InterfaceOwner), &ports},
		{"v2.0/rbac-policies?object_type=network", &policies},
	} {
		if err := neutronList(l.path, l.out); err != nil {
			return AuditState{}, err
		}
	}
	s := AuditState{
		NeutronState: NeutronState{SubnetsOf: map[string][]NeutronSubnet{}},
		PortSecurity: map[string]*bool{},
		External:     map[string][]string{},
		Routers:      routers.Routers,
		Interfaces:   map[string][]NeutronPort{},
		Policies:     policies.Policies,
	}
	for _, n := range nets.Networks {
		s.Networks = append(s.Networks, n.NeutronNetwork)
		s.PortSecurity[n.ID] = n.PortSecurityEnabled
		if n.External {
			s.External[n.Name] = append(s.External[n.Name], n.ID)
		}
	}
	for _, sub := range subs.Subnets {
		s.SubnetsOf[sub.NetworkID] = append(s.SubnetsOf[sub.NetworkID], sub)
	}
	for _, p := range ports.Ports {
		if p.DeviceOwner == neutron.InterfaceOwner {
			s.Interfaces[p.NetworkID] = append(s.Interfaces[p.NetworkID], p)
		}
	}
	return s, nil
}

// policyOnMissingNetwork reports whether RBAC policy id still exists while its network
// does not: read again one by one, so that a network made or deleted between the lists of
// ReadAuditState is not taken for a leak.
func policyOnMissingNetwork(p NeutronRBACPolicy) (bool, error) {
	code, body, err := neutronDo(http.MethodGet, "v2.0/networks/"+p.ObjectID, nil)
	if err != nil || (code != http.StatusOK && code != http.StatusNotFound) {
		return false, fmt.Errorf("GET network %s: %d %v %s", p.ObjectID, code, err, body)
	}
	if code == http.StatusOK {
		return false, nil
	}
	code, body, err = neutronDo(http.MethodGet, "v2.0/rbac-policies/"+p.ID, nil)
	if err != nil || (code != http.StatusOK && code != http.StatusNotFound) {
		return false, fmt.Errorf("GET RBAC policy %s: %d %v %s", p.ID, code, err, body)
	}
	return code == http.StatusOK, nil
}

// CreateAdminRouter makes a router without gateway through the admin endpoint, as a
// project's own router that a Network's spec.router.existing can name; the end of the
// test detaches whatever is still attached to it and deletes it. Register it after
// NewClusterID, so that its cleanup runs before the cluster's networks are deleted.
func CreateAdminRouter(t testing.TB, name string) NeutronRouter {
	t.Helper()
	var doc struct {
		Router NeutronRouter `json:"router"`
	}
	MustNeutron(t, http.MethodPost, "v2.0/routers", map[string]any{"router": map[string]any{"name": name, "description": t.Name()}},
		&doc, http.StatusCreated)
	t.Cleanup(func() {
		detachAll(t, doc.Router.ID)
		if code, body, err := neutronDo(http.MethodDelete, "v2.0/routers/"+doc.Router.ID, nil); err != nil || (code != http.StatusNoContent && code != http.StatusNotFound) {
			t.Logf("cleanup: deleting router %s: %d %s %v", doc.Router.ID, code, body, err)
		}
	})
	return doc.Router
}

// CleanupClusterRouters detaches and deletes, at the end of the test, every router that
// carries the cluster's description (the routers the controller makes), best effort.
// Register it after NewClusterID: a router interface keeps a network from being deleted.
func CleanupClusterRouters(t testing.TB, clusterID string) {
	t.Cleanup(func() {
		var doc struct {
			Routers []NeutronRouter `json:"routers"`
		}
		if err := neutronList("v2.0/routers", &doc); err != nil {
			t.Logf("cleanup: listing routers: %v", err)
			return
		}
		for _, r := range doc.Routers {
			if r.Description != neutron.ClusterDescription(clusterID) {
				continue
			}
			detachAll(t, r.ID)
			if code, body, err := neutronDo(http.MethodDelete, "v2.0/routers/"+r.ID, nil); err != nil || (code != http.StatusNoContent && code != http.StatusNotFound) {
				t.Logf("cleanup: deleting router %s: %d %s %v", r.ID, code, body, err)
			}
		}
	})
}

// detachAll removes every interface of router routerID, best effort.
func detachAll(t testing.TB, routerID string) {
	var doc struct {
		Ports []NeutronPort `json:"ports"`
	}
	if err := neutronList("v2.0/ports?device_id="+url.QueryEscape(routerID)+"&device_owner="+url.QueryEscape(neutron.InterfaceOwner), &doc); err != nil {
		t.Logf("cleanup: listing the interfaces of router %s: %v", routerID, err)
		return
	}
	for _, p := range doc.Ports {
		code, body, err := neutronDo(http.MethodPut, "v2.0/routers/"+routerID+"/remove_router_interface", map[string]string{"port_id": p.ID})
		if err != nil || (code != http.StatusOK && code != http.StatusNotFound) {
			t.Logf("cleanup: detaching port %s from router %s: %d %s %v", p.ID, routerID, code, body, err)
		}
	}
}
