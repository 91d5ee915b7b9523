package serverlog

import (
	"fmt"
	"regexp"
	"strings"
)

// NeutronRequest is one API request as neutron-server logged it.
type NeutronRequest struct {
	Method, Path, Status string
	// ProjectID is the project of the token the request carried ("-" or "" without one).
	ProjectID string
}

// String shows the request without its query, e.g. "GET /v2.0/networks?… 200 (project p)".
func (r NeutronRequest) String() string {
	path, query, _ := strings.Cut(r.Path, "?")
	if query != "" {
		path += "?…"
	}
	return fmt.Sprintf("%s %s %s (project %s)", r.Method, path, r.Status, r.ProjectID)
}

// neutronRequestLine matches the line neutron-server's WSGI layer writes once per answered
// request; its logger is neutron.wsgi on 2022.2 and neutron.api.wsgi on later releases:
//
//	... INFO neutron.wsgi [None req-ID USER PROJECT - - default default] 127.0.0.1 "GET /v2.0/networks HTTP/1.1" status: 200 ...
var neutronRequestLine = regexp.MustCompile(`neutron(?:\.api)?\.wsgi \[([^\]]*)\] \S+ "([A-Z]+) (\S+) HTTP/[0-9.]+" status: ([0-9]+)`)

// ParseNeutronRequest returns the request a neutron-server log line records, if it is one.
func ParseNeutronRequest(line string) (NeutronRequest, bool) {
	m := neutronRequestLine.FindStringSubmatch(line)
	if m == nil {
		return NeutronRequest{}, false
	}
	r := NeutronRequest{Method: m[2], Path: m[3], Status: m[4]}
	// [None req-ID USER PROJECT ...]. A request refused for its token (401) has no project:
	// from 2025.1 on, neutron-server logs it under the context of the request its green
	// thread served before, another client's.
	if context := strings.Fields(m[1]); len(context) >= 4 && r.Status != "401" {
		r.ProjectID = context[3]
	}
	return r, true
}
