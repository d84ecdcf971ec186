package store

import (
	"fmt"

	"go.etcd.io/bbolt"
)

// Helpers of the tests of results' framing and migrations.

// appendRaw appends a bare payload to guildID's results, as AppendResult
// did before results had a format: tests of the framing and of the
// migrations use it.
func (s *Store) appendRaw(guildID string, payload []byte) error {
	if guildID == "" {
		return fmt.Errorf("store: append result: guild ID: %w", ErrEmptyKey)
	}
	err := s.update(func(tx *bbolt.Tx, _ func(func())) error {
		results, err := bucket(tx, bucketResults)
		if err != nil {
			return err
		}
		_, err = putResult(results, guildID, encodeFrame(payload))
		return err
	})
	if err != nil {
		return fmt.Errorf("store: append result for guild %s: %w", guildID, err)
	}
	return nil
}

// rawResults returns guildID's result payloads, newest first, without
// decoding them: Results without the format, for the tests of framing.
func (s *Store) rawResults(guildID string, limit int) ([][]byte, error) {
	var out [][]byte
	err := s.eachResult(guildID, limit, func(payload []byte) error {
		out = append(out, copyBytes(payload))
		return nil
	})
	if err != nil {
		return out, fmt.Errorf("store: results for guild %s: %w", guildID, err)
	}
	return out, nil
}

// eachResult calls fn with the verified payload of guildID's results,
// newest first, up to limit accepted ones (all when limit <= 0). The
// payload is only valid during the call. A corrupt frame, or fn returning
// an error, skips the value and is reported in the returned error (which
// then wraps ErrCorrupt when the value's was); a damaged page stops the
// walk with an error wrapping ErrCorrupt.
func (s *Store) eachResult(guildID string, limit int, fn func(payload []byte) error) error {
	return s.eachResultSized(guildID, limit, nil, fn)
}
