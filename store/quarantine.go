package store

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"go.etcd.io/bbolt"
)

// QuarantineEntry is a game value moved aside by Quarantine, for operators
// to inspect and tests to check.
type QuarantineEntry struct {
	// ChannelID is the channel whose game it was.
	ChannelID string
	// Time is when it was quarantined (UTC).
	Time time.Time
	// Reason is what the caller of Quarantine gave.
	Reason string
	// Raw is the value exactly as it lay in the games bucket: frame header,
	// checksum and payload, damaged or not.
	Raw []byte
}

// quarantineTimeFormat is RFC 3339 in UTC with all nine fraction digits, so
// that a channel's quarantine keys sort by time (time.RFC3339Nano drops
// trailing zeros and would not). time.RFC3339Nano parses it.
const quarantineTimeFormat = "2006-01-02T15:04:05.000000000Z07:00"

// quarantineRecord is the payload (inside a frame) of a quarantine value.
// Raw is base64 in the JSON, which encoding/json decodes byte for byte.
type quarantineRecord struct {
	Channel string    `json:"channel"`
	Time    time.Time `json:"time"`
	Reason  string    `json:"reason"`
	Raw     []byte    `json:"raw"`
}

// Quarantine moves the game of channelID out of the way: in one write
// transaction it copies the value exactly as it is stored (even if it is
// corrupt) into the quarantine bucket, under the key
// "<channelID>/<time>" with the time in RFC 3339 UTC with nanoseconds, and
// deletes the game. moved is false, and nothing is written, when the channel
// has no game. Quarantined lists what was moved.
//
// The quarantine value is a framed JSON record holding channel, time,
// reason and the raw bytes (base64); see the package documentation.
func (s *Store) Quarantine(channelID, reason string) (moved bool, err error) {
	if channelID == "" {
		return false, fmt.Errorf("store: quarantine game: channel ID: %w", ErrEmptyKey)
	}
	key := []byte(channelID)
	now := s.now().UTC()
	err = s.update(func(tx *bbolt.Tx, _ func(func())) error {
		moved = false // this may run again if another write of its group fails
		games, err := bucket(tx, bucketGames)
		if err != nil {
			return err
		}
		q, err := bucket(tx, bucketQuarantine)
		if err != nil {
			return err
		}
		raw, exists := rawValue(games, key)
		if !exists {
			return errNoChange
		}
		if raw == nil {
			return fmt.Errorf("%s/%s is a bucket, not a game", bucketGames, channelID)
		}
		// Two quarantines of one channel within one clock tick get
		// distinct keys.
		t := now
		for q.Get(quarantineKey(channelID, t)) != nil {
			t = t.Add(time.Nanosecond)
		}
		rec, err := json.Marshal(quarantineRecord{Channel: channelID, Time: t, Reason: reason, Raw: raw})
		if err != nil {
			return err
		}
		if err := q.Put(quarantineKey(channelID, t), encodeFrame(rec)); err != nil {
			return err
		}
		moved = true
		return games.Delete(key)
	})
	switch {
	case err == errNoChange:
		return false, nil
	case err != nil:
		return false, fmt.Errorf("store: quarantine game %s: %w", channelID, err)
	}
	return moved, nil
}

func quarantineKey(channelID string, t time.Time) []byte {
	return []byte(channelID + "/" + t.UTC().Format(quarantineTimeFormat))
}

// Quarantined returns every quarantined game in key order: by channel ID,
// then oldest first. A quarantine value that is itself corrupt is skipped
// and reported: the good entries come back together with an error wrapping
// ErrCorrupt that names the bad keys.
func (s *Store) Quarantined() ([]QuarantineEntry, error) {
	var (
		out []QuarantineEntry
		bad []string
	)
	err := s.view(func(tx *bbolt.Tx) error {
		q, err := bucket(tx, bucketQuarantine)
		if err != nil {
			return err
		}
		c := q.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			e, err := decodeQuarantine(k, v)
			if err != nil {
				bad = append(bad, fmt.Sprintf("value %s/%s: %v", bucketQuarantine, k, err))
				continue
			}
			out = append(out, e)
		}
		return nil
	})
	if err != nil {
		return out, fmt.Errorf("store: quarantined games: %w", err)
	}
	if len(bad) > 0 {
		return out, fmt.Errorf("store: quarantined games: %w: %s", ErrCorrupt, strings.Join(bad, "; "))
	}
	return out, nil
}

// decodeQuarantine verifies and decodes one quarantine value; the result
// outlives the transaction.
func decodeQuarantine(k, v []byte) (QuarantineEntry, error) {
	payload, err := decodeFrame(v)
	if err != nil {
		return QuarantineEntry{}, err
	}
	var rec quarantineRecord
	if err := json.Unmarshal(payload, &rec); err != nil {
		return QuarantineEntry{}, fmt.Errorf("%w: record: %v", ErrCorrupt, err)
	}
	if want := string(quarantineKey(rec.Channel, rec.Time)); want != string(k) {
		return QuarantineEntry{}, fmt.Errorf("%w: record for key %q under key %q", ErrCorrupt, want, k)
	}
	return QuarantineEntry{ChannelID: rec.Channel, Time: rec.Time.UTC(), Reason: rec.Reason, Raw: nonNil(rec.Raw)}, nil
}
