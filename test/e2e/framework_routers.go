//go:build e2e

package e2e

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/gophercloud/gophercloud/v2"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// RoutersOf lists the routers d's user sees by filter.
func RoutersOf(t testing.TB, d neutron.Driver, filter neutron.Filter) []neutron.Router {
	t.Helper()
	routers, err := d.ListRouters(Ctx(t, 90*time.Second), filter)
	if err != nil {
		t.Fatalf("listing routers %+v: %v", filter, err)
	}
	return routers
}

// AttachedOn returns, by router ID, the subnets of network netID attached to it, as d's
// user sees the router interfaces.
func AttachedOn(t testing.TB, d neutron.Driver, netID string) map[string][]string {
	t.Helper()
	ports, err := d.ListPorts(Ctx(t, 90*time.Second), neutron.Filter{NetworkIDs: []string{netID}, DeviceOwner: neutron.InterfaceOwner})
	if err != nil {
		t.Fatalf("listing the router interfaces on network %s: %v", netID, err)
	}
	out := map[string][]string{}
	for _, p := range ports {
		out[p.DeviceID] = neutron.AttachedSubnets(ports, p.DeviceID)
	}
	return out
}

// ClearGatewayAs removes the router's gateway as cloud's user, as someone would by hand.
func (k Keystone) ClearGatewayAs(t testing.TB, cloud, routerID string) {
	t.Helper()
	ctx := Ctx(t, 60*time.Second)
	sc := k.networkClientAs(t, ctx, cloud)
	if _, err := sc.Put(ctx, sc.ServiceURL("routers", routerID), map[string]any{"router": map[string]any{"external_gateway_info": map[string]any{}}},
		nil, &gophercloud.RequestOpts{OkCodes: []int{http.StatusOK}}); err != nil {
		t.Fatalf("clearing the gateway of router %s as %s: %v", routerID, cloud, err)
	}
}

// CreateRouterAs makes a router without gateway as cloud's user, as a tenant would by
// hand; the end of the test deletes it (after detaching what is still attached).
func (k Keystone) CreateRouterAs(t testing.TB, cloud, name string) neutron.Router {
	t.Helper()
	d := k.DriverAs(t, cloud)
	r, err := d.CreateRouter(Ctx(t, 90*time.Second), neutron.RouterRequest{Name: name, Description: t.Name()})
	if err != nil {
		t.Fatalf("creating router %s as %s: %v", name, cloud, err)
	}
	t.Cleanup(func() {
		ctx := Ctx(t, 60*time.Second)
		if ports, err := d.ListPorts(ctx, neutron.Filter{DeviceOwner: neutron.InterfaceOwner}); err == nil {
			for _, p := range ports {
				for _, subnetID := range neutron.AttachedSubnets([]neutron.Port{p}, r.ID) {
					_ = d.RemoveRouterInterface(ctx, r.ID, subnetID)
				}
			}
		}
		if err := d.DeleteRouter(ctx, r.ID); err != nil {
			t.Logf("cleanup: deleting router %s: %v", r.ID, err)
		}
	})
	return r
}

// WaitRouted waits until the Network is Ready for its generation with status.router on
// router routerID ("" for any) with exactly wantSubnets subnets attached.
func WaitRouted(t testing.TB, ns, name, routerID string, wantSubnets int) *samplecrdv1.Network {
	t.Helper()
	return WaitNetwork(t, ns, name, 180*time.Second, "Ready, with its subnets attached to the router", func(n *samplecrdv1.Network) error {
		r := n.Status.Router
		if !n.IsReady() || n.Status.ObservedGeneration != n.Generation || r == nil || len(r.SubnetIDs) != wantSubnets || (routerID != "" && r.RouterID != routerID) {
			return fmt.Errorf("%s, router %+v", DescribeReady(n), r)
		}
		return nil
	})
}

// sameSet reports whether a and b hold the same strings.
func sameSet(a, b []string) bool {
	return slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
}
