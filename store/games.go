package store

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	gamestats "github.com/qwixxbot/qwixxbot/game/stats"
	"go.etcd.io/bbolt"
)

// errNoChange rolls back a write transaction that has nothing to write, so
// that a no-op costs no fsync.
var errNoChange = errors.New("no change")

// rawValue returns key's value in b, exactly as stored (a view into the
// transaction's memory, not a copy), and whether the key exists. It seeks
// with a cursor so that an empty stored value is told apart from a missing
// key.
func rawValue(b *bbolt.Bucket, key []byte) ([]byte, bool) {
	k, v := b.Cursor().Seek(key)
	if k == nil || !bytes.Equal(k, key) {
		return nil, false
	}
	return v, true
}

func bucket(tx *bbolt.Tx, name []byte) (*bbolt.Bucket, error) {
	b := tx.Bucket(name)
	if b == nil {
		return nil, fmt.Errorf("bucket %s missing", name)
	}
	return b, nil
}

// guildBucket returns the guild's nested bucket of the top-level bucket
// name (results/<guild>, records/<guild>), or nil when the guild has none.
func guildBucket(tx *bbolt.Tx, name []byte, guildID string) (*bbolt.Bucket, error) {
	b, err := bucket(tx, name)
	if err != nil {
		return nil, err
	}
	return b.Bucket([]byte(guildID)), nil
}

// Get returns the game blob stored for channelID and whether there is one:
// the newest written, committed or made later (PutLater). The blob is a
// copy the caller may keep.
//
// The stored value is verified against its checksum first. A corrupt value
// gives (nil, true, err) with err wrapping ErrCorrupt and naming the key;
// a database page bbolt cannot read gives (nil, false, err), err wrapping
// ErrCorrupt too.
func (s *Store) Get(channelID string) ([]byte, bool, error) {
	if channelID == "" {
		return nil, false, fmt.Errorf("store: get game: channel ID: %w", ErrEmptyKey)
	}
	if b, _, ok := s.laterGet(channelID, nil); ok {
		return b, true, nil
	}
	var (
		blob   []byte
		exists bool
	)
	err := s.view(func(tx *bbolt.Tx) error {
		b, err := bucket(tx, bucketGames)
		if err != nil {
			return err
		}
		blob, exists, err = readFramed(b, bucketGames, []byte(channelID))
		return err
	})
	if err != nil {
		return nil, exists, fmt.Errorf("store: get game %s: %w", channelID, err)
	}
	return blob, exists, nil
}

// GetUnless is Get, but when the stored game is have (bytes read earlier)
// it returns same and neither copies nor checks them again: a reader that
// keeps what it read last asks whether it changed at the cost of a
// comparison.
func (s *Store) GetUnless(channelID string, have []byte) (blob []byte, exists, same bool, err error) {
	if channelID == "" {
		return nil, false, false, fmt.Errorf("store: get game: channel ID: %w", ErrEmptyKey)
	}
	if b, same, ok := s.laterGet(channelID, have); ok {
		return b, true, same, nil
	}
	err = s.view(func(tx *bbolt.Tx) error {
		b, err := bucket(tx, bucketGames)
		if err != nil {
			return err
		}
		key := []byte(channelID)
		if v, ok := rawValue(b, key); ok && have != nil && len(v) >= frameHeaderLen && v[0] == frameMagic && bytes.Equal(v[frameHeaderLen:], have) {
			exists, same = true, true
			return nil
		}
		blob, exists, err = readFramed(b, bucketGames, key)
		return err
	})
	if err != nil {
		return nil, exists, false, fmt.Errorf("store: get game %s: %w", channelID, err)
	}
	return blob, exists, same, nil
}

// Put stores blob as the game of channelID, replacing any other, even a
// corrupt one; a nil blob stores an empty one.
func (s *Store) Put(channelID string, blob []byte) error {
	if channelID == "" {
		return fmt.Errorf("store: put game: channel ID: %w", ErrEmptyKey)
	}
	framed := encodeFrame(blob)
	err := s.update(func(tx *bbolt.Tx, _ func(func())) error { return putGame(tx, channelID, framed) })
	if err != nil {
		return fmt.Errorf("store: put game %s: %w", channelID, err)
	}
	return nil
}

// putGame stores framed, a framed value, as the game of channelID in tx.
func putGame(tx *bbolt.Tx, channelID string, framed []byte) error {
	b, err := bucket(tx, bucketGames)
	if err != nil {
		return err
	}
	return b.Put([]byte(channelID), framed)
}

// Delete removes the game of channelID, corrupt or not; deleting a missing
// game is not an error.
func (s *Store) Delete(channelID string) error {
	if channelID == "" {
		return fmt.Errorf("store: delete game: channel ID: %w", ErrEmptyKey)
	}
	err := s.update(func(tx *bbolt.Tx, _ func(func())) error {
		b, err := bucket(tx, bucketGames)
		if err != nil {
			return err
		}
		if _, exists := rawValue(b, []byte(channelID)); !exists {
			return errNoChange // nothing to delete: no commit
		}
		return b.Delete([]byte(channelID))
	})
	if err != nil && err != errNoChange {
		return fmt.Errorf("store: delete game %s: %w", channelID, err)
	}
	return nil
}

// Update reads, changes and writes the game of channelID in one write
// transaction, fsync'd when it commits. fn gets a copy of the stored blob
// (nil and false when there is none) and returns what to do:
//
//   - an error: nothing is written and Update returns the error, wrapped;
//   - del true: the game is deleted;
//   - a non-nil blob: it is stored (an empty, non-nil blob stores an empty
//     value);
//   - a nil blob and del false: nothing is written.
//
// If the stored value is corrupt (its checksum does not match), fn is not
// called, nothing is written and Update returns an error wrapping
// ErrCorrupt: Quarantine or Delete clear the way. A panic of bbolt's on a
// damaged page is reported the same way.
//
// fn runs while the database's write lock is held: it must be quick and must
// not call the Store, or it deadlocks. A panic in fn rolls back and
// propagates, with its value unchanged, to the caller of Update; the other
// writes of its group are committed without it.
//
// Concurrent writes share one transaction and one fsync (group commit), and
// fn runs inside that shared transaction, possibly on another goroutine
// than the caller's (the caller waits meanwhile). fn may be called more
// than once for one Update: when another write of its group fails, the
// group is rolled back and run again without it, and fn is called again
// with a fresh copy of the stored blob. fn must therefore be a function of
// old and exists only, without side effects; only the result of its last
// call counts. Update returns only once its write is durably committed.
func (s *Store) Update(channelID string, fn func(old []byte, exists bool) (blob []byte, del bool, err error)) error {
	return s.UpdateSaving(channelID, nil, fn)
}

// ForEach calls fn for every stored game (and game written later,
// PutLater) in channel ID order; it is how the
// bot restores its games at start-up. It reads one consistent snapshot first
// and then calls fn outside any transaction, so fn may call the Store and
// may keep blob. An error from fn stops the walk and is returned, wrapped.
//
// Every value is verified against its checksum. For a corrupt one fn gets
// a nil blob and an error wrapping ErrCorrupt that names the key, and the
// walk goes on with the others (unless fn returns an error). If bbolt
// cannot read the database to the end (a damaged page), fn is called for the
// games read before the damage and ForEach then returns an error wrapping
// ErrCorrupt.
func (s *Store) ForEach(fn func(channelID string, blob []byte, err error) error) error {
	type entry struct {
		channelID string
		blob      []byte
		err       error
	}
	var all []entry
	readErr := s.view(func(tx *bbolt.Tx) error {
		b, err := bucket(tx, bucketGames)
		if err != nil {
			return err
		}
		c := b.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			e := entry{channelID: string(k)}
			if payload, err := decodeFrame(v); err != nil {
				e.err = fmt.Errorf("store: value %s/%s: %w", bucketGames, k, err)
			} else {
				e.blob = append(make([]byte, 0, len(payload)), payload...)
			}
			all = append(all, e)
		}
		return nil
	})
	if readErr != nil && !errors.Is(readErr, ErrCorrupt) {
		return fmt.Errorf("store: read games: %w", readErr)
	}
	// Writes made later and not yet committed: read after the snapshot,
	// so that none is missed (one committed meanwhile is in both).
	s.later.Range(func(k, v any) bool {
		key, blob := k.(string), copyBytes(v.(*laterPut).blob)
		i, found := slices.BinarySearchFunc(all, key, func(e entry, key string) int { return strings.Compare(e.channelID, key) })
		if found {
			all[i] = entry{channelID: key, blob: blob}
		} else {
			all = slices.Insert(all, i, entry{channelID: key, blob: blob})
		}
		return true
	})
	for _, e := range all {
		if err := fn(e.channelID, e.blob, e.err); err != nil {
			return fmt.Errorf("store: game %s: %w", e.channelID, err)
		}
	}
	if readErr != nil {
		return fmt.Errorf("store: read games: %w", readErr)
	}
	return nil
}

// nonNil turns nil into an empty slice, so that what is stored and what is
// read back agree that the value exists.
func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// Finished is a finished game for UpdateSaving: its result and its game
// record (game/RECORD.md; nil for none), as SaveGame takes them.
type Finished struct {
	Result gamestats.Result
	Record []byte
}

// UpdateSaving is Update that saves the finished games in the same
// transaction, as SaveGame does, when fn writes the channel's game: the
// table that shows a game over and the game's result are on disk together
// or not at all. When fn writes nothing or fails, nothing is saved.
func (s *Store) UpdateSaving(channelID string, games []Finished, fn func(old []byte, exists bool) (blob []byte, del bool, err error)) error {
	if channelID == "" {
		return fmt.Errorf("store: update game: channel ID: %w", ErrEmptyKey)
	}
	saves := make([]save, len(games))
	for i, f := range games {
		sv, err := newSave(f.Result, f.Record)
		if err != nil {
			return fmt.Errorf("store: update game %s: save game: %w", channelID, err)
		}
		saves[i] = sv
	}
	now := s.now()
	key := []byte(channelID)
	err := s.update(func(tx *bbolt.Tx, guard func(func())) error {
		b, err := bucket(tx, bucketGames)
		if err != nil {
			return err
		}
		old, exists, err := readFramed(b, bucketGames, key)
		if err != nil {
			return err
		}
		var (
			blob []byte
			del  bool
		)
		guard(func() { blob, del, err = fn(old, exists) })
		switch {
		case err != nil:
			return err
		case del && !exists, !del && blob == nil:
			return errNoChange
		case del:
			err = b.Delete(key)
		default:
			err = b.Put(key, s.frameInTx(blob))
		}
		if err != nil {
			return err
		}
		for _, sv := range saves {
			if err := sv.apply(tx, now, s.keep); err != nil {
				return fmt.Errorf("save game %s: %w", sv.r.GameID, err)
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, errNoChange) {
		return fmt.Errorf("store: update game %s: %w", channelID, err)
	}
	return nil
}
