package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// supportsFlag reports whether the controller binary lists flag in its -h, so a stage
// can measure an older build that lacks it.
func supportsFlag(binary, flag string) bool {
	out, _ := exec.Command(binary, "-h").CombinedOutput() // -h exits 0 or 2 by version
	return strings.Contains(string(out), "-"+flag+" ") || strings.Contains(string(out), "-"+flag+"\n")
}

// liveHeap forces a garbage collection in the controller and returns the heap that
// survived it (HeapAlloc right after), through its /debug/pprof/heap. It also saves the
// heap profile as saveTo, for go tool pprof. ok is false when the controller serves no
// profiles.
func (p *controllerProcess) liveHeap(saveTo string) (bytes int64, ok bool, err error) {
	if p.profilingAddr == "" {
		return 0, false, nil
	}
	client := http.Client{Timeout: time.Minute}
	base := "http://" + p.profilingAddr + "/debug/pprof/heap?gc=1"
	resp, err := client.Get(base + "&debug=1")
	if err != nil {
		return 0, false, fmt.Errorf("reading the heap of controller pid %d: %w", p.pid(), err)
	}
	bytes, err = parseHeapAlloc(resp.Body)
	resp.Body.Close()
	if err != nil {
		return 0, false, fmt.Errorf("reading the heap of controller pid %d: %w", p.pid(), err)
	}
	if saveTo != "" {
		if err := download(client, base, saveTo); err != nil {
			return 0, false, err
		}
	}
	return bytes, true, nil
}

// parseHeapAlloc reads "# HeapAlloc = N" from the text form of a heap profile.
func parseHeapAlloc(r io.Reader) (int64, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "# HeapAlloc = "); ok {
			return strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("no HeapAlloc line in the heap profile")
}

func download(client http.Client, url, path string) error {
	resp, err := client.Get(url)
	if err != nil {
		return fmt.Errorf("downloading %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("downloading %s: %s", url, resp.Status)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Close()
}

// metricSum scrapes the controller and sums every series of the metric name.
func (p *controllerProcess) metricSum(name string) (float64, error) {
	client := http.Client{Timeout: 5 * time.Second}
	resp, err := client.Get("http://" + p.metricsAddr + "/metrics")
	if err != nil {
		return 0, fmt.Errorf("scraping controller pid %d: %w", p.pid(), err)
	}
	defer resp.Body.Close()
	return parseMetricSum(resp.Body, name)
}

// parseMetricSum sums the series of the metric name in Prometheus text; a name with a
// label, e.g. reconcile_total{result="deferred"}, sums only the series with that label.
func parseMetricSum(r io.Reader, name string) (float64, error) {
	name, label, _ := strings.Cut(name, "{")
	label = strings.TrimSuffix(label, "}")
	sum := 0.0
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		rest, ok := strings.CutPrefix(line, name)
		if !ok || rest == "" || (rest[0] != '{' && rest[0] != ' ') {
			continue
		}
		if i := strings.LastIndex(rest, "}"); i >= 0 {
			if !strings.Contains(rest[:i], label) {
				continue
			}
			rest = rest[i+1:]
		} else if label != "" {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) == 0 {
			return 0, fmt.Errorf("malformed metric line %q", line)
		}
		v, err := strconv.ParseFloat(fields[0], 64)
		if err != nil {
			return 0, fmt.Errorf("parsing %q: %w", line, err)
		}
		sum += v
	}
	return sum, sc.Err()
}
