// Package lru is a cache of values bounded by their total size, least
// recently used out first, that loads a missing value once however many
// goroutines ask for it at the same time (single flight). The renderer's
// compressed PNG bands and the bot's finished pictures are kept in it.
package lru

import (
	"container/list"
	"sync"
)

// Cache holds values of K up to a budget of their sizes. It is safe for
// concurrent use.
type Cache[K comparable, V any] struct {
	budget int
	size   func(V) int

	mu      sync.Mutex
	used    int
	order   *list.List // of *entry[K, V], most recently used first
	byKey   map[K]*list.Element
	loading map[K]*call[V]
	hits    int64
	misses  int64
}

type entry[K comparable, V any] struct {
	key  K
	val  V
	size int
}

// call is one load in flight; waiters block on done.
type call[V any] struct {
	done chan struct{}
	val  V
	err  error
}

// New makes a cache that keeps at most budget in sizes (size of each
// value, which must not change while it is cached).
func New[K comparable, V any](budget int, size func(V) int) *Cache[K, V] {
	return &Cache[K, V]{budget: budget, size: size, order: list.New(), byKey: map[K]*list.Element{}, loading: map[K]*call[V]{}}
}

// SetBudget changes the budget, dropping the least recently used values
// until the cache is within it.
func (c *Cache[K, V]) SetBudget(budget int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.budget = budget
	c.evictLocked()
}

// Get returns the value of k, if it is cached, and marks it used.
func (c *Cache[K, V]) Get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.getLocked(k)
}

func (c *Cache[K, V]) getLocked(k K) (V, bool) {
	if e, ok := c.byKey[k]; ok {
		c.order.MoveToFront(e)
		c.hits++
		return e.Value.(*entry[K, V]).val, true
	}
	var zero V
	return zero, false
}

// Add caches v under k (unless k is cached already or v alone exceeds the
// budget), then drops the least recently used values until the cache is
// within its budget.
func (c *Cache[K, V]) Add(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.addLocked(k, v)
}

func (c *Cache[K, V]) addLocked(k K, v V) {
	n := c.size(v)
	if _, ok := c.byKey[k]; ok || n > c.budget {
		return
	}
	c.byKey[k] = c.order.PushFront(&entry[K, V]{key: k, val: v, size: n})
	c.used += n
	c.evictLocked()
}

// evictLocked drops the least recently used values until the cache is
// within its budget.
func (c *Cache[K, V]) evictLocked() {
	for c.used > c.budget {
		e := c.order.Back()
		old := e.Value.(*entry[K, V])
		c.order.Remove(e)
		delete(c.byKey, old.key)
		c.used -= old.size
	}
}

// GetOrLoad returns the value of k, from the cache or else from load,
// whose result (without error) is cached. While one call loads k, others
// asking for k wait for its result instead of loading it again.
func (c *Cache[K, V]) GetOrLoad(k K, load func() (V, error)) (V, error) {
	c.mu.Lock()
	if v, ok := c.getLocked(k); ok {
		c.mu.Unlock()
		return v, nil
	}
	if cl, ok := c.loading[k]; ok {
		c.hits++ // drawn once, for both
		c.mu.Unlock()
		<-cl.done
		return cl.val, cl.err
	}
	c.misses++
	cl := &call[V]{done: make(chan struct{})}
	c.loading[k] = cl
	c.mu.Unlock()

	defer func() {
		c.mu.Lock()
		delete(c.loading, k)
		if cl.err == nil {
			c.addLocked(k, cl.val)
		}
		c.mu.Unlock()
		close(cl.done)
	}()
	cl.val, cl.err = load()
	return cl.val, cl.err
}

// Stats reports the lookups of GetOrLoad and Get that found a value (or
// waited for another's load), those that loaded it, and the size held.
func (c *Cache[K, V]) Stats() (hits, misses int64, used int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits, c.misses, c.used
}
