package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const sampleLog = `2026-11-23 09:42:04.415 18912 INFO neutron.wsgi [-] (18912) wsgi starting up on http://127.0.0.1:59696
2026-11-23 09:42:04.887 18912 INFO neutron.wsgi [None req-30b8 - fake_project_id - - - -] 127.0.0.1 "GET /v2.0/networks?tags=k8s-cluster%3Dx HTTP/1.1" status: 200  len: 189 time: 0.3317654
2026-11-23 09:42:05.027 18912 INFO neutron.db.segments_db [None req-8712 - fake_project_id - - - -] Added segment 25cd of type local for network 8559
2026-11-23 09:42:05.178 18912 INFO neutron.wsgi [None req-8712 - fake_project_id - - - -] 127.0.0.1 "POST /v2.0/networks HTTP/1.1" status: 201  len: 733 time: 0.2823470
2026-11-23 09:42:05.301 18912 INFO neutron.wsgi [None req-9a01 - fake_project_id - - - -] 127.0.0.1 "PUT /v2.0/networks/8559/tags HTTP/1.1" status: 200  len: 40 time: 0.1
2026-11-23 09:42:05.402 18912 INFO neutron.wsgi [None req-9a02 - fake_project_id - - - -] 127.0.0.1 "DELETE /v2.0/networks/8559 HTTP/1.1" status: 409  len: 204 time: 0.1
`

func TestRequestLogCountsBetweenOffsets(t *testing.T) {
	path := filepath.Join(t.TempDir(), "neutron-server.log")
	// The last line is still being written: offset must stop before it.
	partial := `2026-11-23 09:42:06.000 18912 INFO neutron.wsgi [None req-9a03 - fake_project_id - - - -] 127.0.0.1 "GET /v2.0/sub`
	if err := os.WriteFile(path, []byte(sampleLog+partial), 0o644); err != nil {
		t.Fatal(err)
	}
	l := &requestLog{path: path}
	end, err := l.offset()
	if err != nil {
		t.Fatal(err)
	}
	if end != int64(len(sampleLog)) {
		t.Fatalf("offset = %d, want %d (the end of the last complete line)", end, len(sampleLog))
	}
	got, err := l.count(0, end)
	if err != nil {
		t.Fatal(err)
	}
	want := callCounts{"GET": 1, "POST": 1, "PUT": 1, "DELETE": 1}
	if got.String() != want.String() || got.total() != 4 {
		t.Errorf("count = %v, want %v", got, want)
	}
	if got.perNetwork(2) != "DELETE 0.50, GET 0.50, POST 0.50, PUT 0.50" {
		t.Errorf("perNetwork(2) = %q", got.perNetwork(2))
	}
	if _, err := l.count(end, end-1); err == nil {
		t.Error("a shrunken log was not reported")
	}
}

func TestOperationOf(t *testing.T) {
	for _, tc := range []struct{ method, path, want string }{
		{"POST", "/v2.0/networks", "create network"},
		{"PUT", "/v2.0/networks/8559/tags", "tag network"},
		{"POST", "/v2.0/subnets", "create subnet"},
		{"DELETE", "/v2.0/networks/8559", "delete network"},
		{"GET", "/v2.0/networks?limit=1", "ping"},
		{"GET", "/v2.0/networks?tags=k8s-cluster%3Dx&limit=1000", "list networks"},
		{"GET", "/v2.0/subnets?network_id=a&network_id=b", "list subnets"},
		{"GET", "/v2.0/ports?project_id=p", "list ports"},
		{"GET", "/v2.0/subnetpools?name=x", "list subnet pools"},
		{"PUT", "/v2.0/subnets/1", "update subnet"},
		{"DELETE", "/v2.0/ports/1", "delete port"},
		{"POST", "/v2.0/routers", "create router"},
		{"PUT", "/v2.0/routers/r1/add_router_interface", "add router interface"},
		{"PUT", "/v2.0/routers/r1/remove_router_interface", "remove router interface"},
		{"DELETE", "/v2.0/routers/r1", "delete router"},
		{"GET", "/v2.0/networks?name=public&router%3Aexternal=true", "list networks"},
		{"GET", "/", "GET /"},
		{"POST", "/v2.0/networks/1/x", "POST /v2.0/networks/1/x"},
	} {
		if got := operationOf(tc.method, tc.path); got != tc.want {
			t.Errorf("operationOf(%s %s) = %q, want %q", tc.method, tc.path, got, tc.want)
		}
	}
}

func TestNeutronTiming(t *testing.T) {
	line := strings.Split(sampleLog, "\n")[3]
	at, took, ok := neutronTiming(line)
	want := time.Date(2026, 11, 23, 9, 42, 5, 178e6, time.Local)
	if !ok || !at.Equal(want) || took != 282347*time.Microsecond {
		t.Errorf("neutronTiming = %s, %s, %v; want %s, 282.347ms", at, took, ok, want)
	}
	if _, _, ok := neutronTiming("x"); ok {
		t.Error("a line without a time was read")
	}
}
