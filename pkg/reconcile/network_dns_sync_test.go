package reconcile_test

import (
	"encoding/json"
	"strings"
	"testing"

	"k8s.io/utils/ptr"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	. "github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
	neutronfake "github.com/samplecrd/network-controller/pkg/neutron/fake"
	"github.com/samplecrd/network-controller/pkg/reconcile"
)

// unrecognizedDNSDomain is what a Neutron without the dns-integration extension answers a
// network's create or update that sends dns_domain (neutron-server 26, 2025.1).
func unrecognizedDNSDomain(op string) *neutron.Error {
	return &neutron.Error{Op: op, Kind: neutron.KindRejected, Code: 400, Type: "HTTPBadRequest",
		Message: "Unrecognized attribute(s) 'dns_domain'"}
}

// dnsCases set, change and remove the network's dns_domain (spec.dnsDomain), repair it,
// leave alone one the spec never set, and stop, terminally and naming the attribute, where
// Neutron has no dns-integration extension and refuses it. A domain the CRD's rules would
// have refused (a CRD installed without them) is refused before any Neutron call.
func dnsCases() []syncCase {
	// realizedWithDNS is a Network realized with inStatus in status.dnsDomain and inNeutron
	// as the network's dns_domain (nil: a Neutron without the extension).
	realizedWithDNS := func(name, cidr string, spec *string, inStatus string, inNeutron *string) (*samplecrdv1.Network, func(*neutronfake.Driver, neutron.Owner)) {
		n := WithGeneration(withDNSDomain(RealizedNetwork(name, cidr, ""), spec), 2)
		n.Status.DNSDomain = inStatus
		return n, func(d *neutronfake.Driver, owner neutron.Owner) {
			PutRealized(d, owner, cidr, strings.TrimSuffix(cidr, "0/24")+"1")
			net := d.Networks()[0]
			net.DNSDomain = inNeutron
			d.PutNetwork(net)
		}
	}
	changed, changedNeutron := realizedWithDNS("dns-changed", "10.51.0.0/24", ptr.To("b.example."), "a.example.", ptr.To("a.example."))
	removed, removedNeutron := realizedWithDNS("dns-removed", "10.52.0.0/24", nil, "a.example.", ptr.To("a.example."))
	drifted, driftedNeutron := realizedWithDNS("dns-drifted", "10.53.0.0/24", ptr.To("a.example."), "a.example.", ptr.To("hand.example."))
	unmanaged, unmanagedNeutron := realizedWithDNS("dns-unmanaged", "10.54.0.0/24", nil, "", ptr.To("admin.example."))
	steady, steadyNeutron := realizedWithDNS("dns-steady", "10.55.0.0/24", ptr.To("a.example."), "a.example.", ptr.To("a.example."))
	steady.Generation = 1
	added, addedNeutron := realizedWithDNS("dns-added-no-extension", "10.57.0.0/24", ptr.To("a.example."), "", nil)
	return []syncCase{{
		name:        "new Network with a DNS domain: created with it, in the create's body",
		object:      withDNSDomain(NewNetwork("dns-new", "10.50.0.0/24", ""), ptr.To("example.org.")),
		want:        succeeds,
		wantWrites:  []string{writeFinalizer, writeStatus},
		wantCalls:   []string{"create network", "tag network", "create subnet"},
		wantEvents:  []string{"Normal NetworkCreated", "Normal SubnetCreated", "Normal Provisioned"},
		wantNeutron: wantDNSDomainSent("create network", "example.org.", `"dns_domain":"example.org."`),
		wantObject:  wantReadyWithDNSDomain("example.org."),
	}, {
		name:        "DNS domain changed in spec: one PUT of the network",
		object:      changed,
		neutron:     changedNeutron,
		want:        succeeds,
		wantWrites:  []string{writeStatus},
		wantCalls:   []string{"update network"},
		wantEvents:  []string{"Normal NetworkUpdated", "Normal Provisioned"},
		wantNeutron: wantDNSDomainSent("update network", "b.example.", `{"dns_domain":"b.example."}`),
		wantObject:  wantReadyWithDNSDomain("b.example."),
	}, {
		name:       "DNS domain removed from spec: one PUT of an empty domain (Neutron refuses null), status forgets it",
		object:     removed,
		neutron:    removedNeutron,
		want:       succeeds,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"update network"},
		wantEvents: []string{"Normal NetworkUpdated", "Normal Provisioned"},
		// The next pass leaves the network alone: the spec no longer manages its domain.
		retry:       succeeds,
		wantNeutron: wantDNSDomainSent("update network", "", `{"dns_domain":""}`),
		wantObject:  wantReadyWithDNSDomain(""),
	}, {
		name:        "DNS domain changed in Neutron by hand: put back",
		object:      drifted,
		neutron:     driftedNeutron,
		want:        succeeds,
		wantWrites:  []string{writeStatus},
		wantCalls:   []string{"update network"},
		wantEvents:  []string{"Normal NetworkUpdated", "Normal Provisioned"},
		wantNeutron: wantDNSDomainSent("update network", "a.example.", `{"dns_domain":"a.example."}`),
		wantObject:  wantReadyWithDNSDomain("a.example."),
	}, {
		name:        "DNS domain the spec never set (an admin's): left alone, not in status",
		object:      unmanaged,
		neutron:     unmanagedNeutron,
		want:        succeeds,
		wantWrites:  []string{writeStatus},
		wantEvents:  []string{"Normal Provisioned"},
		wantNeutron: wantDNSDomainSent("update network", "admin.example."),
		wantObject:  wantReadyWithDNSDomain(""),
	}, {
		name:        "DNS domain as Neutron has it: no call, no write",
		object:      steady,
		neutron:     steadyNeutron,
		want:        succeeds,
		wantNeutron: wantDNSDomainSent("update network", "a.example."),
		wantObject:  wantReadyWithDNSDomain("a.example."),
	}, {
		name:       "new Network with a DNS domain, Neutron without dns-integration: terminal, naming dns_domain, nothing made",
		object:     withDNSDomain(NewNetwork("dns-no-extension", "10.56.0.0/24", ""), ptr.To("example.org.")),
		before:     failWith(unrecognizedDNSDomain("create network")),
		want:       stops,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantCalls:  []string{"create network"},
		wantEvents: []string{"Warning InvalidSpec"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			if n := len(f.Neutron.Networks()); n != 0 {
				t.Errorf("Neutron holds %d networks, want none", n)
			}
		},
		wantObject: wantDNSDomainRefused("create network"),
	}, {
		name:       "DNS domain added to a Network, Neutron without dns-integration: terminal, the network kept as it is",
		object:     added,
		neutron:    addedNeutron,
		before:     failWith(unrecognizedDNSDomain("update network")),
		want:       stops,
		wantWrites: []string{writeStatus},
		wantCalls:  []string{"update network"},
		wantEvents: []string{"Warning InvalidSpec"},
		wantNeutron: func(t *testing.T, f *Fixture, _ neutron.Owner) {
			if nets := f.Neutron.Networks(); len(nets) != 1 || nets[0].DNSDomain != nil {
				t.Errorf("Neutron networks = %+v, want the one, without dns_domain", nets)
			}
		},
		wantObject: wantDNSDomainRefused("update network"),
	}, {
		name:       "DNS domain in upper case (a CRD without its rules): refused before any Neutron call",
		object:     withDNSDomain(NewNetwork("dns-upper", "10.58.0.0/24", ""), ptr.To("Example.org.")),
		want:       stops,
		wantWrites: []string{writeFinalizer, writeStatus},
		wantEvents: []string{"Warning InvalidSpec"},
		wantObject: WantNotReady(samplecrdv1.ReasonInvalidSpec, `dnsDomain "Example.org." is not a fully qualified domain name in lower case`),
	}}
}

func withDNSDomain(n *samplecrdv1.Network, domain *string) *samplecrdv1.Network {
	n.Spec.DNSDomain = domain
	return n
}

// wantDNSDomainSent checks that Neutron's one network ends with dns_domain domain, and
// that the bodies of op are exactly one holding each of sent, or none without sent.
func wantDNSDomainSent(op, domain string, sent ...string) func(*testing.T, *Fixture, neutron.Owner) {
	return func(t *testing.T, f *Fixture, _ neutron.Owner) {
		t.Helper()
		if nets := f.Neutron.Networks(); len(nets) != 1 || nets[0].DNSDomain == nil || *nets[0].DNSDomain != domain {
			t.Errorf("Neutron networks = %+v, want one with dns_domain %q", nets, domain)
		}
		bodies := f.Neutron.Bodies(op)
		if len(bodies) != min(len(sent), 1) {
			t.Fatalf("%s bodies = %q, want %d", op, bodies, min(len(sent), 1))
		}
		for _, s := range sent {
			if !strings.Contains(bodies[0], s) {
				t.Errorf("%s body = %s, want it to hold %s", op, bodies[0], s)
			}
		}
	}
}

func wantReadyWithDNSDomain(domain string) func(*testing.T, *samplecrdv1.Network) {
	return func(t *testing.T, got *samplecrdv1.Network) {
		t.Helper()
		if !got.IsReady() || got.Status.DNSDomain != domain {
			t.Errorf("Ready %v, status.dnsDomain %q; want Ready with %q", got.IsReady(), got.Status.DNSDomain, domain)
		}
	}
}

// wantDNSDomainRefused checks the terminal condition of a Neutron that refuses dns_domain:
// InvalidSpec naming the spec field and the missing extension, with Neutron's words and
// the call, and no dns_domain in status.
func wantDNSDomainRefused(op string) func(*testing.T, *samplecrdv1.Network) {
	return func(t *testing.T, got *samplecrdv1.Network) {
		t.Helper()
		WantNotReady(samplecrdv1.ReasonInvalidSpec, "spec.dnsDomain: this cloud's Neutron does not know the attribute, as its extension is not enabled there ("+
			op+": Unrecognized attribute(s) 'dns_domain'); remove it from the spec, or ask the cloud's admin to enable the extension")(t, got)
		if got.Status.DNSDomain != "" {
			t.Errorf("status.dnsDomain = %q, want empty: Neutron has none", got.Status.DNSDomain)
		}
	}
}

// TestDNSDomainDifferences checks the words a change of dns_domain is told in (the log, the
// NetworkUpdated and NeutronDrift Events, the Reconciling condition), and what is sent.
func TestDNSDomainDifferences(t *testing.T) {
	for _, c := range []struct {
		name          string
		spec          *string
		status        string
		neutron       *string
		wantDiffs     string
		wantSentJSON  string
		wantNoChanges bool
	}{
		{name: "set", spec: ptr.To("a.example."), neutron: ptr.To(""), wantDiffs: "dns domain from none to a.example.", wantSentJSON: `{"dns_domain":"a.example."}`},
		{name: "changed", spec: ptr.To("b.example."), status: "a.example.", neutron: ptr.To("a.example."), wantDiffs: "dns domain from a.example. to b.example.", wantSentJSON: `{"dns_domain":"b.example."}`},
		{name: "removed", status: "a.example.", neutron: ptr.To("a.example."), wantDiffs: "dns domain from a.example. to none", wantSentJSON: `{"dns_domain":""}`},
		{name: "set, Neutron without the extension", spec: ptr.To("a.example."), wantDiffs: "dns domain from none to a.example.", wantSentJSON: `{"dns_domain":"a.example."}`},
		{name: "removed, Neutron without the extension", status: "a.example.", wantNoChanges: true},
		{name: "never set", neutron: ptr.To("admin.example."), wantNoChanges: true},
		{name: "as Neutron has it", spec: ptr.To("a.example."), status: "a.example.", neutron: ptr.To("a.example."), wantNoChanges: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			network := withDNSDomain(RealizedNetwork("dns-diff", "10.59.0.0/24", ""), c.spec)
			network.Status.DNSDomain = c.status
			want, err := reconcile.Desired(network)
			if err != nil {
				t.Fatalf("Desired: %v", err)
			}
			got := neutron.Observed{Network: &neutron.Network{ID: network.Status.NetworkID, DNSDomain: c.neutron}}
			changes := reconcile.Diff(want, got)
			var diffs []neutron.Difference
			for _, d := range changes.NetworkDiffs {
				if d.Attribute == "dns domain" {
					diffs = append(diffs, d)
				}
			}
			sent, err := json.Marshal(neutron.NetworkAttrs{DNSDomain: changes.UpdateNetwork.DNSDomain})
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case c.wantNoChanges && (len(diffs) != 0 || changes.UpdateNetwork.DNSDomain != nil):
				t.Errorf("differences %q, sending %s; want none", neutron.Describe(diffs), sent)
			case !c.wantNoChanges && (neutron.Describe(diffs) != c.wantDiffs || string(sent) != c.wantSentJSON):
				t.Errorf("differences %q, sending %s; want %q, sending %s", neutron.Describe(diffs), sent, c.wantDiffs, c.wantSentJSON)
			}
		})
	}
}
