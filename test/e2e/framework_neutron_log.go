//go:build e2e

package e2e

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/samplecrd/network-controller/test/serverlog"
)

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
func NeutronRequestsSince(t testing.TB, path string, from int64) []serverlog.NeutronRequest {
	t.Helper()
	return parsedSince(t, path, from, serverlog.ParseNeutronRequest)
}

// NeutronAuditRequestsSince returns the requests the audit middleware of a
// Keystone-authenticated neutron-server logged in path after byte offset from.
func NeutronAuditRequestsSince(t testing.TB, path string, from int64) []serverlog.NeutronAuditRequest {
	t.Helper()
	return parsedSince(t, path, from, serverlog.ParseNeutronAuditRequest)
}

// parsedSince returns what parse makes of each line of a log after byte offset from.
func parsedSince[T any](t testing.TB, path string, from int64, parse func(string) (T, bool)) []T {
	t.Helper()
	var out []T
	for _, line := range NeutronLogLinesSince(t, path, from) {
		if r, ok := parse(line); ok {
			out = append(out, r)
		}
	}
	return out
}

// NeutronLogLinesSince returns the complete lines of a neutron-server log after byte
// offset from.
func NeutronLogLinesSince(t testing.TB, path string, from int64) []string {
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
	return strings.Split(string(raw), "\n")
}
