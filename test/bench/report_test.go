package main

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{1.5}, 1.5},
	} {
		if got := median(tc.in); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
	if !math.IsNaN(median(nil)) {
		t.Error("median of nothing is not NaN")
	}
}

func TestParseVmHWM(t *testing.T) {
	got, err := parseVmHWM(strings.NewReader("Name:\tnetwork-control\nVmPeak:\t 1300000 kB\nVmHWM:\t   41384 kB\nVmRSS:\t   40000 kB\n"))
	if err != nil || got != 41384*1024 {
		t.Errorf("parseVmHWM = %d, %v; want %d", got, err, 41384*1024)
	}
	if _, err := parseVmHWM(strings.NewReader("Name:\tx\n")); err == nil {
		t.Error("a status without VmHWM was accepted")
	}
}

func TestParseNeutronCalls(t *testing.T) {
	text := `# HELP network_controller_neutron_requests_total Neutron API calls.
# TYPE network_controller_neutron_requests_total counter
network_controller_neutron_requests_total{operation="create network",outcome="ok"} 100
network_controller_neutron_requests_total{operation="list networks",outcome="ok"} 201
network_controller_neutron_requests_total{operation="list networks",outcome="Unavailable"} 2
network_controller_neutron_request_duration_seconds_count{operation="list networks"} 203
`
	got, err := parseNeutronCalls(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if got["create network"] != 100 || got["list networks"] != 203 || len(got) != 2 || got.total() != 303 {
		t.Errorf("parseNeutronCalls = %v", got)
	}
}

func TestOpCounts(t *testing.T) {
	before := opCounts{"list networks": 4, "ping": 1}
	after := opCounts{"list networks": 10, "ping": 1, "create network": 2}
	d := after.minus(before)
	if d.total() != 8 || d.perNetwork(2) != "list networks 3.00, create network 1.00" {
		t.Errorf("minus = %v (%s)", d, d.perNetwork(2))
	}
	if after.minus(nil) != nil || !math.IsNaN(opCounts(nil).total()) {
		t.Error("an unknown count did not stay unknown")
	}
}

func TestPercentileIsNearestRank(t *testing.T) {
	var d []time.Duration
	for i := 20; i >= 1; i-- {
		d = append(d, time.Duration(i)*time.Second)
	}
	for _, c := range []struct {
		q    float64
		want time.Duration
	}{{50, 10 * time.Second}, {99, 20 * time.Second}, {5, time.Second}, {100, 20 * time.Second}} {
		if got := percentile(d, c.q); got != c.want {
			t.Errorf("p%v of 1..20 s = %s, want %s", c.q, got, c.want)
		}
	}
	if got := percentile(nil, 50); got != 0 {
		t.Errorf("p50 of nothing = %s, want 0", got)
	}
}
