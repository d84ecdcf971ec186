package store

import (
	"bytes"
	"fmt"
	"time"

	"go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Writes made later.
//
// Most of a commit's cost is its two fdatasyncs, and some writes need not
// be on disk before their caller goes on: what a restart makes again
// anyway (the bot's record that a message now shows a state, which the
// first pass after a start redoes). PutLater queues such a write for the
// next group commit (group.go) and returns at once: it rides along with
// the next write that waits for its commit, which runs the writes queued
// before it first, so writes keep the order in which they were made. When
// no such write comes within laterDelay, a commit of its own takes the
// writes made later (and a Close takes whatever is left).
//
// Until it is committed, a write made later is in the overlay (later),
// where Get, GetUnless and ForEach find it first: reads see it at once. A
// commit that carries it removes it from the overlay once committed,
// unless a newer write made later of the same key replaced it meanwhile.
// A crash before that commit loses it, and only it: writes that wait for
// their commit never do, and one made after a write made later of the
// same key commits both (in order), since it runs behind it.
//
// A write made later that fails in its transaction (a damaged page) is
// dropped, logged and counted (Stats.LaterFailed); reads then see what is
// stored.

// laterDelay is the longest a write made later waits for another write to
// carry it. At a few hundred clicks a second writes that wait come every
// few milliseconds, so the writes made later ride along and cost no
// fsync of their own; at a few clicks a second they share one commit
// every half second.
const laterDelay = 500 * time.Millisecond

// laterPut is a write made later: the game stored under key, blob.
type laterPut struct {
	key  string
	blob []byte
}

// PutLater stores blob as the game of channelID without waiting for the
// write to be committed: it goes with the next commit (see later.go), and
// a crash before that commit loses it. Reads see it at once. blob must not
// be changed afterwards. Without group commit it is Put.
func (s *Store) PutLater(channelID string, blob []byte) error {
	if channelID == "" {
		return fmt.Errorf("store: put game: channel ID: %w", ErrEmptyKey)
	}
	if s.solo {
		return s.Put(channelID, blob)
	}
	p := &laterPut{key: channelID, blob: nonNil(blob)}
	c := &writeCall{later: p, fn: func(tx *bbolt.Tx, _ func(func())) error {
		return putGame(tx, p.key, s.frameInTx(p.blob))
	}}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return fmt.Errorf("store: put game %s: %w", channelID, berrors.ErrDatabaseNotOpen)
	}
	// Under mu: the overlay and the queue agree on the order of two
	// writes of one key.
	s.later.Store(channelID, p)
	s.queue = append(s.queue, c)
	if !s.leading {
		s.armLater()
	}
	return nil
}

// laterValue is the game of channelID as written later and not yet
// committed, if there is one.
func (s *Store) laterValue(channelID string) ([]byte, bool) {
	if v, ok := s.later.Load(channelID); ok {
		return v.(*laterPut).blob, true
	}
	return nil, false
}

// laterGet is Get's and GetUnless's look into the overlay: the payload to
// hand out (a copy, or nil when it is have) and whether there is one.
func (s *Store) laterGet(channelID string, have []byte) (blob []byte, same, ok bool) {
	v, ok := s.laterValue(channelID)
	switch {
	case !ok:
		return nil, false, false
	case have != nil && bytes.Equal(v, have):
		return nil, true, true
	default:
		return copyBytes(v), false, true
	}
}

// laterDone takes a write made later whose group is done out of the
// overlay, unless a newer one of its key replaced it, and counts it.
func (s *Store) laterDone(c *writeCall) {
	s.later.CompareAndDelete(c.later.key, c.later)
	if c.err != nil {
		s.stats.laterFailed.Add(1)
		s.log.Error().Str("channel", c.later.key).Err(c.err).Msg("a write made later failed and was dropped")
		return
	}
	s.stats.later.Add(1)
}

// armLater makes sure the timer will commit the writes made later that
// wait in the queue. s.mu is held.
func (s *Store) armLater() {
	if s.laterArmed {
		return
	}
	s.laterArmed = true
	if s.laterTimer == nil {
		s.laterTimer = time.AfterFunc(laterDelay, s.flushLater)
		return
	}
	s.laterTimer.Reset(laterDelay)
}

// flushLater commits the writes made later that wait in the queue, unless
// a commit is in flight (its leader takes them) or the Store is closing
// (Close does).
func (s *Store) flushLater() {
	s.mu.Lock()
	s.laterArmed = false
	if s.leading || s.closed || len(s.queue) == 0 {
		s.mu.Unlock()
		return
	}
	s.leading = true
	group := s.takeGroup()
	s.mu.Unlock()
	s.lead(group, nil)
}

// takeGroup takes the next group off the queue. s.mu is held.
func (s *Store) takeGroup() []*writeCall {
	n := min(len(s.queue), maxGroup)
	group := s.queue[:n:n]
	s.queue = s.queue[n:]
	return group
}

// Flush commits the writes made later (PutLater) that wait for a commit,
// and returns once they are on disk.
func (s *Store) Flush() error {
	err := s.update(func(*bbolt.Tx, func(func())) error { return errNoChange })
	if err != nil && err != errNoChange {
		return fmt.Errorf("store: flush: %w", err)
	}
	return nil
}
