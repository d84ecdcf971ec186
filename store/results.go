package store

import (
	"encoding/binary"
	"errors"
	"fmt"

	"go.etcd.io/bbolt"
)

// AppendResult records a finished match of guildID. Results are kept in the
// order they were appended, under keys from the guild bucket's sequence.
func (s *Store) AppendResult(guildID string, result []byte) error {
	if guildID == "" {
		return fmt.Errorf("store: append result: guild ID: %w", ErrEmptyKey)
	}
	framed := encodeFrame(result)
	err := s.update(func(tx *bbolt.Tx, _ func(func())) error {
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
		return g.Put(k[:], framed)
	})
	if err != nil {
		return fmt.Errorf("store: append result for guild %s: %w", guildID, err)
	}
	return nil
}

// Results returns guildID's match results, newest first, at most limit of
// them (all of them when limit <= 0). A guild without results has none.
//
// Every result is verified against its checksum. Corrupt results are
// skipped, not counted against limit, and reported: Results then returns
// the good results it found together with an error wrapping ErrCorrupt that
// names every corrupt key (results/<guild>/<sequence>). A caller that can
// live with a gap in a guild's history uses the results and logs the
// error. If bbolt cannot read the guild's results to the end, the results
// read before the damage come back with an error wrapping ErrCorrupt.
func (s *Store) Results(guildID string, limit int) ([][]byte, error) {
	if guildID == "" {
		return nil, fmt.Errorf("store: results: guild ID: %w", ErrEmptyKey)
	}
	var (
		out     [][]byte
		corrupt []error
	)
	err := s.view(func(tx *bbolt.Tx) error {
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
			payload, err := decodeFrame(v)
			if err != nil {
				corrupt = append(corrupt, fmt.Errorf("value %s/%s/%s: %w", bucketResults, guildID, resultKey(k), err))
				continue
			}
			out = append(out, append(make([]byte, 0, len(payload)), payload...))
		}
		return nil
	})
	if err != nil {
		corrupt = append(corrupt, err)
		if !errors.Is(err, ErrCorrupt) {
			return nil, fmt.Errorf("store: results for guild %s: %w", guildID, err)
		}
	}
	if len(corrupt) > 0 {
		return out, fmt.Errorf("store: results for guild %s: %d unreadable, skipped: %w", guildID, len(corrupt), errors.Join(corrupt...))
	}
	return out, nil
}

// resultKey prints a result key: its sequence number, or hex if it is not
// 8 bytes long.
func resultKey(k []byte) string {
	if len(k) == 8 {
		return fmt.Sprint(binary.BigEndian.Uint64(k))
	}
	return fmt.Sprintf("%x", k)
}

// GuildSettings returns the settings blob of guildID and whether there is
// one. Like Get, it verifies the stored value: a corrupt one gives (nil,
// true, err) with err wrapping ErrCorrupt.
func (s *Store) GuildSettings(guildID string) ([]byte, bool, error) {
	if guildID == "" {
		return nil, false, fmt.Errorf("store: guild settings: guild ID: %w", ErrEmptyKey)
	}
	var (
		blob   []byte
		exists bool
	)
	err := s.view(func(tx *bbolt.Tx) error {
		b, err := bucket(tx, bucketGuilds)
		if err != nil {
			return err
		}
		blob, exists, err = readFramed(b, bucketGuilds, []byte(guildID))
		return err
	})
	if err != nil {
		return nil, exists, fmt.Errorf("store: guild settings %s: %w", guildID, err)
	}
	return blob, exists, nil
}

// PutGuildSettings stores blob as the settings of guildID, replacing any
// other, even a corrupt one.
func (s *Store) PutGuildSettings(guildID string, blob []byte) error {
	if guildID == "" {
		return fmt.Errorf("store: put guild settings: guild ID: %w", ErrEmptyKey)
	}
	framed := encodeFrame(blob)
	err := s.update(func(tx *bbolt.Tx, _ func(func())) error {
		b, err := bucket(tx, bucketGuilds)
		if err != nil {
			return err
		}
		return b.Put([]byte(guildID), framed)
	})
	if err != nil {
		return fmt.Errorf("store: put guild settings %s: %w", guildID, err)
	}
	return nil
}
