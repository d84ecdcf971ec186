package store

import (
	"encoding/binary"
	"fmt"

	"go.etcd.io/bbolt"
)

// AppendResult records a finished match of guildID. Results are kept in the
// order they were appended, under keys from the guild bucket's sequence.
func (s *Store) AppendResult(guildID string, result []byte) error {
	if guildID == "" {
		return fmt.Errorf("store: append result: guild ID: %w", ErrEmptyKey)
	}
	err := s.db.Update(func(tx *bbolt.Tx) error {
		results, err := bucket(tx, bucketResults)
		if err != nil {
			return err
		}
		g, err := results.CreateBucketIfNotExists([]byte(guildID))
		if err != nil {
			return err
		}
		seq, err := g.NextSequence()
		if err != nil {
			return err
		}
		var k [8]byte
		binary.BigEndian.PutUint64(k[:], seq)
		return g.Put(k[:], nonNil(result))
	})
	if err != nil {
		return fmt.Errorf("store: append result for guild %s: %w", guildID, err)
	}
	return nil
}

// Results returns guildID's match results, newest first, at most limit of
// them (all of them when limit <= 0). A guild without results has none.
func (s *Store) Results(guildID string, limit int) ([][]byte, error) {
	if guildID == "" {
		return nil, fmt.Errorf("store: results: guild ID: %w", ErrEmptyKey)
	}
	var out [][]byte
	err := s.db.View(func(tx *bbolt.Tx) error {
		results, err := bucket(tx, bucketResults)
		if err != nil {
			return err
		}
		g := results.Bucket([]byte(guildID))
		if g == nil {
			return nil
		}
		c := g.Cursor()
		for k, v := c.Last(); k != nil && (limit <= 0 || len(out) < limit); k, v = c.Prev() {
			out = append(out, copyBytes(v))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: results for guild %s: %w", guildID, err)
	}
	return out, nil
}

// GuildSettings returns the settings blob of guildID and whether there is
// one.
func (s *Store) GuildSettings(guildID string) ([]byte, bool, error) {
	if guildID == "" {
		return nil, false, fmt.Errorf("store: guild settings: guild ID: %w", ErrEmptyKey)
	}
	var (
		blob   []byte
		exists bool
	)
	err := s.db.View(func(tx *bbolt.Tx) error {
		b, err := bucket(tx, bucketGuilds)
		if err != nil {
			return err
		}
		blob, exists = getValue(b, []byte(guildID))
		return nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("store: guild settings %s: %w", guildID, err)
	}
	return blob, exists, nil
}

// PutGuildSettings stores blob as the settings of guildID, replacing any
// other.
func (s *Store) PutGuildSettings(guildID string, blob []byte) error {
	if guildID == "" {
		return fmt.Errorf("store: put guild settings: guild ID: %w", ErrEmptyKey)
	}
	err := s.db.Update(func(tx *bbolt.Tx) error {
		b, err := bucket(tx, bucketGuilds)
		if err != nil {
			return err
		}
		return b.Put([]byte(guildID), nonNil(blob))
	})
	if err != nil {
		return fmt.Errorf("store: put guild settings %s: %w", guildID, err)
	}
	return nil
}
