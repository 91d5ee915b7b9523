//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronclient"
)

// NeutronNetwork is a network as Neutron's API shows it to an admin.
type NeutronNetwork struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Tags        []string `json:"tags"`
	// RevisionNumber goes up with every change Neutron makes to the network.
	RevisionNumber int `json:"revision_number"`
}

// NeutronSubnet is a subnet as Neutron's API shows it to an admin.
type NeutronSubnet struct {
	ID              string   `json:"id"`
	NetworkID       string   `json:"network_id"`
	Name            string   `json:"name"`
	Description     string   `json:"description"`
	CIDR            string   `json:"cidr"`
	IPVersion       int      `json:"ip_version"`
	GatewayIP       string   `json:"gateway_ip"`
	Tags            []string `json:"tags"`
	AllocationPools []struct {
		Start string `json:"start"`
		End   string `json:"end"`
	} `json:"allocation_pools"`
	DNSNameservers []string `json:"dns_nameservers"`
	HostRoutes     []struct {
		Destination string `json:"destination"`
		NextHop     string `json:"nexthop"`
	} `json:"host_routes"`
	EnableDHCP      bool   `json:"enable_dhcp"`
	IPv6AddressMode string `json:"ipv6_address_mode"`
	IPv6RAMode      string `json:"ipv6_ra_mode"`
	RevisionNumber  int    `json:"revision_number"`
}

// Pools describes the subnet's allocation pools, sorted (Neutron keeps no order), e.g.
// "10.0.0.10-10.0.0.99 10.0.0.200-10.0.0.254".
func (s NeutronSubnet) Pools() string {
	pools := make([]string, 0, len(s.AllocationPools))
	for _, p := range s.AllocationPools {
		pools = append(pools, p.Start+"-"+p.End)
	}
	return sortedPools(pools)
}

// SpecPools describes the allocation pools a spec names, as NeutronSubnet.Pools does; ""
// when it names none.
func SpecPools(spec samplecrdv1.NetworkSpec) string {
	pools := make([]string, 0, len(spec.AllocationPools))
	for _, p := range spec.AllocationPools {
		pools = append(pools, p.Start+"-"+p.End)
	}
	return sortedPools(pools)
}

// sortedPools sorts pools by their start address and joins them.
func sortedPools(pools []string) string {
	slices.SortFunc(pools, func(a, b string) int {
		x, _, _ := strings.Cut(a, "-")
		y, _, _ := strings.Cut(b, "-")
		return netip.MustParseAddr(x).Compare(netip.MustParseAddr(y))
	})
	return strings.Join(pools, " ")
}

// Options describes the subnet's DNS servers, host routes (sorted: Neutron keeps no order),
// DHCP and IPv6 modes, e.g. `dns=[10.0.0.2] routes=[0.0.0.0/0>10.0.0.1] dhcp=true
// ipv6modes=""/""`, for comparing with what a spec asks for.
func (s NeutronSubnet) Options() string {
	routes := make([]string, 0, len(s.HostRoutes))
	for _, r := range s.HostRoutes {
		routes = append(routes, r.Destination+">"+r.NextHop)
	}
	slices.Sort(routes)
	return fmt.Sprintf("dns=%v routes=%v dhcp=%v ipv6modes=%q/%q", s.DNSNameservers, routes, s.EnableDHCP, s.IPv6AddressMode, s.IPv6RAMode)
}

// SpecOptions describes the DNS servers, host routes, DHCP and IPv6 modes a spec asks for, as
// NeutronSubnet.Options does.
func SpecOptions(spec samplecrdv1.NetworkSpec) string {
	routes := make([]string, 0, len(spec.HostRoutes))
	for _, r := range spec.HostRoutes {
		routes = append(routes, r.Destination+">"+r.NextHop)
	}
	slices.Sort(routes)
	return fmt.Sprintf("dns=%v routes=%v dhcp=%v ipv6modes=%q/%q", spec.DNSNameservers, routes, spec.EnableDHCP == nil || *spec.EnableDHCP,
		spec.IPv6AddressMode, spec.IPv6RAMode)
}

// names reports whether a tag tagPrefix+value, the name or the description names value:
// the marks docs/design.md promises on every network the controller creates.
func (n NeutronNetwork) names(value, tagPrefix string) bool {
	return slices.Contains(n.Tags, tagPrefix+value) || strings.Contains(n.Name, value) || strings.Contains(n.Description, value)
}

func (n NeutronNetwork) ownedBy(o neutron.Owner) bool {
	return n.names(o.ClusterID, "k8s-cluster=") && n.names(o.UID, "k8s-uid=")
}

// NeutronState is all Neutron holds. The tests find the controller's resources in it by
// the marks docs/design.md promises, not through the controller's own lookup, so that a
// lookup bug cannot hide a leak or a duplicate.
type NeutronState struct {
	Networks  []NeutronNetwork
	SubnetsOf map[string][]NeutronSubnet // by network ID
}

// ReadNeutron lists every network and subnet through the admin endpoint.
func ReadNeutron() (NeutronState, error) {
	var nets struct {
		Networks []NeutronNetwork `json:"networks"`
	}
	var subs struct {
		Subnets []NeutronSubnet `json:"subnets"`
	}
	if err := neutronList("v2.0/networks", &nets); err != nil {
		return NeutronState{}, err
	}
	if err := neutronList("v2.0/subnets", &subs); err != nil {
		return NeutronState{}, err
	}
	s := NeutronState{Networks: nets.Networks, SubnetsOf: map[string][]NeutronSubnet{}}
	for _, sub := range subs.Subnets {
		s.SubnetsOf[sub.NetworkID] = append(s.SubnetsOf[sub.NetworkID], sub)
	}
	return s, nil
}

// NeutronOf returns the networks of owner and the subnets on them.
func NeutronOf(t testing.TB, owner neutron.Owner) (nets []NeutronNetwork, subs []NeutronSubnet, err error) {
	t.Helper()
	s, err := ReadNeutron()
	for _, n := range s.Networks {
		if n.ownedBy(owner) {
			nets = append(nets, n)
			subs = append(subs, s.SubnetsOf[n.ID]...)
		}
	}
	return nets, subs, err
}

// OwnedResources returns the one Neutron network and subnet of owner, or an error saying
// what is missing or doubled.
func OwnedResources(t testing.TB, owner neutron.Owner) (NeutronNetwork, NeutronSubnet, error) {
	t.Helper()
	nets, subs, err := NeutronOf(t, owner)
	if err == nil && (len(nets) != 1 || len(subs) != 1) {
		err = fmt.Errorf("%d networks %v and %d subnets %v for %s", len(nets), ids(nets), len(subs), ids(subs), owner.ResourceName())
	}
	if err != nil {
		return NeutronNetwork{}, NeutronSubnet{}, err
	}
	return nets[0], subs[0], nil
}

// WaitNeutronEmpty waits until Neutron holds no network and no subnet of owner.
func WaitNeutronEmpty(t testing.TB, owner neutron.Owner, timeout time.Duration) {
	t.Helper()
	Eventually(t, timeout, 500*time.Millisecond, "no Neutron resources left for "+owner.ResourceName(), func() error {
		nets, subs, err := NeutronOf(t, owner)
		if err == nil && len(nets)+len(subs) > 0 {
			err = fmt.Errorf("still there: networks %v, subnets %v", ids(nets), ids(subs))
		}
		return err
	})
}

// ids lists the IDs of Neutron resources, for messages.
func ids[T interface{ GetID() string }](in []T) []string {
	out := make([]string, 0, len(in))
	for _, r := range in {
		out = append(out, r.GetID())
	}
	return out
}

// GetID returns the network's ID.
func (n NeutronNetwork) GetID() string { return n.ID }

// GetID returns the subnet's ID.
func (s NeutronSubnet) GetID() string { return s.ID }

// OwnerOf returns the ownership marks the controller of clusterID gives n's resources.
func OwnerOf(clusterID string, n *samplecrdv1.Network) neutron.Owner {
	return neutron.Owner{ClusterID: clusterID, Namespace: n.Namespace, Name: n.Name, UID: string(n.UID)}
}

// Neutron returns a driver for NeutronEndpoint, to read (or change) Neutron directly.
func Neutron(t testing.TB) *neutronclient.Client {
	t.Helper()
	c, err := neutronclient.ConnectEndpoint(NeutronEndpoint, nil)
	if err != nil {
		t.Fatalf("connecting to Neutron at %s: %v", NeutronEndpoint, err)
	}
	return c
}

// neutronDo sends one raw request to Neutron (path relative to the endpoint, e.g.
// "v2.0/ports") with body marshalled as JSON when not nil, and returns the status code and
// the response body.
func neutronDo(method, path string, body any) (int, []byte, error) {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		r = bytes.NewReader(b)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimSuffix(NeutronEndpoint, "/")+"/"+path, r)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

// MustNeutron is neutronDo that fails the test unless the status code is one of want, and
// decodes the response into out when out is not nil.
func MustNeutron(t testing.TB, method, path string, body any, out any, want ...int) {
	t.Helper()
	code, resp, err := neutronDo(method, path, body)
	if err != nil || !slices.Contains(want, code) {
		t.Fatalf("neutron %s %s: got %d %v, want %v: %s", method, path, code, err, want, resp)
	}
	if out != nil {
		if err := json.Unmarshal(resp, out); err != nil {
			t.Fatalf("neutron %s %s: decoding %s: %v", method, path, resp, err)
		}
	}
}

// neutronList GETs a Neutron collection into out.
func neutronList(path string, out any) error {
	code, body, err := neutronDo(http.MethodGet, path, nil)
	if err == nil && code != http.StatusOK {
		err = fmt.Errorf("%d %s", code, body)
	}
	if err == nil {
		err = json.Unmarshal(body, out)
	}
	if err != nil {
		return fmt.Errorf("GET %s: %w", path, err)
	}
	return nil
}

// GetSubnet reads one subnet by ID; found is false on 404.
func GetSubnet(t testing.TB, id string) (sub NeutronSubnet, found bool) {
	t.Helper()
	return getNeutronResource[NeutronSubnet](t, "subnet", id)
}

// GetNeutronNetwork reads one network by ID; found is false on 404.
func GetNeutronNetwork(t testing.TB, id string) (n NeutronNetwork, found bool) {
	t.Helper()
	return getNeutronResource[NeutronNetwork](t, "network", id)
}

// getNeutronResource reads one resource of kind ("network", "subnet") by ID; found is
// false on 404.
func getNeutronResource[T any](t testing.TB, kind, id string) (r T, found bool) {
	t.Helper()
	var doc map[string]json.RawMessage
	code, body, err := neutronDo(http.MethodGet, "v2.0/"+kind+"s/"+id, nil)
	if err == nil && code == http.StatusNotFound {
		return r, false
	}
	if err != nil || code != http.StatusOK || json.Unmarshal(body, &doc) != nil || json.Unmarshal(doc[kind], &r) != nil {
		t.Fatalf("GET %s %s: %d %v %s", kind, id, code, err, body)
	}
	return r, true
}

// NetworkExists reports whether Neutron has a network with that ID.
func NetworkExists(t testing.TB, id string) bool {
	t.Helper()
	code, body, err := neutronDo(http.MethodGet, "v2.0/networks/"+id, nil)
	if err != nil || (code != http.StatusOK && code != http.StatusNotFound) {
		t.Fatalf("GET network %s: %d %v %s", id, code, err, body)
	}
	return code == http.StatusOK
}

// CreateForeignNetwork creates a Neutron network directly (not through the controller),
// tags it, and deletes it at the end of the test.
func CreateForeignNetwork(t testing.TB, name, description string, tags []string) neutron.Network {
	t.Helper()
	nc := Neutron(t)
	ctx := Ctx(t, 30*time.Second)
	n, err := nc.CreateNetwork(ctx, neutron.NetworkRequest{Name: name, Description: description})
	if err != nil {
		t.Fatalf("creating Neutron network %s: %v", name, err)
	}
	t.Cleanup(func() { DeleteNeutronNetworkTree(t, n.ID) })
	if len(tags) > 0 {
		if err := nc.SetNetworkTags(ctx, n.ID, tags); err != nil {
			t.Fatalf("tagging Neutron network %s: %v", n.ID, err)
		}
		n.Tags = tags
	}
	return n
}

// DeleteNeutronNetworkTree deletes a network with its ports (a router's interface by
// removing it from the router) and subnets, best effort.
func DeleteNeutronNetworkTree(t testing.TB, networkID string) {
	type withID struct {
		ID          string `json:"id"`
		DeviceOwner string `json:"device_owner"`
		DeviceID    string `json:"device_id"`
	}
	var doc struct {
		Ports   []withID `json:"ports"`
		Subnets []withID `json:"subnets"`
	}
	_ = neutronList("v2.0/ports?network_id="+networkID, &doc)
	_ = neutronList("v2.0/subnets?network_id="+networkID, &doc)
	for _, p := range doc.Ports {
		if p.DeviceOwner == neutron.InterfaceOwner {
			_, _, _ = neutronDo(http.MethodPut, "v2.0/routers/"+p.DeviceID+"/remove_router_interface", map[string]string{"port_id": p.ID})
			continue
		}
		_, _, _ = neutronDo(http.MethodDelete, "v2.0/ports/"+p.ID, nil)
	}
	for _, s := range doc.Subnets {
		_, _, _ = neutronDo(http.MethodDelete, "v2.0/subnets/"+s.ID, nil)
	}
	code, body, err := neutronDo(http.MethodDelete, "v2.0/networks/"+networkID, nil)
	if err != nil || (code != http.StatusNoContent && code != http.StatusNotFound) {
		t.Logf("cleanup: deleting Neutron network %s: %d %s %v", networkID, code, body, err)
	}
}

// CleanupNeutronCluster deletes every Neutron network (with its ports and subnets) that
// carries the cluster tag of clusterID or a description naming it, best effort.
func CleanupNeutronCluster(t testing.TB, clusterID string) {
	s, err := ReadNeutron()
	if err != nil {
		t.Logf("cleanup: reading Neutron for cluster %s: %v", clusterID, err)
	}
	for _, n := range s.Networks {
		if n.names(clusterID, "k8s-cluster=") {
			DeleteNeutronNetworkTree(t, n.ID)
		}
	}
	// The routers the cluster's controllers made, now without interfaces on its networks.
	var routers struct {
		Routers []struct {
			ID string `json:"id"`
		} `json:"routers"`
	}
	if err := neutronList("v2.0/routers?description="+url.QueryEscape(neutron.ClusterDescription(clusterID)), &routers); err != nil {
		t.Logf("cleanup: listing the routers of cluster %s: %v", clusterID, err)
	}
	for _, r := range routers.Routers {
		if code, body, err := neutronDo(http.MethodDelete, "v2.0/routers/"+r.ID, nil); err != nil || (code != http.StatusNoContent && code != http.StatusNotFound) {
			t.Logf("cleanup: deleting Neutron router %s: %d %s %v", r.ID, code, body, err)
		}
	}
}
