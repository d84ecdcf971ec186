package sessiondb

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"go.etcd.io/bbolt"

	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/game/kept"
	"github.com/qwixxbot/qwixxbot/game/stats"
	"github.com/qwixxbot/qwixxbot/store"
)

// The session's storage on bbolt: an ended context starts no
// transaction; the store's damaged values come back in the session's
// terms with their bytes, and a listing's left-out values as a count;
// the history's values convert both ways.
func TestOnDisk(t *testing.T) {
	path := filepath.Join(t.TempDir(), "q.db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	d := NewOnDisk(st)
	ctx := context.Background()
	if err := d.Update(ctx, "c1", func([]byte, bool) ([]byte, bool, error) { return []byte(`{"stage":1}`), false, nil }); err != nil {
		t.Fatal(err)
	}
	ended, cancel := context.WithCancel(ctx)
	cancel()
	wrote := false
	if err := d.Update(ended, "c1", func([]byte, bool) ([]byte, bool, error) { wrote = true; return []byte(`{}`), false, nil }); !errors.Is(err, context.Canceled) || wrote {
		t.Errorf("update under an ended context: %v, fn ran %v", err, wrote)
	}
	if _, _, err := d.Get(ended, "c1"); !errors.Is(err, context.Canceled) {
		t.Errorf("get under an ended context: %v", err)
	}
	if b, ok, err := d.Get(ctx, "c1"); err != nil || !ok || string(b) != `{"stage":1}` {
		t.Errorf("get: %q %v %v", b, ok, err)
	}

	r := stats.Result{Guild: "g1", GameID: "t-1", Time: time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC), Variant: game.Dice,
		Seats: []stats.Seat{{UserID: "1", Name: "Anna", Score: 10}, {UserID: "2", Name: "Ben", Score: 3}}}
	g, err := game.New(game.Config{Variant: game.Dice, Players: []string{"Anna", "Ben"}})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := json.Marshal(g.Record())
	if err != nil {
		t.Fatal(err)
	}
	err = d.UpdateSaving(ctx, "c2", []kept.Finished{{Result: r, Record: rec}}, func([]byte, bool) ([]byte, bool, error) { return []byte(`{}`), false, nil })
	if err != nil {
		t.Fatal(err)
	}
	kr, ok, err := d.Record(ctx, "g1", "t-1")
	if err != nil || !ok || kr.GameID != "t-1" || string(kr.JSON) != string(rec) || len(kr.Users) != 2 || kr.Users[0] != "1" {
		t.Errorf("record: %+v %v %v", kr, ok, err)
	}
	if infos, err := d.Records(ctx, "g1", 0); err != nil || len(infos) != 1 || infos[0].GameID != "t-1" {
		t.Errorf("records: %+v %v", infos, err)
	}
	if rt := d.Retention(); rt != kept.Retention(st.Retention()) || rt.ResultsPerGuild == 0 {
		t.Errorf("retention %+v", rt)
	}
	st.Close()

	// Damage the table and the result, then read them again.
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bbolt.Tx) error {
		g := tx.Bucket([]byte("games"))
		v := append([]byte(nil), g.Get([]byte("c1"))...)
		v[len(v)-1] ^= 0x10
		if err := g.Put([]byte("c1"), v); err != nil {
			return err
		}
		rs := tx.Bucket([]byte("results")).Bucket([]byte("g1"))
		k, v := rs.Cursor().First()
		v = append([]byte(nil), v...)
		v[len(v)/2] ^= 0x10
		return rs.Put(append([]byte(nil), k...), v)
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	if st, err = store.Open(path); err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	d = NewOnDisk(st)
	_, _, err = d.Get(ctx, "c1")
	if raw, ok := kept.DamagedBytes(err); !kept.IsCorrupt(err) || !ok || len(raw) == 0 {
		t.Errorf("damaged table: %v (corrupt %v, bytes %v)", err, kept.IsCorrupt(err), ok)
	}
	if rs, err := d.Results(ctx, "g1", 0); len(rs) != 0 || kept.Skipped(err) != 1 {
		t.Errorf("results with one damaged: %d results, %d skipped (%v)", len(rs), kept.Skipped(err), err)
	}
	n := 0
	if err := d.ForEach(ctx, func(key string, _ []byte, err error) error {
		if key == "c1" && !kept.IsCorrupt(err) {
			t.Errorf("ForEach gives the damaged table with %v", err)
		}
		n++
		return nil
	}); err != nil || n != 2 {
		t.Errorf("ForEach: %d tables, %v", n, err)
	}
}

// The restore's mark as the session reads it (session.RestoreMark): none
// on a database never restored; after store.Restore it says when, until
// cleared; under an ended context no transaction starts.
func TestOnDiskRestoreMark(t *testing.T) {
	dir := t.TempDir()
	live := filepath.Join(dir, "q.db")
	st, err := store.Open(live)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	d := NewOnDisk(st)
	if _, marked, err := d.Restored(ctx); err != nil || marked {
		t.Fatalf("a new database is marked restored (%v, %v)", marked, err)
	}
	bk, err := st.BackupFile(filepath.Join(dir, "backups"))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	when := time.Date(2026, 11, 28, 3, 0, 0, 0, time.UTC)
	if _, _, err := store.Restore(bk, live, when); err != nil {
		t.Fatal(err)
	}
	if st, err = store.Open(live); err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	d = NewOnDisk(st)
	ended, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := d.Restored(ended); !errors.Is(err, context.Canceled) {
		t.Errorf("restored under an ended context: %v", err)
	}
	if err := d.ClearRestored(ended); !errors.Is(err, context.Canceled) {
		t.Errorf("clear under an ended context: %v", err)
	}
	if at, marked, err := d.Restored(ctx); err != nil || !marked || !at.Equal(when) {
		t.Fatalf("after a restore: %v %v %v, want %v", at, marked, err, when)
	}
	if err := d.ClearRestored(ctx); err != nil {
		t.Fatal(err)
	}
	if _, marked, err := d.Restored(ctx); err != nil || marked {
		t.Errorf("the mark outlived its clearing (%v, %v)", marked, err)
	}
}
