package resync

import (
	"container/heap"
	"sync"
	"time"

	"k8s.io/client-go/tools/cache"
)

// dueQueue holds when each Network's next drift check is due, earliest first. It is
// safe for concurrent use: the informer's handlers schedule, the check loop takes.
type dueQueue struct {
	mu    sync.Mutex
	byKey map[cache.ObjectName]*dueItem
	order dueHeap
	// wake is signalled when an item becomes the earliest, so a loop sleeping until the
	// previous earliest wakes sooner.
	wake chan struct{}
}

type dueItem struct {
	key   cache.ObjectName
	at    time.Time
	index int
}

func newDueQueue() *dueQueue {
	return &dueQueue{byKey: map[cache.ObjectName]*dueItem{}, wake: make(chan struct{}, 1)}
}

// schedule sets key's next check to at, replacing the one it had.
func (q *dueQueue) schedule(key cache.ObjectName, at time.Time) {
	q.mu.Lock()
	defer q.mu.Unlock()
	item, ok := q.byKey[key]
	switch {
	case ok && item.at.Equal(at):
		return
	case ok:
		item.at = at
		heap.Fix(&q.order, item.index)
	default:
		item = &dueItem{key: key, at: at}
		q.byKey[key] = item
		heap.Push(&q.order, item)
	}
	if q.order[0] == item {
		select {
		case q.wake <- struct{}{}:
		default:
		}
	}
}

// remove forgets key: the Network is gone, or has no check any more.
func (q *dueQueue) remove(key cache.ObjectName) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if item, ok := q.byKey[key]; ok {
		heap.Remove(&q.order, item.index)
		delete(q.byKey, key)
	}
}

// next returns when the earliest check is due; false when none is scheduled.
func (q *dueQueue) next() (time.Time, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.order) == 0 {
		return time.Time{}, false
	}
	return q.order[0].at, true
}

// takeDue removes and returns, with their due times, the checks due at now or before,
// earliest first. The caller schedules each again after its check.
func (q *dueQueue) takeDue(now time.Time) []dueCheck {
	q.mu.Lock()
	defer q.mu.Unlock()
	var due []dueCheck
	for len(q.order) > 0 && !q.order[0].at.After(now) {
		item := heap.Pop(&q.order).(*dueItem)
		delete(q.byKey, item.key)
		due = append(due, dueCheck{key: item.key, at: item.at})
	}
	return due
}

// len returns how many checks are scheduled.
func (q *dueQueue) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.order)
}

// dueCheck is one Network's check, and when it fell due.
type dueCheck struct {
	key cache.ObjectName
	at  time.Time
}

// dueHeap orders items by due time, then by key so that ties come out in one order.
type dueHeap []*dueItem

func (h dueHeap) Len() int { return len(h) }
func (h dueHeap) Less(i, j int) bool {
	if !h[i].at.Equal(h[j].at) {
		return h[i].at.Before(h[j].at)
	}
	if h[i].key.Namespace != h[j].key.Namespace {
		return h[i].key.Namespace < h[j].key.Namespace
	}
	return h[i].key.Name < h[j].key.Name
}
func (h dueHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}
func (h *dueHeap) Push(x any) {
	item := x.(*dueItem)
	item.index = len(*h)
	*h = append(*h, item)
}
func (h *dueHeap) Pop() any {
	old := *h
	n := len(old)
	item := old[n-1]
	old[n-1] = nil
	*h = old[:n-1]
	return item
}

// nextCheckAfter returns when a Network last compared with Neutron at last falls due
// again on period: the first instant of the grid anchor + k*period at least half a
// period after last, or last + period itself when that is before the anchor (a check
// owed since before this process began). Every Network on one period falls due at the
// same instants, so their checks share each project's list. A check lists, and
// lastSyncTime keeps whole seconds, a moment after its instant: half a period of slack
// keeps it due one period after that instant, not two.
func nextCheckAfter(last time.Time, period time.Duration, anchor time.Time) time.Time {
	if owed := last.Add(period); !owed.After(anchor) {
		return owed
	}
	earliest := last.Add(period / 2)
	steps := max((earliest.Sub(anchor)+period-1)/period, 1)
	return anchor.Add(steps * period)
}
