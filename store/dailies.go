package store

import (
	"encoding/binary"
	"errors"
	"fmt"

	"go.etcd.io/bbolt"
)

// The daily challenge is played once per user and day, and that holds
// after the user asked to be forgotten (DeleteUser, and the bot deleting
// their private games): otherwise forgetting would be a way to play the
// day's dice again, knowing them. So the store keeps, per day, a mark for
// every player of that day's challenge: not their user ID but a keyed hash
// of it and the day (an HMAC the bot makes with a secret kept in this
// database, see Secret), which tells that someone played, and whether a
// given user did, only to whoever holds the secret and names the user.
// Marks older than the day before are dropped as new ones are written.

// dailyMarkLen bounds a mark's length (an HMAC-SHA256 is 32 bytes).
const dailyMarkLen = 64

// dailyKey is a mark's key: the day as 4 sortable bytes, then the mark.
func dailyKey(day int, mark []byte) ([]byte, error) {
	if day < 0 || day > 1<<31 {
		return nil, fmt.Errorf("day %d out of range", day)
	}
	if len(mark) == 0 || len(mark) > dailyMarkLen {
		return nil, fmt.Errorf("mark of %d bytes, want 1–%d: %w", len(mark), dailyMarkLen, ErrEmptyKey)
	}
	k := binary.BigEndian.AppendUint32(make([]byte, 0, 4+len(mark)), uint32(day))
	return append(k, mark...), nil
}

// DailyMarked reports whether mark was kept for day (MarkDaily).
func (s *Store) DailyMarked(day int, mark []byte) (bool, error) {
	k, err := dailyKey(day, mark)
	if err != nil {
		return false, fmt.Errorf("store: daily marked: %w", err)
	}
	var found bool
	err = s.view(func(tx *bbolt.Tx) error {
		b, err := bucket(tx, bucketDailies)
		if err != nil {
			return err
		}
		found = b.Get(k) != nil
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("store: daily marked: %w", err)
	}
	return found, nil
}

// MarkDaily keeps mark for day, durably, and reports whether it was kept
// already (then nothing is written). Marks of days before day-1 are
// dropped in the same transaction.
func (s *Store) MarkDaily(day int, mark []byte) (already bool, err error) {
	k, err := dailyKey(day, mark)
	if err != nil {
		return false, fmt.Errorf("store: mark daily: %w", err)
	}
	err = s.update(func(tx *bbolt.Tx, _ func(func())) error {
		b, err := bucket(tx, bucketDailies)
		if err != nil {
			return err
		}
		if already = b.Get(k) != nil; already {
			return errNoChange
		}
		var drop [][]byte
		c := b.Cursor()
		for ok, _ := c.First(); len(ok) >= 4 && int(binary.BigEndian.Uint32(ok)) < day-1; ok, _ = c.Next() {
			drop = append(drop, copyBytes(ok))
		}
		if _, err := deleteKeys(b, drop); err != nil {
			return err
		}
		return b.Put(k, encodeFrame(k[:4]))
	})
	if err != nil && !errors.Is(err, errNoChange) {
		return false, fmt.Errorf("store: mark daily: %w", err)
	}
	return already, nil
}
