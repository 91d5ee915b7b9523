//go:build e2e

package e2e

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// FaultRates say how often a FaultProxy misbehaves. Each request draws independently for
// each kind of fault; the draws are made in that order and a request that fails in one way
// is not also failed in another.
type FaultRates struct {
	// Error500 is the share of requests answered 500 without reaching Neutron.
	Error500 float64
	// LostReply is the share of writes (POST, PUT, DELETE) that Neutron carries out but
	// whose answer never reaches the caller: half of them get a 502, half a reset
	// connection. This is what makes a careless controller create a resource twice.
	LostReply float64
	// Delay is the share of requests held back before they are forwarded, for a uniformly
	// random time up to MaxDelay.
	Delay    float64
	MaxDelay time.Duration
}

// FaultCounts are what a FaultProxy did so far.
type FaultCounts struct {
	Requests  int64 // every request received
	Forwarded int64 // requests that reached Neutron
	Error500  int64 // answered 500 without forwarding
	Lost502   int64 // forwarded and carried out, answered 502
	LostReset int64 // forwarded and carried out, connection reset
	Delayed   int64 // held back before forwarding
}

func (c FaultCounts) String() string {
	return fmt.Sprintf("requests=%d forwarded=%d 500-not-forwarded=%d 502-after-commit=%d reset-after-commit=%d delayed=%d",
		c.Requests, c.Forwarded, c.Error500, c.Lost502, c.LostReset, c.Delayed)
}

// FaultProxy is a reverse proxy on 127.0.0.1 in front of the real Neutron that injects
// faults at seeded random, per request. Point a controller at URL() with
// -neutron-endpoint.
type FaultProxy struct {
	srv   *httptest.Server
	proxy *httputil.ReverseProxy

	mu    sync.Mutex
	rng   *rand.Rand
	rates FaultRates

	requests, forwarded, error500, lost502, lostReset, delayed atomic.Int64

	hold *heldRequests
}

// heldRequests are the requests a FaultProxy keeps from Neutron for a while, to keep a
// reconcile in flight.
type heldRequests struct {
	match func(r *http.Request, body []byte) bool
	delay time.Duration
	// Arrived receives when a held request arrives, Answered when Neutron has answered it.
	Arrived, Answered chan time.Time
}

// StartFaultProxy starts a proxy to target (a Neutron endpoint URL) whose fault draws come
// from seed, and closes it at the end of the test.
func StartFaultProxy(t testing.TB, target string, seed int64, rates FaultRates) *FaultProxy {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatalf("parsing Neutron endpoint %q: %v", target, err)
	}
	p := &FaultProxy{rng: rand.New(rand.NewSource(seed)), rates: rates}
	p.proxy = &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) { pr.SetURL(u) },
		// Neutron down (e.g. restarted by a test) is an ordinary 502, not a log line per
		// request.
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			http.Error(w, "fault proxy: Neutron unreachable: "+err.Error(), http.StatusBadGateway)
		},
	}
	p.srv = httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(func() {
		p.srv.CloseClientConnections()
		p.srv.Close()
	})
	return p
}

// URL is the proxy's endpoint, for -neutron-endpoint.
func (p *FaultProxy) URL() string { return p.srv.URL + "/" }

// SetRates changes the fault rates for the requests that arrive from now on.
func (p *FaultProxy) SetRates(r FaultRates) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rates = r
}

// Counts returns what the proxy did so far.
func (p *FaultProxy) Counts() FaultCounts {
	return FaultCounts{
		Requests:  p.requests.Load(),
		Forwarded: p.forwarded.Load(),
		Error500:  p.error500.Load(),
		Lost502:   p.lost502.Load(),
		LostReset: p.lostReset.Load(),
		Delayed:   p.delayed.Load(),
	}
}

type faultDecision struct {
	error500, lost, reset bool
	delay                 time.Duration
}

func (p *FaultProxy) decide(r *http.Request) faultDecision {
	p.mu.Lock()
	defer p.mu.Unlock()
	var d faultDecision
	// Every draw is made whatever the outcome, so each request consumes the same amount of
	// the random stream.
	e, l, half, dl, amount := p.rng.Float64(), p.rng.Float64(), p.rng.Float64(), p.rng.Float64(), p.rng.Float64()
	write := r.Method == http.MethodPost || r.Method == http.MethodPut || r.Method == http.MethodDelete
	switch {
	case e < p.rates.Error500:
		d.error500 = true
	case write && l < p.rates.LostReply:
		d.lost, d.reset = true, half < 0.5
	}
	if !d.error500 && dl < p.rates.Delay && p.rates.MaxDelay > 0 {
		d.delay = time.Duration(amount * float64(p.rates.MaxDelay))
	}
	return d
}

// Hold keeps every request that match accepts from Neutron for delay, and returns the
// channels that tell when one arrives and when Neutron has answered it. Call it before the
// controller starts.
func (p *FaultProxy) Hold(delay time.Duration, match func(r *http.Request, body []byte) bool) *heldRequests {
	p.hold = &heldRequests{match: match, delay: delay, Arrived: make(chan time.Time, 16), Answered: make(chan time.Time, 16)}
	return p.hold
}

// notify sends the time without blocking: a full channel means nobody waits for more.
func notify(ch chan time.Time) {
	select {
	case ch <- time.Now():
	default:
	}
}

func (p *FaultProxy) serve(w http.ResponseWriter, r *http.Request) {
	p.requests.Add(1)
	if h := p.hold; h != nil {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if h.match(r, body) {
			notify(h.Arrived)
			select {
			case <-time.After(h.delay):
			case <-r.Context().Done():
				return
			}
			p.proxy.ServeHTTP(w, r)
			notify(h.Answered)
			return
		}
	}
	d := p.decide(r)
	if d.error500 {
		p.error500.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte(`{"NeutronError": {"type": "HTTPInternalServerError", "message": "injected by the fault proxy", "detail": ""}}`))
		return
	}
	if d.delay > 0 {
		p.delayed.Add(1)
		select {
		case <-time.After(d.delay):
		case <-r.Context().Done():
			return
		}
	}
	p.forwarded.Add(1)
	if !d.lost {
		p.proxy.ServeHTTP(w, r)
		return
	}
	// Let Neutron carry the request out in full, then lose its answer.
	rec := httptest.NewRecorder()
	p.proxy.ServeHTTP(rec, r)
	if d.reset {
		if p.reset(w) {
			p.lostReset.Add(1)
			return
		}
	}
	p.lost502.Add(1)
	http.Error(w, "fault proxy: reply lost after Neutron answered "+fmt.Sprint(rec.Code), http.StatusBadGateway)
}

// reset closes the client's connection with a TCP RST, without a response.
func (p *FaultProxy) reset(w http.ResponseWriter) bool {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return false
	}
	if tcp, ok := conn.(*net.TCPConn); ok {
		_ = tcp.SetLinger(0)
	}
	_ = conn.Close()
	return true
}
