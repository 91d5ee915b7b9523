package endpoints

import (
	"sync"
	"time"
)

// logThrottle lets a line about a repeated event through at most once per interval, and
// tells it how many events there were since the previous line: a flood of events makes
// one line per interval, not one each.
type logThrottle struct {
	interval time.Duration
	now      func() time.Time

	mu sync.Mutex
	// lastLine is zero until the first line: the first event is logged at once.
	lastLine time.Time
	unlogged int
}

func newLogThrottle(interval time.Duration) *logThrottle {
	return &logThrottle{interval: interval, now: time.Now}
}

// count counts an event and reports whether a line is due, with the events since the
// last line, this one included. Events after the last line of a flood wait for the next.
func (t *logThrottle) count() (events int, due bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.unlogged++
	now := t.now()
	if !t.lastLine.IsZero() && now.Sub(t.lastLine) < t.interval {
		return 0, false
	}
	events, t.unlogged, t.lastLine = t.unlogged, 0, now
	return events, true
}
