package neutronclient

import (
	"context"
	"net/http"
	"reflect"

	"github.com/gophercloud/gophercloud/v2"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// Routers and their interfaces, sent as plain requests: the JSON types of pkg/neutron are
// the bodies.

var routerFields = jsonNames(reflect.TypeFor[neutron.Router]())

func (c *Client) ListRouters(ctx context.Context, f neutron.Filter) ([]neutron.Router, error) {
	var out []neutron.Router
	err := c.call(ctx, "list routers", func() error {
		var err error
		out, err = listAll[neutron.Router](ctx, c.sc, c.sc.ServiceURL("routers")+routerQuery(f), "routers")
		return err
	})
	return out, err
}

func (c *Client) CreateRouter(ctx context.Context, req neutron.RouterRequest) (neutron.Router, error) {
	return c.sendRouter(ctx, "create router", http.MethodPost, c.sc.ServiceURL("routers"), req, http.StatusCreated)
}

func (c *Client) SetRouterGateway(ctx context.Context, id string, gateway neutron.GatewayRequest) (neutron.Router, error) {
	body := struct {
		Gateway neutron.GatewayRequest `json:"external_gateway_info"`
	}{gateway}
	return c.sendRouter(ctx, "set router gateway", http.MethodPut, c.sc.ServiceURL("routers", id), body, http.StatusOK)
}

func (c *Client) RelabelRouter(ctx context.Context, id string, label neutron.Label) (neutron.Router, error) {
	return c.sendRouter(ctx, "relabel router", http.MethodPut, c.sc.ServiceURL("routers", id), label, http.StatusOK)
}

func (c *Client) DeleteRouter(ctx context.Context, id string) error {
	return ignoreNotFound(c.call(ctx, "delete router", func() error {
		_, err := c.sc.Delete(ctx, c.sc.ServiceURL("routers", id), nil)
		return err
	}))
}

func (c *Client) AddRouterInterface(ctx context.Context, routerID, subnetID string) (neutron.Interface, error) {
	var out neutron.Interface
	err := c.call(ctx, "add router interface", func() error {
		_, err := c.sc.Put(ctx, c.sc.ServiceURL("routers", routerID, "add_router_interface"), map[string]string{"subnet_id": subnetID}, &out,
			&gophercloud.RequestOpts{OkCodes: []int{http.StatusOK}})
		return err
	})
	return out, err
}

func (c *Client) RemoveRouterInterface(ctx context.Context, routerID, subnetID string) error {
	return ignoreNotFound(c.call(ctx, "remove router interface", func() error {
		_, err := c.sc.Put(ctx, c.sc.ServiceURL("routers", routerID, "remove_router_interface"), map[string]string{"subnet_id": subnetID}, nil,
			&gophercloud.RequestOpts{OkCodes: []int{http.StatusOK}})
		return err
	}))
}

// sendRouter sends a request about one router under the "router" key and decodes the
// router Neutron answers with.
func (c *Client) sendRouter(ctx context.Context, op, method, url string, fields any, ok int) (neutron.Router, error) {
	var reply struct {
		Router neutron.Router `json:"router"`
	}
	err := c.call(ctx, op, func() error {
		_, err := c.sc.Request(ctx, method, url, &gophercloud.RequestOpts{
			JSONBody: map[string]any{"router": fields}, JSONResponse: &reply, OkCodes: []int{ok}})
		return err
	})
	return reply.Router, err
}

// routerQuery is a router list query by IDs (repeated id=), name, description and project.
func routerQuery(f neutron.Filter) string {
	query := withRepeated("", "id", f.IDs)
	for _, kv := range [][2]string{{"name", f.Name}, {"description", f.Description}, {"project_id", f.ProjectID}} {
		if kv[1] != "" {
			query = withRepeated(query, kv[0], []string{kv[1]})
		}
	}
	return withRepeated(query, "fields", routerFields)
}
