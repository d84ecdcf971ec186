package store

import (
	"encoding/binary"
	"fmt"
	"math"
	"time"

	"go.etcd.io/bbolt"
)

// Timer is a pending timer: something to do at Due, described by Payload,
// named by Key (for example a channel ID). Timers survive a restart.
type Timer struct {
	Key     string
	Due     time.Time
	Payload []byte
}

// dueBytes encodes t as 8 bytes whose byte order is time order: Unix
// nanoseconds with the sign bit flipped, big-endian. t must lie within
// [minDue, maxDue].
func dueBytes(t time.Time) [8]byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(t.UnixNano())^(1<<63))
	return b
}

// The range of times Unix nanoseconds in an int64 can hold (years 1677 to
// 2262).
var (
	minDue = time.Unix(0, math.MinInt64)
	maxDue = time.Unix(0, math.MaxInt64)
)

func dueTime(b []byte) time.Time {
	return time.Unix(0, int64(binary.BigEndian.Uint64(b)^(1<<63)))
}

func timerBuckets(tx *bbolt.Tx) (due, keys *bbolt.Bucket, err error) {
	t, err := bucket(tx, bucketTimers)
	if err != nil {
		return nil, nil, err
	}
	due, keys = t.Bucket(bucketDue), t.Bucket(bucketKeys)
	if due == nil || keys == nil {
		return nil, nil, fmt.Errorf("bucket %s/%s or %s/%s missing", bucketTimers, bucketDue, bucketTimers, bucketKeys)
	}
	return due, keys, nil
}

// deleteTimer removes key's timer, if any, from both indexes.
func deleteTimer(due, keys *bbolt.Bucket, key []byte) error {
	old := keys.Get(key)
	if old == nil {
		return nil
	}
	if err := due.Delete(append(copyBytes(old), key...)); err != nil {
		return err
	}
	return keys.Delete(key)
}

// PutTimer sets the timer named key to fire at due with payload, replacing
// any timer of that name.
func (s *Store) PutTimer(key string, due time.Time, payload []byte) error {
	if key == "" {
		return fmt.Errorf("store: put timer: key: %w", ErrEmptyKey)
	}
	if due.Before(minDue) || due.After(maxDue) {
		return fmt.Errorf("store: put timer %s: due time %v out of range", key, due)
	}
	k := []byte(key)
	d := dueBytes(due)
	err := s.update(func(tx *bbolt.Tx, _ func(func())) error {
		dueB, keysB, err := timerBuckets(tx)
		if err != nil {
			return err
		}
		if err := deleteTimer(dueB, keysB, k); err != nil {
			return err
		}
		if err := dueB.Put(append(d[:], k...), nonNil(payload)); err != nil {
			return err
		}
		return keysB.Put(k, d[:])
	})
	if err != nil {
		return fmt.Errorf("store: put timer %s: %w", key, err)
	}
	return nil
}

// DeleteTimer removes the timer named key; removing a missing timer is not
// an error.
func (s *Store) DeleteTimer(key string) error {
	if key == "" {
		return fmt.Errorf("store: delete timer: key: %w", ErrEmptyKey)
	}
	err := s.update(func(tx *bbolt.Tx, _ func(func())) error {
		dueB, keysB, err := timerBuckets(tx)
		if err != nil {
			return err
		}
		if keysB.Get([]byte(key)) == nil {
			return errNoChange // no timer: no commit
		}
		return deleteTimer(dueB, keysB, []byte(key))
	})
	if err != nil && err != errNoChange {
		return fmt.Errorf("store: delete timer %s: %w", key, err)
	}
	return nil
}

// Timers returns every pending timer, earliest first (equal times by key).
func (s *Store) Timers() ([]Timer, error) {
	ts, err := s.timers(nil)
	if err != nil {
		return nil, fmt.Errorf("store: timers: %w", err)
	}
	return ts, nil
}

// DueTimers returns the timers due at or before now, earliest first. It
// does not remove them: call DeleteTimer once a timer has been handled.
func (s *Store) DueTimers(now time.Time) ([]Timer, error) {
	ts, err := s.timers(&now)
	if err != nil {
		return nil, fmt.Errorf("store: due timers: %w", err)
	}
	return ts, nil
}

func (s *Store) timers(until *time.Time) ([]Timer, error) {
	var ts []Timer
	err := s.db.View(func(tx *bbolt.Tx) error {
		dueB, _, err := timerBuckets(tx)
		if err != nil {
			return err
		}
		c := dueB.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			if len(k) < 8 {
				return fmt.Errorf("timer key %x shorter than 8 bytes", k)
			}
			if until != nil && dueTime(k[:8]).After(*until) {
				break
			}
			ts = append(ts, Timer{Key: string(k[8:]), Due: dueTime(k[:8]), Payload: copyBytes(v)})
		}
		return nil
	})
	return ts, err
}
