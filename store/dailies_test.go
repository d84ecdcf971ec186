package store

import (
	"bytes"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.etcd.io/bbolt"

	"github.com/qwixxbot/qwixxbot/game"
)

// TestMigration5 opens a version-4 database holding the history of a
// server and of the shared DM history (LegacyDMGuild), and checks that
// migration 5 creates the dailies bucket and marks private exactly what
// cannot be told apart from a private game: every result and record of
// LegacyDMGuild (no place is known for them), and the solo games (one
// seat) of a server; a server's table games keep their bytes, and a
// damaged value stays as it was.
func TestMigration5(t *testing.T) {
	path := filepath.Join(t.TempDir(), "q.db")
	s, err := open(path, migrations[:4])
	if err != nil {
		t.Fatal(err)
	}
	type kept struct {
		guild, id string
		seats     int
		private   bool // after migration 5
	}
	games := []kept{
		{"guild-1", "table", 2, false},
		{"guild-1", "solo", 1, true},
		{"guild-1", "daily-300-x", 1, true},
		{LegacyDMGuild, "dm-table", 3, true},
		{LegacyDMGuild, "dm-solo", 1, true},
	}
	t0 := time.Now().UTC().Add(-time.Hour).Truncate(time.Second)
	for i, k := range games {
		names := []string{"Anna", "Ben", "Cleo"}[:k.seats]
		g, rec := playedGame(t, game.Dice, names, byte(i+1))
		users := []string{"u1", "u2", "u3"}[:k.seats]
		if err := s.SaveGame(resultOf(k.guild, k.id, t0.Add(time.Duration(i)*time.Minute), game.Dice, g, users), rec); err != nil {
			t.Fatal(err)
		}
	}
	before := rawValues(t, s)
	var tableResult, tableRecord []byte
	if err := s.db.View(func(tx *bbolt.Tx) error {
		tableResult = copyBytes(tx.Bucket(bucketResults).Bucket([]byte("guild-1")).Get([]byte(seqKey(1))))
		g := tx.Bucket(bucketRecords).Bucket([]byte("guild-1"))
		tableRecord = copyBytes(g.Get(findRecord(g, "table")))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	damageValue(t, s, "guild-1", "solo") // the solo result's frame
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, err := s.Version(); err != nil || v != 5 {
		t.Fatalf("Version() = %d, %v; want 5", v, err)
	}
	if !slices.Contains(layout(t, s), "dailies") {
		t.Error("no dailies bucket after migration 5")
	}
	if after := rawValues(t, s); !mapsEqual(tablesOf(before), tablesOf(after)) {
		t.Errorf("migration 5 changed games or settings:\n%q\n%q", before, after)
	}
	for _, k := range games {
		gr, found, err := s.Record(k.guild, k.id)
		if err != nil || !found {
			t.Fatalf("record %s/%s: %v, %v", k.guild, k.id, found, err)
		}
		if gr.Private != k.private {
			t.Errorf("record %s/%s private %v, want %v", k.guild, k.id, gr.Private, k.private)
		}
	}
	for _, guild := range []string{"guild-1", LegacyDMGuild} {
		rs, err := s.Results(guild, 0)
		if guild == "guild-1" && !errors.Is(err, ErrCorrupt) {
			t.Errorf("the damaged result is not reported: %v", err)
		}
		for _, r := range rs {
			i := slices.IndexFunc(games, func(k kept) bool { return k.id == r.GameID })
			if i < 0 || r.Private != games[i].private || r.Guild != guild {
				t.Errorf("result %s/%s private %v after migration 5", guild, r.GameID, r.Private)
			}
		}
		want := 2
		if guild == "guild-1" {
			want = 2 // table and daily; the solo's frame is damaged
		}
		if len(rs) != want {
			t.Errorf("%s: %d results readable, want %d", guild, len(rs), want)
		}
	}
	if err := s.db.View(func(tx *bbolt.Tx) error {
		if got := tx.Bucket(bucketResults).Bucket([]byte("guild-1")).Get([]byte(seqKey(1))); !bytes.Equal(got, tableResult) {
			t.Error("a server's table game's result was rewritten")
		}
		g := tx.Bucket(bucketRecords).Bucket([]byte("guild-1"))
		if got := g.Get(findRecord(g, "table")); !bytes.Equal(got, tableRecord) {
			t.Error("a server's table game's record was rewritten")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// damageValue flips a bit in the frame of guild's result of game id.
func damageValue(t *testing.T, s *Store, guild, id string) {
	t.Helper()
	err := s.db.Update(func(tx *bbolt.Tx) error {
		g := tx.Bucket(bucketResults).Bucket([]byte(guild))
		k := findResult(g, id, time.Time{})
		if k == nil {
			t.Fatalf("no result %s/%s", guild, id)
		}
		v := copyBytes(g.Get(k))
		v[len(v)-1] ^= 0x10
		return g.Put(k, v)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// tablesOf is rawValues' games and guilds settings, without the results.
func tablesOf(raw map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range raw {
		if !strings.HasPrefix(k, "results/") {
			out[k] = v
		}
	}
	return out
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// A daily mark is kept once (the second MarkDaily says so and writes
// nothing), read back by DailyMarked, survives a reopen and DeleteUser
// (it is no user ID), and goes once its day is two days old.
func TestDailyMarksKeptOnceAndDropped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "q.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	mark := bytes.Repeat([]byte{0xab}, 32)
	other := bytes.Repeat([]byte{0xcd}, 32)
	if ok, err := s.DailyMarked(100, mark); ok || err != nil {
		t.Fatalf("marked before MarkDaily: %v, %v", ok, err)
	}
	if already, err := s.MarkDaily(100, mark); already || err != nil {
		t.Fatalf("first MarkDaily: %v, %v", already, err)
	}
	if already, err := s.MarkDaily(100, mark); !already || err != nil {
		t.Fatalf("second MarkDaily: %v, %v", already, err)
	}
	if ok, _ := s.DailyMarked(101, mark); ok {
		t.Error("a mark of day 100 counts for day 101")
	}
	if ok, _ := s.DailyMarked(100, other); ok {
		t.Error("another mark counts")
	}
	if _, err := s.DeleteUser("", "u1"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s, err = Open(path); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if ok, err := s.DailyMarked(100, mark); !ok || err != nil {
		t.Fatalf("the mark did not survive a reopen: %v, %v", ok, err)
	}
	// Day 101 keeps day 100 (the day before), day 102 drops it.
	if _, err := s.MarkDaily(101, other); err != nil {
		t.Fatal(err)
	}
	if ok, _ := s.DailyMarked(100, mark); !ok {
		t.Error("the day before was dropped")
	}
	if _, err := s.MarkDaily(102, other); err != nil {
		t.Fatal(err)
	}
	if ok, _ := s.DailyMarked(100, mark); ok {
		t.Error("a mark two days old is kept")
	}
	if ok, _ := s.DailyMarked(101, other); !ok {
		t.Error("the day before's mark was dropped")
	}
	if _, err := s.MarkDaily(1, nil); !errors.Is(err, ErrEmptyKey) {
		t.Errorf("an empty mark: %v", err)
	}
}
