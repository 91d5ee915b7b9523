package neutron

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/gophercloud/gophercloud/v2"
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
	Err     error
}

func (e *Error) Error() string {
	service := e.Service
	if service == "" {
		service = "neutron"
	}
	if e.Code == 0 {
		return fmt.Sprintf("%s %s: %s", service, e.Op, e.Message)
	}
	if e.Type != "" {
		return fmt.Sprintf("%s %s: %d %s: %s", service, e.Op, e.Code, e.Type, e.Message)
	}
	return fmt.Sprintf("%s %s: %d: %s", service, e.Op, e.Code, e.Message)
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

// overlapsAnotherSubnet reports whether Neutron refused a subnet create because the
// network already has a subnet whose CIDR overlaps (400 InvalidInput; only the message
// tells this refusal from the others).
func overlapsAnotherSubnet(err error) bool {
	var ne *Error
	return errors.As(err, &ne) && ne.Code == http.StatusBadRequest &&
		strings.Contains(ne.Message, "overlaps with another subnet")
}

// asConflict returns err as a retryable conflict: Neutron refused the request because of
// what it already holds, not because of the request itself.
func asConflict(err error) error {
	var ne *Error
	if !errors.As(err, &ne) {
		return err
	}
	conflict := *ne
	conflict.Kind = KindConflict
	return &conflict
}

// wrapError turns a gophercloud error into an *Error; nil stays nil.
func wrapError(op string, err error) error {
	if err == nil {
		return nil
	}
	// The token expired and Keystone could not issue a new one: the call never reached
	// Neutron's logic, and it heals when Keystone is back. The message must say so, or
	// the status would blame Neutron for a 401.
	if reauthErr, ok := reauthenticationFailure(err); ok {
		if refused(reauthErr) {
			// The credentials no longer work (password changed, application credential
			// deleted): no retry will change Keystone's mind.
			return &Error{Service: "keystone", Op: op, Kind: KindRejected, Message: "Keystone refused to issue a new token: " + keystoneReason(reauthErr), Err: err}
		}
		return &Error{Op: op, Kind: KindUnavailable, Message: "Keystone could not issue a new token: " + keystoneReason(reauthErr), Err: err}
	}
	var resp gophercloud.ErrUnexpectedResponseCode
	if !errors.As(err, &resp) {
		return &Error{Op: op, Kind: KindUnavailable, Message: err.Error(), Err: err}
	}
	typ, msg := parseNeutronError(resp.Body)
	if msg == "" {
		msg = http.StatusText(resp.Actual)
	}
	return &Error{Op: op, Kind: classify(resp.Actual, typ), Code: resp.Actual, Type: typ, Message: msg, Err: err}
}

func classify(code int, neutronType string) Kind {
	switch {
	case code == http.StatusNotFound:
		return KindNotFound
	case code == http.StatusConflict:
		switch neutronType {
		case "SubnetInUse", "NetworkInUse", "InUse":
			return KindInUse
		case "OverQuota":
			return KindOverQuota
		}
		return KindConflict
	case code == http.StatusBadRequest, code == http.StatusForbidden, code == http.StatusUnprocessableEntity:
		return KindRejected
	}
	// 401 (token expired mid-flight), 408, 429 and 5xx all heal by themselves.
	return KindUnavailable
}

// parseNeutronError reads {"NeutronError": {"type": ..., "message": ...}}, or the
// {"error": {"title": ..., "message": ...}} that Keystone and Neutron's token middleware
// answer with (e.g. 503 "The Keystone service is temporarily unavailable.").
func parseNeutronError(body []byte) (typ, msg string) {
	var doc struct {
		NeutronError struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"NeutronError"`
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &doc) != nil {
		return "", ""
	}
	if doc.NeutronError.Type != "" || doc.NeutronError.Message != "" {
		return doc.NeutronError.Type, doc.NeutronError.Message
	}
	return "", doc.Error.Message
}

// reauthenticationFailure reports whether err says that Keystone refused a new token,
// and why (gophercloud returns its error as a pointer; accept the value too).
func reauthenticationFailure(err error) (reason error, ok bool) {
	var p *gophercloud.ErrUnableToReauthenticate
	if errors.As(err, &p) && p != nil {
		return p.ErrReauth, true
	}
	var v gophercloud.ErrUnableToReauthenticate
	if errors.As(err, &v) {
		return v.ErrReauth, true
	}
	return nil, false
}

// keystoneReason says in one line why a Keystone request failed: Keystone's own message
// for an HTTP answer, the transport error otherwise.
func keystoneReason(err error) string {
	if err == nil {
		return "unknown error"
	}
	var resp gophercloud.ErrUnexpectedResponseCode
	if errors.As(err, &resp) {
		_, msg := parseNeutronError(resp.Body)
		if msg == "" {
			msg = http.StatusText(resp.Actual)
		}
		return fmt.Sprintf("%d %s", resp.Actual, msg)
	}
	return err.Error()
}

// wrapAuthError classifies a failed first authentication with Keystone. Rejected
// credentials (401), a missing role (403) or an unknown application credential (404)
// cannot heal by retrying; a Keystone that does not answer can.
func wrapAuthError(authURL string, err error) error {
	kind := KindUnavailable
	if refused(err) {
		kind = KindRejected
	}
	return &Error{Service: "keystone", Op: "authentication at " + authURL, Kind: kind, Message: keystoneReason(err), Err: err}
}

// refused reports whether Keystone answered a token request with a refusal.
func refused(err error) bool {
	var resp gophercloud.ErrUnexpectedResponseCode
	if !errors.As(err, &resp) {
		return false
	}
	switch resp.Actual {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound:
		return true
	}
	return false
}

// IsCredentialsRefused reports whether err says Keystone refused the credentials.
func IsCredentialsRefused(err error) bool {
	var ne *Error
	return errors.As(err, &ne) && ne.Service == "keystone" && ne.Kind == KindRejected
}
