package neutron

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/gophercloud/gophercloud/v2"
)

// The lists that fill a Store hold one network or subnet per Network of the cluster.
// gophercloud's pagers decode each page into generic maps and then marshal and decode it
// twice more on the way into a struct, which at 10,000 Networks costs tens of MB at every
// start; these lists decode the replies straight into the controller's types.

type networkPage struct {
	Networks []Network          `json:"networks"`
	Links    []gophercloud.Link `json:"networks_links"`
}

type subnetPage struct {
	Subnets []Subnet           `json:"subnets"`
	Links   []gophercloud.Link `json:"subnets_links"`
}

// listNetworks returns the networks of every page of the list at url.
func listNetworks(ctx context.Context, sc *gophercloud.ServiceClient, url string) ([]Network, error) {
	var out []Network
	err := getPages(ctx, sc, url, func(body io.Reader) (string, error) {
		var page networkPage
		if err := json.NewDecoder(body).Decode(&page); err != nil {
			return "", err
		}
		out = append(out, page.Networks...)
		return nextLink(page.Links), nil
	})
	return out, err
}

// listSubnets returns the subnets of every page of the list at url.
func listSubnets(ctx context.Context, sc *gophercloud.ServiceClient, url string) ([]Subnet, error) {
	var out []Subnet
	err := getPages(ctx, sc, url, func(body io.Reader) (string, error) {
		var page subnetPage
		if err := json.NewDecoder(body).Decode(&page); err != nil {
			return "", err
		}
		out = append(out, page.Subnets...)
		return nextLink(page.Links), nil
	})
	return out, err
}

// getPages GETs url, hands the reply's body to decode, and goes on with the next page's
// URL that decode returns until there is none. Neutron pages only when asked to or when
// its operator caps the page size.
func getPages(ctx context.Context, sc *gophercloud.ServiceClient, url string, decode func(io.Reader) (next string, err error)) error {
	for url != "" {
		resp, err := sc.Get(ctx, url, nil, &gophercloud.RequestOpts{KeepResponseBody: true})
		if err != nil {
			return err
		}
		next, err := decode(resp.Body)
		resp.Body.Close()
		if err != nil {
			return fmt.Errorf("decoding the reply to GET %s: %w", url, err)
		}
		url = next
	}
	return nil
}

func nextLink(links []gophercloud.Link) string {
	for _, l := range links {
		if l.Rel == "next" {
			return l.Href
		}
	}
	return ""
}
