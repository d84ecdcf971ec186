package store

import (
	"encoding/binary"
	"errors"
	"fmt"

	gamestats "github.com/qwixxbot/qwixxbot/game/stats"
	"go.etcd.io/bbolt"
)

// AppendResult records the result of a finished game in its guild
// (r.Guild), without a game record. It is SaveGame(r, nil).
func (s *Store) AppendResult(r gamestats.Result) error {
	return s.SaveGame(r, nil)
}

// Results returns guildID's game results, newest first, at most limit of
// them (all of them when limit <= 0). A guild without results has none.
//
// Every result is verified against its checksum and decoded. Corrupt or
// undecodable results are skipped, not counted against limit, and
// reported: Results then returns the good results it found together with
// an error wrapping ErrCorrupt that names every bad key
// (results/<guild>/<sequence>). A caller that can live with a gap in a
// guild's history uses the results and logs the error. If bbolt cannot
// read the guild's results to the end, the results read before the damage
// come back with an error wrapping ErrCorrupt.
func (s *Store) Results(guildID string, limit int) ([]gamestats.Result, error) {
	var (
		out []gamestats.Result
		dec gamestats.Decoder
	)
	sized := func(n int) { out = make([]gamestats.Result, 0, n) }
	err := s.eachResultSized(guildID, limit, sized, func(payload []byte) error {
		r, err := dec.Decode(payload)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
		out = append(out, r)
		return nil
	})
	if err != nil {
		return out, fmt.Errorf("store: results for guild %s: %w", guildID, err)
	}
	return out, nil
}

// SkippedError reports values a listing left out because they are
// damaged (it wraps ErrCorrupt), with how many: Results returns the
// readable results with it, so that a caller can use them and say that
// some are missing.
type SkippedError struct {
	Skipped int
	err     error
}

func (e *SkippedError) Error() string { return e.err.Error() }

// Unwrap returns the errors of the damaged values.
func (e *SkippedError) Unwrap() error { return e.err }

// Skipped is how many damaged values err reports left out (0 when err is
// no SkippedError).
func Skipped(err error) int {
	var se *SkippedError
	if errors.As(err, &se) {
		return se.Skipped
	}
	return 0
}

// putResult appends a framed value to results/<guildID> under the guild
// bucket's next sequence number and returns that number.
func putResult(results *bbolt.Bucket, guildID string, framed []byte) (uint64, error) {
	g, err := results.CreateBucketIfNotExists([]byte(guildID))
	if err != nil {
		return 0, err
	}
	seq, err := g.NextSequence()
	if err != nil {
		return 0, err
	}
	return seq, g.Put(seqBytes(seq), framed)
}

func seqBytes(seq uint64) []byte {
	var k [8]byte
	binary.BigEndian.PutUint64(k[:], seq)
	return k[:]
}

// eachResultSized calls fn with the verified payload of guildID's results,
// newest first, up to limit accepted ones (all when limit <= 0), after
// telling sized (if not nil) how many will come, at most. The payload is
// only valid during the call. A corrupt frame, or fn returning an error,
// skips the value and is reported in the returned error (which then wraps
// ErrCorrupt when the value's was); a damaged page stops the walk with an
// error wrapping ErrCorrupt.
func (s *Store) eachResultSized(guildID string, limit int, sized func(n int), fn func(payload []byte) error) error {
	if guildID == "" {
		return fmt.Errorf("guild ID: %w", ErrEmptyKey)
	}
	var (
		n   int
		bad []error
	)
	err := s.view(func(tx *bbolt.Tx) error {
		g, err := guildBucket(tx, bucketResults, guildID)
		if err != nil {
			return err
		}
		if g == nil {
			return nil
		}
		if sized != nil {
			// The sequence bounds the count; the cap usually too.
			est := g.Sequence()
			if limit > 0 && uint64(limit) < est {
				est = uint64(limit)
			}
			if c := s.keep.ResultsPerGuild; c > 0 && uint64(c) < est {
				est = uint64(c)
			}
			sized(int(min(est, 1<<20)))
		}
		c := g.Cursor()
		for k, v := c.Last(); k != nil && (limit <= 0 || n < limit); k, v = c.Prev() {
			payload, err := decodeFrame(v)
			if err == nil {
				err = fn(payload)
			}
			if err != nil {
				bad = append(bad, fmt.Errorf("value %s/%s/%s: %w", bucketResults, guildID, resultKey(k), err))
				continue
			}
			n++
		}
		return nil
	})
	if err != nil {
		bad = append(bad, err)
		if !errors.Is(err, ErrCorrupt) {
			return err
		}
	}
	if len(bad) > 0 {
		return &SkippedError{Skipped: len(bad), err: fmt.Errorf("%d unreadable, skipped: %w", len(bad), errors.Join(bad...))}
	}
	return nil
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
