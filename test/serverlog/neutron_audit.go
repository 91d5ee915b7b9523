package serverlog

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// NeutronAuditRequest is one API request as the audit middleware of a Keystone-authenticated
// neutron-server logged it when the request came in (event type audit.http.request).
type NeutronAuditRequest struct {
	// UserAgent is the request's User-Agent header as Neutron got it, "" when it had none.
	UserAgent string
	// Method is the HTTP method, inferred from Action (the line does not hold the method):
	// "read/list" and "read" are GET, "create" POST, "delete" DELETE, "update" and
	// "update/..." (add_router_interface, say) PUT; "" for any other action. Neutron updates
	// with PUT, but the audit middleware also calls a POST "update" when the path does not
	// end in a collection of the audit map's path_keywords: for the exact method, find the
	// neutron.wsgi line (ParseNeutronRequest) with the same request IDs.
	Method string
	// Action is the CADF action the audit middleware made of the method and path, e.g.
	// "read/list", "read", "create", "update", "delete", "update/add".
	Action string
	// Path is the request's path with its query, e.g. "/v2.0/networks?name=x".
	Path string
	// RequestID is the ID Neutron gave the request ("req-<uuid>"), the one it answers in the
	// X-OpenStack-Request-ID header and logs second in the request's other lines.
	RequestID string
	// GlobalRequestID is the X-OpenStack-Request-ID the client sent ("req-<uuid>"), "" when
	// it sent none; Neutron logs it first in the request's other lines.
	GlobalRequestID string
	// ProjectID and UserID are the token's project and user; ClientAddress is the client's
	// IP address.
	ProjectID, UserID, ClientAddress string
}

// The line keystonemiddleware's audit middleware logs for each request (hack/local-neutron.sh
// puts it in the keystone pipeline, logging under the name "audit"), before Neutron handles
// it, in one line (wrapped here):
//
//	2026-11-29 01:17:49.065 3661 INFO audit [None req-a39d... - - - - - -] Event type: audit.http.request,
//	  Context: {'user': None, ..., 'request_id': 'req-a39d...', 'global_request_id': None, ...},
//	  Payload: {'typeURI': 'http://schemas.dmtf.org/cloud/audit/1.0/event', 'eventType': 'activity',
//	    'id': '2fc4...', 'eventTime': '2026-11-29T01:17:49.064278+0000', 'action': 'read/list',
//	    'outcome': 'pending', 'observer': {'id': 'target'},
//	    'initiator': {'id': USER_ID, 'typeURI': 'service/security/account/user', 'name': 'k8s-controller',
//	      'credential': {'token': 'gAAA... xxxxxxxx ...yA', 'identity_status': 'Confirmed'},
//	      'host': {'address': '127.0.0.1', 'agent': 'network-controller/v9.9.9 (abc123) gophercloud/v2.0.0'},
//	      'project_id': PROJECT_ID, 'request_id': 'req-3bf3...', 'global_request_id': 'req-e00d...'},
//	    'target': {'id': 'neutron', 'typeURI': 'service/network/networks', 'name': 'neutron', 'addresses': [...]},
//	    'requestPath': '/v2.0/networks', 'tags': ['correlation_id?value=...']}
//
// Context and Payload are Python dicts as Python prints them: strings in single quotes, or
// in double quotes when they hold a single quote and no double quote, with backslash
// escapes ('it\'s a "quoted" \\ agent'). The host has no 'agent' when the request had no
// User-Agent, and the initiator no 'global_request_id' when the client sent no
// X-OpenStack-Request-ID. The request IDs in the brackets and in Context are those of an
// admin context the audit middleware makes for the event, of no use: the request's own are
// the initiator's. A second line for the same request, of event type audit.http.response,
// has the same payload plus the outcome and the HTTP status. A request whose token Keystone
// refused gets no audit line (authtoken answers 401 before the audit middleware).
const (
	neutronAuditRequestMark = "] Event type: audit.http.request, Context: "
	neutronAuditPayloadMark = ", Payload: "
)

// ParseNeutronAuditRequest returns the request a neutron-server log line records, if it is
// an audit line of event type audit.http.request (see above).
func ParseNeutronAuditRequest(line string) (NeutronAuditRequest, bool) {
	_, rest, ok := strings.Cut(line, neutronAuditRequestMark)
	if !ok {
		return NeutronAuditRequest{}, false
	}
	p := &pyParser{s: rest}
	if _, ok := p.value().(map[string]any); !ok {
		return NeutronAuditRequest{}, false
	}
	if !strings.HasPrefix(p.s[p.i:], neutronAuditPayloadMark) {
		return NeutronAuditRequest{}, false
	}
	p.i += len(neutronAuditPayloadMark)
	payload, ok := p.value().(map[string]any)
	if !ok || strings.TrimSpace(p.s[p.i:]) != "" {
		return NeutronAuditRequest{}, false
	}
	initiator, _ := payload["initiator"].(map[string]any)
	host, _ := initiator["host"].(map[string]any)
	r := NeutronAuditRequest{
		UserAgent:       fromLatin1(str(host["agent"])),
		Action:          str(payload["action"]),
		Path:            str(payload["requestPath"]),
		RequestID:       str(initiator["request_id"]),
		GlobalRequestID: str(initiator["global_request_id"]),
		ProjectID:       str(initiator["project_id"]),
		UserID:          str(initiator["id"]),
		ClientAddress:   str(host["address"]),
	}
	if r.Action == "" || r.Path == "" {
		return NeutronAuditRequest{}, false
	}
	r.Method = methodOfAuditAction(r.Action)
	return r, true
}

// methodOfAuditAction is the HTTP method of a CADF action of keystonemiddleware's audit
// middleware on Neutron (see NeutronAuditRequest.Method).
func methodOfAuditAction(action string) string {
	switch {
	case action == "read/list" || action == "read":
		return "GET"
	case action == "create":
		return "POST"
	case action == "delete":
		return "DELETE"
	case action == "update" || strings.HasPrefix(action, "update/"):
		return "PUT"
	}
	return ""
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// fromLatin1 undoes the Latin-1 decoding of HTTP headers in Python's WSGI (PEP 3333): a
// User-Agent sent in UTF-8 as "é" is logged as 'Ã©'. Strings that are no such thing (a
// rune above U+00FF, or bytes that are no UTF-8) are returned as they are.
func fromLatin1(s string) string {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xff {
			return s
		}
		b = append(b, byte(r))
	}
	if !utf8.Valid(b) {
		return s
	}
	return string(b)
}

// pyParser reads the literals Python's repr() prints for dicts, lists, strings, None,
// True, False and numbers, from s at i: dicts become map[string]any (entries whose key is
// no string are dropped), lists []any, strings string, None nil, True and False bool, and
// numbers pyNumber. On anything else value returns nil and sets bad.
type pyParser struct {
	s   string
	i   int
	bad bool
}

// pyNumber is a number as Python printed it.
type pyNumber string

func (p *pyParser) fail() any {
	p.bad = true
	return nil
}

func (p *pyParser) skipSpace() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

// value reads one literal at p.i and moves past it; nil (and p.bad) when there is none.
func (p *pyParser) value() any {
	if p.bad || p.i >= len(p.s) {
		return p.fail()
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.dict()
	case c == '[':
		return p.list()
	case c == '\'' || c == '"':
		return p.str()
	default:
		start := p.i
		for p.i < len(p.s) && strings.IndexByte(",:]} ", p.s[p.i]) < 0 {
			p.i++
		}
		switch word := p.s[start:p.i]; word {
		case "None":
			return nil
		case "True":
			return true
		case "False":
			return false
		default:
			if _, err := strconv.ParseFloat(word, 64); err != nil {
				return p.fail()
			}
			return pyNumber(word)
		}
	}
}

func (p *pyParser) dict() any {
	m := map[string]any{}
	p.items('}', func() {
		key := p.value()
		if p.bad || !strings.HasPrefix(p.s[p.i:], ": ") {
			p.fail()
			return
		}
		p.i += 2
		v := p.value()
		if k, ok := key.(string); ok && !p.bad {
			m[k] = v
		}
	})
	if p.bad {
		return nil
	}
	return m
}

func (p *pyParser) list() any {
	l := []any{}
	p.items(']', func() {
		if v := p.value(); !p.bad {
			l = append(l, v)
		}
	})
	if p.bad {
		return nil
	}
	return l
}

// items reads the comma-separated items of a dict or list from its opening bracket at
// p.i up to and past closer, item reading each; it stops at the first failure.
func (p *pyParser) items(closer byte, item func()) {
	p.i++ // the opening bracket
	for first := true; !p.bad; first = false {
		p.skipSpace()
		if p.i < len(p.s) && p.s[p.i] == closer {
			p.i++
			return
		}
		if !first {
			if p.i >= len(p.s) || p.s[p.i] != ',' {
				p.fail()
				return
			}
			p.i++
			p.skipSpace()
		}
		item()
	}
}

// str reads a string literal as repr() prints it: quoted with ' or ", with the escapes
// \\, \', \", \n, \r, \t, \xNN, \uNNNN and \UNNNNNNNN.
func (p *pyParser) str() any {
	quote := p.s[p.i]
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == quote:
			p.i++
			return b.String()
		case c != '\\':
			b.WriteByte(c)
			p.i++
			continue
		}
		if p.i+1 >= len(p.s) {
			break
		}
		e := p.s[p.i+1]
		p.i += 2
		switch e {
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if p.i+n > len(p.s) {
				return p.fail()
			}
			code, err := strconv.ParseUint(p.s[p.i:p.i+n], 16, 32)
			if err != nil || !utf8.ValidRune(rune(code)) {
				return p.fail()
			}
			b.WriteRune(rune(code))
			p.i += n
		default:
			return p.fail()
		}
	}
	return p.fail()
}
