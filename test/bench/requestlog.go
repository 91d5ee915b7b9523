package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
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

// count returns the requests logged between the offsets from and to.
func (l *requestLog) count(from, to int64) (callCounts, error) {
	if to < from {
		return nil, fmt.Errorf("the Neutron log %s shrank (offset %d before %d): was it rotated?", l.path, to, from)
	}
	f, err := os.Open(l.path)
	if err != nil {
		return nil, fmt.Errorf("opening the Neutron log: %w", err)
	}
	defer f.Close()
	buf := make([]byte, to-from)
	if _, err := f.ReadAt(buf, from); err != nil && err != io.EOF {
		return nil, fmt.Errorf("reading %s from %d to %d: %w", l.path, from, to, err)
	}
	out := callCounts{}
	for _, line := range strings.Split(string(buf), "\n") {
		if r, ok := serverlog.ParseNeutronRequest(line); ok {
			out[r.Method]++
		}
	}
	return out, nil
}

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
