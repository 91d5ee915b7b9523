package main

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"

	"github.com/samplecrd/network-controller/pkg/fairqueue"
	"github.com/samplecrd/network-controller/pkg/metrics"
	"github.com/samplecrd/network-controller/pkg/neutronclient"
)

// queueName labels the workqueue's metrics.
const queueName = "networks"

// networkQueue is the controller's workqueue: client-go's rate-limiting queue, with the
// order of fairqueue underneath, and the Queue itself to mark why each key is added.
type networkQueue struct {
	workqueue.TypedRateLimitingInterface[cache.ObjectName]
	order *fairqueue.Queue
}

// newNetworkQueue builds the workqueue: per-key exponential backoff between retryBase and
// retryMax under an overall ceiling, and namespaces taking turns unless fifo.
func newNetworkQueue(retryBase, retryMax time.Duration, fifo bool, m *metrics.Metrics) networkQueue {
	ratelimiter := workqueue.NewTypedMaxOfRateLimiter(
		workqueue.NewTypedItemExponentialFailureRateLimiter[cache.ObjectName](retryBase, retryMax),
		// Overall ceiling, so a burst of failures cannot flood the apiserver or Neutron.
		&workqueue.TypedBucketRateLimiter[cache.ObjectName]{Limiter: rate.NewLimiter(rate.Limit(50), 300)},
	)
	classes := make([]string, len(fairqueue.Classes))
	for i, class := range fairqueue.Classes {
		classes[i] = class.String()
	}
	m.DeclareQueueClasses(classes)
	order := fairqueue.New(fairqueue.Options{
		FIFO:    fifo,
		Observe: func(class fairqueue.Class, waited time.Duration) { m.ObserveQueueWait(class.String(), waited) },
	})
	// The queue's name goes to both layers: the inner one reports depth, adds and
	// latency, the delaying one retries.
	queue := workqueue.NewTypedWithConfig(workqueue.TypedQueueConfig[cache.ObjectName]{Name: queueName, Queue: order})
	delaying := workqueue.NewTypedDelayingQueueWithConfig(workqueue.TypedDelayingQueueConfig[cache.ObjectName]{Name: queueName, Queue: queue})
	return networkQueue{
		TypedRateLimitingInterface: workqueue.NewTypedRateLimitingQueueWithConfig(ratelimiter,
			workqueue.TypedRateLimitingQueueConfig[cache.ObjectName]{DelayingQueue: delaying}),
		order: order,
	}
}

// addFor queues key, saying why: the order depends on it.
func (q networkQueue) addFor(key cache.ObjectName, class fairqueue.Class) {
	q.order.Mark(key, class)
	q.Add(key)
}

// budgetTickets keep, for each Network deferred over its project's Neutron budget, the
// request the budget reserved for it, until its next run takes it up.
type budgetTickets struct {
	mu    sync.Mutex
	byKey map[cache.ObjectName]*neutronclient.Ticket
	// peak is the map's largest size since it was made: emptied after growing past
	// releaseTicketsAbove, it is made anew, as a Go map keeps the memory of its largest size.
	peak int
}

const releaseTicketsAbove = 1024

// take returns key's ticket, or a new one, and forgets it: the run holds it now.
func (t *budgetTickets) take(key cache.ObjectName) *neutronclient.Ticket {
	t.mu.Lock()
	defer t.mu.Unlock()
	ticket := t.byKey[key]
	if ticket == nil {
		return &neutronclient.Ticket{}
	}
	delete(t.byKey, key)
	if len(t.byKey) == 0 && t.peak > releaseTicketsAbove {
		t.byKey, t.peak = nil, 0
	}
	return ticket
}

// keep holds key's ticket for its next run.
func (t *budgetTickets) keep(key cache.ObjectName, ticket *neutronclient.Ticket) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.byKey == nil {
		t.byKey = map[cache.ObjectName]*neutronclient.Ticket{}
	}
	t.byKey[key] = ticket
	t.peak = max(t.peak, len(t.byKey))
}
