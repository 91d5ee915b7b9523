package endpoints

import (
	"net/http"
	"time"
)

// What a client of the metrics, probe and profiling servers may take. The callers are
// scrapers, the kubelet and whoever profiles the process: none needs more, and a client
// that holds on to a connection or sends endless headers costs a goroutine and memory.
const (
	// readHeaderTimeout bounds a client's headers, and a TLS handshake with them:
	// a slow sender (slowloris) is let go after 10 s.
	readHeaderTimeout = 10 * time.Second
	// readTimeout bounds the whole request with its body. The endpoints take GETs without
	// bodies, so it only adds a little past the headers' time for a body sent anyway.
	readTimeout = 15 * time.Second
	// writeTimeout bounds a request from its headers to the end of the answer: above two
	// reviews of reviewTimeout and gathering the registry. Scrapers give up sooner
	// (Prometheus's scrape_timeout defaults to 10 s). pprof's profile, trace and
	// ?seconds= handlers move their own write deadline to writeTimeout plus the seconds
	// asked for (golang/go#62358), so the profiling server keeps this value too;
	// TestProfilingOutlastsWriteTimeout holds it to that.
	writeTimeout = 30 * time.Second
	// idleTimeout is how long a kept-alive connection waits for its next request: above
	// Prometheus's default scrape interval of a minute, so a scraper keeps its connection
	// and skips a TLS handshake; connections idle longer are closed.
	idleTimeout = 90 * time.Second
	// maxHeaderBytes bounds a request's headers (Go's default is 1 MiB). A bearer token
	// fits: a service account's is about 1 KiB, an OIDC token with many groups a few KiB.
	maxHeaderBytes = 16 << 10
)

// newServer returns a server of handler with the limits above.
func newServer(handler http.Handler) *http.Server {
	return &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
	}
}
