package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/game"
	gamestats "github.com/qwixxbot/qwixxbot/game/stats"
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
			if string(name) == string(bucketResults) || string(name) == string(bucketRecords) {
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
	if err := s.appendRaw("guild", []byte("r")); err != nil {
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
	want := []string{"dailies", "departed", "games", "guilds", "meta", "quarantine", "records", "results", "timers", "timers/due", "timers/keys"}
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

// TestMigration3 builds a version-2 database with bare (unframed) values by
// hand and checks that migration 3 adds the quarantine bucket, frames every
// game, guild and result value with a CRC-32C, and leaves timers alone.
func TestMigration3(t *testing.T) {
	path := filepath.Join(t.TempDir(), "q.db")
	// A version-2 value that happens to look like a frame: it is framed
	// again like any other, never interpreted.
	lookalike := []byte{0x51, 0x01, 0xde, 0xad, 0xbe, 0xef, 'x'}
	games := map[string][]byte{
		"chan-1":   []byte(`{"v":3,"turn":1}`),
		"chan-2":   {0, 1, 2, 0xff},
		"empty":    {},
		"frameish": lookalike,
		"big":      bytes.Repeat([]byte("0123456789"), 1000),
	}
	guilds := map[string][]byte{"guild-1": []byte(`{"lang":"de"}`), "guild-2": {}}
	results := map[string][]string{"guild-1": {"r1", "r2", "r3"}, "guild-2": {"only"}}
	due := time.Date(2030, 1, 2, 3, 4, 5, 6, time.UTC)
	writeHand(t, path, func(tx *bbolt.Tx) error {
		if err := migrate1(tx); err != nil {
			return err
		}
		if err := migrate2(tx); err != nil {
			return err
		}
		for k, v := range games {
			if err := tx.Bucket([]byte("games")).Put([]byte(k), v); err != nil {
				return err
			}
		}
		for k, v := range guilds {
			if err := tx.Bucket([]byte("guilds")).Put([]byte(k), v); err != nil {
				return err
			}
		}
		for g, rs := range results {
			b, err := tx.Bucket([]byte("results")).CreateBucket([]byte(g))
			if err != nil {
				return err
			}
			for _, r := range rs {
				seq, err := b.NextSequence()
				if err != nil {
					return err
				}
				var k [8]byte
				binary.BigEndian.PutUint64(k[:], seq)
				if err := b.Put(k[:], []byte(r)); err != nil {
					return err
				}
			}
		}
		// A timer, written as version 2 writes it.
		d := dueBytes(due)
		timers := tx.Bucket([]byte("timers"))
		if err := timers.Bucket([]byte("due")).Put(append(d[:], "chan-1"...), []byte("turn")); err != nil {
			return err
		}
		if err := timers.Bucket([]byte("keys")).Put([]byte("chan-1"), d[:]); err != nil {
			return err
		}
		return putVersion(tx, 2)
	})

	s, err := open(path, migrations[:3])
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, err := s.Version(); err != nil || v != 3 {
		t.Errorf("Version() = %d, %v; want 3, nil", v, err)
	}
	want := []string{"games", "guilds", "meta", "quarantine", "results", "timers", "timers/due", "timers/keys"}
	if got := layout(t, s); !slices.Equal(got, want) {
		t.Errorf("buckets at version 3 = %q, want %q", got, want)
	}

	// On disk every value is 0x51 0x01, the CRC-32C of the old value
	// big-endian, then the old value, checked here without encodeFrame.
	wantRaw := map[string]string{}
	for k, v := range games {
		wantRaw["games/"+k] = string(v)
	}
	for k, v := range guilds {
		wantRaw["guilds/"+k] = string(v)
	}
	for g, rs := range results {
		for i, r := range rs {
			wantRaw[fmt.Sprintf("results/%s/%d", g, i+1)] = r
		}
	}
	table := crc32.MakeTable(crc32.Castagnoli)
	got := rawValues(t, s)
	if len(got) != len(wantRaw) {
		t.Errorf("%d values on disk, want %d: %q", len(got), len(wantRaw), got)
	}
	for k, old := range wantRaw {
		var hdr [6]byte
		hdr[0], hdr[1] = 0x51, 1
		binary.BigEndian.PutUint32(hdr[2:], crc32.Checksum([]byte(old), table))
		if v, ok := got[k]; !ok || v != string(hdr[:])+old {
			t.Errorf("%s on disk = %x, want %x", k, trunc([]byte(v)), trunc(append(hdr[:], old...)))
		}
	}

	// Through the API, every value reads back as it was.
	for k, v := range games {
		if b, ok, err := s.Get(k); err != nil || !ok || !bytes.Equal(b, v) {
			t.Errorf("Get(%s) = %x, %v, %v; want %x", k, trunc(b), ok, err, trunc(v))
		}
	}
	n := 0
	if err := s.ForEach(func(ch string, b []byte, err error) error {
		n++
		if err != nil || !bytes.Equal(b, games[ch]) {
			t.Errorf("ForEach %s = %x, %v; want %x", ch, trunc(b), err, trunc(games[ch]))
		}
		return nil
	}); err != nil || n != len(games) {
		t.Errorf("ForEach = %v after %d games, want nil after %d", err, n, len(games))
	}
	for k, v := range guilds {
		if b, ok, err := s.GuildSettings(k); err != nil || !ok || !bytes.Equal(b, v) {
			t.Errorf("GuildSettings(%s) = %q, %v, %v; want %q", k, b, ok, err, v)
		}
	}
	for g, rs := range results {
		got, err := s.rawResults(g, 0)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for i := len(rs) - 1; i >= 0; i-- {
			want = append(want, rs[i])
		}
		if fmt.Sprintf("%s", got) != fmt.Sprint(want) {
			t.Errorf("Results(%s) = %s, want %v", g, got, want)
		}
	}
	// Timers are not framed and still read back.
	if ts, err := s.Timers(); err != nil || len(ts) != 1 || ts[0].Key != "chan-1" || !ts[0].Due.Equal(due) || string(ts[0].Payload) != "turn" {
		t.Errorf("Timers() = %+v, %v; want the chan-1 timer", ts, err)
	}
	// The result sequence continues; quarantine works.
	if err := s.appendRaw("guild-1", []byte("r4")); err != nil {
		t.Fatal(err)
	}
	if rs, err := s.rawResults("guild-1", 1); err != nil || fmt.Sprintf("%s", rs) != "[r4]" {
		t.Errorf("Results after append = %s, %v; want [r4]", rs, err)
	}
	if raw := rawValues(t, s)["results/guild-1/4"]; len(raw) != 6+2 {
		t.Errorf("results/guild-1/4 on disk = %x, want key 4 and a framed value", raw)
	}
	if moved, err := s.Quarantine("chan-1", "test"); err != nil || !moved {
		t.Errorf("Quarantine after migration 3 = %v, %v", moved, err)
	}
	if qs, err := s.Quarantined(); err != nil || len(qs) != 1 || string(qs[0].Raw) != got["games/chan-1"] {
		t.Errorf("Quarantined = %+v, %v; want chan-1's framed value", qs, err)
	}
}

// TestMigration3DamagedPage: a version-2 file whose games leaf page is
// damaged makes bbolt panic during migration 3; Open reports ErrCorrupt,
// does not crash and leaves the file as it was.
func TestMigration3DamagedPage(t *testing.T) {
	file := handBuilt(t, func(tx *bbolt.Tx) error {
		if err := migrate1(tx); err != nil {
			return err
		}
		if err := migrate2(tx); err != nil {
			return err
		}
		for i := range 200 {
			if err := tx.Bucket([]byte("games")).Put([]byte(fmt.Sprintf("chan-%03d", i)), bytes.Repeat([]byte{'g'}, 100)); err != nil {
				return err
			}
		}
		if err := tx.Bucket([]byte("games")).Put([]byte("chan-100"), []byte("TARGET-GAME")); err != nil {
			return err
		}
		return putVersion(tx, 2)
	})
	m, _ := parseMeta(file)
	ps := int(m.pageSize)
	page := file[bytes.Index(file, []byte("TARGET-GAME"))/ps*ps:][:ps]
	binary.NativeEndian.PutUint16(page[8:], 0x04) // a leaf that says it is a meta page
	path := filepath.Join(t.TempDir(), "q.db")
	if err := os.WriteFile(path, file, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err == nil {
		s.Close()
		t.Fatal("Open of a damaged version-2 file succeeded")
	}
	if !errors.Is(err, ErrCorrupt) {
		t.Errorf("Open error = %v, want ErrCorrupt", err)
	}
	if got := mustRead(t, path); !bytes.Equal(got, file) {
		t.Errorf("the failed migration changed the file")
	}
}

// TestMigration4 builds a version-3 database by hand, with result values
// of every kind a version-3 file can hold, and checks that migration 4
// adds the records and departed buckets, keeps the values that are
// stats.Results (setting their guild to their bucket's), deletes bytes of
// no known meaning, leaves a damaged frame for Results to report, and
// touches nothing else.
func TestMigration4(t *testing.T) {
	path := filepath.Join(t.TempDir(), "q.db")
	result := func(guild, id string, score int) []byte {
		r := gamestats.Result{Guild: guild, GameID: id, Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Variant: game.Cards,
			Seats: []gamestats.Seat{{UserID: "7", Name: "Anna", Score: score}, {Name: "🤖 Bot", Computer: true, Score: 3}}}
		b, err := r.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	damaged := encodeFrame(result("guild-1", "d", 1))
	damaged[len(damaged)-1] ^= 0x10
	values := map[string][][]byte{
		"guild-1": {
			encodeFrame(result("guild-1", "a", 10)), // kept as it is
			encodeFrame([]byte("r2")),               // no meaning: deleted
			encodeFrame(result("elsewhere", "c", 30)),
			damaged, // left for Results to report
		},
		"guild-2": {encodeFrame([]byte("only"))},
	}
	writeHand(t, path, func(tx *bbolt.Tx) error {
		for _, m := range []func(*bbolt.Tx) error{migrate1, migrate2, migrate3} {
			if err := m(tx); err != nil {
				return err
			}
		}
		if err := tx.Bucket([]byte("games")).Put([]byte("chan-1"), encodeFrame([]byte("game"))); err != nil {
			return err
		}
		if err := tx.Bucket([]byte("guilds")).Put([]byte("guild-1"), encodeFrame([]byte("settings"))); err != nil {
			return err
		}
		for g, vs := range values {
			b, err := tx.Bucket([]byte("results")).CreateBucket([]byte(g))
			if err != nil {
				return err
			}
			for _, v := range vs {
				seq, err := b.NextSequence()
				if err != nil {
					return err
				}
				if err := b.Put([]byte(seqKey(seq)), v); err != nil {
					return err
				}
			}
		}
		return putVersion(tx, 3)
	})

	s, err := open(path, migrations[:4])
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, err := s.Version(); err != nil || v != 4 {
		t.Errorf("Version() = %d, %v; want 4, nil", v, err)
	}
	want := []string{"departed", "games", "guilds", "meta", "quarantine", "records", "results", "timers", "timers/due", "timers/keys"}
	if got := layout(t, s); !slices.Equal(got, want) {
		t.Errorf("buckets at version 4 = %q, want %q", got, want)
	}
	raw := rawValues(t, s)
	wantRaw := map[string]string{
		"games/chan-1":      string(encodeFrame([]byte("game"))),
		"guilds/guild-1":    string(encodeFrame([]byte("settings"))),
		"results/guild-1/1": string(values["guild-1"][0]),
		"results/guild-1/3": string(encodeFrame(result("guild-1", "c", 30))),
		"results/guild-1/4": string(damaged),
	}
	if !reflect.DeepEqual(raw, wantRaw) {
		t.Errorf("values on disk after migration 4:\n got %q\nwant %q", raw, wantRaw)
	}
	rs, err := s.Results("guild-1", 0)
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "results/guild-1/4") {
		t.Errorf("Results error = %v, want ErrCorrupt naming results/guild-1/4", err)
	}
	if len(rs) != 2 || rs[0].GameID != "c" || rs[0].Guild != "guild-1" || rs[1].GameID != "a" || rs[1].Seats[0].Score != 10 {
		t.Errorf("Results(guild-1) = %+v, want c then a", rs)
	}
	// The sequence goes on after the deleted and the kept values.
	r := gamestats.Result{Guild: "guild-2", Time: time.Now(), Variant: game.Dice, Seats: []gamestats.Seat{{UserID: "1", Name: "x", Score: 1}}}
	if err := s.AppendResult(r); err != nil {
		t.Fatal(err)
	}
	if _, ok := rawValues(t, s)["results/guild-2/2"]; !ok {
		t.Error("the next result of guild-2 is not at sequence 2")
	}
}
