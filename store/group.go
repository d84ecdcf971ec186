package store

import (
	"errors"
	"fmt"
	"runtime/debug"
	"sync/atomic"
	"time"

	"go.etcd.io/bbolt"
)

// Group commit.
//
// Every write of the Store goes through update. When no write transaction
// is in flight, the calling goroutine becomes the leader and commits its
// write at once, alone. Calls that arrive while a leader is committing
// queue up; when the leader is done it hands the lead to the first queued
// call, which runs up to maxGroup queued calls in one bbolt transaction and
// commits them with one fsync. A leader returns as soon as its own group is
// committed; it never waits for later groups, and nothing waits on a timer.
//
// Members of a group run one after the other, each seeing the writes of
// the ones before it, as if they had been committed one by one in queue
// order. A member whose fn fails (an error, a panic in bbolt or in caller
// code) may already have written part of its changes, and bbolt has no
// savepoints: the whole transaction is rolled back and the other members
// run again, in order, in a new one. The failed member gets its error (or
// its panic, re-raised in its own goroutine) and none of its writes.

// maxGroup is the most calls committed together in one transaction.
const maxGroup = 256

// errGoexit is returned to a write whose fn called runtime.Goexit (as
// testing.T.FailNow does) while another goroutine was running its group.
var errGoexit = errors.New("write function called runtime.Goexit")

// writeCall is one call of update.
type writeCall struct {
	fn func(tx *bbolt.Tx, guard func(func())) error
	// later is set for a write made later (PutLater): nobody waits for
	// it, and it has no ready channel.
	later *laterPut

	// ready is closed when the call is done, or, if group is set, when
	// the call is to lead group (of which it is the first member). The
	// first call of an idle Store has none.
	ready chan struct{}
	group []*writeCall

	// Set by the leader. txErr is what fn returned in the current
	// transaction; err is the call's result once final is true.
	txErr    error
	err      error
	final    bool
	panicked bool // fn's caller code panicked with panicVal
	panicVal any
	goexited bool // fn called runtime.Goexit
}

func (c *writeCall) finish(err error) {
	c.err, c.final = err, true
}

// Stats counts the Store's writes since Open.
type Stats struct {
	// Commits is the number of write transactions committed: one fsync
	// each.
	Commits uint64
	// Writes is the number of write calls whose change was committed.
	// Writes that changed nothing, or failed, are not counted.
	Writes uint64
	// NoChange is the number of write calls that had nothing to write.
	NoChange uint64
	// Retries is the number of group transactions rolled back and run
	// again without the member that failed.
	Retries uint64
	// MaxGroup is the most write calls that shared one committed
	// transaction.
	MaxGroup int
	// Later is the number of writes made later (PutLater) committed;
	// they are counted in Writes too.
	Later uint64
	// LaterFailed is the number of writes made later that failed (and
	// were dropped, logged).
	LaterFailed uint64
}

type stats struct {
	commits, writes, noChange, retries atomic.Uint64
	later, laterFailed                 atomic.Uint64
	lingers                            atomic.Uint64 // groups that waited out commitGap
	maxGroup                           atomic.Int64
}

func (st *stats) groupSize(n int) {
	for {
		m := st.maxGroup.Load()
		if int64(n) <= m || st.maxGroup.CompareAndSwap(m, int64(n)) {
			return
		}
	}
}

// Stats returns the write counters. It is safe for concurrent use.
func (s *Store) Stats() Stats {
	return Stats{
		Commits:  s.stats.commits.Load(),
		Writes:   s.stats.writes.Load(),
		NoChange: s.stats.noChange.Load(),
		Retries:  s.stats.retries.Load(),
		MaxGroup: int(s.stats.maxGroup.Load()),
		Later:    s.stats.later.Load(),

		LaterFailed: s.stats.laterFailed.Load(),
	}
}

// lead commits group, of which self (the calling goroutine's own call;
// nil for the timer of writes made later, or Close) is a member, hands the
// lead on to the next queued call that waits (or marks the Store idle) and
// wakes the other members. A next group of writes made later alone, with
// a call that waits queued behind it, is run here too.
func (s *Store) lead(group []*writeCall, self *writeCall) {
	for group != nil {
		group = s.leadGroup(group, self)
	}
}

// leadGroup commits group and hands the lead on (handOff); it returns the
// next group when that one is for this goroutine to run.
func (s *Store) leadGroup(group []*writeCall, self *writeCall) (mine []*writeCall) {
	finished := false
	defer func() {
		if finished {
			return
		}
		// This goroutine is going away in the middle of the group: an
		// fn called runtime.Goexit (or bbolt panicked outside any fn).
		// The transaction was rolled back. Members without a result go
		// back to the head of the queue for the next leader; the
		// leader's own call is abandoned with its goroutine.
		var requeue, done []*writeCall
		for _, c := range group {
			if c == self {
				continue
			}
			if c.goexited {
				c.finish(errGoexit)
			}
			if c.final {
				done = append(done, c)
			} else {
				requeue = append(requeue, c)
			}
		}
		// From here the requeued calls belong to the next leader.
		s.handOff(requeue, false)
		s.wake(done, nil)
	}()
	group = s.linger(group)
	s.runGroup(group)
	finished = true
	mine = s.handOff(nil, true)
	s.wake(group, self)
	return mine
}

// commitGap is the least time from the start of one commit to the start
// of the next while writes come from several goroutines at once (the last
// group had company): a leader that would start sooner waits for the rest
// of the gap and takes the writes queued meanwhile into its group. A
// commit's two fsyncs cost about the same CPU whatever it carries, so
// under load this bounds the commits to 125 a second at the price of a
// few milliseconds on a write (a person's click is answered in a few
// milliseconds more); a lone writer, whose groups have one write, never
// waits. Measured with the load harness at 1,000 paced games (0.28 → 0.14
// commits a click, about 5 % less CPU a click than with a 4 ms gap; the
// median answer 2.7 → 4.7 ms, p99 unchanged): see
// cmd/qwixxbot/internal/load/NOTES.md.
const commitGap = 8 * time.Millisecond

// linger waits out the rest of commitGap before group's commit, when the
// last group had company, and adds to group the calls queued meanwhile.
func (s *Store) linger(group []*writeCall) []*writeCall {
	if s.lastSize < 2 || len(group) >= maxGroup {
		return group
	}
	d := commitGap - time.Since(s.lastStart)
	if d <= 0 {
		return group
	}
	s.stats.lingers.Add(1)
	time.Sleep(d)
	s.mu.Lock()
	defer s.mu.Unlock()
	n := min(len(s.queue), maxGroup-len(group))
	if n == 0 {
		return group
	}
	group = append(group[:len(group):len(group)], s.queue[:n]...)
	s.queue = s.queue[n:]
	return group
}

// wake tells the members of a finished group but self that they are done:
// a waiting call is woken, a write made later leaves the overlay (laterDone).
func (s *Store) wake(group []*writeCall, self *writeCall) {
	for _, c := range group {
		switch {
		case c == self:
		case c.later != nil:
			s.laterDone(c)
		default:
			close(c.ready)
		}
	}
}

// handOff puts requeue at the head of the queue and passes the lead to the
// first call that waits among the next maxGroup queued calls, with them
// as its group; with nothing queued the Store is idle. When the next
// calls are all writes made later (PutLater), which nobody waits for,
// they stay queued for the next write to take along, or for the timer
// (armLater), unless a call that waits is queued behind them or the Store
// is closing: then they are returned, for the caller to run (keep; a
// goroutine going away does not keep them).
func (s *Store) handOff(requeue []*writeCall, keep bool) (mine []*writeCall) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(requeue) > 0 {
		s.queue = append(requeue, s.queue...)
	}
	if len(s.queue) == 0 {
		s.leading = false
		s.queue = nil
		s.idle.Broadcast()
		return nil
	}
	n := min(len(s.queue), maxGroup)
	next := s.queue[:n:n]
	leader := firstWaiting(next)
	if leader == nil && (!keep || !s.closed && firstWaiting(s.queue[n:]) == nil) {
		s.leading = false
		s.idle.Broadcast()
		s.armLater()
		return nil
	}
	s.queue = s.queue[n:]
	if leader == nil {
		return next
	}
	leader.group = next
	close(leader.ready)
	return nil
}

// firstWaiting is the first call of calls whose caller waits for it (not
// a write made later), or nil.
func firstWaiting(calls []*writeCall) *writeCall {
	for _, c := range calls {
		if c.later == nil {
			return c
		}
	}
	return nil
}

// runGroup gives every member of group its result.
func (s *Store) runGroup(group []*writeCall) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	for pending := group; len(pending) > 0; {
		pending = s.tryGroup(pending)
	}
}

// tryGroup runs the members of pending in one transaction and commits it.
// If a member fails, it gets its error, the transaction is rolled back and
// tryGroup returns the other members, to be run again; otherwise every
// member gets its result and tryGroup returns nil.
func (s *Store) tryGroup(pending []*writeCall) []*writeCall {
	tx, err := s.begin()
	if err != nil {
		for _, c := range pending {
			c.finish(err)
		}
		return nil
	}
	// The frames Put in tx go back to the pool once it has ended:
	// committed or rolled back below, or by the deferred rollback (run
	// first).
	defer s.releaseFrames()
	open := true
	defer func() {
		if open { // runtime.Goexit in an fn
			_ = tx.Rollback()
		}
	}()
	changed := 0
	for i, c := range pending {
		c.txErr = s.runMember(tx, c)
		switch {
		case c.txErr == nil:
			changed++
		case c.txErr == errNoChange:
		default:
			open = false
			_ = tx.Rollback()
			c.finish(c.txErr)
			if len(pending) == 1 {
				return nil
			}
			s.stats.retries.Add(1)
			again := make([]*writeCall, 0, len(pending)-1)
			again = append(again, pending[:i]...)
			return append(again, pending[i+1:]...)
		}
	}
	open = false
	if changed == 0 {
		// Nothing to write: no commit, no fsync.
		_ = tx.Rollback()
		s.stats.noChange.Add(uint64(len(pending)))
		for _, c := range pending {
			c.finish(errNoChange)
		}
		return nil
	}
	start := time.Now()
	s.lastStart, s.lastSize = start, len(pending)
	if err := commit(tx); err != nil {
		for _, c := range pending {
			c.finish(err)
		}
		return nil
	}
	if s.onCommit != nil {
		s.onCommit(time.Since(start), changed)
	}
	s.stats.commits.Add(1)
	s.stats.writes.Add(uint64(changed))
	s.stats.noChange.Add(uint64(len(pending) - changed))
	s.stats.groupSize(len(pending))
	for _, c := range pending {
		c.finish(c.txErr)
	}
	return nil
}

// begin starts a write transaction; a panic of bbolt's becomes an error
// wrapping ErrCorrupt.
func (s *Store) begin() (tx *bbolt.Tx, err error) {
	defer recoverCorrupt(&err, "write transaction")
	return s.db.Begin(true)
}

// commit commits tx; a panic of bbolt's becomes an error wrapping
// ErrCorrupt and rolls tx back.
func commit(tx *bbolt.Tx) (err error) {
	defer func() {
		if r := recover(); r != nil {
			_ = tx.Rollback()
			err = fmt.Errorf("write transaction: %w: bbolt failed: %v", ErrCorrupt, r)
		}
	}()
	return tx.Commit()
}

// runMember runs c.fn in tx. A panic of bbolt's becomes an error wrapping
// ErrCorrupt; a panic in caller code (inside guard) is kept in c, to be
// re-raised in c's goroutine, and reported as an error here.
func (s *Store) runMember(tx *bbolt.Tx, c *writeCall) (err error) {
	debug.SetPanicOnFault(true)
	inCaller, returned := false, false
	defer func() {
		if returned {
			return
		}
		r := recover()
		switch {
		case r == nil:
			// runtime.Goexit, which cannot be stopped; lead cleans up.
			c.goexited = true
		case inCaller:
			c.panicked, c.panicVal = true, r
			err = fmt.Errorf("write function panicked: %v", r)
		default:
			err = fmt.Errorf("write transaction: %w: bbolt failed: %v", ErrCorrupt, r)
		}
	}()
	err = c.fn(tx, callerGuard(&inCaller))
	returned = true
	return err
}
