// The subnets, of the one-subnet form or of each item of the list form: each item checked
// as the CRD checks it and mapped onto the subnet it asks Neutron for, how Neutron's
// differ, the calls that make them match, and what status records of them.
package reconcile

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"net/netip"
	"regexp"
	"slices"
	"strings"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/subnetplan"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/klog/v2"
)

// desiredSubnets returns the subnet of each item of the list form, in its order, or the
// one subnet of the one-subnet form (item "").
func desiredSubnets(spec samplecrdv1.NetworkSpec) ([]neutron.DesiredSubnet, error) {
	if len(spec.Subnets) == 0 {
		want, err := desiredSubnet("", spec.SubnetFields)
		return []neutron.DesiredSubnet{want}, err
	}
	if spec.CIDR != "" {
		return nil, fmt.Errorf("cidr and subnets are both set: describe the subnets either at the top of the spec or in subnets, not both")
	}
	if len(spec.Subnets) > maxItems {
		return nil, fmt.Errorf("subnets lists %d items: at most %d", len(spec.Subnets), maxItems)
	}
	out := make([]neutron.DesiredSubnet, 0, len(spec.Subnets))
	for i, item := range spec.Subnets {
		var want neutron.DesiredSubnet
		err := checkItemNames(item)
		switch {
		case err != nil:
		case item.SubnetPool != nil && item.CIDR == "" && item.PrefixLength != nil:
			want, err = desiredPoolSubnet(item)
		case item.SubnetPool == nil && item.CIDR != "":
			want, err = desiredSubnet(item.Name, item.SubnetFields)
		default:
			err = fmt.Errorf("give either cidr, or subnetPool with prefixLength")
		}
		if err != nil {
			return nil, fmt.Errorf("subnets[%d] (%s): %w", i, item.Name, err)
		}
		for j, earlier := range out {
			if earlier.Item == want.Item {
				return nil, fmt.Errorf("subnets[%d] and subnets[%d] are both named %s: give each item its own name", j, i, want.Item)
			}
			if overlap(earlier.CIDR, want.CIDR) {
				return nil, fmt.Errorf("subnets %s (%s) and %s (%s) overlap: give each item a range of its own", earlier.Item, earlier.CIDR, want.Item, want.CIDR)
			}
		}
		out = append(out, want)
	}
	return out, nil
}

// maxItems is the CRD's bound on spec.subnets, checked again: each item costs a subnet.
const maxItems = 8

// uuid is the form of a Neutron ID.
var uuid = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// checkItemNames checks, as the CRD does, the names an item hands on to Neutron: its own,
// which goes into its subnet's name (a DNS label, so that the item is read back from it),
// and its pool's.
func checkItemNames(item samplecrdv1.NetworkSubnet) error {
	if errs := validation.IsDNS1123Label(item.Name); len(errs) > 0 {
		return fmt.Errorf("name %q is not a DNS label: %s", item.Name, strings.Join(errs, "; "))
	}
	if pool := item.SubnetPool; pool != nil {
		switch {
		case (pool.ID == "") == (pool.Name == ""):
			return fmt.Errorf("subnetPool must name exactly one of id or name")
		case pool.ID != "" && !uuid.MatchString(pool.ID):
			return fmt.Errorf("subnetPool id %q is not the UUID of a subnet pool", pool.ID)
		case len(pool.Name) > neutron.MaxFieldLength:
			return fmt.Errorf("subnetPool name is longer than %d characters", neutron.MaxFieldLength)
		}
	}
	return nil
}

// desiredPoolSubnet returns the subnet of an item whose range Neutron allocates from a
// subnet pool. Its gateway is kept only when there is to be none: the first usable
// address of a range not yet known is Neutron's default anyway; its allocation pools are
// Neutron's.
func desiredPoolSubnet(item samplecrdv1.NetworkSubnet) (neutron.DesiredSubnet, error) {
	plan, err := subnetplan.PlanPooled(subnetSpecOf(item.SubnetFields), int(*item.PrefixLength))
	if err != nil {
		return neutron.DesiredSubnet{}, err
	}
	attrs := subnetAttrsOf(plan)
	attrs.AllocationPools = nil
	if item.GatewayMode != samplecrdv1.GatewayModeNone {
		attrs.GatewayIP = nil
	}
	return neutron.DesiredSubnet{Item: item.Name,
		Pool:         &neutron.PoolRef{ID: item.SubnetPool.ID, Name: item.SubnetPool.Name},
		PrefixLength: int(*item.PrefixLength),
		IPv6Modes:    neutron.IPv6Modes{AddressMode: plan.IPv6AddressMode, RAMode: plan.IPv6RAMode},
		SubnetAttrs:  attrs}, nil
}

// overlap reports whether two CIDRs share an address; a pool subnet's "" never does.
func overlap(a, b string) bool {
	x, errA := netip.ParsePrefix(a)
	y, errB := netip.ParsePrefix(b)
	return errA == nil && errB == nil && x.Overlaps(y)
}

// desiredSubnet returns the subnet of fields, whose range is its cidr.
func desiredSubnet(item string, fields samplecrdv1.SubnetFields) (neutron.DesiredSubnet, error) {
	plan, err := subnetplan.Plan(subnetSpecOf(fields))
	if err != nil {
		return neutron.DesiredSubnet{}, err
	}
	return neutron.DesiredSubnet{Item: item, CIDR: plan.CIDR.String(), IPVersion: plan.IPVersion,
		IPv6Modes:   neutron.IPv6Modes{AddressMode: plan.IPv6AddressMode, RAMode: plan.IPv6RAMode},
		SubnetAttrs: subnetAttrsOf(plan)}, nil
}

// subnetAttrsOf returns the planned subnet's attributes as Neutron takes them. The lists
// are empty, not nil, when the spec has none: omitted is enforced as Neutron's default.
func subnetAttrsOf(plan subnetplan.Subnet) neutron.SubnetAttrs {
	var gateway neutron.GatewayIP // none
	if plan.Gateway.IsValid() {
		gateway = neutron.GatewayIP(plan.Gateway.String())
	}
	pools := make([]neutron.Pool, 0, len(plan.AllocationPools))
	for _, p := range plan.AllocationPools {
		pools = append(pools, neutron.Pool{Start: p.Start.String(), End: p.End.String()})
	}
	nameservers := make([]string, 0, len(plan.DNSNameservers))
	for _, a := range plan.DNSNameservers {
		nameservers = append(nameservers, a.String())
	}
	routes := make([]neutron.HostRoute, 0, len(plan.HostRoutes))
	for _, r := range plan.HostRoutes {
		routes = append(routes, neutron.HostRoute{Destination: r.Destination.String(), NextHop: r.NextHop.String()})
	}
	dhcp := plan.EnableDHCP
	return neutron.SubnetAttrs{GatewayIP: &gateway, AllocationPools: pools, DNSNameservers: nameservers, HostRoutes: routes, EnableDHCP: &dhcp}
}

// subnetSpecOf returns the part of spec that decides the subnet.
func subnetSpecOf(spec samplecrdv1.SubnetFields) subnetplan.Spec {
	routes := make([]subnetplan.HostRoute, 0, len(spec.HostRoutes))
	for _, r := range spec.HostRoutes {
		routes = append(routes, subnetplan.HostRoute{Destination: r.Destination, NextHop: r.NextHop})
	}
	pools := make([]subnetplan.PoolRange, 0, len(spec.AllocationPools))
	for _, p := range spec.AllocationPools {
		pools = append(pools, subnetplan.PoolRange{Start: p.Start, End: p.End})
	}
	return subnetplan.Spec{
		CIDR: spec.CIDR, GatewayMode: string(spec.GatewayMode), Gateway: spec.Gateway, AllocationPools: pools,
		DNSNameservers: spec.DNSNameservers, HostRoutes: routes,
		EnableDHCP:      spec.EnableDHCP == nil || *spec.EnableDHCP, // the CRD's default
		IPv6AddressMode: string(spec.IPv6AddressMode), IPv6RAMode: string(spec.IPv6RAMode),
	}
}

// diffSubnets compares the subnets: each item takes its own subnet; an item without one
// takes a subnet of the same range that no item of the spec names; the rest are removed.
// It reports false when the one-subnet form's subnet differs in what Neutron cannot
// change (c.Immutable), which no change can repair.
func diffSubnets(want neutron.Desired, got neutron.Observed, c *neutron.Changes) bool {
	if got.Network == nil {
		for _, w := range want.Subnets {
			c.Subnets = append(c.Subnets, neutron.SubnetChange{Want: w})
		}
		return true
	}
	unclaimed := maps.Clone(got.Subnets)
	for _, w := range want.Subnets {
		delete(unclaimed, w.Item)
	}
	for _, w := range want.Subnets {
		ch := neutron.SubnetChange{Want: w}
		if s, ok := got.Subnets[w.Item]; ok {
			ch.Got = &s
		} else if item, ok := sameRange(unclaimed, w); ok {
			s := unclaimed[item]
			ch.Got, ch.Rename = &s, true
			delete(unclaimed, item)
		}
		if ch.Got != nil {
			switch immutable := immutableDifference(w, *ch.Got); {
			case immutable != "" && w.Item == "":
				c.Immutable = immutable
				return false
			case immutable != "":
				// The CRD keeps an item's range and modes as they are: an item whose subnet
				// has others was removed and added again since, and gets a subnet anew.
				c.RemoveSubnets = append(c.RemoveSubnets, *ch.Got)
				ch.Got, ch.Rename = nil, false
			default:
				ch.Update, ch.Diffs = diffSubnetAttrs(w.SubnetAttrs, *ch.Got)
			}
		}
		c.Subnets = append(c.Subnets, ch)
	}
	for _, item := range slices.Sorted(maps.Keys(unclaimed)) {
		c.RemoveSubnets = append(c.RemoveSubnets, unclaimed[item])
	}
	return true
}

// sameRange returns the item, among those of subnets, whose subnet has the range w asks
// for by CIDR; a pool subnet's range is Neutron's choice, so none is the same.
func sameRange(subnets map[string]neutron.Subnet, w neutron.DesiredSubnet) (string, bool) {
	if w.CIDR == "" {
		return "", false
	}
	for _, item := range slices.Sorted(maps.Keys(subnets)) {
		if neutron.SamePrefix(subnets[item].CIDR, w.CIDR) {
			return item, true
		}
	}
	return "", false
}

// immutableDifference says how got differs from w in what Neutron cannot change, or "".
// Only the one-subnet form reports it; an item's subnet is replaced instead (see Diff).
func immutableDifference(w neutron.DesiredSubnet, got neutron.Subnet) string {
	switch {
	case w.Pool == nil:
		if cidr, err := netip.ParsePrefix(got.CIDR); err != nil || cidr.String() != w.CIDR {
			return fmt.Sprintf("Neutron subnet %s has CIDR %s, not %s, and a subnet's CIDR cannot change: delete and recreate the neutron.Network",
				got.ID, got.CIDR, w.CIDR)
		}
	case got.SubnetPoolID == "" || (w.Pool.ID != "" && got.SubnetPoolID != w.Pool.ID):
		return fmt.Sprintf("Neutron subnet %s was not allocated from subnet pool %s, and a subnet's range cannot change",
			got.ID, w.Pool)
	default:
		if cidr, err := netip.ParsePrefix(got.CIDR); err != nil || cidr.Bits() != w.PrefixLength {
			return fmt.Sprintf("Neutron subnet %s has CIDR %s, not a /%d, and a subnet's range cannot change",
				got.ID, got.CIDR, w.PrefixLength)
		}
	}
	if got.IPv6Modes != w.IPv6Modes {
		return fmt.Sprintf("Neutron subnet %s has IPv6 %s, not %s, and a subnet's IPv6 modes cannot change: delete and recreate the neutron.Network",
			got.ID, got.IPv6Modes, w.IPv6Modes)
	}
	return ""
}

// diffSubnetAttrs returns the managed attributes of want that got does not have.
func diffSubnetAttrs(want neutron.SubnetAttrs, got neutron.Subnet) (neutron.SubnetAttrs, []neutron.Difference) {
	var change neutron.SubnetAttrs
	var diffs []neutron.Difference
	if want.GatewayIP != nil && !neutron.SameAddr(string(*want.GatewayIP), got.GatewayIP) {
		change.GatewayIP = want.GatewayIP
		diffs = append(diffs, neutron.Difference{Attribute: "gateway", Observed: neutron.OrNone(got.GatewayIP), Desired: neutron.OrNone(string(*want.GatewayIP))})
	}
	if want.AllocationPools != nil && !samePools(want.AllocationPools, got.AllocationPools) {
		change.AllocationPools = want.AllocationPools
		diffs = append(diffs, neutron.Difference{Attribute: "allocation pools", Observed: neutron.PoolsText(got.AllocationPools), Desired: neutron.PoolsText(want.AllocationPools)})
	}
	if want.DNSNameservers != nil && !slices.EqualFunc(want.DNSNameservers, got.DNSNameservers, neutron.SameAddr) {
		change.DNSNameservers = want.DNSNameservers
		diffs = append(diffs, neutron.Difference{Attribute: "dns nameservers", Observed: neutron.ListText(got.DNSNameservers), Desired: neutron.ListText(want.DNSNameservers)})
	}
	if want.HostRoutes != nil && !sameRoutes(want.HostRoutes, got.HostRoutes) {
		change.HostRoutes = want.HostRoutes
		diffs = append(diffs, neutron.Difference{Attribute: "host routes", Observed: neutron.RoutesText(got.HostRoutes), Desired: neutron.RoutesText(want.HostRoutes)})
	}
	if want.EnableDHCP != nil && *want.EnableDHCP != got.EnableDHCP {
		change.EnableDHCP = want.EnableDHCP
		diffs = append(diffs, neutron.Difference{Attribute: "dhcp", Observed: neutron.OnOff(got.EnableDHCP), Desired: neutron.OnOff(*want.EnableDHCP)})
	}
	return change, diffs
}

// samePools compares allocation pools as sets of ranges: Neutron need not keep their order.
func samePools(a, b []neutron.Pool) bool {
	if len(a) != len(b) {
		return false
	}
	byStart := func(p, q neutron.Pool) int {
		x, _ := netip.ParseAddr(p.Start)
		y, _ := netip.ParseAddr(q.Start)
		return x.Compare(y)
	}
	a, b = slices.SortedFunc(slices.Values(a), byStart), slices.SortedFunc(slices.Values(b), byStart)
	for i := range a {
		if !neutron.SameAddr(a[i].Start, b[i].Start) || !neutron.SameAddr(a[i].End, b[i].End) {
			return false
		}
	}
	return true
}

// sameRoutes compares host routes as sets: Neutron does not keep their order.
func sameRoutes(a, b []neutron.HostRoute) bool {
	if len(a) != len(b) {
		return false
	}
	for _, r := range a {
		if !slices.ContainsFunc(b, func(o neutron.HostRoute) bool {
			return neutron.SamePrefix(r.Destination, o.Destination) && neutron.SameAddr(r.NextHop, o.NextHop)
		}) {
			return false
		}
	}
	return true
}

// applySubnets removes the subnets the spec no longer has, then makes each item's
// subnet match. A removal that ports hold up does not hold up the other items: its subnet
// stays in the outcome, and its error is returned once they are done.
func (p *pass) applySubnets(ctx context.Context, networkID string) (subnets []itemSubnet, complete bool, err error) {
	var inUse []itemSubnet
	var inUseErr error
	for _, s := range p.changes.RemoveSubnets {
		item := p.owner.SubnetItem(s)
		if err := p.store.DeleteSubnet(ctx, s); err != nil {
			if neutron.KindOf(err) != neutron.KindInUse {
				return nil, false, err
			}
			inUse, inUseErr = append(inUse, p.counted(item, s)), cmp.Or(inUseErr, err)
			continue
		}
		klog.FromContext(ctx).Info("Deleted Neutron subnet the spec no longer has", "subnetID", s.ID, "item", item, "cidr", s.CIDR)
		p.recorder.Eventf(p.network, corev1.EventTypeNormal, reasonSubnetDeleted,
			"Deleted Neutron subnet %s (%s)%s, which the spec no longer has", s.ID, s.CIDR, ofItem(item))
	}
	subnets = make([]itemSubnet, 0, len(p.changes.Subnets)+len(inUse))
	for _, ch := range p.changes.Subnets {
		s, err := p.applySubnet(ctx, networkID, ch)
		if err != nil {
			return nil, false, err
		}
		subnets = append(subnets, p.counted(ch.Want.Item, s))
	}
	return append(subnets, inUse...), true, inUseErr
}

// counted is the item's subnet with its addresses as the project's last count found them.
func (p *pass) counted(item string, s neutron.Subnet) itemSubnet {
	out := itemSubnet{item: item, subnet: s}
	if a, ok := p.store.AddressesOf(s.ID); ok {
		out.addresses = &a
	}
	return out
}

func (p *pass) applySubnet(ctx context.Context, networkID string, ch neutron.SubnetChange) (neutron.Subnet, error) {
	item := ch.Want.Item
	if ch.Got == nil {
		created, err := p.store.CreateSubnet(ctx, p.owner, networkID, ch.Want)
		if err != nil {
			return neutron.Subnet{}, err
		}
		klog.FromContext(ctx).Info("Created Neutron subnet", "subnetID", created.ID, "item", item, "cidr", created.CIDR, "gateway", created.GatewayIP)
		p.recorder.Eventf(p.network, corev1.EventTypeNormal, reasonSubnetCreated, "Created Neutron subnet %s (%s)%s", created.ID, created.Summary(), ofItem(item))
		return created, nil
	}
	current := *ch.Got
	if ch.Rename {
		renamed, err := p.store.RenameSubnet(ctx, p.owner, current, item)
		if err != nil {
			return neutron.Subnet{}, err
		}
		from := p.owner.SubnetItem(current)
		klog.FromContext(ctx).Info("Gave a Neutron subnet to the item of the same range", "subnetID", renamed.ID, "item", item, "from", from)
		p.recorder.Eventf(p.network, corev1.EventTypeNormal, reasonSubnetKept,
			"Kept Neutron subnet %s (%s)%s, made%s", renamed.ID, renamed.CIDR, ofItem(item), ofItem(from))
		current = renamed
	}
	if len(ch.Diffs) == 0 {
		return current, nil
	}
	updated, err := p.store.UpdateSubnet(ctx, current, ch.Update)
	if err != nil {
		return neutron.Subnet{}, err
	}
	what := neutron.Describe(ch.Diffs)
	// A new gateway is what people look for, in the log as in Events.
	reason, logged := reasonSubnetUpdated, "Updated Neutron subnet"
	if slices.ContainsFunc(ch.Diffs, func(d neutron.Difference) bool { return d.Attribute == "gateway" }) {
		reason, logged = reasonGatewayUpdated, "Updated Neutron subnet gateway"
	}
	klog.FromContext(ctx).Info(logged, "subnetID", updated.ID, "item", item, "changes", what)
	p.recorder.Eventf(p.network, corev1.EventTypeNormal, reason, "Changed Neutron subnet %s%s: %s", updated.ID, ofItem(item), what)
	return updated, nil
}

// ofItem names an item of the list form in an Event, " for item <name>"; nothing for the
// one-subnet form.
func ofItem(item string) string {
	if item == "" {
		return ""
	}
	return " for item " + item
}

// setSubnetsStatus records the subnets: the one-subnet form's in subnetID, gateway and
// enableDHCP, the list form's in subnets, with their addresses as last counted (or as
// status had them, for a subnet not counted yet).
func setSubnetsStatus(status *samplecrdv1.NetworkStatus, subnets []itemSubnet) {
	previous := status.Subnets
	status.SubnetID, status.Gateway, status.EnableDHCP, status.Subnets = "", "", nil, nil
	cidrs := make([]string, 0, len(subnets))
	for _, s := range subnets {
		if s.item != "" && slices.ContainsFunc(status.Subnets, func(listed samplecrdv1.SubnetStatus) bool { return listed.Name == s.item }) {
			// The old subnet of an item added again with another range, which ports still
			// use: status lists the item's new one, the condition names the old.
			continue
		}
		cidrs = append(cidrs, s.subnet.CIDR)
		dhcp := s.subnet.EnableDHCP
		if s.item == "" {
			status.SubnetID, status.Gateway, status.EnableDHCP = s.subnet.ID, s.subnet.GatewayIP, &dhcp
			continue
		}
		item := samplecrdv1.SubnetStatus{Name: s.item, CIDR: s.subnet.CIDR, SubnetID: s.subnet.ID, Gateway: s.subnet.GatewayIP, EnableDHCP: &dhcp}
		if s.addresses != nil {
			item.Addresses = &samplecrdv1.SubnetAddresses{Total: s.addresses.Total, Used: s.addresses.Used, Free: s.addresses.Free()}
		} else if i := slices.IndexFunc(previous, func(p samplecrdv1.SubnetStatus) bool { return p.SubnetID == s.subnet.ID }); i >= 0 {
			item.Addresses = previous[i].Addresses
		}
		status.Subnets = append(status.Subnets, item)
	}
	status.CIDRs = strings.Join(cidrs, ",")
	status.AddressUse = fullestUse(status.Subnets)
}

// fullestUse describes the use of the fullest counted subnet, e.g. "ipv4 12% (30/253)".
func fullestUse(subnets []samplecrdv1.SubnetStatus) string {
	var fullest *samplecrdv1.SubnetStatus
	ratio := func(s *samplecrdv1.SubnetStatus) float64 {
		return float64(s.Addresses.Used) / float64(max(s.Addresses.Total, 1))
	}
	for i := range subnets {
		if s := &subnets[i]; s.Addresses != nil && (fullest == nil || ratio(s) > ratio(fullest)) {
			fullest = s
		}
	}
	if fullest == nil {
		return ""
	}
	return fmt.Sprintf("%s %d%% (%d/%d)", fullest.Name, int(100*ratio(fullest)), fullest.Addresses.Used, fullest.Addresses.Total)
}
