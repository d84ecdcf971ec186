// Package workers runs the bot's units of work (an interaction's
// handling, a surface's reconcile, an edit in flight) on reused
// goroutines, whose grown stacks are kept from one unit to the next.
//
// Why: a goroutine starts with a small stack (8 KiB, or the runtime's
// running average) and grows it by copying it whole into one twice the
// size, every frame adjusted, whenever a call goes deeper than it fits. A
// click's work goes deep (bbolt's DB.View and Begin, the rendering, JSON
// encoding, the click path itself): on a fresh goroutine per unit of work
// it grew its stack several doublings deep every time, and that copying
// (runtime.newstack -> copystack -> adjustframe, getStackMap) was 4.5 % of
// the bot's CPU in gateway mode and 3.1 % at the HTTP endpoint under
// load. A pooled goroutine keeps the stack it grew; the Go GC halves an
// idle goroutine's stack when less than a quarter of it is in use, so a
// worker idle across collections regrows it one doubling at a time, not
// from the start.
//
// Go hands work to an idle worker when there is one (the one idle the
// shortest: its stack is the likeliest to be still grown) and starts a new
// one otherwise: it never blocks and has no bound, so no unit of work ever
// waits for another to end (work that waits on other work cannot
// deadlock here), exactly as with a go statement. Workers idle for
// IdleFor end. A panic in work ends the process with the panic's value and
// the stack where it happened, as a panic on a goroutine of its own does
// (the pool recovers it only to panic again); work that must survive its
// panics recovers them itself, as it did before.
//
// The pool is github.com/panjf2000/ants/v2 (a Pool of unlimited size:
// its Submit spawns a worker when none is idle, and returns an error only
// once the pool is released, which this one never is; then Go falls back
// to a go statement). Handing a unit to an idle worker costs what a go
// statement costs (about 0.3 µs); a unit that grows a fresh stack to
// 64 KiB costs 12.1 µs on a go statement and 1.8 µs on the pool
// (go test ./bot/workers -run '^$' -bench . -cpu 1). A whole click,
// handled off the caller's goroutine with its reconcile, takes 0.88 × the
// time on the pool, runtime.newstack going from 7 % of the CPU profile to
// none (go test ./bot -run '^$' -bench ClickOnGoroutine -cpu 1, "go"
// against "pool", alternated). The figures: NOTES.md beside this file.
package workers

import (
	"sync"
	"time"

	"github.com/panjf2000/ants/v2"
)

// IdleFor is how long a worker waits for work before it ends.
const IdleFor = 10 * time.Second

var (
	shared     *ants.Pool
	sharedOnce sync.Once
)

// Go runs work on an idle worker of the process's pool, or on a new one.
// It never blocks.
func Go(work func()) {
	sharedOnce.Do(func() { shared = newPool(IdleFor) })
	goOn(shared, work)
}

// goOn runs work on p, or on a goroutine of its own if p refuses it
// (released: never for the shared pool).
func goOn(p *ants.Pool, work func()) {
	if p == nil || p.Submit(work) != nil {
		go work()
	}
}

// newPool makes an unbounded, non-blocking pool whose workers end after
// idleFor without work, and whose panics end the process.
func newPool(idleFor time.Duration) *ants.Pool {
	p, err := ants.NewPool(-1,
		ants.WithExpiryDuration(idleFor),
		ants.WithNonblocking(true),
		ants.WithPanicHandler(repanic),
	)
	if err != nil {
		// Only for a bad option (a negative expiry, a preallocated
		// unlimited pool): not these. Go then falls back to go statements.
		return nil
	}
	return p
}

// repanic panics again with a panic the pool recovered: the process ends
// as it would for a panic on a goroutine of its own. It runs in the
// worker's deferred function, on top of the panicking frames, so the
// printed stack shows where the panic happened.
func repanic(p any) { panic(p) }
