package endpoints

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestNewServerLimits(t *testing.T) {
	s := newServer(http.NotFoundHandler())
	if s.ReadHeaderTimeout <= 0 || s.ReadTimeout <= 0 || s.WriteTimeout <= 0 || s.IdleTimeout <= 0 {
		t.Fatalf("ReadHeaderTimeout %v, ReadTimeout %v, WriteTimeout %v, IdleTimeout %v: want all set",
			s.ReadHeaderTimeout, s.ReadTimeout, s.WriteTimeout, s.IdleTimeout)
	}
	if s.ReadTimeout < s.ReadHeaderTimeout {
		t.Errorf("ReadTimeout %v below ReadHeaderTimeout %v: the headers would not get their time", s.ReadTimeout, s.ReadHeaderTimeout)
	}
	// A metrics request may make a TokenReview and a SubjectAccessReview before answering.
	if s.WriteTimeout <= 2*reviewTimeout {
		t.Errorf("WriteTimeout %v not above two reviews of %v: a slow apiserver would cut answers off", s.WriteTimeout, reviewTimeout)
	}
	if s.IdleTimeout <= time.Minute {
		t.Errorf("IdleTimeout %v not above Prometheus's default scrape interval of a minute", s.IdleTimeout)
	}
	if s.MaxHeaderBytes != 16<<10 {
		t.Errorf("MaxHeaderBytes %d, want 16 KiB", s.MaxHeaderBytes)
	}
}

// startServer starts handler on loopback with the limits of newServer, adjusted by adjust.
func startServer(t *testing.T, handler http.Handler, adjust func(*http.Server)) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	srv.Config = newServer(handler)
	if adjust != nil {
		adjust(srv.Config)
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

// A long bearer token gets through; headers far over MaxHeaderBytes get 431.
func TestServerHeaderLimit(t *testing.T) {
	srv := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, "ok")
	}), nil)
	cases := []struct {
		name     string
		token    int
		wantCode int
	}{
		{name: "an 8 KiB token", token: 8 << 10, wantCode: http.StatusOK},
		// Go reads 4 KiB past MaxHeaderBytes before refusing; 32 KiB is well past both.
		{name: "a 32 KiB header", token: 32 << 10, wantCode: http.StatusRequestHeaderFieldsTooLarge},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+"/metrics", nil)
			if err != nil {
				t.Fatalf("making the request: %v", err)
			}
			req.Header.Set("Authorization", "Bearer "+strings.Repeat("t", tc.token))
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatalf("GET: %v", err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != tc.wantCode {
				t.Errorf("status %d, want %d", resp.StatusCode, tc.wantCode)
			}
		})
	}
}

// pprof moves its write deadline past the seconds asked for, so the profiling server's
// WriteTimeout does not cut a profile or trace short. Were it to stop doing so, the
// profiling server would need a WriteTimeout of its own.
func TestProfilingOutlastsWriteTimeout(t *testing.T) {
	const writeTimeout, seconds = time.Second, "2"
	srv := startServer(t, profilingHandler(), func(s *http.Server) { s.WriteTimeout = writeTimeout })
	for _, path := range []string{"/debug/pprof/profile", "/debug/pprof/trace"} {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			resp, err := srv.Client().Get(srv.URL + path + "?seconds=" + seconds)
			if err != nil {
				t.Fatalf("GET: %v", err)
			}
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatalf("reading the body after %v: %v", time.Since(start), err)
			}
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status %d, want %d (body %q)", resp.StatusCode, http.StatusOK, body)
			}
			if took := time.Since(start); took < 2*writeTimeout {
				t.Errorf("answered after %v, before the %ss asked for", took, seconds)
			}
			if len(body) == 0 {
				t.Errorf("empty body")
			}
			// A CPU profile is gzipped protobuf.
			if path == "/debug/pprof/profile" && !bytes.HasPrefix(body, []byte{0x1f, 0x8b}) {
				t.Errorf("body does not start as a gzipped profile: % x", body[:min(len(body), 8)])
			}
		})
	}
}
