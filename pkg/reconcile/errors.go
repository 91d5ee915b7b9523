package reconcile

import (
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// Failure is what a sync that failed records in the Network's Ready condition: the
// reason, a message for the user, and whether a retry can help. Terminal failures wait
// for a change of the spec or of the credentials Secret (an import's, of Neutron, which
// the Neutron resync looks at); the others are retried with backoff.
type Failure struct {
	Reason   string
	Message  string
	Terminal bool
	// Err is the cause, for the log.
	Err error
}

func (f *Failure) Error() string {
	if f.Err != nil {
		return f.Err.Error()
	}
	return f.Message
}

func (f *Failure) Unwrap() error { return f.Err }

// recorded is a Failure already written into the Network's status and Events.
type recorded struct{ *Failure }

func (r recorded) Unwrap() error { return r.Failure }

// RecordedFailure returns the Failure a sync recorded in the Network's status, if err is one:
// the workqueue retries it quietly, or, when terminal, not at all.
func RecordedFailure(err error) (*Failure, bool) {
	var r recorded
	if !errors.As(err, &r) {
		return nil, false
	}
	return r.Failure, true
}

// invalidSpec is a spec the controller itself cannot realise.
func invalidSpec(message string) *Failure {
	return &Failure{Reason: samplecrdv1.ReasonInvalidSpec, Message: message, Terminal: true}
}

// importProblems are the Ready reasons of an import that does not resolve to one network
// and one subnet. Each waits for Neutron to change: the Neutron resync looks again.
var importProblems = map[neutron.ImportProblem]string{
	neutron.ImportNotFound:        samplecrdv1.ReasonImportNotFound,
	neutron.ImportAmbiguous:       samplecrdv1.ReasonImportAmbiguous,
	neutron.ImportDeleted:         samplecrdv1.ReasonImportedNetworkDeleted,
	neutron.ImportManaged:         samplecrdv1.ReasonImportManagedNetwork,
	neutron.ImportSubnetNotFound:  samplecrdv1.ReasonImportSubnetNotFound,
	neutron.ImportSubnetAmbiguous: samplecrdv1.ReasonImportSubnetAmbiguous,
}

func importFailed(result neutron.ImportResult) *Failure {
	return &Failure{Reason: importProblems[result.Problem], Message: result.Message, Terminal: true}
}

// notOwned is a deletion that left a network status named alone: it is not this
// Network's, and only a change of status or of the network can make it so.
func notOwned(message string) *Failure {
	return &Failure{Reason: samplecrdv1.ReasonNeutronResourceNotOwned, Message: message, Terminal: true}
}

// referenceFailed is an attribute naming a Neutron resource the project cannot see, or
// several: only a change of the spec or of Neutron can help, and each Neutron resync
// looks again. Nothing was sent with it.
func referenceFailed(re *neutron.ReferenceError) *Failure {
	reason := samplecrdv1.ReasonReferenceNotFound
	if re.Found > 1 {
		reason = samplecrdv1.ReasonReferenceAmbiguous
	}
	return &Failure{Reason: reason, Message: re.Error(), Terminal: true}
}

// routerNotFound is a router spec.router.existing names that the project does not have:
// only a change of the spec or of Neutron can help, and each Neutron resync looks again.
func routerNotFound(message string) *Failure {
	return &Failure{Reason: samplecrdv1.ReasonRouterNotFound, Message: message, Terminal: true}
}

// routerOfAnotherNetwork is a router spec.router.existing names that the controller made
// for a Network: attaching to it would bridge the two Networks, and hold its owner's
// delete up. Only a change of the spec can help.
func routerOfAnotherNetwork(message string) *Failure {
	return &Failure{Reason: samplecrdv1.ReasonRouterOfAnotherNetwork, Message: message, Terminal: true}
}

// maxMessageLength bounds a condition's message and an Event's: well under the CRD's
// 32768 and the 1024 an Event keeps, whatever a tenant's Secret or Neutron's answer holds.
const maxMessageLength = 1000

// classify is the one place an error becomes a Failure: its own Failure, a credentials
// problem, or a Neutron or Keystone error mapped by kind. It returns nil for an error
// that is about none of them (an API write, the cache), which is retried unrecorded.
func classify(err error) *Failure {
	f := classifyAtLength(err)
	if f != nil {
		f.Message = answered(f.Message, err, maxMessageLength)
	}
	return f
}

func classifyAtLength(err error) *Failure {
	var own *Failure
	if errors.As(err, &own) {
		f := *own
		return &f
	}
	if te, ok := credentials.AsError(err); ok {
		return &Failure{Reason: te.Reason, Message: te.Message, Terminal: te.Terminal(), Err: err}
	}
	var re *neutron.ReferenceError
	if errors.As(err, &re) {
		return referenceFailed(re)
	}
	var ne *neutron.Error
	if !errors.As(err, &ne) {
		return nil
	}
	f := func(reason string, terminal bool, format string) *Failure {
		return &Failure{Reason: reason, Terminal: terminal, Err: err, Message: fmt.Sprintf(format, ne.Op, ne.Message)}
	}
	var held *credentials.AccountHeldError
	if errors.As(err, &held) { // a renewal the gate held back
		return &Failure{Reason: samplecrdv1.ReasonKeystoneAccountHeld, Err: err, Message: held.Error()}
	}
	if ne.Service == "keystone" && ne.Kind == neutron.KindUnavailable {
		// The controller's own credentials, refused for now and asked again later, or a
		// Keystone that does not answer a renewal.
		return &Failure{Reason: samplecrdv1.ReasonKeystoneUnavailable, Err: err,
			Message: fmt.Sprintf("%s (%s); retrying with backoff", ne.Message, ne.Op)}
	}
	if neutron.IsCredentialsRefused(err) {
		return &Failure{Reason: samplecrdv1.ReasonCredentialsRejected, Terminal: true, Err: err, Message: fmt.Sprintf(
			"%s (%s); give the Network working credentials: update its Secret (the controller's own clouds.yaml is read at startup)", ne.Message, ne.Op)}
	}
	switch ne.Kind {
	case neutron.KindRejected:
		if field := refusedField(ne); field != "" {
			return &Failure{Reason: samplecrdv1.ReasonInvalidSpec, Terminal: true, Err: err, Message: fmt.Sprintf(
				"%s: this cloud's Neutron policy does not let the project's role set it (%s: %s); remove it from the spec, or ask the cloud's admin",
				field, ne.Op, ne.Message)}
		}
		if fields := unknownFields(ne); fields != "" {
			return &Failure{Reason: samplecrdv1.ReasonInvalidSpec, Terminal: true, Err: err, Message: fmt.Sprintf(
				"%s: this cloud's Neutron does not know the attribute, as its extension is not enabled there (%s: %s); remove it from the spec, or ask the cloud's admin to enable the extension",
				fields, ne.Op, ne.Message)}
		}
		return f(samplecrdv1.ReasonInvalidSpec, true, "Neutron rejected the request (%s): %s; fix the spec")
	case neutron.KindNotFound:
		return f(samplecrdv1.ReasonProvisioning, false, "a Neutron resource went away during the change (%s): %s; retrying, which creates it again")
	case neutron.KindOverQuota:
		return f(samplecrdv1.ReasonOverQuota, false, "Neutron quota exhausted (%s): %s; retrying with backoff")
	case neutron.KindInUse:
		return f(samplecrdv1.ReasonSubnetInUse, false, "Neutron resource still in use (%s): %s; deletion retries with backoff until its ports are gone")
	case neutron.KindConflict:
		return f(samplecrdv1.ReasonNeutronConflict, false, "Neutron reported a conflict (%s): %s; retrying with backoff")
	default:
		return f(samplecrdv1.ReasonNeutronUnavailable, false, "Neutron is unavailable (%s): %s; retrying with backoff")
	}
}

// truncate cuts s to at most limit bytes, on a rune boundary, and says it was cut.
func truncate(s string, limit int) string {
	const cut = " […]"
	if len(s) <= limit {
		return s
	}
	end := limit - len(cut)
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + cut
}

// Neutron refuses an attribute its policy keeps from the caller's role with 403 and the
// rules it checked, e.g. "(rule:create_router and (rule:create_router:external_gateway_info
// and (rule:create_router:external_gateway_info:network_id and
// rule:create_router:external_gateway_info:enable_snat))) is disallowed by policy". The
// spec fields that send those attributes, so that the refusal names the field to change:
// the network's attributes name theirs (neutron.NetworkAttrs), the router's and the
// shares' are these.
var policyFields = func() map[string]string {
	fields := neutron.SpecFields(neutron.NetworkAttrs{})
	fields["external_gateway_info:enable_snat"] = "spec.router.enableSNAT"
	fields["external_gateway_info:external_fixed_ips"] = "spec.router.externalNetwork"
	fields["target_tenant"] = "spec.sharedWith"
	return fields
}()

var policyRule = regexp.MustCompile(`rule:[a-z_]+:([a-z_:]+)`)

// refusedField returns the spec field of the most specific attribute among the rules of
// a policy refusal, or "".
func refusedField(ne *neutron.Error) string {
	if ne.Code != http.StatusForbidden {
		return ""
	}
	field, depth := "", 0
	for _, m := range policyRule.FindAllStringSubmatch(ne.Message, -1) {
		for attr := m[1]; attr != ""; attr = parentOf(attr) {
			if f, ok := policyFields[attr]; ok && strings.Count(attr, ":") >= depth {
				field, depth = f, strings.Count(attr, ":")+1
				break
			}
		}
	}
	return field
}

// Neutron refuses an attribute no extension of its defines with 400 "Unrecognized
// attribute(s) 'dns_domain'" (a cloud without the extension): the spec fields that sent
// them, so that the message names what to change.
var unknownAttributes = regexp.MustCompile(`Unrecognized attribute\(s\) (.*)$`)

// unknownFields returns the spec fields of the attributes Neutron said it does not know,
// comma-separated, or "" when it said no such thing of an attribute the spec sends.
func unknownFields(ne *neutron.Error) string {
	m := unknownAttributes.FindStringSubmatch(ne.Message)
	if ne.Code != http.StatusBadRequest || m == nil {
		return ""
	}
	var fields []string
	for _, attr := range strings.Split(m[1], ",") {
		if f, ok := policyFields[strings.Trim(strings.TrimSpace(attr), "'")]; ok && !slices.Contains(fields, f) {
			fields = append(fields, f)
		}
	}
	return strings.Join(fields, ", ")
}

func parentOf(attr string) string {
	i := strings.LastIndexByte(attr, ':')
	if i < 0 {
		return ""
	}
	return attr[:i]
}
