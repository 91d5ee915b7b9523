package endpoints

import (
	"fmt"
	"testing"
	"time"
)

// A full cache does not grow: a new answer is dropped while all are live, and stored once
// expired ones can be forgotten.
func TestAnswerCacheBounds(t *testing.T) {
	const shortLived = 10
	clock := newFakeClock()
	c := newAnswerCache[int]()
	c.now = clock.Now
	key := func(i int) string { return fmt.Sprintf("key-%d", i) }
	for i := 0; i < answerCacheSize; i++ {
		ttl := time.Hour
		if i < shortLived {
			ttl = time.Second
		}
		c.put(key(i), i, ttl)
	}
	if got := len(c.answers); got != answerCacheSize {
		t.Fatalf("%d answers stored, want %d", got, answerCacheSize)
	}
	for _, i := range []int{0, shortLived, answerCacheSize - 1} {
		if v, ok := c.get(key(i)); !ok || v != i {
			t.Errorf("get(%q) = %d, %v; want %d, true", key(i), v, ok, i)
		}
	}

	// Full of live answers: the new one is not kept.
	c.put("new", -1, time.Hour)
	if v, ok := c.get("new"); ok {
		t.Errorf("get(new) = %d, true on a full cache; want it not stored", v)
	}
	if got := len(c.answers); got != answerCacheSize {
		t.Errorf("%d answers stored after a put on a full cache, want %d", got, answerCacheSize)
	}

	// Once the short-lived answers expired, they make room.
	clock.set(clock.Now().Add(time.Second))
	c.put("new", -1, time.Hour)
	if v, ok := c.get("new"); !ok || v != -1 {
		t.Errorf("get(new) = %d, %v after answers expired; want -1, true", v, ok)
	}
	if got, want := len(c.answers), answerCacheSize-shortLived+1; got != want {
		t.Errorf("%d answers stored after expired ones made room, want %d", got, want)
	}
	for i := 0; i < shortLived; i++ {
		if _, ok := c.answers[key(i)]; ok {
			t.Errorf("expired answer %q still stored", key(i))
		}
	}
	for _, i := range []int{shortLived, answerCacheSize - 1} {
		if v, ok := c.get(key(i)); !ok || v != i {
			t.Errorf("live answer get(%q) = %d, %v; want %d, true", key(i), v, ok, i)
		}
	}
}

// An answer is not returned from its expiry on, and is returned just before.
func TestAnswerCacheExpiry(t *testing.T) {
	clock := newFakeClock()
	start := clock.Now()
	c := newAnswerCache[string]()
	c.now = clock.Now
	c.put("k", "v", 10*time.Second)
	if v, ok := c.get("k"); !ok || v != "v" {
		t.Errorf("get right after put = %q, %v; want v, true", v, ok)
	}
	clock.set(start.Add(10*time.Second - time.Nanosecond))
	if v, ok := c.get("k"); !ok || v != "v" {
		t.Errorf("get just before expiry = %q, %v; want v, true", v, ok)
	}
	clock.set(start.Add(10 * time.Second))
	if v, ok := c.get("k"); ok {
		t.Errorf("get at expiry = %q, true; want nothing", v)
	}
	if _, ok := c.get("missing"); ok {
		t.Errorf("get of a key never put found an answer")
	}
}
