package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"go.etcd.io/bbolt"
)

func TestMigrationList(t *testing.T) {
	if err := checkMigrations(migrations); err != nil {
		t.Fatal(err)
	}
	if got, want := migrations[len(migrations)-1].Version, SchemaVersion; got != want {
		t.Errorf("last migration is version %d, SchemaVersion is %d", got, want)
	}
	for _, m := range migrations {
		if m.Name == "" {
			t.Errorf("migration %d has no name", m.Version)
		}
	}
	bad := []struct {
		name string
		migs []Migration
	}{
		{"starts at 2", []Migration{{Version: 2, Apply: migrate1}}},
		{"gap", []Migration{{Version: 1, Apply: migrate1}, {Version: 3, Apply: migrate2}}},
		{"out of order", []Migration{{Version: 2, Apply: migrate2}, {Version: 1, Apply: migrate1}}},
		{"no Apply", []Migration{{Version: 1}}},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			if err := checkMigrations(tt.migs); err == nil {
				t.Errorf("checkMigrations accepted %s", tt.name)
			}
		})
	}
}

// layout describes the buckets of a database: top-level bucket names, and
// for nested buckets "parent/child". Plain keys are not listed.
func layout(t *testing.T, s *Store) []string {
	t.Helper()
	var names []string
	err := s.db.View(func(tx *bbolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bbolt.Bucket) error {
			names = append(names, string(name))
			if string(name) == string(bucketResults) {
				return nil // one sub-bucket per guild: data, not layout
			}
			return b.ForEachBucket(func(k []byte) error {
				names = append(names, string(name)+"/"+string(k))
				return nil
			})
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// rawValues returns every plain value of games, guilds and results as it
// lies in the file, keyed "games/<channel>", "guilds/<guild>" and
// "results/<guild>/<sequence>".
func rawValues(t *testing.T, s *Store) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := s.db.View(func(tx *bbolt.Tx) error {
		for _, name := range []string{"games", "guilds"} {
			if err := tx.Bucket([]byte(name)).ForEach(func(k, v []byte) error {
				out[name+"/"+string(k)] = string(v)
				return nil
			}); err != nil {
				return err
			}
		}
		results := tx.Bucket([]byte("results"))
		return results.ForEachBucket(func(g []byte) error {
			return results.Bucket(g).ForEach(func(k, v []byte) error {
				out["results/"+string(g)+"/"+strconv.FormatUint(binary.BigEndian.Uint64(k), 10)] = string(v)
				return nil
			})
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// writeHand writes a bbolt file built by fn at path, without this package.
func writeHand(t *testing.T, path string, fn func(tx *bbolt.Tx) error) {
	t.Helper()
	if err := os.WriteFile(path, handBuilt(t, fn), 0o600); err != nil {
		t.Fatal(err)
	}
}

// putVersion writes the schema version key by hand.
func putVersion(tx *bbolt.Tx, v uint64) error {
	b, err := tx.CreateBucketIfNotExists([]byte("meta"))
	if err != nil {
		return err
	}
	var buf [8]byte
	binary.BigEndian.PutUint64(buf[:], v)
	return b.Put([]byte("version"), buf[:])
}

// TestMigration1 starts from version 0, a new empty bbolt file, and checks
// the layout of version 1.
func TestMigration1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "q.db")
	writeHand(t, path, func(*bbolt.Tx) error { return nil })

	s, err := open(path, migrations[:1])
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, err := s.Version(); err != nil || v != 1 {
		t.Errorf("Version() = %d, %v; want 1, nil", v, err)
	}
	if got, want := layout(t, s), []string{"games", "guilds", "meta", "results"}; !slices.Equal(got, want) {
		t.Errorf("buckets at version 1 = %q, want %q", got, want)
	}
	// The version-1 API works.
	if err := s.Put("ch", []byte("g")); err != nil {
		t.Errorf("Put at version 1: %v", err)
	}
	if err := s.AppendResult("guild", []byte("r")); err != nil {
		t.Errorf("AppendResult at version 1: %v", err)
	}
	if err := s.PutGuildSettings("guild", []byte("s")); err != nil {
		t.Errorf("PutGuildSettings at version 1: %v", err)
	}
}

// TestMigration2 builds a version-1 database with data by hand and checks
// that migration 2 adds the timers buckets and keeps everything else.
func TestMigration2(t *testing.T) {
	path := filepath.Join(t.TempDir(), "q.db")
	writeHand(t, path, func(tx *bbolt.Tx) error {
		games, err := tx.CreateBucket([]byte("games"))
		if err != nil {
			return err
		}
		if err := games.Put([]byte("chan-1"), []byte("game-1")); err != nil {
			return err
		}
		results, err := tx.CreateBucket([]byte("results"))
		if err != nil {
			return err
		}
		g, err := results.CreateBucket([]byte("guild-1"))
		if err != nil {
			return err
		}
		for i := range 3 {
			seq, err := g.NextSequence()
			if err != nil {
				return err
			}
			var k [8]byte
			binary.BigEndian.PutUint64(k[:], seq)
			if err := g.Put(k[:], []byte(fmt.Sprintf("result-%d", i+1))); err != nil {
				return err
			}
		}
		guilds, err := tx.CreateBucket([]byte("guilds"))
		if err != nil {
			return err
		}
		if err := guilds.Put([]byte("guild-1"), []byte("settings-1")); err != nil {
			return err
		}
		return putVersion(tx, 1)
	})

	s, err := open(path, migrations[:2])
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, err := s.Version(); err != nil || v != 2 {
		t.Errorf("Version() = %d, %v; want 2, nil", v, err)
	}
	want := []string{"games", "guilds", "meta", "results", "timers", "timers/due", "timers/keys"}
	if got := layout(t, s); !slices.Equal(got, want) {
		t.Errorf("buckets at version 2 = %q, want %q", got, want)
	}
	// Data from version 1 is intact, byte for byte. (It is read raw: the
	// Store's readers expect the frames of version 3.)
	want1 := map[string]string{
		"games/chan-1":      "game-1",
		"guilds/guild-1":    "settings-1",
		"results/guild-1/1": "result-1",
		"results/guild-1/2": "result-2",
		"results/guild-1/3": "result-3",
	}
	if got := rawValues(t, s); fmt.Sprint(got) != fmt.Sprint(want1) {
		t.Errorf("values at version 2 = %v, want %v", got, want1)
	}
	// The timer API works on the migrated file, and there are no timers yet.
	if ts, err := s.Timers(); err != nil || len(ts) != 0 {
		t.Errorf("Timers() = %v, %v; want none", ts, err)
	}
	if err := s.PutTimer("chan-1", time.Unix(100, 0), []byte("p")); err != nil {
		t.Errorf("PutTimer after migration 2: %v", err)
	}
}

func TestMigrateFromEmptyToLatest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "q.db")
	var logs bytes.Buffer
	s, err := Open(path, WithLogger(zerolog.New(&logs)))
	if err != nil {
		t.Fatal(err)
	}
	if v, err := s.Version(); err != nil || v != SchemaVersion {
		t.Errorf("Version() = %d, %v; want %d, nil", v, err, SchemaVersion)
	}
	want := []string{"games", "guilds", "meta", "quarantine", "results", "timers", "timers/due", "timers/keys"}
	if got := layout(t, s); !slices.Equal(got, want) {
		t.Errorf("buckets = %q, want %q", got, want)
	}
	if got, want := strings.Count(logs.String(), "schema migrated"), len(migrations); got != want {
		t.Errorf("logged %d migrations, want %d:\n%s", got, want, logs.String())
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	// Re-opening an up-to-date database runs no migration and writes
	// nothing: the file stays byte-identical.
	before := mustRead(t, path)
	applied := 0
	counting := slices.Clone(migrations)
	for i := range counting {
		apply := counting[i].Apply
		counting[i].Apply = func(tx *bbolt.Tx) error { applied++; return apply(tx) }
	}
	logs.Reset()
	s, err = open(path, counting, WithLogger(zerolog.New(&logs)))
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	if v, _ := s.Version(); v != SchemaVersion {
		t.Errorf("Version() after reopen = %d, want %d", v, SchemaVersion)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if applied != 0 || logs.Len() != 0 {
		t.Errorf("reopen applied %d migrations and logged %q, want none", applied, logs.String())
	}
	if after := mustRead(t, path); !bytes.Equal(before, after) {
		t.Errorf("reopen changed the file")
	}
}

// TestMigrationFailureRollsBack checks that migrations run in one
// transaction: when a later one fails, the earlier ones are not kept either.
func TestMigrationFailureRollsBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "q.db")
	errBroken := errors.New("broken")
	migs := []Migration{
		migrations[0],
		{Version: 2, Name: "broken", Apply: func(tx *bbolt.Tx) error {
			if _, err := tx.CreateBucket([]byte("half-done")); err != nil {
				return err
			}
			return errBroken
		}},
	}
	s, err := open(path, migs)
	if err == nil {
		s.Close()
		t.Fatal("open with a failing migration succeeded")
	}
	if !errors.Is(err, errBroken) || !strings.Contains(err.Error(), "migration 2 (broken)") {
		t.Errorf("error = %v, want one naming migration 2 (broken) and wrapping %v", err, errBroken)
	}
	// Nothing of either migration was kept: the file is a bare version 0.
	s, err = open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := layout(t, s); len(got) != 0 {
		t.Errorf("buckets after a failed migration = %q, want none", got)
	}
	if v, _ := s.Version(); v != 0 {
		t.Errorf("Version() after a failed migration = %d, want 0", v)
	}
}
