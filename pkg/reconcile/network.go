// The network: what the spec asks of it, how Neutron's differs, the calls that make it
// match, and what status records of it. A network attribute is a line in each.
package reconcile

import (
	"context"
	"fmt"
	"regexp"
	"strconv"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
)

// desiredNetwork returns the network the Network's spec asks for, shared with sharedWith.
// The error guards against a CRD installed without its rules, as Desired's do.
func desiredNetwork(network *samplecrdv1.Network, sharedWith []string) (neutron.DesiredNetwork, error) {
	spec := network.Spec
	var mtu *int
	if spec.MTU != nil {
		m := int(*spec.MTU)
		mtu = &m
	}
	qos, err := neutronRef("qosPolicy", spec.QoSPolicy)
	if err != nil {
		return neutron.DesiredNetwork{}, err
	}
	var qosPolicy *neutron.Reference
	switch {
	case qos != nil:
		qosPolicy = &neutron.Reference{Collection: neutron.QoSPolicies, Ref: *qos}
	case network.Status.QoSPolicyID != "":
		// The spec no longer names the policy it set: the network is to have what a new
		// one gets, the project's default (resolveDefaults), never a null over it.
		qosPolicy = &neutron.Reference{Collection: neutron.QoSPolicies, ProjectDefault: true}
	}
	dnsDomain, err := desiredDNSDomain(spec.DNSDomain, network.Status.DNSDomain)
	if err != nil {
		return neutron.DesiredNetwork{}, err
	}
	return neutron.DesiredNetwork{NetworkAttrs: neutron.NetworkAttrs{MTU: mtu, PortSecurityEnabled: spec.PortSecurityEnabled, QoSPolicy: qosPolicy, DNSDomain: dnsDomain},
		Retain: spec.DeletionPolicy == samplecrdv1.DeletionPolicyRetain, SharedWith: sharedWith}, nil
}

// dnsDomainSyntax is spec.dnsDomain as the CRD's pattern and rule have it, and as Neutron
// takes a dns_domain: labels of 1 to 63 lower-case letters, digits and hyphens, none at a
// label's start or end, each followed by a dot; the last of several not digits alone. Neutron
// lower-cases what it is sent, so an upper-case letter would be a difference for ever.
var (
	dnsDomainSyntax = regexp.MustCompile(`^([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?\.)+$`)
	dnsNumericTLD   = regexp.MustCompile(`\.[0-9]+\.$`)
)

// maxDNSDomainLength is the longest dns_domain Neutron takes: its 255 less room for a
// one-letter label in front.
const maxDNSDomainLength = 253

// desiredDNSDomain returns the network's dns_domain the spec asks for: the spec's, checked
// as the CRD checks it (the spec is the tenant's: exactly what is sent is checked); "" to
// clear the one status says the spec set and the spec no longer names; nil, left alone.
func desiredDNSDomain(spec *string, status string) (*string, error) {
	switch {
	case spec == nil && status != "":
		none := ""
		return &none, nil
	case spec == nil:
		return nil, nil
	case len(*spec) > maxDNSDomainLength:
		return nil, fmt.Errorf("dnsDomain is longer than %d characters", maxDNSDomainLength)
	case !dnsDomainSyntax.MatchString(*spec) || dnsNumericTLD.MatchString(*spec):
		return nil, fmt.Errorf("dnsDomain %q is not a fully qualified domain name in lower case ending with a dot, such as example.org.", *spec)
	}
	domain := *spec
	return &domain, nil
}

// diffNetwork compares the network: made anew when Neutron has none, else its attributes
// and the deletion policy its tags carry. It sets the marks the tags are to carry.
func diffNetwork(want neutron.Desired, got neutron.Observed, c *neutron.Changes) {
	c.Marks = want.Marks()
	if got.Network == nil {
		c.CreateNetwork = true
		return
	}
	c.UpdateNetwork, c.NetworkDiffs = diffNetworkAttrs(want.Network.NetworkAttrs, *got.Network)
	if retained := neutron.Retained(*got.Network); retained != want.Network.Retain {
		c.RetagNetwork = true
		c.NetworkDiffs = append(c.NetworkDiffs, neutron.Difference{Attribute: "deletion policy", Observed: policyName(retained), Desired: policyName(want.Network.Retain)})
	}
}

// diffNetworkAttrs returns the managed attributes of want that got does not have.
func diffNetworkAttrs(want neutron.NetworkAttrs, got neutron.Network) (neutron.NetworkAttrs, []neutron.Difference) {
	var change neutron.NetworkAttrs
	var diffs []neutron.Difference
	if want.MTU != nil && *want.MTU != got.MTU {
		change.MTU = want.MTU
		diffs = append(diffs, neutron.Difference{Attribute: "mtu", Observed: strconv.Itoa(got.MTU), Desired: strconv.Itoa(*want.MTU)})
	}
	if want.PortSecurityEnabled != nil && (got.PortSecurityEnabled == nil || *got.PortSecurityEnabled != *want.PortSecurityEnabled) {
		change.PortSecurityEnabled = want.PortSecurityEnabled
		diffs = append(diffs, neutron.Difference{Attribute: "port security", Observed: neutron.OptionalOnOff(got.PortSecurityEnabled), Desired: neutron.OnOff(*want.PortSecurityEnabled)})
	}
	if q := want.QoSPolicy; q != nil && q.ResolvedID != deref(got.QoSPolicyID) {
		change.QoSPolicy = q
		diffs = append(diffs, neutron.Difference{Attribute: "qos policy", Observed: neutron.OrNone(deref(got.QoSPolicyID)), Desired: neutron.OrNone(q.ResolvedID)})
	}
	if d := want.DNSDomain; d != nil && *d != deref(got.DNSDomain) {
		change.DNSDomain = d
		diffs = append(diffs, neutron.Difference{Attribute: "dns domain", Observed: neutron.OrNone(deref(got.DNSDomain)), Desired: neutron.OrNone(*d)})
	}
	return change, diffs
}

func policyName(retain bool) string {
	if retain {
		return "Retain"
	}
	return "Delete"
}

func (p *pass) applyNetwork(ctx context.Context) (neutron.Network, error) {
	changes, observed := p.changes, p.observed
	switch {
	case changes.CreateNetwork:
		created, err := p.store.CreateNetwork(ctx, p.owner, p.desired.Network, p.changes.Marks)
		if err != nil {
			return neutron.Network{}, err
		}
		klog.FromContext(ctx).Info("Created Neutron network", "networkID", created.ID)
		p.recorder.Eventf(p.network, corev1.EventTypeNormal, reasonNetworkCreated, "Created Neutron network %s", created.ID)
		return created, nil
	case len(changes.NetworkDiffs) > 0 || changes.RetagNetwork:
		updated := *observed.Network
		var err error
		if changes.UpdateNetwork != (neutron.NetworkAttrs{}) {
			if updated, err = p.store.UpdateNetwork(ctx, p.owner, updated.ID, changes.UpdateNetwork); err != nil {
				return *observed.Network, err
			}
		}
		if changes.RetagNetwork {
			if updated, err = p.store.Retag(ctx, p.owner, updated, changes.Marks); err != nil {
				return *observed.Network, err
			}
		}
		if len(changes.NetworkDiffs) == 0 {
			// Only the sharing mark, which says nothing to the user (sharing.go).
			return updated, nil
		}
		what := neutron.Describe(changes.NetworkDiffs)
		klog.FromContext(ctx).Info("Updated Neutron network", "networkID", updated.ID, "changes", what)
		p.recorder.Eventf(p.network, corev1.EventTypeNormal, reasonNetworkUpdated, "Changed Neutron network %s: %s", updated.ID, what)
		return updated, nil
	}
	return *observed.Network, nil
}

// setNetworkStatus records the network and the attributes in effect on it; of those it
// may leave alone, those it manages (want).
func setNetworkStatus(status *samplecrdv1.NetworkStatus, net neutron.Network, want neutron.DesiredNetwork) {
	status.NetworkID = net.ID
	status.MTU = int32(net.MTU)
	status.PortSecurityEnabled = net.PortSecurityEnabled
	status.QoSPolicyID = ""
	if want.QoSPolicy != nil && want.QoSPolicy.Names() {
		status.QoSPolicyID = deref(net.QoSPolicyID)
	}
	status.DNSDomain = ""
	if want.DNSDomain != nil {
		status.DNSDomain = deref(net.DNSDomain)
	}
}

// deref is *s, or "" for nil.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
