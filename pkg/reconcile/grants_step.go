package reconcile

import (
	"fmt"
	"slices"
	"strings"

	"github.com/samplecrd/network-controller/pkg/credentials/grants"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// Grants are rolled out in modes (grants.Enforcement). A power the spec asks for and no
// grant allows is never made. One already in effect is kept and reported in warn mode and
// withdrawn in enforce mode, except the Retain mark, kept in every mode: withdrawing it
// would let an orphan collection delete what the user asked to keep.
//
// A pass asks the grants once, in grant: early, once the spec's references are resolved
// (a grant may name a QoS policy or a router by name), it turns the spec's desired state
// into what the powers allow and notes what it took out. Once Neutron is observed,
// keepInEffect puts back what stays in effect without a grant (the powers kept, for
// GrantMissing) and withholds the rest, which the pass refuses (NotGranted). Nothing
// after grant reads the powers.

// keptPower is a power in effect without a grant that the controller keeps.
type keptPower struct{ power, text string }

const retainText = "deletionPolicy Retain (allow.retain)"

// ungranted is what grant took out of the desired state: the spec asks for it, no grant
// allows it. Whether it stays (in effect, in warn mode) or goes is keepInEffect's.
type ungranted struct {
	retain bool
	shares []string
	// qos is the QoS policy the spec names, by its text in messages; "" for none.
	qos string
	// existingRouter is the existing router the spec names, by its text; "" for none.
	existingRouter string
	// routerBound is the namespace's bound on routers of their own (bounded false: none).
	routerBound int
	bounded     bool
	// denied says, in messages, who grants the namespace nothing of these.
	denied string
}

// grant is the pass's one look at the powers: what the spec asks for and they do not
// allow is taken out of desired (an existing router, once observed, by keepInEffect),
// and noted in p.ungranted.
func (p *pass) grant(powers grants.Powers) {
	u := &p.ungranted
	u.denied = powers.Denied()
	u.routerBound, u.bounded = powers.RouterBound()
	if p.desired.Network.Retain && !powers.AllowsRetain() {
		p.desired.Network.Retain = false
		u.retain = true
	}
	p.desired.Network.SharedWith = slices.DeleteFunc(p.desired.Network.SharedWith, func(project string) bool {
		if powers.AllowsShare(project) {
			return false
		}
		u.shares = append(u.shares, project)
		return true
	})
	if q := p.desired.Network.QoSPolicy; q != nil && q.Names() && !powers.AllowsQoSPolicy(q.ResolvedID, q.ResolvedName) {
		u.qos = qosText(q.ResolvedID, q.ResolvedName)
	}
	if r := p.existingRouter; r != nil && !powers.AllowsRouter(r.ID, r.Name) {
		u.existingRouter = fmt.Sprintf("spec.router.existing router %s %q (allow.existingRouters)", r.ID, r.Name)
	}
}

// keepInEffect decides, once Neutron is observed, what of the ungranted stays: the Retain
// mark in every mode; the shares, the QoS policy and the subnets on an existing router
// set before, in warn mode. The rest is withheld: not made, or undone.
func (p *pass) keepInEffect() {
	u := p.ungranted
	var withheld []string
	if u.retain {
		if net := p.observed.Network; net != nil && neutron.Retained(*net) {
			p.desired.Network.Retain = true
			p.kept = append(p.kept, keptPower{grants.PowerRetain, retainText})
		} else {
			withheld = append(withheld, retainText)
		}
	}
	var denied []string
	for _, project := range u.shares {
		if p.enforcement == grants.Warn && slices.ContainsFunc(p.observed.Shares, func(s neutron.RBACPolicy) bool { return strings.EqualFold(s.TargetProject, project) }) {
			p.desired.Network.SharedWith = append(p.desired.Network.SharedWith, project)
			p.kept = append(p.kept, keptPower{grants.PowerSharedWith, "spec.sharedWith project " + project + " (allow.sharedWith)"})
			continue
		}
		denied = append(denied, project)
	}
	if len(denied) > 0 {
		withheld = append(withheld, fmt.Sprintf("spec.sharedWith project %s (allow.sharedWith)", strings.Join(denied, ", ")))
	}
	if u.qos != "" && !p.keepQoS() {
		withheld = append(withheld, u.qos)
	}
	if u.existingRouter != "" && !p.keepRouterAsIs() {
		// Not attached, and detached if it was: the pass goes on as for no router.
		withheld = append(withheld, u.existingRouter)
		p.desired.Router = nil
		p.observed.Routers.Existing = nil
	}
	p.withheld = append(withheld, p.withheld...)
}

// keepQoS keeps, in warn mode, the ungranted QoS policy the network has already, and
// reports whether it did; otherwise the policy is not set, and the one the controller set
// before is taken off. A policy the controller never set (one a new network got from
// Neutron) stays.
func (p *pass) keepQoS() bool {
	q := p.desired.Network.QoSPolicy
	net := p.observed.Network
	if p.enforcement == grants.Warn && net != nil && deref(net.QoSPolicyID) == q.ResolvedID {
		p.kept = append(p.kept, keptPower{grants.PowerQoSPolicy, p.ungranted.qos})
		return true
	}
	p.desired.Network.QoSPolicy = nil
	if p.network.Status.QoSPolicyID != "" {
		p.desired.Network.QoSPolicy = projectDefaultQoS()
	}
	return false
}

// keepRouterAsIs keeps, in warn mode, the subnets attached to an existing router no grant
// allows any more, and reports whether it did: nothing more is attached to it.
func (p *pass) keepRouterAsIs() bool {
	r := p.existingRouter
	if p.enforcement != grants.Warn || len(neutron.AttachedSubnets(p.observed.Routers.Interfaces, r.ID)) == 0 {
		return false
	}
	p.kept = append(p.kept, keptPower{grants.PowerExistingRouter, p.ungranted.existingRouter})
	p.routerKeptAsIs = true
	return true
}

// attachNothingNew drops the attachments the diff wants on a router kept as it is.
func (p *pass) attachNothingNew() {
	if !p.routerKeptAsIs || len(p.changes.Router.Attach) == 0 {
		return
	}
	p.withheld = append(p.withheld, fmt.Sprintf("attaching %s to spec.router.existing router %s (allow.existingRouters)",
		strings.Join(p.changes.Router.Attach, ", "), p.observed.Routers.Existing.ID))
	p.changes.Router.Attach = nil
}
