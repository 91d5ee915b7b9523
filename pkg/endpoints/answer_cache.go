package endpoints

import (
	"sync"
	"time"
)

// answerCacheSize bounds a cache: callers with ever new tokens (a scan) make it forget
// expired answers first, and then not remember new ones, instead of growing.
const answerCacheSize = 1024

// answerCache remembers the apiserver's answers for a while.
type answerCache[V any] struct {
	mu      sync.Mutex
	answers map[string]answer[V]
	now     func() time.Time
}

type answer[V any] struct {
	value   V
	expires time.Time
}

func newAnswerCache[V any]() *answerCache[V] {
	return &answerCache[V]{answers: map[string]answer[V]{}, now: time.Now}
}

// get returns the answer for key unless there is none or it expired.
func (c *answerCache[V]) get(key string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	a, ok := c.answers[key]
	if !ok || !c.now().Before(a.expires) {
		var zero V
		return zero, false
	}
	return a.value, true
}

// put remembers value for key for ttl.
func (c *answerCache[V]) put(key string, value V, ttl time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	if len(c.answers) >= answerCacheSize {
		for k, a := range c.answers {
			if !now.Before(a.expires) {
				delete(c.answers, k)
			}
		}
		if len(c.answers) >= answerCacheSize {
			return
		}
	}
	c.answers[key] = answer[V]{value: value, expires: now.Add(ttl)}
}
