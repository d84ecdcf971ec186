package store

import (
	"crypto/rand"
	"errors"
	"fmt"

	"go.etcd.io/bbolt"
)

// secretPrefix keys the secrets in the meta bucket ("secret/daily").
const secretPrefix = "secret/"

// secretLen is the length of a secret made by Secret.
const secretLen = 32

// Secret returns the secret called name: 32 bytes from crypto/rand, made
// on its first use and kept in the database from then on, so that every
// process on the same file, and every restart, uses the same one. The bot
// keys the daily challenge's dice with it (game/ai.DailySeed): it must
// not leave the database (it is never logged).
func (s *Store) Secret(name string) ([]byte, error) {
	if name == "" {
		return nil, fmt.Errorf("store: secret: name: %w", ErrEmptyKey)
	}
	key := []byte(secretPrefix + name)
	var out []byte
	err := s.view(func(tx *bbolt.Tx) error {
		b, err := bucket(tx, bucketMeta)
		if err != nil {
			return err
		}
		v, ok, err := readFramed(b, bucketMeta, key)
		if ok && err == nil {
			out = v
		}
		return err
	})
	if err == nil && len(out) == secretLen {
		return out, nil
	}
	if err != nil && !errors.Is(err, ErrCorrupt) {
		return nil, fmt.Errorf("store: secret %s: %w", name, err)
	}
	// None yet, or a damaged one: make it (a damaged secret is replaced;
	// the days to come get other dice, which is all it can cost).
	fresh := make([]byte, secretLen)
	if _, err := rand.Read(fresh); err != nil {
		return nil, fmt.Errorf("store: secret %s: %w", name, err)
	}
	err = s.update(func(tx *bbolt.Tx, _ func(func())) error {
		b, err := bucket(tx, bucketMeta)
		if err != nil {
			return err
		}
		// Another process may have made it meanwhile: keep theirs.
		if v, ok, err := readFramed(b, bucketMeta, key); ok && err == nil && len(v) == secretLen {
			out = v
			return nil
		}
		out = fresh
		return b.Put(key, encodeFrame(fresh))
	})
	if err != nil {
		return nil, fmt.Errorf("store: secret %s: %w", name, err)
	}
	return out, nil
}
