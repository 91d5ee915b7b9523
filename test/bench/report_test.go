package main

import (
	"math"
	"regexp"
	"slices"
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

func TestParseStatusKB(t *testing.T) {
	status := "Name:\tnetwork-control\nVmPeak:\t 1300000 kB\nVmHWM:\t   41384 kB\nVmRSS:\t   40000 kB\n"
	for field, want := range map[string]int64{"VmHWM": 41384 * 1024, "VmRSS": 40000 * 1024} {
		got, err := parseStatusKB(strings.NewReader(status), field)
		if err != nil || got != want {
			t.Errorf("parseStatusKB(%s) = %d, %v; want %d", field, got, err, want)
		}
	}
	if _, err := parseStatusKB(strings.NewReader("Name:\tx\n"), "VmHWM"); err == nil {
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

func TestParseMetricSum(t *testing.T) {
	text := `# HELP network_controller_reconcile_total Network reconciliations.
# TYPE network_controller_reconcile_total counter
network_controller_reconcile_total{result="error"} 2
network_controller_reconcile_total{result="success"} 997
network_controller_reconcile_totals 5
network_controller_reconcile_duration_seconds_count{result="success"} 997
`
	got, err := parseMetricSum(strings.NewReader(text), "network_controller_reconcile_total")
	if err != nil || got != 999 {
		t.Errorf("parseMetricSum = %v, %v; want 999", got, err)
	}
	got, err = parseMetricSum(strings.NewReader(text), `network_controller_reconcile_total{result="error"}`)
	if err != nil || got != 2 {
		t.Errorf("parseMetricSum of the errors = %v, %v; want 2", got, err)
	}
}

func TestParseHeapAlloc(t *testing.T) {
	got, err := parseHeapAlloc(strings.NewReader("heap profile: 1: 2 [3: 4] @ heap/1048576\n\n# runtime.MemStats\n# Alloc = 123\n# HeapAlloc = 456789\n# Sys = 1\n"))
	if err != nil || got != 456789 {
		t.Errorf("parseHeapAlloc = %d, %v; want 456789", got, err)
	}
	if _, err := parseHeapAlloc(strings.NewReader("# Alloc = 1\n")); err == nil {
		t.Error("a profile without HeapAlloc was accepted")
	}
}

func TestScalePoints(t *testing.T) {
	for _, tc := range []struct {
		at   []int
		n    int
		want []int
	}{
		{[]int{1000}, 10000, []int{1000, 10000}},
		{[]int{5000, 1000, 1000, 0}, 10000, []int{1000, 5000, 10000}},
		{[]int{1000}, 500, []int{500}},
		{nil, 10, []int{10}},
	} {
		if got := scalePoints(tc.at, tc.n); !slices.Equal(got, tc.want) {
			t.Errorf("scalePoints(%v, %d) = %v, want %v", tc.at, tc.n, got, tc.want)
		}
	}
	var l intList
	if err := l.Set("1000, 5000"); err != nil || !slices.Equal(l, intList{1000, 5000}) || l.String() != "1000,5000" {
		t.Errorf("intList.Set(\"1000, 5000\") = %v, %v", l, err)
	}
	if err := l.Set("1k"); err == nil {
		t.Error("intList accepted 1k")
	}
}

func TestPrintRoundsWithBaseline(t *testing.T) {
	s := func(create, del time.Duration) stageResult {
		return stageResult{create: phase{dur: create, calls: callCounts{"POST": 20, "PUT": 10}}, delete: phase{dur: del, calls: callCounts{"DELETE": 10}}}
	}
	base1, base2 := s(11*time.Second, 12*time.Second), s(12*time.Second, 10*time.Second)
	rounds := []roundResult{
		{raw: s(10*time.Second, 10*time.Second), controller: s(10*time.Second, 11*time.Second), baseline: &base1},
		{raw: s(10*time.Second, 10*time.Second), controller: s(12*time.Second, 10*time.Second), baseline: &base2, baselineFirst: true},
	}
	var out strings.Builder
	printRounds(&out, options{n: 10, workers: 4, commit: "commit aaa", baselineCommit: "commit bbb", baseline: "x"}, time.Now(), rounds)
	text := out.String()
	for _, want := range []string{
		"commit aaa, baseline commit bbb",
		"controller/baseline",
		"controller vs baseline, medians: create 1.10x vs 1.15x of the raw loop (controller/baseline 0.95x); delete 1.05x vs 1.10x (controller/baseline 0.96x)",
		"baseline    3.00 (POST 2.00, PUT 1.00)  1.00 (DELETE 1.00)  4.00",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
	// create: controller 1.00x and 1.20x, baseline 1.10x and 1.20x, quotients 0.91x and 1.00x.
	if !regexp.MustCompile(`median +1\.10x +1\.15x +0\.95x`).MatchString(text) {
		t.Errorf("no median line of create 1.10x, 1.15x, 0.95x:\n%s", text)
	}
	if strings.Count(text, "  baseline  ") < 2 {
		t.Errorf("round 2 does not say the baseline went first:\n%s", text)
	}
}

func TestBuildsOfRoundAlternate(t *testing.T) {
	s := rounds{builds: []build{{name: "controller"}, {name: "baseline"}}}
	if got := s.buildsOfRound(1); got[0].name != "controller" {
		t.Errorf("round 1 starts with %s", got[0].name)
	}
	if got := s.buildsOfRound(2); got[0].name != "baseline" || s.builds[0].name != "controller" {
		t.Errorf("round 2 starts with %s (builds %v)", got[0].name, s.builds)
	}
}

func TestPrintDual(t *testing.T) {
	s := func(create, del time.Duration, subnetPosts int) stageResult {
		return stageResult{
			create: phase{dur: create, calls: callCounts{"POST": 10 + 10*subnetPosts, "PUT": 10},
				ops: callCounts{"create network": 10, "tag network": 10, "create subnet": 10 * subnetPosts}},
			delete: phase{dur: del, calls: callCounts{"DELETE": 10}, ops: callCounts{"delete network": 10}},
		}
	}
	bulk := s(8*time.Second, 10*time.Second, 1)
	rounds := []roundResult{{raw: s(10*time.Second, 10*time.Second, 2), controller: s(11*time.Second, 10*time.Second, 2), bulk: &bulk}}
	var out strings.Builder
	printDual(&out, options{dualN: 10, workers: 4}, rounds)
	text := out.String()
	for _, want := range []string{
		"Dual stack: 10 Networks per round",
		"controller  4.00 (POST 3.00, PUT 1.00)  1.00 (DELETE 1.00)  5.00",
		"controller: 5.00 (create subnet 2.00, create network 1.00, delete network 1.00, tag network 1.00)",
		"calls per Network: bulk 4.00 (create network 1.00, create subnet 1.00, delete network 1.00, tag network 1.00); one by one 5.00",
		"create: bulk 8.0 s, one by one 10.0 s (0.80x)",
		"would take 4.00 Neutron calls per lifecycle instead of the controller's 5.00",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
}

func TestPrintResync(t *testing.T) {
	at := time.Date(2026, 11, 26, 8, 0, 0, 0, time.UTC)
	lists := callCounts{"list networks": 1, "list subnets": 1, "list ports": 1}
	pass := func(k int, requeued, writes int) resyncPass {
		start := at.Add(time.Duration(k) * 5 * time.Second)
		return resyncPass{at: start.Add(300 * time.Millisecond), start: start, cut: start.Add(250 * time.Millisecond), calls: callCounts{"GET": 3}, ops: lists,
			metric: opCounts{"list networks": 1, "list subnets": 1, "list ports": 1}, neutron: 250 * time.Millisecond,
			portsQuery: "unfiltered", requeued: requeued, writes: writes, written: writes}
	}
	r := results{resync: &resyncResult{n: 1000, ports: 100, period: 5 * time.Second, settled: 2, firstWrites: 1000, firstWritten: 1000,
		restart: restartCount{calls: callCounts{"GET": 3}, ops: callCounts{"ping": 1, "list networks": 1, "list subnets": 1}, lastCall: time.Second},
		startup: callCounts{"ping": 1, "list networks": 1, "list subnets": 1},
		passes:  []resyncPass{pass(1, 1000, 700), pass(2, 300, 300), pass(3, 0, 0), pass(4, 0, -1)}, counted: 1000, used: 100}}
	var out strings.Builder
	r.printResync(&out)
	text := out.String()
	for _, want := range []string{
		"Neutron calls from the start until quiet: 3 (list networks 1, list subnets 1, ping 1)",
		"3 settled  3              list networks 1, list ports 1, list subnets 1  0.30 s  0.2 s           0         0 (0)",
		"first resync: 3 Neutron calls (list networks 1, list ports 1, list subnets 1; the controller's own metric: list networks 1, list ports 1, list subnets 1), 0.30 s; it requeued 1000 Networks",
		"from the first's ports list to the settled one's: 1000, to 1000 Networks",
		"settled resync (pass 3)",
		"the list of ports: unfiltered (over 100 Networks",
		"1000 of 1000 Networks show their subnets' addresses, 100 addresses used in all (100 ports made)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
}

func TestDescribePortsQuery(t *testing.T) {
	for path, want := range map[string]string{
		"/v2.0/ports?network_id=a&network_id=b&fields=id": "by 2 network IDs",
		"/v2.0/ports?project_id=p":                        "by project",
		"/v2.0/ports":                                     "unfiltered",
	} {
		if got := describePortsQuery(path); got != want {
			t.Errorf("describePortsQuery(%s) = %q, want %q", path, got, want)
		}
	}
}

func TestPrintRouted(t *testing.T) {
	// Rounds of 10: per Network 5 calls to create and 4 to delete, and one lookup of the
	// external network per round.
	s := func(create, del time.Duration) stageResult {
		return stageResult{
			create: phase{dur: create, calls: callCounts{"POST": 30, "PUT": 20, "GET": 1},
				ops: callCounts{"create network": 10, "tag network": 10, "create subnet": 10, "create router": 10, "add router interface": 10, "list networks": 1}},
			delete: phase{dur: del, calls: callCounts{"GET": 10, "PUT": 10, "DELETE": 20},
				ops: callCounts{"list ports": 10, "remove router interface": 10, "delete router": 10, "delete network": 10}},
		}
	}
	rounds := []roundResult{
		{raw: s(10*time.Second, 10*time.Second), controller: s(11*time.Second, 9*time.Second)},
		{raw: s(10*time.Second, 10*time.Second), controller: s(13*time.Second, 12*time.Second)},
	}
	var out strings.Builder
	printRouted(&out, options{routedN: 10, routedExternal: "public", workers: 4, baseline: "x", baselineCommit: "commit bbb"}, rounds)
	text := out.String()
	for _, want := range []string{
		"Routed: 10 one-subnet Networks per round, each with a router of its own whose gateway is on external network public",
		"the baseline, commit bbb, is not run in this stage",
		"controller  5.10 (POST 3.00, PUT 2.00, GET 0.10)  4.00 (DELETE 2.00, GET 1.00, PUT 1.00)  9.10",
		"controller: create 5.10 (add router interface 1.00, create network 1.00, create router 1.00, create subnet 1.00, tag network 1.00, list networks 0.10)",
		"delete 4.00 (delete network 1.00, delete router 1.00, list ports 1.00, remove router interface 1.00)",
		"controller: 9.00 per Network (9.10 counting the external network's lookup, 1.0 per round); 7.00 without the tags' PUT (1.00) and the ports' list before the delete (1.00)",
		"API minimum for the same result: 7",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
	// create 1.10x and 1.30x, delete 0.90x and 1.20x.
	if !regexp.MustCompile(`median +1\.20x +1\.05x`).MatchString(text) {
		t.Errorf("no median line of 1.20x and 1.05x:\n%s", text)
	}
	out.Reset()
	printRouted(&out, options{routedN: 10}, nil)
	if out.Len() != 0 {
		t.Errorf("a skipped stage printed %q", out.String())
	}
}

func TestRoutedLifecycleOf(t *testing.T) {
	ps := []phase{
		{ops: callCounts{"create network": 50, "tag network": 50, "create subnet": 50, "create router": 50, "add router interface": 50, "list networks": 1}},
		{ops: callCounts{"list ports": 50, "remove router interface": 50, "delete router": 50, "delete network": 50}},
	}
	l := routedLifecycleOf(ps, 50, 1)
	if l.perNetwork != 9 || l.lookupsPerRound != 1 || l.tags != 1 || l.ports != 1 || l.perNetwork-l.tags-l.ports != routedMinimum {
		t.Errorf("routedLifecycleOf = %+v", l)
	}
}
