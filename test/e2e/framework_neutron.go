//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// Neutron returns a driver for NeutronEndpoint, to read (or change) Neutron directly.
func Neutron(t testing.TB) *neutron.Client {
	t.Helper()
	c, err := neutron.ConnectEndpoint(NeutronEndpoint, nil)
	if err != nil {
		t.Fatalf("connecting to Neutron at %s: %v", NeutronEndpoint, err)
	}
	return c
}

// OwnerOf returns the ownership marks the controller of clusterID gives n's resources.
func OwnerOf(clusterID string, n *samplecrdv1.Network) neutron.Owner {
	return neutron.Owner{ClusterID: clusterID, Namespace: n.Namespace, Name: n.Name, UID: string(n.UID)}
}

// NeutronDo sends one raw request to Neutron (path relative to the endpoint, e.g.
// "v2.0/ports") with body marshalled as JSON when not nil, and returns the status code and
// the response body. It fails the test only when Neutron cannot be reached.
func NeutronDo(t testing.TB, method, path string, body any) (int, []byte) {
	t.Helper()
	code, resp, err := neutronDo(method, path, body)
	if err != nil {
		t.Fatalf("neutron %s %s: %v", method, path, err)
	}
	return code, resp
}

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
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimSuffix(NeutronEndpoint, "/")+"/"+strings.TrimPrefix(path, "/"), r)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

// MustNeutron is NeutronDo that fails unless the status code is one of want, and decodes
// the response into out when out is not nil.
func MustNeutron(t testing.TB, method, path string, body any, out any, want ...int) {
	t.Helper()
	code, resp := NeutronDo(t, method, path, body)
	if !slices.Contains(want, code) {
		t.Fatalf("neutron %s %s: got %d, want %v: %s", method, path, code, want, resp)
	}
	if out != nil {
		if err := json.Unmarshal(resp, out); err != nil {
			t.Fatalf("neutron %s %s: decoding %s: %v", method, path, resp, err)
		}
	}
}

// NeutronNetworksOf lists the Neutron networks of owner: tagged with its ownership tags
// or carrying the name its create gave it (deduplicated).
func NeutronNetworksOf(t testing.TB, owner neutron.Owner) ([]neutron.Network, error) {
	t.Helper()
	nc := Neutron(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tagged, err := nc.ListNetworks(ctx, neutron.Filter{Tags: owner.Tags()})
	if err != nil {
		return nil, err
	}
	named, err := neutron.OwnedNetworks(ctx, nc, owner)
	if err != nil {
		return nil, err
	}
	return dedup(append(tagged, named...)), nil
}

// NeutronSubnetsOf lists the Neutron subnets of owner: those on its networks.
func NeutronSubnetsOf(t testing.TB, owner neutron.Owner) ([]neutron.Subnet, error) {
	t.Helper()
	nets, err := NeutronNetworksOf(t, owner)
	if err != nil {
		return nil, err
	}
	nc := Neutron(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out []neutron.Subnet
	for _, n := range nets {
		subs, err := nc.ListSubnets(ctx, neutron.Filter{NetworkID: n.ID})
		if err != nil {
			return nil, err
		}
		out = append(out, subs...)
	}
	return out, nil
}

func dedup[T interface{ GetID() string }](in []T) []T {
	seen := map[string]bool{}
	var out []T
	for _, r := range in {
		if !seen[r.GetID()] {
			seen[r.GetID()] = true
			out = append(out, r)
		}
	}
	return out
}

// WaitNeutronEmpty waits until Neutron holds no network and no subnet of owner.
func WaitNeutronEmpty(t testing.TB, owner neutron.Owner, timeout time.Duration) {
	t.Helper()
	Eventually(t, timeout, 500*time.Millisecond, "no Neutron resources left for "+owner.ResourceName(), func() error {
		nets, err := NeutronNetworksOf(t, owner)
		if err != nil {
			return err
		}
		subs, err := NeutronSubnetsOf(t, owner)
		if err != nil {
			return err
		}
		if len(nets)+len(subs) > 0 {
			return fmt.Errorf("still there: networks %v, subnets %v", ids(nets), ids(subs))
		}
		return nil
	})
}

func ids[T interface{ GetID() string }](in []T) []string {
	out := make([]string, 0, len(in))
	for _, r := range in {
		out = append(out, r.GetID())
	}
	return out
}

// GetSubnet reads one subnet by ID; found is false on 404.
func GetSubnet(t testing.TB, id string) (sub NeutronSubnetJSON, found bool) {
	t.Helper()
	var doc struct {
		Subnet NeutronSubnetJSON `json:"subnet"`
	}
	code, body := NeutronDo(t, http.MethodGet, "v2.0/subnets/"+id, nil)
	if code == http.StatusNotFound {
		return sub, false
	}
	if code != http.StatusOK {
		t.Fatalf("GET subnet %s: %d %s", id, code, body)
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatalf("decoding subnet %s: %v", id, err)
	}
	return doc.Subnet, true
}

// NetworkExists reports whether Neutron has a network with that ID.
func NetworkExists(t testing.TB, id string) bool {
	t.Helper()
	code, body := NeutronDo(t, http.MethodGet, "v2.0/networks/"+id, nil)
	switch code {
	case http.StatusOK:
		return true
	case http.StatusNotFound:
		return false
	}
	t.Fatalf("GET network %s: %d %s", id, code, body)
	return false
}

// NeutronSubnetJSON is a subnet as Neutron's API shows it.
type NeutronSubnetJSON struct {
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
}

// CreateForeignNetwork creates a Neutron network directly (not through the controller),
// tags it, and deletes it at the end of the test.
func CreateForeignNetwork(t testing.TB, name, description string, tags []string) neutron.Network {
	t.Helper()
	nc := Neutron(t)
	ctx := Ctx(t, 30*time.Second)
	n, err := nc.CreateNetwork(ctx, name, description)
	if err != nil {
		t.Fatalf("creating Neutron network %s: %v", name, err)
	}
	t.Cleanup(func() { deleteNeutronNetworkTree(t, n.ID) })
	if len(tags) > 0 {
		if err := nc.SetNetworkTags(ctx, n.ID, tags); err != nil {
			t.Fatalf("tagging Neutron network %s: %v", n.ID, err)
		}
		n.Tags = tags
	}
	return n
}

// CreatePort creates a port with a fixed IP on the subnet directly in Neutron and returns
// its ID; it is deleted at the end of the test if still there.
func CreatePort(t testing.TB, networkID, subnetID string) string {
	t.Helper()
	var doc struct {
		Port struct {
			ID string `json:"id"`
		} `json:"port"`
	}
	MustNeutron(t, http.MethodPost, "v2.0/ports", map[string]any{"port": map[string]any{
		"network_id": networkID,
		"name":       "e2e-port-" + RandomSuffix(6),
		"fixed_ips":  []map[string]string{{"subnet_id": subnetID}},
	}}, &doc, http.StatusCreated)
	id := doc.Port.ID
	t.Cleanup(func() { _, _, _ = neutronDo(http.MethodDelete, "v2.0/ports/"+id, nil) })
	return id
}

// DeletePort deletes a port.
func DeletePort(t testing.TB, id string) {
	t.Helper()
	MustNeutron(t, http.MethodDelete, "v2.0/ports/"+id, nil, nil, http.StatusNoContent, http.StatusNotFound)
}

type idOnly struct {
	ID          string   `json:"id"`
	Description string   `json:"description"`
	Tags        []string `json:"tags"`
}

// deleteNeutronNetworkTree deletes a network with its ports and subnets, best effort.
func deleteNeutronNetworkTree(t testing.TB, networkID string) {
	var ports struct {
		Ports []idOnly `json:"ports"`
	}
	if code, body, err := neutronDo(http.MethodGet, "v2.0/ports?network_id="+networkID, nil); err == nil && code == http.StatusOK {
		_ = json.Unmarshal(body, &ports)
	}
	for _, p := range ports.Ports {
		_, _, _ = neutronDo(http.MethodDelete, "v2.0/ports/"+p.ID, nil)
	}
	var subs struct {
		Subnets []idOnly `json:"subnets"`
	}
	if code, body, err := neutronDo(http.MethodGet, "v2.0/subnets?network_id="+networkID, nil); err == nil && code == http.StatusOK {
		_ = json.Unmarshal(body, &subs)
	}
	for _, s := range subs.Subnets {
		_, _, _ = neutronDo(http.MethodDelete, "v2.0/subnets/"+s.ID, nil)
	}
	code, body, err := neutronDo(http.MethodDelete, "v2.0/networks/"+networkID, nil)
	if err != nil || (code != http.StatusNoContent && code != http.StatusNotFound) {
		t.Logf("cleanup: deleting Neutron network %s: %d %s %v", networkID, code, body, err)
	}
}

// CleanupNeutronCluster deletes every Neutron network (with its ports and subnets) that
// carries the cluster tag of clusterID or an ownership description naming it, best effort.
func CleanupNeutronCluster(t testing.TB, clusterID string) {
	var doc struct {
		Networks []idOnly `json:"networks"`
	}
	code, body, err := neutronDo(http.MethodGet, "v2.0/networks?fields=id&fields=description&fields=tags", nil)
	if err != nil || code != http.StatusOK {
		t.Logf("cleanup: listing Neutron networks for cluster %s: %d %s %v", clusterID, code, body, err)
		return
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Logf("cleanup: decoding Neutron networks: %v", err)
		return
	}
	tag := neutron.ClusterTag(clusterID)
	marker := "cluster " + clusterID + ", "
	for _, n := range doc.Networks {
		if slices.Contains(n.Tags, tag) || strings.Contains(n.Description, marker) {
			deleteNeutronNetworkTree(t, n.ID)
		}
	}
}
