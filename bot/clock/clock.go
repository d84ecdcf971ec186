// Package clock tells the time to code that must be testable without
// waiting: a Clock interface, the real time (Real) and a Fake that only
// moves when told to. It imports only the standard library, so tests of any
// package (the bot's, the fake Discord's, the end-to-end tests) can share
// one fake clock.
package clock

import (
	"sync"
	"time"
)

// Clock tells the time. The fake Discord (bot/discordtest) reads one for
// message timestamps, snowflake IDs, the 15-minute lifetime of interaction
// tokens and the windows of its rate limits; the bot's tests hand a Fake's
// Now to the bot.
type Clock interface {
	Now() time.Time
}

// Real is the real time.
type Real struct{}

// Now returns time.Now().
func (Real) Now() time.Time { return time.Now() }

// Fake is a Clock that only moves when told to. It is safe for concurrent
// use.
type Fake struct {
	mu  sync.Mutex
	now time.Time
}

// NewFake returns a Fake set to t (or to a fixed date in 2025 if t is
// zero).
func NewFake(t time.Time) *Fake {
	if t.IsZero() {
		t = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	}
	return &Fake{now: t}
}

// Now returns the clock's current time.
func (c *Fake) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *Fake) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}
