package tokenrequests

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

// TestTokenRequestsCounted: only POSTs to .../auth/tokens count, each with the outcome
// its answer means.
func TestTokenRequestsCounted(t *testing.T) {
	status := map[string]int{"/ok": 201, "/refused": 401, "/forbidden": 403, "/down": 503, "/bad": 400}
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		prefix, _ := strings.CutSuffix(r.URL.Path, "/v3/auth/tokens")
		if code, ok := status[prefix]; ok {
			w.WriteHeader(code)
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	var seen []string
	client := http.Client{Transport: counted{next: http.DefaultTransport, observe: func(outcome string) { seen = append(seen, outcome) }}}
	do := func(method, url string) {
		t.Helper()
		req, err := http.NewRequest(method, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
		}
	}
	for _, p := range []string{"/ok", "/refused", "/forbidden", "/down", "/bad"} {
		do(http.MethodPost, server.URL+p+"/v3/auth/tokens")
	}
	do(http.MethodGet, server.URL+"/ok/v3/auth/tokens") // validation, not a request for a token
	do(http.MethodPost, server.URL+"/v2.0/networks")
	server.Close()
	do(http.MethodPost, server.URL+"/ok/v3/auth/tokens/") // no answer

	want := []string{OK, Rejected, Rejected, Unavailable, Error, Unavailable}
	if !slices.Equal(seen, want) {
		t.Errorf("outcomes = %q, want %q", seen, want)
	}
}
