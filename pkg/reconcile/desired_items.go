package reconcile

import (
	"fmt"
	"net/netip"
	"regexp"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/subnetplan"
)

// The list form's items: each checked as the CRD checks it, then mapped onto the subnet it
// asks Neutron for.

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
