package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/samplecrd/network-controller/test/serverlog"
)

// callCounts are Neutron requests by HTTP method.
type callCounts map[string]int

func (c callCounts) total() int {
	n := 0
	for _, v := range c {
		n += v
	}
	return n
}

func (c callCounts) add(o callCounts) {
	for k, v := range o {
		c[k] += v
	}
}

// String formats the counts, most frequent first, e.g. "GET 82, POST 20".
func (c callCounts) String() string {
	if len(c) == 0 {
		return "none"
	}
	parts := []string{}
	for _, m := range mostFirst(c) {
		parts = append(parts, fmt.Sprintf("%s %d", m, c[m]))
	}
	return strings.Join(parts, ", ")
}

// perNetwork formats the counts divided by n, e.g. "GET 8.20, POST 2.00".
func (c callCounts) perNetwork(n int) string { return perNetwork(c, n) }

// requestLog reads neutron-server's log file between byte offsets.
type requestLog struct {
	path string
}

// offset returns the position just after the last complete line, so that a window never
// starts or ends in the middle of a line.
func (l *requestLog) offset() (int64, error) {
	f, err := os.Open(l.path)
	if err != nil {
		return 0, fmt.Errorf("opening the Neutron log: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, fmt.Errorf("reading the size of %s: %w", l.path, err)
	}
	size := st.Size()
	const tail = 64 << 10
	start := max(size-tail, 0)
	buf := make([]byte, size-start)
	if _, err := f.ReadAt(buf, start); err != nil && err != io.EOF {
		return 0, fmt.Errorf("reading %s: %w", l.path, err)
	}
	i := bytes.LastIndexByte(buf, '\n')
	if i < 0 {
		return start, nil
	}
	return start + int64(i) + 1, nil
}

// count returns the requests logged between the offsets from and to, by HTTP method.
func (l *requestLog) count(from, to int64) (callCounts, error) {
	out := callCounts{}
	err := l.each(from, to, func(r serverlog.NeutronRequest, _ string) { out[r.Method]++ })
	return out, err
}

// countOps returns the requests logged between the offsets from and to, by operation
// (operationOf).
func (l *requestLog) countOps(from, to int64) (callCounts, error) {
	out := callCounts{}
	err := l.each(from, to, func(r serverlog.NeutronRequest, _ string) { out[operationOf(r.Method, r.Path)]++ })
	return out, err
}

// each calls fn with every request logged between the offsets from and to, and its line.
func (l *requestLog) each(from, to int64, fn func(r serverlog.NeutronRequest, line string)) error {
	if to < from {
		return fmt.Errorf("the Neutron log %s shrank (offset %d before %d): was it rotated?", l.path, to, from)
	}
	f, err := os.Open(l.path)
	if err != nil {
		return fmt.Errorf("opening the Neutron log: %w", err)
	}
	defer f.Close()
	buf := make([]byte, to-from)
	if _, err := f.ReadAt(buf, from); err != nil && err != io.EOF {
		return fmt.Errorf("reading %s from %d to %d: %w", l.path, from, to, err)
	}
	for _, line := range strings.Split(string(buf), "\n") {
		if r, ok := serverlog.ParseNeutronRequest(line); ok {
			fn(r, line)
		}
	}
	return nil
}

// operationOf names a Neutron request by what it does, in the words of the controller's
// own metric: "create network", "tag network", "list ports", "delete network", "add router
// interface", "ping" (the first page of one network, the controller's /readyz check).
func operationOf(method, path string) string {
	p, query, _ := strings.Cut(path, "?")
	parts := strings.Split(strings.Trim(strings.TrimPrefix(p, "/v2.0"), "/"), "/")
	if parts[0] == "" {
		return method + " /"
	}
	plural := strings.ReplaceAll(parts[0], "subnetpools", "subnet pools")
	plural = strings.ReplaceAll(plural, "_", " ")
	one := strings.TrimSuffix(plural, "s")
	switch {
	case len(parts) == 1 && method == "GET" && parts[0] == "networks" && slices.Contains(strings.Split(query, "&"), "limit=1"):
		return "ping"
	case len(parts) == 1 && method == "GET":
		return "list " + plural
	case len(parts) == 1 && method == "POST":
		return "create " + one
	case len(parts) == 2 && method == "GET":
		return "show " + one
	case len(parts) == 2 && method == "PUT":
		return "update " + one
	case len(parts) == 2 && method == "DELETE":
		return "delete " + one
	case len(parts) == 3 && parts[2] == "tags" && method == "PUT":
		return "tag " + one
	case len(parts) == 3 && parts[0] == "routers" && method == "PUT":
		// A router's actions: add_router_interface, remove_router_interface.
		return strings.ReplaceAll(parts[2], "_", " ")
	}
	return method + " " + p
}

// neutronTiming reads when neutron-server logged a request line (its local time, to the
// millisecond) and how long it took to answer it.
func neutronTiming(line string) (at time.Time, took time.Duration, ok bool) {
	if len(line) < len(neutronTimeLayout) {
		return time.Time{}, 0, false
	}
	at, err := time.ParseInLocation(neutronTimeLayout, line[:len(neutronTimeLayout)], time.Local)
	if err != nil {
		return time.Time{}, 0, false
	}
	i := strings.LastIndex(line, " time: ")
	if i < 0 {
		return time.Time{}, 0, false
	}
	secs, err := strconv.ParseFloat(strings.TrimSpace(line[i+len(" time: "):]), 64)
	if err != nil {
		return time.Time{}, 0, false
	}
	return at, time.Duration(secs * float64(time.Second)), true
}

const neutronTimeLayout = "2006-01-02 15:04:05.000"

// follow polls the log from offset from every 100 ms and calls done with the current time
// and the time it last saw a request logged (zero while none came), until done returns
// true; then it returns that last time. It gives up after limit.
func (l *requestLog) follow(ctx context.Context, from int64, limit time.Duration, done func(now, last time.Time) bool) (time.Time, error) {
	var last time.Time
	pos := from
	deadline := time.Now().Add(limit)
	for {
		now := time.Now()
		next, err := l.offset()
		if err != nil {
			return last, err
		}
		if next != pos {
			c, err := l.count(pos, next)
			if err != nil {
				return last, err
			}
			if c.total() > 0 {
				last = now
			}
			pos = next
		}
		if done(now, last) {
			return last, nil
		}
		if now.After(deadline) {
			return last, fmt.Errorf("Neutron still busy after %s (last request at %s)", limit, last.Format(time.TimeOnly))
		}
		select {
		case <-ctx.Done():
			return last, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// waitQuiet returns once no request has been logged for quiet, counting from now.
func (l *requestLog) waitQuiet(ctx context.Context, quiet, limit time.Duration) error {
	since := time.Now()
	from, err := l.offset()
	if err != nil {
		return err
	}
	_, err = l.follow(ctx, from, limit, func(now, last time.Time) bool {
		return now.Sub(later(last, since)) >= quiet
	})
	return err
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
