package neutron

import (
	"errors"
	"fmt"
	"time"
)

// Kind says what the controller should do about a failed Neutron call.
type Kind int

const (
	// KindUnavailable: Neutron could not be reached, timed out or answered 5xx. Retry.
	KindUnavailable Kind = iota
	// KindNotFound: the resource is gone.
	KindNotFound
	// KindInUse: ports or subnets still use the resource being deleted. Retry later.
	KindInUse
	// KindOverQuota: the project's quota is exhausted. Retry, slowly.
	KindOverQuota
	// KindConflict: any other 409. Retry.
	KindConflict
	// KindRejected: Neutron refused the request itself (400, 403, 422). Retrying the same
	// request cannot succeed; only a changed spec can.
	KindRejected
)

func (k Kind) String() string {
	switch k {
	case KindUnavailable:
		return "Unavailable"
	case KindNotFound:
		return "NotFound"
	case KindInUse:
		return "InUse"
	case KindOverQuota:
		return "OverQuota"
	case KindConflict:
		return "Conflict"
	case KindRejected:
		return "Rejected"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Error is a failed Neutron (or Keystone) call with what the server said about it.
type Error struct {
	// Service is "keystone" for authentication failures; empty means Neutron.
	Service string
	// Op names the call, e.g. "create network".
	Op   string
	Kind Kind
	// Code is the HTTP status, 0 when there was no answer.
	Code int
	// Type is Neutron's error type, e.g. "SubnetInUse".
	Type string
	// Message is Neutron's own explanation, or the transport error.
	Message string
	// RequestID is the request ID the service answered with ("" without an answer): its
	// own log names the request by it.
	RequestID string
	Err       error
}

func (e *Error) Error() string {
	service := e.Service
	if service == "" {
		service = "neutron"
	}
	var s string
	switch {
	case e.Code == 0:
		s = fmt.Sprintf("%s %s: %s", service, e.Op, e.Message)
	case e.Type != "":
		s = fmt.Sprintf("%s %s: %d %s: %s", service, e.Op, e.Code, e.Type, e.Message)
	default:
		s = fmt.Sprintf("%s %s: %d: %s", service, e.Op, e.Code, e.Message)
	}
	if e.RequestID != "" {
		s += " (" + e.Answer() + ")"
	}
	return s
}

// Answer names the service's answer by its request ID, e.g. "Neutron request
// req-7c1…", or "" without an answer.
func (e *Error) Answer() string {
	if e.RequestID == "" {
		return ""
	}
	service := "Neutron"
	if e.Service == "keystone" {
		service = "Keystone"
	}
	return service + " request " + e.RequestID
}

func (e *Error) Unwrap() error { return e.Err }

// KindOf classifies err; errors that did not come from Neutron count as unavailable.
func KindOf(err error) Kind {
	var ne *Error
	if errors.As(err, &ne) {
		return ne.Kind
	}
	return KindUnavailable
}

// IsNotFound reports whether err says the resource does not exist.
func IsNotFound(err error) bool { return err != nil && KindOf(err) == KindNotFound }

// IsCredentialsRefused reports whether err says Keystone refused the credentials.
func IsCredentialsRefused(err error) bool {
	var ne *Error
	return errors.As(err, &ne) && ne.Service == "keystone" && ne.Kind == KindRejected
}

// ThrottledError is a call that was not sent because its project's budget is spent, or,
// with Turn set, because the token request it needed waits for its namespace's turn;
// Delay is about when it can go. Nothing reached Neutron or Keystone.
type ThrottledError struct {
	Op    string
	Delay time.Duration
	// Turn names whose turn of the controller's token requests it waits for.
	Turn string
}

func (e *ThrottledError) Error() string {
	if e.Turn != "" {
		return fmt.Sprintf("%s: not sent: waiting about %s for the turn of %s in the controller's rate of token requests", e.Op, e.Delay.Round(time.Millisecond), e.Turn)
	}
	return fmt.Sprintf("neutron %s: not sent: the project's request budget is spent for %s", e.Op, e.Delay.Round(time.Millisecond))
}

// AsThrottled returns the *ThrottledError in err's chain, if any.
func AsThrottled(err error) (*ThrottledError, bool) {
	var t *ThrottledError
	ok := errors.As(err, &t)
	return t, ok
}
