package store

import (
	"encoding/binary"
	"encoding/json"
	"fmt"

	"github.com/qwixxbot/qwixxbot/game/kept"
	gamestats "github.com/qwixxbot/qwixxbot/game/stats"
	"github.com/rs/zerolog"
	"go.etcd.io/bbolt"
)

// Bucket and key names. They are part of the file format: never rename one.
var (
	bucketMeta       = []byte("meta")
	bucketGames      = []byte("games")
	bucketResults    = []byte("results")
	bucketGuilds     = []byte("guilds")
	bucketTimers     = []byte("timers")
	bucketQuarantine = []byte("quarantine")
	bucketRecords    = []byte("records")
	bucketDeparted   = []byte("departed")
	bucketDailies    = []byte("dailies")
	bucketDue        = []byte("due")  // inside timers
	bucketKeys       = []byte("keys") // inside timers

	keyVersion = []byte("version")
)

// Migration moves a database from schema version Version-1 to Version.
// Apply runs inside the write transaction that opens the database and must
// not commit or roll it back; returning an error aborts every migration of
// that Open.
type Migration struct {
	Version int
	Name    string
	Apply   func(tx *bbolt.Tx) error
}

// SchemaVersion is the schema version this code writes: the Version of the
// last migration.
const SchemaVersion = 5

// migrations is append only: never edit, reorder or remove a released entry
// (see the package documentation).
var migrations = []Migration{
	{Version: 1, Name: "create games, results, guilds buckets", Apply: migrate1},
	{Version: 2, Name: "create timers bucket with due-time and key indexes", Apply: migrate2},
	{Version: 3, Name: "create quarantine bucket, frame every game, guild and result value with a CRC-32C", Apply: migrate3},
	{Version: 4, Name: "create records and departed buckets, keep only result values that are stats results", Apply: migrate4},
	{Version: 5, Name: "create dailies bucket, mark private the results and records of solo games and of the shared DM history", Apply: migrate5},
}

func migrate1(tx *bbolt.Tx) error {
	for _, name := range [][]byte{bucketGames, bucketResults, bucketGuilds} {
		if _, err := tx.CreateBucket(name); err != nil {
			return fmt.Errorf("create bucket %s: %w", name, err)
		}
	}
	return nil
}

func migrate2(tx *bbolt.Tx) error {
	t, err := tx.CreateBucket(bucketTimers)
	if err != nil {
		return fmt.Errorf("create bucket %s: %w", bucketTimers, err)
	}
	for _, name := range [][]byte{bucketDue, bucketKeys} {
		if _, err := t.CreateBucket(name); err != nil {
			return fmt.Errorf("create bucket %s/%s: %w", bucketTimers, name, err)
		}
	}
	return nil
}

// migrate3 creates the quarantine bucket and wraps every value of games,
// guilds and results/<guild> in the checksummed frame (see frame.go). The
// values of version 2 are bare payloads, whatever their bytes: all are
// framed, none is interpreted.
func migrate3(tx *bbolt.Tx) error {
	if _, err := tx.CreateBucket(bucketQuarantine); err != nil {
		return fmt.Errorf("create bucket %s: %w", bucketQuarantine, err)
	}
	for _, name := range [][]byte{bucketGames, bucketGuilds} {
		b, err := bucket(tx, name)
		if err != nil {
			return err
		}
		if err := frameValues(b, string(name)); err != nil {
			return err
		}
	}
	results, err := bucket(tx, bucketResults)
	if err != nil {
		return err
	}
	guilds, err := subBuckets(results)
	if err != nil {
		return err
	}
	for _, g := range guilds {
		if err := frameValues(results.Bucket(g), string(bucketResults)+"/"+string(g)); err != nil {
			return err
		}
	}
	return nil
}

// migrate4 creates the buckets of game records (records/<guild>) and of
// guilds the bot left (departed), and gives the results a format: from
// version 4 on a result value is a frame around a gamestats.Result in its
// binary encoding. Before, AppendResult took any bytes, and no release of
// qwixxbot called it, so a version-3 result value is either already such
// a result (kept; its guild field set to the bucket's guild if it differs)
// or bytes of no known meaning (deleted: no reader could use them, and
// statistics would report them as corrupt for ever). Values whose frame is
// damaged are left as they are: they were corrupt before and Results
// reports them as such.
func migrate4(tx *bbolt.Tx) error {
	for _, name := range [][]byte{bucketRecords, bucketDeparted} {
		if _, err := tx.CreateBucket(name); err != nil {
			return fmt.Errorf("create bucket %s: %w", name, err)
		}
	}
	results, err := bucket(tx, bucketResults)
	if err != nil {
		return err
	}
	guilds, err := subBuckets(results)
	if err != nil {
		return err
	}
	for _, gid := range guilds {
		if err := rewriteValues(results.Bucket(gid), func(v []byte) ([]byte, bool, error) {
			payload, err := decodeFrame(v)
			if err != nil {
				return nil, false, nil // corrupt before, reported by Results
			}
			var r gamestats.Result
			switch {
			case r.UnmarshalBinary(payload) != nil:
				return nil, true, nil
			case r.Guild != string(gid):
				r.Guild = string(gid)
				b, err := r.MarshalBinary()
				if err != nil {
					return nil, false, err
				}
				return encodeFrame(b), true, nil
			}
			return nil, false, nil
		}); err != nil {
			return fmt.Errorf("convert %s/%s: %w", bucketResults, gid, err)
		}
	}
	return nil
}

// LegacyDMGuild is the history's guild under which versions before 5 kept
// the games of every DM and group DM together. From version 5 on a DM or
// group DM is a place of its own (the bot keys it by its channel); what
// was kept under LegacyDMGuild stays there, every result and record
// private (its players' alone): where each was played is not known.
// It is game/kept's LegacyDMPlace, the name the session gives it.
const LegacyDMGuild = kept.LegacyDMPlace

// migrate5 creates the bucket of the daily challenges played (dailies,
// see MarkDaily) and marks private the results and records whose
// visibility cannot be told from what versions before 5 kept: every game
// of LegacyDMGuild (all DMs and group DMs shared it, so no place can be
// named for it), and every solo game (one seat) in a server's history, as
// a private solo game and a solo game played in a channel were kept alike.
// A private result or record is its players' alone; a solo game played in
// a channel thus becomes its player's only, which loses nobody anything
// they own. Damaged values are left as they are (Results and Record
// report them).
func migrate5(tx *bbolt.Tx) error {
	if _, err := tx.CreateBucket(bucketDailies); err != nil {
		return fmt.Errorf("create bucket %s: %w", bucketDailies, err)
	}
	results, records, _, err := historyBuckets(tx)
	if err != nil {
		return err
	}
	gids, err := guildList(results, records, "")
	if err != nil {
		return err
	}
	for _, gid := range gids {
		all := string(gid) == LegacyDMGuild
		if g := results.Bucket(gid); g != nil {
			if err := rewriteValues(g, func(v []byte) ([]byte, bool, error) {
				payload, err := decodeFrame(v)
				if err != nil {
					return nil, false, nil
				}
				var r gamestats.Result
				if r.UnmarshalBinary(payload) != nil || r.Private || (!all && !r.Solo()) {
					return nil, false, nil
				}
				r.Private = true
				b, err := r.MarshalBinary()
				if err != nil {
					return nil, false, err
				}
				return encodeFrame(b), true, nil
			}); err != nil {
				return fmt.Errorf("mark %s/%s: %w", bucketResults, gid, err)
			}
		}
		if g := records.Bucket(gid); g != nil {
			if err := rewriteValues(g, func(v []byte) ([]byte, bool, error) {
				rv, err := decodeRecord(v)
				if err != nil || rv.Private || (!all && len(rv.Users) != 1) {
					return nil, false, nil
				}
				rv.Private = true
				b, err := json.Marshal(rv)
				if err != nil {
					return nil, false, err
				}
				return encodeFrame(b), true, nil
			}); err != nil {
				return fmt.Errorf("mark %s/%s: %w", bucketRecords, gid, err)
			}
		}
	}
	return nil
}

// frameValues replaces every plain value of b by its frame; nested
// buckets are left alone.
func frameValues(b *bbolt.Bucket, name string) error {
	if err := rewriteValues(b, func(v []byte) ([]byte, bool, error) { return encodeFrame(v), true, nil }); err != nil {
		return fmt.Errorf("frame %s: %w", name, err)
	}
	return nil
}

// readVersion returns the schema version of the database in tx: 0 for a
// new, empty bbolt file. A bbolt file with buckets but no meta bucket
// belongs to somebody else and gives ErrNotDatabase.
func readVersion(tx *bbolt.Tx) (int, error) {
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		var foreign []string
		err := tx.ForEach(func(name []byte, _ *bbolt.Bucket) error {
			foreign = append(foreign, string(name))
			return nil
		})
		if err != nil {
			return 0, err
		}
		if len(foreign) > 0 {
			return 0, fmt.Errorf("%w: bbolt file with buckets %q but no %s bucket", ErrNotDatabase, foreign, bucketMeta)
		}
		return 0, nil
	}
	v := meta.Get(keyVersion)
	if len(v) != 8 {
		return 0, fmt.Errorf("%w: %s/%s is %d bytes, want 8", ErrNotDatabase, bucketMeta, keyVersion, len(v))
	}
	n := binary.BigEndian.Uint64(v)
	if n > 1<<31 {
		return 0, fmt.Errorf("%w: implausible schema version %d", ErrNotDatabase, n)
	}
	return int(n), nil
}

func writeVersion(tx *bbolt.Tx, v int) error {
	meta, err := tx.CreateBucketIfNotExists(bucketMeta)
	if err != nil {
		return fmt.Errorf("create bucket %s: %w", bucketMeta, err)
	}
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(v))
	return meta.Put(keyVersion, b[:])
}

// migrate brings db up to the last version of migs. It reads the version
// first without writing, so opening an up-to-date database changes nothing;
// the pending migrations then run in one write transaction.
func migrate(db *bbolt.DB, migs []Migration, log zerolog.Logger) error {
	if err := checkMigrations(migs); err != nil {
		return err
	}
	latest := 0
	if len(migs) > 0 {
		latest = migs[len(migs)-1].Version
	}
	var have int
	if err := db.View(func(tx *bbolt.Tx) error {
		var err error
		have, err = readVersion(tx)
		return err
	}); err != nil {
		return err
	}
	switch {
	case have > latest:
		return fmt.Errorf("schema version %d is newer than the latest this program knows, %d: %w", have, latest, ErrSchemaTooNew)
	case have == latest:
		return nil
	}
	var applied []Migration
	err := db.Update(func(tx *bbolt.Tx) error {
		// Read again inside the write transaction: it is the one that counts.
		v, err := readVersion(tx)
		if err != nil {
			return err
		}
		if v > latest {
			return fmt.Errorf("schema version %d is newer than the latest this program knows, %d: %w", v, latest, ErrSchemaTooNew)
		}
		applied = migs[v:]
		for _, m := range applied {
			if err := m.Apply(tx); err != nil {
				return fmt.Errorf("migration %d (%s): %w", m.Version, m.Name, err)
			}
			if err := writeVersion(tx, m.Version); err != nil {
				return fmt.Errorf("migration %d (%s): write version: %w", m.Version, m.Name, err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, m := range applied {
		log.Info().Int("version", m.Version).Str("migration", m.Name).Msg("store: schema migrated")
	}
	return nil
}

// checkMigrations insists that versions run 1, 2, 3, … with no gaps, so
// that migs[v:] is exactly what a database at version v lacks.
func checkMigrations(migs []Migration) error {
	for i, m := range migs {
		if m.Version != i+1 {
			return fmt.Errorf("migration list: entry %d has version %d, want %d", i, m.Version, i+1)
		}
		if m.Apply == nil {
			return fmt.Errorf("migration list: migration %d (%s) has no Apply", m.Version, m.Name)
		}
	}
	return nil
}
