package neutronclient

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/gophercloud/gophercloud/v2"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// The lists that fill a Store hold one network or subnet per Network of the cluster.
// gophercloud's pagers decode each page into generic maps and then marshal and decode it
// twice more on the way into a struct, and json.Decoder.Decode of a page reads all of it
// into memory first; at 10,000 Networks either costs tens of MB at every start and every
// resync. These lists decode one item at a time, straight into the controller's types.

// listNetworks returns the networks of every page of the list at url.
func listNetworks(ctx context.Context, sc *gophercloud.ServiceClient, url string) ([]neutron.Network, error) {
	return listAll[neutron.Network](ctx, sc, url, "networks")
}

// listSubnets returns the subnets of every page of the list at url.
func listSubnets(ctx context.Context, sc *gophercloud.ServiceClient, url string) ([]neutron.Subnet, error) {
	return listAll[neutron.Subnet](ctx, sc, url, "subnets")
}

// listAll GETs url and each next page Neutron links to, and returns the items under
// resource of all of them. Neutron pages only when asked to or when its operator caps
// the page size.
func listAll[T any](ctx context.Context, sc *gophercloud.ServiceClient, url, resource string) ([]T, error) {
	var out []T
	for url != "" {
		resp, err := sc.Get(ctx, url, nil, &gophercloud.RequestOpts{KeepResponseBody: true})
		if err != nil {
			return nil, err
		}
		var next string
		out, next, err = decodePage(resp.Body, resource, out)
		resp.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("decoding the reply to GET %s: %w", url, err)
		}
		url = next
	}
	return out, nil
}

// decodePage appends the items of one page, {"<resource>": [...], "<resource>_links":
// [...]}, to out and returns the next page's URL, "" on the last page.
func decodePage[T any](body io.Reader, resource string, out []T) ([]T, string, error) {
	dec := json.NewDecoder(body)
	if err := expectDelim(dec, '{'); err != nil {
		return out, "", err
	}
	var next string
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return out, "", err
		}
		switch key {
		case resource:
			if err := expectDelim(dec, '['); err != nil {
				return out, "", err
			}
			for dec.More() {
				var item T
				if err := dec.Decode(&item); err != nil {
					return out, "", err
				}
				out = append(out, item)
			}
			if err := expectDelim(dec, ']'); err != nil {
				return out, "", err
			}
		case resource + "_links":
			var links []gophercloud.Link
			if err := dec.Decode(&links); err != nil {
				return out, "", err
			}
			next = nextLink(links)
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return out, "", err
			}
		}
	}
	return out, next, expectDelim(dec, '}')
}

func expectDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != want {
		return fmt.Errorf("expected %v, found %v", want, tok)
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
