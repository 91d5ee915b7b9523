//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"k8s.io/utils/ptr"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// chaosProjects are the projects the Networks are shared with. The noauth Neutron takes
// any project ID, as long as it is one by its syntax.
var chaosProjects = []samplecrdv1.ProjectID{
	"c4a05000000000000000000000000001", "c4a05000000000000000000000000002", "c4a05000000000000000000000000003",
}

// spec returns a random cidr and gateway of a random family; the gateway is empty
// (the first usable address) a third of the time.
func (w *chaosWorld) spec(name string) (cidr, gateway string) {
	idx, _ := strconv.Atoi(strings.TrimPrefix(name, "chaos-"))
	sub := w.rng.Intn(256)
	if w.rng.Intn(2) == 0 {
		cidr = fmt.Sprintf("10.%d.%d.0/24", 100+idx, sub)
	} else {
		cidr = fmt.Sprintf("fd00:%x:%x::/64", idx+1, sub+1)
	}
	if w.rng.Intn(3) > 0 {
		gateway = w.gatewayIn(cidr)
	}
	return cidr, gateway
}

// gatewayIn returns a random usable address of cidr, a /24 or /64 as spec makes them.
func (w *chaosWorld) gatewayIn(cidr string) string {
	if chaosFamily(cidr) == "ipv6" {
		return strings.TrimSuffix(cidr, "/64") + fmt.Sprintf("%x", 1+w.rng.Intn(0xfffe))
	}
	network := strings.TrimSuffix(cidr, "0/24")
	return network + strconv.Itoa(1+w.rng.Intn(254))
}

func chaosFamily(cidr string) string {
	if strings.Contains(cidr, ":") {
		return "ipv6"
	}
	return "ipv4"
}

// decorate gives spec, at random, a router (a third of the time: on public, or a quarter
// of those the project's router existingRouter; a list form's router attaches only its
// v4 item a third of the time), sharing with one or two projects (a quarter) and port
// security off (a quarter), and the first feature of firstFeatures whatever the draws
// say. It returns the features spec has.
func (w *chaosWorld) decorate(spec *samplecrdv1.NetworkSpec) (features []string) {
	first := ""
	if len(w.firstFeatures) > 0 {
		first = w.firstFeatures[0]
	}
	routed, shared, insecure := w.rng.Intn(3) == 0, w.rng.Intn(4) == 0, w.rng.Intn(4) == 0
	if routed || first == "router-external" || first == "router-existing" {
		spec.Router = w.router(len(spec.Subnets) > 0, first)
		features = append(features, routerFeatures(spec.Router)...)
	}
	if shared || first == "shared" {
		spec.SharedWith = w.projects()
		features = append(features, "shared")
	}
	if insecure || first == "port-security-off" {
		spec.PortSecurityEnabled = ptr.To(false)
		features = append(features, "port-security-off")
	}
	return features
}

// router returns a random spec.router: on public, or a quarter of the time (and always
// when first is router-existing; never when it is router-external) the project's router;
// for the list form, attaching only the v4 item a third of the time.
func (w *chaosWorld) router(list bool, first string) *samplecrdv1.NetworkRouter {
	existing, v4Only := w.rng.Intn(4) == 0, w.rng.Intn(3) == 0
	switch first {
	case "router-external":
		existing = false
	case "router-existing":
		existing = true
	}
	r := &samplecrdv1.NetworkRouter{ExternalNetwork: &samplecrdv1.NeutronRef{Name: PublicNetworkName}}
	if existing {
		r = &samplecrdv1.NetworkRouter{Existing: &samplecrdv1.NeutronRef{Name: w.existingRouter}}
	}
	if list && v4Only {
		r.Subnets = []string{"v4"}
	}
	return r
}

func routerFeatures(r *samplecrdv1.NetworkRouter) []string {
	out := []string{"router-external"}
	if r.Existing != nil {
		out = []string{"router-existing"}
	}
	if len(r.Subnets) > 0 {
		out = append(out, "router-v4-only")
	}
	return out
}

// projects returns one or two of chaosProjects, at random.
func (w *chaosWorld) projects() []samplecrdv1.ProjectID {
	perm := w.rng.Perm(len(chaosProjects))
	out := make([]samplecrdv1.ProjectID, 1+w.rng.Intn(2))
	for i := range out {
		out[i] = chaosProjects[perm[i]]
	}
	slices.Sort(out)
	return out
}

// items returns the list form's items of a Network: an IPv4 item and, with dual, an IPv6
// one, in ranges of the Network's own.
func (w *chaosWorld) items(name string, dual bool) []samplecrdv1.NetworkSubnet {
	idx, _ := strconv.Atoi(strings.TrimPrefix(name, "chaos-"))
	sub := w.rng.Intn(256)
	items := []samplecrdv1.NetworkSubnet{{Name: "v4", SubnetFields: samplecrdv1.SubnetFields{CIDR: fmt.Sprintf("10.%d.%d.0/24", 100+idx, sub)}}}
	if dual {
		items = append(items, samplecrdv1.NetworkSubnet{Name: "v6", SubnetFields: samplecrdv1.SubnetFields{CIDR: fmt.Sprintf("fd00:%x:%x::/64", idx+1, sub+1)}})
	}
	return items
}

// toggleItem adds the IPv6 item to a list-form Network that has none, and removes it from
// one that has it.
func (w *chaosWorld) toggleItem(n *samplecrdv1.Network) (kind, patch string) {
	items := n.Spec.Subnets[:1]
	kind = "item-remove"
	if len(n.Spec.Subnets) == 1 {
		v6 := w.items(n.Name, true)[1]
		items, kind = append(items, v6), "item-add"
	}
	b, err := json.Marshal(map[string]any{"spec": map[string]any{"subnets": items}})
	if err != nil {
		w.t.Fatalf("marshalling the items of %s: %v", n.Name, err)
	}
	return kind, string(b)
}

// subnetChange moves the one-subnet form's gateway (or clears it, back to the first
// usable address, a quarter of the times it has one), or toggles the list form's IPv6
// item.
func (w *chaosWorld) subnetChange(n *samplecrdv1.Network) (kind, patch string) {
	switch {
	case len(n.Spec.Subnets) > 0:
		return w.toggleItem(n)
	case n.Spec.Gateway != "" && w.rng.Intn(4) == 0:
		return "gateway-clear", `{"spec":{"gateway":null}}`
	}
	return "gateway-set", fmt.Sprintf(`{"spec":{"gateway":%q}}`, w.gatewayIn(n.Spec.CIDR))
}

// routerChange adds a router to a Network without, and removes or replaces (at random,
// possibly by the same) the router of one with: a JSON patch, as a merge patch cannot
// drop externalNetwork when it sets existing.
func (w *chaosWorld) routerChange(n *samplecrdv1.Network) (kind, patch string) {
	var r *samplecrdv1.NetworkRouter
	switch {
	case n.Spec.Router == nil:
		kind, r = "router-add", w.router(len(n.Spec.Subnets) > 0, "")
	case w.rng.Intn(2) == 0:
		return "router-remove", `[{"op":"remove","path":"/spec/router"}]`
	default:
		kind, r = "router-replace", w.router(len(n.Spec.Subnets) > 0, "")
	}
	b, err := json.Marshal([]map[string]any{{"op": "add", "path": "/spec/router", "value": r}})
	if err != nil {
		w.t.Fatalf("marshalling the router of %s: %v", n.Name, err)
	}
	return kind, string(b)
}

// sharingChange shares the Network with one or two other projects, or, a third of the
// times it is shared, with none.
func (w *chaosWorld) sharingChange(n *samplecrdv1.Network) (kind, patch string) {
	if len(n.Spec.SharedWith) > 0 && w.rng.Intn(3) == 0 {
		return "share-none", `{"spec":{"sharedWith":null}}`
	}
	b, err := json.Marshal(map[string]any{"spec": map[string]any{"sharedWith": w.projects()}})
	if err != nil {
		w.t.Fatalf("marshalling the projects of %s: %v", n.Name, err)
	}
	return "share-set", string(b)
}

// portSecurityChange sets port security to one of off, on and unset (left to Neutron)
// other than what the spec has.
func (w *chaosWorld) portSecurityChange(n *samplecrdv1.Network) (kind, patch string) {
	choices := map[string]string{"port-security-off": "false", "port-security-on": "true", "port-security-unset": "null"}
	current := "port-security-unset"
	if p := n.Spec.PortSecurityEnabled; p != nil && *p {
		current = "port-security-on"
	} else if p != nil {
		current = "port-security-off"
	}
	delete(choices, current)
	kinds := slices.Sorted(maps.Keys(choices))
	kind = kinds[w.rng.Intn(len(kinds))]
	return kind, fmt.Sprintf(`{"spec":{"portSecurityEnabled":%s}}`, choices[kind])
}
