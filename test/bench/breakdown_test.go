package main

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestBreakdownOfAPhase(t *testing.T) {
	before, err := parseBreakdown([]byte(`# HELP network_controller_reconcile_total x
network_controller_reconcile_total{result="success"} 10
network_controller_reconcile_total{result="deferred"} 2
network_controller_reconcile_duration_seconds_sum{result="success"} 1
network_controller_workqueue_wait_seconds_sum{class="user_change"} 0.5
network_controller_neutron_request_duration_seconds_sum{operation="create network"} 0.5
network_controller_neutron_rate_limit_wait_seconds_total{limiter="project"} 7
network_controller_neutron_rate_limit_wait_seconds_total{limiter="total"} 0
network_controller_api_write_duration_seconds_count{write="status"} 4
network_controller_api_write_duration_seconds_sum{write="status"} 0.1
`))
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(before["token"]) {
		t.Errorf("token wait = %v for a controller without the series, want NaN", before["token"])
	}
	after := breakdown{}
	for k, v := range before {
		after[k] = v
	}
	after["passes"] += 20 // 2 per Network
	after["pass"] += 4    // 400 ms per Network
	after["neutron"] += 3 // 300 ms
	after["write"] += 0.5 // 50 ms
	after["writes"] += 30 // 3 per Network
	after["queue"] += 1   // 100 ms
	measured := phase{dur: 2 * time.Second, breakdown: after.minus(before)}

	var out strings.Builder
	printBreakdown(&out, 10, 4, []callRow{{name: "raw loop", create: []phase{{dur: time.Second}}}, {name: "controller", create: []phase{measured}}})
	for _, want := range []string{
		"create raw loop   busy    400",
		"create controller busy    800 = passes    400 (Neutron   300, -neutron-qps    0, token turns    -, API writes   50 in 3.00, own   50) + idle   400; 2.00 passes, queue wait   100",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("breakdown lacks %q:\n%s", want, out.String())
		}
	}
}
