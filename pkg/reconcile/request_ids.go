package reconcile

import (
	"errors"
	"regexp"
	"strings"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// A failed call's message names the request ID the service answered with, so the person
// on call finds the request in Neutron's or Keystone's log. Every retry gets a new one:
// a failure that differs from the recorded one only in it is the same failure, and
// leaves the status, and the Events, alone.

// answerText matches what answered adds to a message.
var answerText = regexp.MustCompile(` \((Neutron|Keystone) request req-[0-9a-f-]{36}\)`)

// answered returns message, cut to limit bytes, followed by the service's answer to the
// call err failed in, unless message names it already.
func answered(message string, err error, limit int) string {
	var ne *neutron.Error
	if !errors.As(err, &ne) || ne.RequestID == "" || strings.Contains(message, ne.RequestID) {
		return truncate(message, limit)
	}
	answer := " (" + ne.Answer() + ")"
	if !answerText.MatchString(answer) {
		// Not an ID of OpenStack's form: a server's header, not worth a message.
		return truncate(message, limit)
	}
	return truncate(message, limit-len(answer)) + answer
}

// sameFailure reports whether two messages say the same but for request IDs.
func sameFailure(a, b string) bool {
	return answerText.ReplaceAllString(a, "") == answerText.ReplaceAllString(b, "")
}
