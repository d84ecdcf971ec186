package render

import "sync"

// memo keeps the results of a pure function of a comparable key, up to
// max of them; once full it starts afresh (its keys are few in use: label
// sets, header checks). Two goroutines asking for the same new key may
// both compute it; either result is the same. It is safe for concurrent
// use.
type memo[K comparable, V any] struct {
	mu  sync.Mutex
	m   map[K]V
	max int
}

func newMemo[K comparable, V any](max int) *memo[K, V] {
	return &memo[K, V]{m: map[K]V{}, max: max}
}

// get returns f's result for k, kept or computed now.
func (c *memo[K, V]) get(k K, f func() V) V {
	c.mu.Lock()
	v, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return v
	}
	v = f()
	c.mu.Lock()
	if len(c.m) >= c.max {
		clear(c.m)
	}
	c.m[k] = v
	c.mu.Unlock()
	return v
}
