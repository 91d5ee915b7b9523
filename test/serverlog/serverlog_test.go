package serverlog

import (
	"testing"
	"time"
)

func TestParseNeutronRequest(t *testing.T) {
	cases := []struct {
		line string
		want NeutronRequest
		ok   bool
	}{
		{`2026-11-23 09:42:05.178 18912 INFO neutron.wsgi [None req-8712 - fake_project_id - - - -] 127.0.0.1 "POST /v2.0/subnets HTTP/1.1" status: 201  len: 733 time: 0.28`,
			NeutronRequest{Method: "POST", Path: "/v2.0/subnets", Status: "201", ProjectID: "fake_project_id"}, true},
		{`2026-11-24 05:45:49.379 23228 INFO neutron.wsgi [None req-2b40 3d7bbdd3 ee87143b - - default default] 127.0.0.1 "GET /v2.0/networks?fields=id HTTP/1.1" status: 200  len: 149 time: 0.57`,
			NeutronRequest{Method: "GET", Path: "/v2.0/networks?fields=id", Status: "200", ProjectID: "ee87143b"}, true},
		{`2026-11-24 06:12:51.345 16908 INFO neutron.wsgi [-] 127.0.0.1 "GET / HTTP/1.1" status: 200  len: 228 time: 0.0025461`,
			NeutronRequest{Method: "GET", Path: "/", Status: "200"}, true},
		{`2026-11-23 09:42:04.415 18912 INFO neutron.wsgi [-] (18912) wsgi starting up on http://127.0.0.1:59696`, NeutronRequest{}, false},
		// 2025.1 and later: the logger is neutron.api.wsgi.
		{`2026-12-06 08:29:23.533 12531 INFO neutron.api.wsgi [req-e0c61636 req-8954dcc8 12c5e465 ae04731d - - default default] 127.0.0.1 "POST /v2.0/subnets HTTP/1.1" status: 400  len: 344 time: 0.0768700`,
			NeutronRequest{Method: "POST", Path: "/v2.0/subnets", Status: "400", ProjectID: "ae04731d"}, true},
		// A request refused for its token: the context is another request's.
		{`2026-12-06 09:58:46.102 4410 INFO neutron.api.wsgi [req-1 req-2 12c5e465 955e0daf - - default default] 127.0.0.1 "GET /v2.0/ports?network_id=n1 HTTP/1.1" status: 401  len: 283 time: 0.0051`,
			NeutronRequest{Method: "GET", Path: "/v2.0/ports?network_id=n1", Status: "401"}, true},
		{`2026-12-06 08:29:23.527 12531 INFO neutron.pecan_wsgi.hooks.translation [req-e0c61636 req-8954dcc8 12c5e465 ae04731d - - default default] POST failed (client error): The server could not comply`,
			NeutronRequest{}, false},
	}
	for _, tc := range cases {
		got, ok := ParseNeutronRequest(tc.line)
		if ok != tc.ok || got != tc.want {
			t.Errorf("ParseNeutronRequest(%q) = %+v, %v; want %+v, %v", tc.line, got, ok, tc.want, tc.ok)
		}
	}
	if s := (NeutronRequest{Method: "GET", Path: "/v2.0/networks?a=b", Status: "200", ProjectID: "p"}).String(); s != "GET /v2.0/networks?… 200 (project p)" {
		t.Errorf("String() = %q", s)
	}
}

func TestParseKeystoneRequest(t *testing.T) {
	r, ok := ParseKeystoneRequest(`24/Nov/2026:05:45:48 +0000 127.0.0.1 POST /v3/auth/tokens 201 331ms ua="network-controller gophercloud/v2.15.0"`)
	want := KeystoneRequest{At: time.Date(2026, 11, 24, 5, 45, 48, 0, time.UTC), Method: "POST", URI: "/v3/auth/tokens", Status: "201",
		UserAgent: "network-controller gophercloud/v2.15.0"}
	if !ok || !r.At.Equal(want.At) || r.Method != want.Method || r.URI != want.URI || r.Status != want.Status || r.UserAgent != want.UserAgent {
		t.Errorf("got %+v, %v; want %+v", r, ok, want)
	}
	if !r.IsTokenIssue("201") || r.IsTokenIssue("401") {
		t.Errorf("IsTokenIssue wrong for %+v", r)
	}
	for _, line := range []string{"", "uwsgi starting", `24/Nov/2026 x 127.0.0.1 GET /v3/ 200 3ms ua="curl"`} {
		if _, ok := ParseKeystoneRequest(line); ok {
			t.Errorf("%q was taken for a request", line)
		}
	}
}
