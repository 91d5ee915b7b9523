// Package fairqueue decides the order in which the controller's workqueue hands Networks
// to workers. It is the Queue of client-go's typed workqueue, so deduplication, rate
// limiting, delays, metrics and shutdown stay client-go's; only the order is ours.
//
// The rule: items are urgent (a change a user made: an add, update or delete event after
// the initial list) or background (the initial list, the Neutron resync, a retry). Pop
// serves urgent items first, except that after urgentRun urgent items in a row while
// background items wait it serves one background item, so background work keeps at least
// one turn in urgentRun+1 and never starves. Within a level, the namespaces that have items
// at that level take turns, one item per turn. A namespace that gets items joins the turns
// just before the namespace served last: it waits for those that were already waiting, not
// for another item of the one that just had its turn. So a namespace with a thousand items
// delays another namespace's item by no item at all when it is the only one with work, and
// by one item per waiting namespace otherwise. Within a namespace and level, the oldest
// item goes first. A key queued again
// before a worker took it keeps its place, or moves to the urgent level when the new
// reason is a user change.
package fairqueue

import (
	"container/list"
	"sync"
	"time"

	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// Class is why a key was queued. The classes are the values of the queue wait metric's
// label, so there are exactly four of them.
type Class uint8

const (
	// UserChange is an add, update or delete event after the informer's initial list.
	UserChange Class = iota
	// InitialList is an object of the informer's initial list (a start or a takeover).
	InitialList
	// Resync is the periodic Neutron resync finding something to repair or re-check.
	Resync
	// Retry is a key the workqueue puts back after a delay: a failure's backoff, or a
	// deferral because its project's Neutron budget was spent.
	Retry
)

// Classes lists every Class, for initialising metrics.
var Classes = []Class{UserChange, InitialList, Resync, Retry}

func (c Class) String() string {
	switch c {
	case UserChange:
		return "user_change"
	case InitialList:
		return "initial_list"
	case Resync:
		return "resync"
	}
	return "retry"
}

// Levels: urgent items go before background ones.
const (
	urgent = iota
	background
	levels
)

// urgentRun is how many urgent items go in a row while background items wait.
const urgentRun = 8

// Options configure a Queue.
type Options struct {
	// FIFO hands items out first in, first out, like client-go's default queue: the
	// baseline the fair order is measured against. Classes are still tracked for Observe.
	FIFO bool
	// Observe is told, for each item handed out, its class and how long it waited since
	// it was queued (since it became urgent, for an item a user change moved up). May be nil.
	Observe func(class Class, waited time.Duration)
	// Now is time.Now, replaceable in tests.
	Now func() time.Time
}

// Queue implements workqueue.Queue. Push, Pop, Touch and Len are called by the workqueue
// under its own lock; Mark may be called from any goroutine.
type Queue struct {
	fifo    bool
	observe func(Class, time.Duration)
	now     func() time.Time

	mu sync.Mutex
	// hints hold the class of a key's next Push or Touch: Push carries no class, so the
	// caller marks the key just before it adds it. A Push without a hint comes from the
	// workqueue's delayed adds: a Retry.
	hints map[cache.ObjectName]Class
	items map[cache.ObjectName]*item
	// hintsPeak and itemsPeak are the maps' largest sizes since they were made.
	hintsPeak, itemsPeak int
	levels               [levels]turns
	// urgentInARow counts urgent items handed out in a row while background items waited.
	urgentInARow int
}

var _ workqueue.Queue[cache.ObjectName] = (*Queue)(nil)

// item is one queued key.
type item struct {
	key   cache.ObjectName
	class Class
	since time.Time
	lane  *lane
	elem  *list.Element
}

// lane is one namespace's items at one level, oldest first.
type lane struct {
	namespace string
	items     list.List
	// turn is the lane's place in its level's turns.
	turn *list.Element
}

// turns are the lanes of one level that have items, in the order they are served.
type turns struct {
	order list.List
	lanes map[string]*lane
	// last is the lane served last, at the back of order, while it still has items.
	last *list.Element
}

// releaseAbove is the size above which an emptied map is made anew: a Go map keeps the
// memory of its largest size, and after an initial list of thousands of Networks that is
// memory the queue needs again only at the next start.
const releaseAbove = 1024

// New returns an empty Queue.
func New(opts Options) *Queue {
	q := &Queue{
		fifo:    opts.FIFO,
		observe: opts.Observe,
		now:     opts.Now,
		hints:   map[cache.ObjectName]Class{},
		items:   map[cache.ObjectName]*item{},
	}
	if q.observe == nil {
		q.observe = func(Class, time.Duration) {}
	}
	if q.now == nil {
		q.now = time.Now
	}
	for i := range q.levels {
		q.levels[i].lanes = map[string]*lane{}
	}
	return q
}

// Mark records why key is about to be added; call it right before the workqueue's Add.
// Of several marks before the key is queued, the most urgent class wins.
func (q *Queue) Mark(key cache.ObjectName, class Class) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if old, ok := q.hints[key]; ok && old <= class {
		return
	}
	q.hints[key] = class
	q.hintsPeak = max(q.hintsPeak, len(q.hints))
}

// Push queues a key that is not queued.
func (q *Queue) Push(key cache.ObjectName) {
	q.mu.Lock()
	defer q.mu.Unlock()
	it := &item{key: key, class: q.takeHint(key, Retry), since: q.now()}
	q.items[key] = it
	q.itemsPeak = max(q.itemsPeak, len(q.items))
	q.enter(it)
}

// Touch is a key added again while queued: a user change moves it to the urgent level.
func (q *Queue) Touch(key cache.ObjectName) {
	q.mu.Lock()
	defer q.mu.Unlock()
	it := q.items[key]
	class := q.takeHint(key, Retry)
	if it == nil || class >= it.class {
		return
	}
	if q.level(class) == q.level(it.class) {
		it.class = class
		return
	}
	q.leave(it)
	it.class, it.since = class, q.now()
	q.enter(it)
}

// Len is the number of queued keys.
func (q *Queue) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.items)
}

// QueuedByNamespace counts the queued keys of each namespace.
func (q *Queue) QueuedByNamespace() map[string]int {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := map[string]int{}
	for key := range q.items {
		out[key.Namespace]++
	}
	return out
}

// Pop hands out the next key by the package's rule; the workqueue calls it only when
// Len is above zero.
func (q *Queue) Pop() cache.ObjectName {
	q.mu.Lock()
	defer q.mu.Unlock()
	t := &q.levels[q.nextLevel()]
	l := t.order.Front().Value.(*lane)
	it := l.items.Front().Value.(*item)
	q.leave(it)
	if l.items.Len() > 0 {
		t.order.MoveToBack(l.turn)
		t.last = l.turn
	} else {
		t.last = nil
	}
	delete(q.items, it.key)
	if len(q.items) == 0 && q.itemsPeak > releaseAbove {
		q.items, q.itemsPeak = map[cache.ObjectName]*item{}, 0
	}
	q.observe(it.class, q.now().Sub(it.since))
	return it.key
}

// nextLevel picks the level Pop serves and counts urgent items served in a row.
func (q *Queue) nextLevel() int {
	hasUrgent := q.levels[urgent].order.Len() > 0
	hasBackground := q.levels[background].order.Len() > 0
	if hasUrgent && (!hasBackground || q.urgentInARow < urgentRun) {
		if hasBackground {
			q.urgentInARow++
		}
		return urgent
	}
	q.urgentInARow = 0
	return background
}

// takeHint removes and returns key's hint, or otherwise.
func (q *Queue) takeHint(key cache.ObjectName, otherwise Class) Class {
	class, ok := q.hints[key]
	if !ok {
		return otherwise
	}
	delete(q.hints, key)
	if len(q.hints) == 0 && q.hintsPeak > releaseAbove {
		q.hints, q.hintsPeak = map[cache.ObjectName]Class{}, 0
	}
	return class
}

// level of a class; first in, first out keeps everything at one level.
func (q *Queue) level(c Class) int {
	if q.fifo || c != UserChange {
		return background
	}
	return urgent
}

// laneName is the lane a key waits in; first in, first out has one lane for all.
func (q *Queue) laneName(key cache.ObjectName) string {
	if q.fifo {
		return ""
	}
	return key.Namespace
}

// enter appends it to its namespace's lane at its class's level.
func (q *Queue) enter(it *item) {
	t := &q.levels[q.level(it.class)]
	name := q.laneName(it.key)
	l := t.lanes[name]
	if l == nil {
		l = &lane{namespace: name}
		if t.last != nil {
			l.turn = t.order.InsertBefore(l, t.last)
		} else {
			l.turn = t.order.PushBack(l)
		}
		t.lanes[name] = l
	}
	it.lane = l
	it.elem = l.items.PushBack(it)
}

// leave takes it out of its lane, and the lane out of the turns once it is empty.
func (q *Queue) leave(it *item) {
	l := it.lane
	l.items.Remove(it.elem)
	it.lane, it.elem = nil, nil
	if l.items.Len() > 0 {
		return
	}
	t := &q.levels[q.level(it.class)]
	if t.last == l.turn {
		t.last = nil
	}
	t.order.Remove(l.turn)
	delete(t.lanes, l.namespace)
}
