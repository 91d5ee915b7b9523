package serverlog

import (
	"strings"
	"time"
)

// KeystoneRequest is one line of Keystone's request log, in the format
// hack/local-keystone.sh gives uwsgi:
//
//	23/Nov/2026:10:13:02 +0000 ADDR METHOD URI STATUS MSECS ua="..."
type KeystoneRequest struct {
	At                  time.Time // whole seconds
	Method, URI, Status string
	UserAgent           string
}

// ParseKeystoneRequest returns the request a line of Keystone's request log records.
func ParseKeystoneRequest(line string) (KeystoneRequest, bool) {
	fields := strings.Fields(line)
	ua := strings.Index(line, `ua="`)
	if len(fields) < 7 || ua < 0 {
		return KeystoneRequest{}, false
	}
	at, err := time.Parse("02/Jan/2006:15:04:05 -0700", fields[0]+" "+fields[1])
	if err != nil {
		return KeystoneRequest{}, false
	}
	return KeystoneRequest{At: at, Method: fields[3], URI: fields[4], Status: fields[5],
		UserAgent: strings.TrimSuffix(line[ua+len(`ua="`):], `"`)}, true
}

// IsTokenIssue says whether the request asked for a token and Keystone answered status.
func (r KeystoneRequest) IsTokenIssue(status string) bool {
	return r.Method == "POST" && r.URI == "/v3/auth/tokens" && r.Status == status
}
