package main

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"net/http"
	"time"
)

// breakdown is the controller's own account of where a phase's time went: sums of its
// series, by breakdownSeries' key. A key the controller does not export (a baseline
// older than the series) is NaN.
type breakdown map[string]float64

// breakdownSeries are the series a phase is broken down by, each summed over its labels
// (or those the name selects). A series exported from the start (declared) that is not
// there is one the build lacks; one that is not declared has no sample yet.
var breakdownSeries = []struct {
	key, series string
	declared    bool
}{
	{"passes", "network_controller_reconcile_total", false},
	{"pass", "network_controller_reconcile_duration_seconds_sum", false},
	{"queue", "network_controller_workqueue_wait_seconds_sum", true},
	{"neutron", "network_controller_neutron_request_duration_seconds_sum", false},
	{"rate", `network_controller_neutron_rate_limit_wait_seconds_total{limiter="total"}`, true},
	{"token", "network_controller_keystone_token_wait_seconds_total", true},
	{"writes", "network_controller_api_write_duration_seconds_count", true},
	{"write", "network_controller_api_write_duration_seconds_sum", true},
}

// breakdownNow scrapes p once for every breakdownSeries.
func (p *controllerProcess) breakdownNow() (breakdown, error) {
	client := http.Client{Timeout: 5 * time.Second}
	resp, err := client.Get("http://" + p.metricsAddr + "/metrics")
	if err != nil {
		return nil, fmt.Errorf("scraping controller pid %d: %w", p.pid(), err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("scraping controller pid %d: %w", p.pid(), err)
	}
	return parseBreakdown(body)
}

// parseBreakdown sums every breakdownSeries in Prometheus text; NaN for a declared one
// not there, 0 for another.
func parseBreakdown(body []byte) (breakdown, error) {
	out := breakdown{}
	for _, s := range breakdownSeries {
		name, _, _ := bytes.Cut([]byte(s.series), []byte("{"))
		if s.declared && !bytes.Contains(body, append([]byte("\n"), name...)) && !bytes.HasPrefix(body, name) {
			out[s.key] = math.NaN()
			continue
		}
		v, err := parseMetricSum(bytes.NewReader(body), s.series)
		if err != nil {
			return nil, err
		}
		out[s.key] = v
	}
	return out, nil
}

// minus is what b counted since from; nil when either is unknown.
func (b breakdown) minus(from breakdown) breakdown {
	if b == nil || from == nil {
		return nil
	}
	out := breakdown{}
	for k, v := range b {
		out[k] = v - from[k]
	}
	return out
}

// sumBreakdowns adds up the phases' breakdowns; nil when any is unknown.
func sumBreakdowns(ps []phase) breakdown {
	out := breakdown{}
	for _, p := range ps {
		if p.breakdown == nil {
			return nil
		}
		for k, v := range p.breakdown {
			out[k] += v
		}
	}
	return out
}

// printBreakdown prints, per Network, where each build's time went in the phases, by the
// controller's own metrics, beside the raw loop's: a build's workers are busy for the
// phase's time at its concurrency (the wall time times workers, over the Networks), which
// is its passes' time (Neutron's answers, the waits for -neutron-qps and token turns, its
// API writes, and the rest: its own work) plus the time its workers found nothing to do
// (waiting for the informer to deliver, or for a deferred Network's turn).
func printBreakdown(w io.Writer, n, workers int, rows []callRow) {
	fmt.Fprintf(w, "\nWhere a Network's time goes, per Network (ms; the controller's own metrics; busy = wall time x %d workers / Networks):\n", workers)
	for _, what := range []string{"create", "delete"} {
		for _, row := range rows {
			ps := row.create
			if what == "delete" {
				ps = row.delete
			}
			if len(ps) == 0 {
				continue
			}
			all := float64(n * len(ps))
			var wall time.Duration
			for _, p := range ps {
				wall += p.dur
			}
			busy := wall.Seconds() * float64(workers) / all * 1000
			b := sumBreakdowns(ps)
			if b == nil {
				fmt.Fprintf(w, "  %-6s %-10s busy %6.0f\n", what, row.name, busy)
				continue
			}
			per := func(k string) float64 { return b[k] / all * 1000 }
			rest := per("pass") - per("neutron") - nanZero(per("rate")) - nanZero(per("token")) - nanZero(per("write"))
			fmt.Fprintf(w, "  %-6s %-10s busy %6.0f = passes %6.0f (Neutron %5.0f, -neutron-qps %4s, token turns %4s, API writes %4s in %s, own %4.0f) + idle %5.0f; %.2f passes, queue wait %5.0f\n",
				what, row.name, busy, per("pass"), per("neutron"), metricCount(per("rate")), metricCount(per("token")), metricCount(per("write")),
				metricText(b["writes"]/all), rest, busy-per("pass"), b["passes"]/all, per("queue"))
		}
	}
}

func nanZero(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return v
}
