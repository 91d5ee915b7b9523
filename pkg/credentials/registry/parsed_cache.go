package registry

import (
	"container/list"
	"sync"

	"k8s.io/client-go/tools/cache"
)

// Bounds of the parsed Secrets kept: a tenant controls how many Secrets its Networks name
// and how large each is (up to MaxCloudsYAMLBytes), so neither may grow the controller's
// memory without limit. The least recently used go first; one dropped is read again, once,
// when a Network needs it.
const (
	maxParsedSecrets = 1024
	maxParsedBytes   = 32 << 20
)

// parsedSecret is one version of a credentials Secret, decoded, or why it is unusable.
type parsedSecret struct {
	// versions are the resourceVersions known to hold this content: the one the watch
	// reported and the one the read returned (newer, if the watch lags).
	versions [2]string
	file     *CloudsFile
	err      error
	size     int
}

func (p *parsedSecret) holds(version string) bool {
	return p.versions[0] == version || p.versions[1] == version
}

// parsedCache keeps the parsed Secrets, least recently used first out, within
// maxParsedSecrets and maxParsedBytes. It is safe for concurrent use.
type parsedCache struct {
	mu    sync.Mutex
	order *list.List // of cache.ObjectName, most recently used at the front
	byKey map[cache.ObjectName]*parsedEntry
	bytes int
}

type parsedEntry struct {
	secret *parsedSecret
	elem   *list.Element
}

func newParsedCache() *parsedCache {
	return &parsedCache{order: list.New(), byKey: map[cache.ObjectName]*parsedEntry{}}
}

// get returns the Secret's parse, if kept.
func (c *parsedCache) get(key cache.ObjectName) (*parsedSecret, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.byKey[key]
	if e == nil {
		return nil, false
	}
	c.order.MoveToFront(e.elem)
	return e.secret, true
}

// put keeps the Secret's parse in place of any older one, dropping the least recently
// used past the bounds.
func (c *parsedCache) put(key cache.ObjectName, p *parsedSecret) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dropLocked(key)
	c.byKey[key] = &parsedEntry{secret: p, elem: c.order.PushFront(key)}
	c.bytes += p.size
	for c.order.Len() > maxParsedSecrets || (c.bytes > maxParsedBytes && c.order.Len() > 1) {
		c.dropLocked(c.order.Back().Value.(cache.ObjectName))
	}
}

// drop forgets the Secret.
func (c *parsedCache) drop(key cache.ObjectName) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dropLocked(key)
}

func (c *parsedCache) dropLocked(key cache.ObjectName) {
	e := c.byKey[key]
	if e == nil {
		return
	}
	c.order.Remove(e.elem)
	delete(c.byKey, key)
	c.bytes -= e.secret.size
}

// len returns how many Secrets are kept, and their estimated bytes.
func (c *parsedCache) len() (secrets, bytes int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len(), c.bytes
}
