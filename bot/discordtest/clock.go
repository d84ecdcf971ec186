package discordtest

import (
	"sync"
	"time"
)

// Clock tells the fake server what time it is. It drives message timestamps,
// snowflake IDs, the 15-minute lifetime of interaction tokens and the
// windows of the rate limits when they are enabled (RateLimitOptions). The 3-second
// interaction deadline is always measured in real time, because it races
// against the bot's real goroutines.
type Clock interface {
	Now() time.Time
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

// FakeClock is a Clock that only moves when told to. It is safe for
// concurrent use.
type FakeClock struct {
	mu  sync.Mutex
	now time.Time
}

// NewFakeClock returns a FakeClock set to t (or to a fixed date in 2025 if t
// is zero).
func NewFakeClock(t time.Time) *FakeClock {
	if t.IsZero() {
		t = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	}
	return &FakeClock{now: t}
}

// Now returns the clock's current time.
func (c *FakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *FakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}
