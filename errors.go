package main

import (
	"errors"
	"fmt"
	"unicode/utf8"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/tenancy"
)

// The kinds of failure a sync can end in, and how a Neutron error maps onto the Network's
// Ready condition.

// reportedError is a failure already shown in the Network's Ready condition and Events.
// It is retried with backoff like any error, but not logged again on every retry.
type reportedError struct{ err error }

func (e *reportedError) Error() string { return e.err.Error() }
func (e *reportedError) Unwrap() error { return e.err }

// terminalError is a failure no retry can cure, recorded in the Ready condition under
// reason: the key is forgotten until the spec changes.
type terminalError struct {
	reason string
	err    error
}

func (e *terminalError) Error() string { return e.err.Error() }
func (e *terminalError) Unwrap() error { return e.err }

// invalidSpecError is a spec the controller itself cannot realise.
type invalidSpecError struct{ err error }

func (e *invalidSpecError) Error() string { return e.err.Error() }
func (e *invalidSpecError) Unwrap() error { return e.err }

// importError is an import that does not resolve to one network and one subnet.
type importError struct{ result neutron.ImportResult }

func (e *importError) Error() string { return e.result.Message }

// importReasons are the Ready reasons of the problems of an import.
var importReasons = map[neutron.ImportProblem]string{
	neutron.ImportNotFound:        samplecrdv1.ReasonImportNotFound,
	neutron.ImportAmbiguous:       samplecrdv1.ReasonImportAmbiguous,
	neutron.ImportDeleted:         samplecrdv1.ReasonImportedNetworkDeleted,
	neutron.ImportManaged:         samplecrdv1.ReasonImportManagedNetwork,
	neutron.ImportSubnetNotFound:  samplecrdv1.ReasonImportSubnetNotFound,
	neutron.ImportSubnetAmbiguous: samplecrdv1.ReasonImportSubnetAmbiguous,
}

// isImportReason reports whether reason is one of an import's problems.
func isImportReason(reason string) bool {
	for _, r := range importReasons {
		if r == reason {
			return true
		}
	}
	return false
}

// maxMessageLength bounds a condition's message and an Event's: well under the CRD's
// 32768 and the 1024 an Event keeps, whatever a tenant's Secret or Neutron's answer holds.
const maxMessageLength = 1000

// explain maps an error to a Ready reason and a message for the user, at most
// maxMessageLength bytes; whether retrying can help follows from the reason
// (samplecrdv1.IsTerminalReason). An empty reason means err is not about Neutron or the
// spec.
func explain(err error) (reason, message string) {
	reason, message = explainAtLength(err)
	return reason, truncate(message, maxMessageLength)
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

func explainAtLength(err error) (reason, message string) {
	var invalid *invalidSpecError
	if errors.As(err, &invalid) {
		return samplecrdv1.ReasonInvalidSpec, invalid.Error()
	}
	var imp *importError
	if errors.As(err, &imp) {
		return importReasons[imp.result.Problem], imp.Error()
	}
	if te, ok := tenancy.AsError(err); ok {
		return te.Reason, te.Message
	}
	var ne *neutron.Error
	if !errors.As(err, &ne) {
		return "", ""
	}
	if ne.Service == "keystone" && ne.Kind == neutron.KindUnavailable {
		// The controller's own credentials, refused for now and asked again later, or a
		// Keystone that does not answer a renewal.
		return samplecrdv1.ReasonKeystoneUnavailable, fmt.Sprintf("%s (%s); retrying with backoff", ne.Message, ne.Op)
	}
	if neutron.IsCredentialsRefused(err) {
		return samplecrdv1.ReasonCredentialsRejected, fmt.Sprintf("%s (%s); give the Network working credentials: update its Secret (the controller's own clouds.yaml is read at startup)", ne.Message, ne.Op)
	}
	switch ne.Kind {
	case neutron.KindRejected:
		return samplecrdv1.ReasonInvalidSpec, fmt.Sprintf("Neutron rejected the request (%s): %s; fix the spec", ne.Op, ne.Message)
	case neutron.KindNotFound:
		return samplecrdv1.ReasonProvisioning, fmt.Sprintf("a Neutron resource went away during the change (%s): %s; retrying, which creates it again", ne.Op, ne.Message)
	case neutron.KindOverQuota:
		return samplecrdv1.ReasonOverQuota, fmt.Sprintf("Neutron quota exhausted (%s): %s; retrying with backoff", ne.Op, ne.Message)
	case neutron.KindInUse:
		return samplecrdv1.ReasonSubnetInUse, fmt.Sprintf("Neutron resource still in use (%s): %s; deletion retries with backoff until its ports are gone", ne.Op, ne.Message)
	case neutron.KindConflict:
		return samplecrdv1.ReasonNeutronConflict, fmt.Sprintf("Neutron reported a conflict (%s): %s; retrying with backoff", ne.Op, ne.Message)
	default:
		return samplecrdv1.ReasonNeutronUnavailable, fmt.Sprintf("Neutron is unavailable (%s): %s; retrying with backoff", ne.Op, ne.Message)
	}
}
