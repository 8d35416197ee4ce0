// Package lru is a small, fixed-size cache that drops the least recently used entry
// when full. Values are built once per key, outside the cache's lock: many goroutines
// asking for one missing key at once get one build and the same value.
package lru

import (
	"sync"
	"sync/atomic"
)

// Cache maps keys to values, holding at most its size. It is safe for concurrent use.
// Values are never replaced once built: callers must not modify what they get.
type Cache[K comparable, V any] struct {
	mu    sync.Mutex
	max   int
	items map[K]*entry[K, V]
	// head is the sentinel of the recency list: head.next the most recent entry,
	// head.prev the least.
	head entry[K, V]
}

type entry[K comparable, V any] struct {
	key        K
	prev, next *entry[K, V]
	once       sync.Once
	built      atomic.Bool
	v          V
}

// New returns an empty cache of at most size entries (at least one).
func New[K comparable, V any](size int) *Cache[K, V] {
	c := &Cache[K, V]{max: max(size, 1), items: make(map[K]*entry[K, V], size)}
	c.head.prev, c.head.next = &c.head, &c.head
	return c
}

// Get returns the value of k and marks it the most recently used; false when k is not
// in the cache or its value is still being built.
func (c *Cache[K, V]) Get(k K) (V, bool) {
	c.mu.Lock()
	e, ok := c.items[k]
	if ok {
		c.toFront(e)
	}
	c.mu.Unlock()
	if !ok || !e.built.Load() {
		var zero V
		return zero, false
	}
	return e.v, true
}

// Add stores v under k unless k is already there (its value is kept), and marks k the
// most recently used.
func (c *Cache[K, V]) Add(k K, v V) {
	c.GetOrBuild(k, func() V { return v })
}

// GetOrBuild returns the value of k, building it with build when k is missing, and
// marks k the most recently used. build runs outside the lock, once per key even when
// many goroutines ask at the same time; when the cache is full the least recently used
// entry is dropped (goroutines still using its value keep it).
func (c *Cache[K, V]) GetOrBuild(k K, build func() V) V {
	c.mu.Lock()
	e, ok := c.items[k]
	if ok {
		c.toFront(e)
	} else {
		if len(c.items) >= c.max {
			old := c.head.prev
			c.unlink(old)
			delete(c.items, old.key)
		}
		e = &entry[K, V]{key: k}
		c.items[k] = e
		c.link(e)
	}
	c.mu.Unlock()
	if !e.built.Load() {
		e.once.Do(func() {
			e.v = build()
			e.built.Store(true)
		})
	}
	return e.v
}

// Len returns the number of entries.
func (c *Cache[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items)
}

func (c *Cache[K, V]) link(e *entry[K, V]) {
	e.prev, e.next = &c.head, c.head.next
	c.head.next.prev = e
	c.head.next = e
}

func (c *Cache[K, V]) unlink(e *entry[K, V]) {
	e.prev.next, e.next.prev = e.next, e.prev
	e.prev, e.next = nil, nil
}

func (c *Cache[K, V]) toFront(e *entry[K, V]) {
	if c.head.next == e {
		return
	}
	c.unlink(e)
	c.link(e)
}
