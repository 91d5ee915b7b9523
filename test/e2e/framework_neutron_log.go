//go:build e2e

package e2e

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
)

// NeutronRequest is one API request as neutron-server logged it.
type NeutronRequest struct {
	Method, Path, Status string
	// ProjectID is the project of the token the request carried.
	ProjectID string
}

func (r NeutronRequest) String() string {
	path, query, _ := strings.Cut(r.Path, "?")
	if query != "" {
		path += "?…"
	}
	return fmt.Sprintf("%s %s %s (project %s)", r.Method, path, r.Status, r.ProjectID)
}

// neutronRequestLine matches the line neutron-server writes once per answered request:
//
//	... INFO neutron.wsgi [None req-ID USER PROJECT - - default default] 127.0.0.1 "GET /v2.0/networks HTTP/1.1" status: 200 ...
var neutronRequestLine = regexp.MustCompile(`neutron\.wsgi \[([^\]]*)\] \S+ "([A-Z]+) (\S+) HTTP/[0-9.]+" status: ([0-9]+)`)

// NeutronLogMark is the size of a neutron-server log: NeutronRequestsSince reads on
// from there.
func NeutronLogMark(t testing.TB, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatalf("neutron-server's log: %v", err)
	}
	return fi.Size()
}

// NeutronRequestsSince returns the requests neutron-server logged in path after byte
// offset from, up to the last complete line.
func NeutronRequestsSince(t testing.TB, path string, from int64) []NeutronRequest {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("neutron-server's log: %v", err)
	}
	defer f.Close()
	if _, err := f.Seek(from, io.SeekStart); err != nil {
		t.Fatalf("neutron-server's log: %v", err)
	}
	raw, err := io.ReadAll(f)
	if err != nil {
		t.Fatalf("neutron-server's log: %v", err)
	}
	raw = raw[:bytes.LastIndexByte(raw, '\n')+1]
	var out []NeutronRequest
	for _, line := range strings.Split(string(raw), "\n") {
		m := neutronRequestLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		r := NeutronRequest{Method: m[2], Path: m[3], Status: m[4]}
		// [None req-ID USER PROJECT ...]; "-" where the request had no token.
		if context := strings.Fields(m[1]); len(context) >= 4 {
			r.ProjectID = context[3]
		}
		out = append(out, r)
	}
	return out
}
