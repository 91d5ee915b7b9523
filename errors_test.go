package main

import (
	"strings"
	"testing"
	"unicode/utf8"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/tenancy"
)

// A message the user sees stays within maxMessageLength, on a rune boundary, whatever
// the cause holds (a Secret's content, a Neutron answer).
func TestExplainBoundsTheMessage(t *testing.T) {
	long := strings.Repeat("ü", 3000)
	reason, message := explain(&tenancy.Error{Reason: samplecrdv1.ReasonCloudNotFound, Message: long})
	if reason != samplecrdv1.ReasonCloudNotFound {
		t.Errorf("reason %q", reason)
	}
	if len(message) > maxMessageLength || !utf8.ValidString(message) || !strings.HasSuffix(message, "[…]") {
		t.Errorf("message of %d bytes (valid UTF-8: %v), ending %q; want at most %d, cut visibly", len(message), utf8.ValidString(message), message[len(message)-8:], maxMessageLength)
	}
	if _, short := explain(&tenancy.Error{Reason: samplecrdv1.ReasonCloudNotFound, Message: "short"}); short != "short" {
		t.Errorf("a short message became %q", short)
	}
}
