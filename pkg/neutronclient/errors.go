package neutronclient

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/gophercloud/gophercloud/v2"

	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/requestid"
)

// How gophercloud's errors become neutron.Errors: Neutron's answer, or Keystone's.

// wrapError turns a gophercloud error into an *Error; nil stays nil.
func wrapError(op string, err error) error {
	if err == nil {
		return nil
	}
	// The token expired and Keystone could not issue a new one: the call never reached
	// Neutron's logic, and it heals when Keystone is back. The message must say so, or
	// the status would blame Neutron for a 401.
	if reauthErr, ok := reauthenticationFailure(err); ok {
		if throttled, ok := neutron.AsThrottled(reauthErr); ok {
			// The renewal waits for its namespace's turn: the call is deferred, not failed.
			return throttled
		}
		if refused(reauthErr) {
			// The credentials no longer work (password changed, application credential
			// deleted): no retry will change Keystone's mind.
			return &neutron.Error{Service: "keystone", Op: op, Kind: neutron.KindRejected, Message: "Keystone refused to issue a new token: " + keystoneReason(reauthErr), RequestID: answeredID(reauthErr), Err: err}
		}
		// Neutron's (Service ""), as it fails Neutron calls; Keystone's answer, if
		// any, is named in the message.
		message := "Keystone could not issue a new token: " + keystoneReason(reauthErr)
		if id := answeredID(reauthErr); id != "" {
			message += " (Keystone request " + id + ")"
		}
		return &neutron.Error{Op: op, Kind: neutron.KindUnavailable, Message: message, Err: err}
	}
	var resp gophercloud.ErrUnexpectedResponseCode
	if !errors.As(err, &resp) {
		return &neutron.Error{Op: op, Kind: neutron.KindUnavailable, Message: err.Error(), Err: err}
	}
	typ, msg := parseNeutronError(resp.Body)
	if msg == "" {
		msg = http.StatusText(resp.Actual)
	}
	return &neutron.Error{Op: op, Kind: classify(resp.Actual, typ), Code: resp.Actual, Type: typ, Message: msg, RequestID: requestid.Answered(resp.ResponseHeader), Err: err}
}

func classify(code int, neutronType string) neutron.Kind {
	switch {
	case code == http.StatusNotFound:
		return neutron.KindNotFound
	case code == http.StatusConflict:
		switch neutronType {
		case "SubnetInUse", "NetworkInUse", "InUse":
			return neutron.KindInUse
		case "OverQuota":
			return neutron.KindOverQuota
		}
		return neutron.KindConflict
	case code == http.StatusBadRequest, code == http.StatusForbidden, code == http.StatusUnprocessableEntity:
		return neutron.KindRejected
	case neutronType == "SubnetAllocationError":
		// A subnet pool without room for the prefix asked for (or without the CIDR asked
		// for free), which Neutron 21 answers with 500: a definite answer, nothing was
		// created, and it heals when subnets are freed or the pool grows, like a 409.
		return neutron.KindConflict
	}
	// 401 (token expired mid-flight), 408, 429 and 5xx all heal by themselves.
	return neutron.KindUnavailable
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
	kind := neutron.KindUnavailable
	if refused(err) {
		kind = neutron.KindRejected
	}
	return &neutron.Error{Service: "keystone", Op: "authentication at " + authURL, Kind: kind, Message: keystoneReason(err), RequestID: answeredID(err), Err: err}
}

// answeredID returns the request ID of the service's answer in err, if there was one.
func answeredID(err error) string {
	var resp gophercloud.ErrUnexpectedResponseCode
	if !errors.As(err, &resp) {
		return ""
	}
	return requestid.Answered(resp.ResponseHeader)
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
