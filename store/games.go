package store

import (
	"bytes"
	"errors"
	"fmt"

	"go.etcd.io/bbolt"
)

// errNoChange rolls back a write transaction that has nothing to write, so
// that a no-op costs no fsync.
var errNoChange = errors.New("no change")

// getValue returns a copy of key's value in b and whether the key exists.
// It seeks with a cursor so that an empty stored value is told apart from a
// missing key.
func getValue(b *bbolt.Bucket, key []byte) ([]byte, bool) {
	k, v := b.Cursor().Seek(key)
	if k == nil || !bytes.Equal(k, key) {
		return nil, false
	}
	return append(make([]byte, 0, len(v)), v...), true
}

func bucket(tx *bbolt.Tx, name []byte) (*bbolt.Bucket, error) {
	b := tx.Bucket(name)
	if b == nil {
		return nil, fmt.Errorf("bucket %s missing", name)
	}
	return b, nil
}

// Get returns the game blob stored for channelID and whether there is one.
// The blob is a copy the caller may keep.
func (s *Store) Get(channelID string) ([]byte, bool, error) {
	if channelID == "" {
		return nil, false, fmt.Errorf("store: get game: channel ID: %w", ErrEmptyKey)
	}
	var (
		blob   []byte
		exists bool
	)
	err := s.db.View(func(tx *bbolt.Tx) error {
		b, err := bucket(tx, bucketGames)
		if err != nil {
			return err
		}
		blob, exists = getValue(b, []byte(channelID))
		return nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("store: get game %s: %w", channelID, err)
	}
	return blob, exists, nil
}

// Put stores blob as the game of channelID, replacing any other; a nil blob
// stores an empty one.
func (s *Store) Put(channelID string, blob []byte) error {
	if channelID == "" {
		return fmt.Errorf("store: put game: channel ID: %w", ErrEmptyKey)
	}
	err := s.db.Update(func(tx *bbolt.Tx) error {
		b, err := bucket(tx, bucketGames)
		if err != nil {
			return err
		}
		return b.Put([]byte(channelID), nonNil(blob))
	})
	if err != nil {
		return fmt.Errorf("store: put game %s: %w", channelID, err)
	}
	return nil
}

// Delete removes the game of channelID; deleting a missing game is not an
// error.
func (s *Store) Delete(channelID string) error {
	if channelID == "" {
		return fmt.Errorf("store: delete game: channel ID: %w", ErrEmptyKey)
	}
	err := s.db.Update(func(tx *bbolt.Tx) error {
		b, err := bucket(tx, bucketGames)
		if err != nil {
			return err
		}
		return b.Delete([]byte(channelID))
	})
	if err != nil {
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
// fn runs while the database's write lock is held: it must be quick and must
// not call the Store, or it deadlocks. A panic in fn rolls back.
func (s *Store) Update(channelID string, fn func(old []byte, exists bool) (blob []byte, del bool, err error)) error {
	if channelID == "" {
		return fmt.Errorf("store: update game: channel ID: %w", ErrEmptyKey)
	}
	key := []byte(channelID)
	err := s.db.Update(func(tx *bbolt.Tx) error {
		b, err := bucket(tx, bucketGames)
		if err != nil {
			return err
		}
		old, exists := getValue(b, key)
		blob, del, err := fn(old, exists)
		switch {
		case err != nil:
			return err
		case del && !exists, !del && blob == nil:
			return errNoChange
		case del:
			return b.Delete(key)
		default:
			return b.Put(key, blob)
		}
	})
	if err != nil && !errors.Is(err, errNoChange) {
		return fmt.Errorf("store: update game %s: %w", channelID, err)
	}
	return nil
}

// ForEach calls fn for every stored game in channel ID order; it is how the
// bot restores its games at start-up. It reads one consistent snapshot first
// and then calls fn outside any transaction, so fn may call the Store and
// may keep blob. An error from fn stops the walk and is returned, wrapped.
func (s *Store) ForEach(fn func(channelID string, blob []byte) error) error {
	type entry struct {
		channelID string
		blob      []byte
	}
	var all []entry
	err := s.db.View(func(tx *bbolt.Tx) error {
		b, err := bucket(tx, bucketGames)
		if err != nil {
			return err
		}
		return b.ForEach(func(k, v []byte) error {
			all = append(all, entry{string(k), copyBytes(nonNil(v))})
			return nil
		})
	})
	if err != nil {
		return fmt.Errorf("store: read games: %w", err)
	}
	for _, e := range all {
		if err := fn(e.channelID, e.blob); err != nil {
			return fmt.Errorf("store: game %s: %w", e.channelID, err)
		}
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
