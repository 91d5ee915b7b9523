package reconcile

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials"
	"github.com/samplecrd/network-controller/pkg/credentials/grants"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// Every failure reason of the API comes out of classify from one kind of cause, with the
// terminal-ness the API documents (TransientReasons), and nothing else comes out as a
// Failure.
func TestClassifyProducesEveryReasonFromOneCause(t *testing.T) {
	neutronErr := func(kind neutron.Kind) error {
		return fmt.Errorf("creating: %w", &neutron.Error{Op: "create network", Kind: kind, Message: "said no"})
	}
	refused := func(reason string, transient bool) error {
		return &credentials.Error{Reason: reason, Message: "about Secret ns/creds", Transient: transient}
	}
	imported := func(p neutron.ImportProblem) error {
		return importFailed(neutron.ImportResult{Problem: p, Message: "looked"})
	}
	cases := []struct {
		reason string
		cause  error
	}{
		{samplecrdv1.ReasonProvisioning, neutronErr(neutron.KindNotFound)},
		{samplecrdv1.ReasonNeutronUnavailable, neutronErr(neutron.KindUnavailable)},
		{samplecrdv1.ReasonNeutronConflict, neutronErr(neutron.KindConflict)},
		{samplecrdv1.ReasonOverQuota, neutronErr(neutron.KindOverQuota)},
		{samplecrdv1.ReasonInvalidSpec, neutronErr(neutron.KindRejected)},
		{samplecrdv1.ReasonInvalidSpec, invalidSpec("cidr: not a CIDR")},
		{samplecrdv1.ReasonSubnetInUse, neutronErr(neutron.KindInUse)},
		{samplecrdv1.ReasonNeutronResourceNotOwned, notOwned("status named net-1")},
		{samplecrdv1.ReasonRouterNotFound, routerNotFound("spec.router.existing names router r-1")},
		{samplecrdv1.ReasonReferenceNotFound, fmt.Errorf("resolving: %w", &neutron.ReferenceError{Field: "spec.qosPolicy", Found: 0})},
		{samplecrdv1.ReasonReferenceAmbiguous, &neutron.ReferenceError{Field: "spec.qosPolicy", Found: 2}},
		{samplecrdv1.ReasonRouterOfAnotherNetwork, routerOfAnotherNetwork("spec.router.existing names router r-1")},
		{samplecrdv1.ReasonNotGranted, notGranted("team-a", []string{"spec.import (allow.import)"}, grants.Powers{}.Denied())},
		{samplecrdv1.ReasonRetainNotGranted, retainNotGranted("team-a", grants.Powers{})},
		{samplecrdv1.ReasonImportNotFound, imported(neutron.ImportNotFound)},
		{samplecrdv1.ReasonImportAmbiguous, imported(neutron.ImportAmbiguous)},
		{samplecrdv1.ReasonImportedNetworkDeleted, imported(neutron.ImportDeleted)},
		{samplecrdv1.ReasonImportSubnetNotFound, imported(neutron.ImportSubnetNotFound)},
		{samplecrdv1.ReasonImportSubnetAmbiguous, imported(neutron.ImportSubnetAmbiguous)},
		{samplecrdv1.ReasonImportManagedNetwork, imported(neutron.ImportManaged)},
		{samplecrdv1.ReasonKeystoneUnavailable, &neutron.Error{Service: "keystone", Op: "renew token", Kind: neutron.KindUnavailable}},
		{samplecrdv1.ReasonKeystoneUnavailable, refused(samplecrdv1.ReasonKeystoneUnavailable, true)},
		{samplecrdv1.ReasonKeystoneAccountHeld, refused(samplecrdv1.ReasonKeystoneAccountHeld, true)},
		{samplecrdv1.ReasonTooManyCredentialsSecrets, refused(samplecrdv1.ReasonTooManyCredentialsSecrets, true)},
		{samplecrdv1.ReasonKeystoneAccountHeld, &neutron.Error{Service: "keystone", Op: "renew token", Kind: neutron.KindUnavailable, Err: &credentials.AccountHeldError{Message: "held"}}},
		{samplecrdv1.ReasonCredentialsRejected, &neutron.Error{Service: "keystone", Op: "renew token", Kind: neutron.KindRejected}},
		{samplecrdv1.ReasonCredentialsSecretDeleting, refused(samplecrdv1.ReasonCredentialsSecretDeleting, true)},
		{samplecrdv1.ReasonPasswordCredentialsRefused, refused(samplecrdv1.ReasonPasswordCredentialsRefused, false)},
	}
	for _, reason := range []string{
		samplecrdv1.ReasonCredentialsRefRequired, samplecrdv1.ReasonCredentialsSecretNotFound, samplecrdv1.ReasonCredentialsNotGranted,
		samplecrdv1.ReasonCredentialsSecretNotLabelled, samplecrdv1.ReasonCredentialsKeyMissing, samplecrdv1.ReasonCloudsYAMLInvalid,
		samplecrdv1.ReasonCloudNotFound, samplecrdv1.ReasonCredentialsFileRefused, samplecrdv1.ReasonAuthURLNotAllowed,
		samplecrdv1.ReasonCACertInvalid, samplecrdv1.ReasonTLSVerificationRefused, samplecrdv1.ReasonPasswordRejected, samplecrdv1.ReasonApplicationCredentialRejected,
		samplecrdv1.ReasonCredentialsProjectChanged, samplecrdv1.ReasonCredentialsRegionChanged,
		samplecrdv1.ReasonNamespaceNotSelected, samplecrdv1.ReasonClusterIdentityNotDelegating,
	} {
		cases = append(cases, struct {
			reason string
			cause  error
		}{reason, refused(reason, false)})
	}

	covered := map[string]bool{}
	for _, c := range cases {
		f := classify(c.cause)
		if f == nil {
			t.Errorf("%s: classify(%v) = nil", c.reason, c.cause)
			continue
		}
		covered[f.Reason] = true
		wantTerminal := !slices.Contains(samplecrdv1.TransientReasons, c.reason)
		if f.Reason != c.reason || f.Terminal != wantTerminal || f.Message == "" {
			t.Errorf("classify(%v) = %s terminal=%v %q; want %s terminal=%v with a message", c.cause, f.Reason, f.Terminal, f.Message, c.reason, wantTerminal)
		}
	}
	for _, reason := range samplecrdv1.ReadyReasons {
		if reason != samplecrdv1.ReasonProvisioned && reason != samplecrdv1.ReasonImported && !covered[reason] {
			t.Errorf("no cause in this table produces reason %s", reason)
		}
	}
	for _, other := range []error{errors.New("writing status: conflict"), fmt.Errorf("reading the cache: %w", errors.New("gone"))} {
		if f := classify(other); f != nil {
			t.Errorf("classify(%v) = %+v, want nil: it is about neither Neutron nor the spec", other, f)
		}
	}
}

// A message the user sees stays within maxMessageLength, on a rune boundary, whatever
// the cause holds (a Secret's content, a Neutron answer).
func TestClassifyBoundsTheMessage(t *testing.T) {
	long := strings.Repeat("ü", 3000)
	f := classify(&credentials.Error{Reason: samplecrdv1.ReasonCloudNotFound, Message: long})
	if f.Reason != samplecrdv1.ReasonCloudNotFound {
		t.Errorf("reason %q", f.Reason)
	}
	if len(f.Message) > maxMessageLength || !utf8.ValidString(f.Message) || !strings.HasSuffix(f.Message, "[…]") {
		t.Errorf("message of %d bytes (valid UTF-8: %v), ending %q; want at most %d, cut visibly", len(f.Message), utf8.ValidString(f.Message), f.Message[len(f.Message)-8:], maxMessageLength)
	}
	if short := classify(&credentials.Error{Reason: samplecrdv1.ReasonCloudNotFound, Message: "short"}); short.Message != "short" {
		t.Errorf("a short message became %q", short.Message)
	}
}

// A 403 of Neutron's policy names the spec field that sent the refused attribute; other
// refusals keep Neutron's words.
func TestPolicyRefusalNamesTheSpecField(t *testing.T) {
	for _, c := range []struct {
		message, want string
	}{
		// Neutron 21's words, for a member.
		{"(rule:create_router and (rule:create_router:external_gateway_info and (rule:create_router:external_gateway_info:network_id and " +
			"rule:create_router:external_gateway_info:enable_snat))) is disallowed by policy", "spec.router.enableSNAT: this cloud's Neutron policy"},
		{"(rule:create_router and (rule:create_router:external_gateway_info and (rule:create_router:external_gateway_info:network_id and " +
			"rule:create_router:external_gateway_info:external_fixed_ips))) is disallowed by policy", "spec.router.externalNetwork: "},
		{"((((rule:create_rbac_policy and rule:create_rbac_policy:object_type) and rule:create_rbac_policy:object_id) and " +
			"rule:create_rbac_policy:target_tenant) and rule:create_rbac_policy:action) is disallowed by policy", "spec.sharedWith: "},
		{"(rule:update_network and rule:update_network:port_security_enabled) is disallowed by policy", "spec.portSecurityEnabled: this cloud's Neutron policy"},
		// Named by the attribute's spec tag (neutron.NetworkAttrs), no list kept by hand.
		{"(rule:create_network and rule:create_network:mtu) is disallowed by policy", "spec.mtu: "},
		{"(rule:create_network and rule:create_network:shared) is disallowed by policy", "Neutron rejected the request (create router): (rule:create_network and"},
	} {
		f := classify(&neutron.Error{Op: "create router", Kind: neutron.KindRejected, Code: 403, Message: c.message})
		if f == nil || f.Reason != samplecrdv1.ReasonInvalidSpec || !f.Terminal || !strings.HasPrefix(f.Message, c.want) {
			t.Errorf("%q: classified as %+v, want terminal InvalidSpec starting %q", c.message, f, c.want)
		}
	}
}

// An attribute Neutron does not know (its extension is not enabled) is named by the spec
// field that sent it; an answer about no attribute of the spec names none.
func TestUnknownAttributeNamesItsSpecField(t *testing.T) {
	for _, tc := range []struct {
		code    int
		message string
		want    string
	}{
		{400, "Unrecognized attribute(s) 'dns_domain'", "spec.dnsDomain"},
		{400, "Unrecognized attribute(s) 'dns_domain', 'mtu'", "spec.dnsDomain, spec.mtu"},
		{400, "Unrecognized attribute(s) 'flavor'", ""},
		{400, "Invalid input for dns_domain", ""},
		{403, "Unrecognized attribute(s) 'dns_domain'", ""},
	} {
		if got := unknownFields(&neutron.Error{Code: tc.code, Kind: neutron.KindRejected, Message: tc.message}); got != tc.want {
			t.Errorf("%d %q: unknownFields = %q, want %q", tc.code, tc.message, got, tc.want)
		}
	}
}
