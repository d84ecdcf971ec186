package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.etcd.io/bbolt"
)

// newStore opens a fresh store in a temporary directory, closed at the end
// of the test.
func newStore(t testing.TB) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "qwixxbot.db"))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

func mustGet(t *testing.T, s *Store, ch string) ([]byte, bool) {
	t.Helper()
	b, ok, err := s.Get(ch)
	if err != nil {
		t.Fatalf("Get(%q): %v", ch, err)
	}
	return b, ok
}

func TestGamesRoundTrip(t *testing.T) {
	s := newStore(t)
	big := make([]byte, 1<<20)
	for i := range big {
		big[i] = byte(i * 7)
	}
	tests := []struct {
		name, channel string
		blob          []byte
	}{
		{"small", "111", []byte(`{"v":1}`)},
		{"binary", "222", []byte{0, 1, 2, 0xff, 0}},
		{"empty", "333", []byte{}},
		{"one MiB", "444", big},
		{"unicode channel", "chännel-ß", []byte("x")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := s.Put(tt.channel, tt.blob); err != nil {
				t.Fatalf("Put: %v", err)
			}
			got, ok := mustGet(t, s, tt.channel)
			if !ok {
				t.Fatalf("Get(%q) exists = false, want true", tt.channel)
			}
			if !bytes.Equal(got, tt.blob) {
				t.Errorf("Get(%q) = %d bytes, want %d bytes %q", tt.channel, len(got), len(tt.blob), trunc(tt.blob))
			}
		})
	}
	t.Run("replace", func(t *testing.T) {
		if err := s.Put("111", []byte("second")); err != nil {
			t.Fatal(err)
		}
		if got, _ := mustGet(t, s, "111"); string(got) != "second" {
			t.Errorf("after replace Get = %q, want %q", got, "second")
		}
	})
	t.Run("returned blob is a copy", func(t *testing.T) {
		got, _ := mustGet(t, s, "222")
		got[0] = 99
		again, _ := mustGet(t, s, "222")
		if again[0] != 0 {
			t.Errorf("changing Get's result changed the store: byte 0 = %d, want 0", again[0])
		}
	})
	t.Run("missing", func(t *testing.T) {
		got, ok := mustGet(t, s, "nope")
		if ok || got != nil {
			t.Errorf("Get(missing) = %q, %v; want nil, false", got, ok)
		}
	})
	t.Run("delete", func(t *testing.T) {
		if err := s.Delete("111"); err != nil {
			t.Fatal(err)
		}
		if _, ok := mustGet(t, s, "111"); ok {
			t.Errorf("Get after Delete: exists = true, want false")
		}
		if err := s.Delete("111"); err != nil {
			t.Errorf("second Delete = %v, want nil", err)
		}
	})
}

func trunc(b []byte) []byte {
	if len(b) > 16 {
		return b[:16]
	}
	return b
}

func TestUpdate(t *testing.T) {
	errBoom := errors.New("boom")
	tests := []struct {
		name       string
		start      []byte // nil: no game stored
		blob       []byte
		del        bool
		fnErr      error
		wantErr    error
		wantExists bool
		want       string
	}{
		{name: "create", blob: []byte("new"), wantExists: true, want: "new"},
		{name: "modify", start: []byte("old"), blob: []byte("new"), wantExists: true, want: "new"},
		{name: "delete", start: []byte("old"), del: true, wantExists: false},
		{name: "delete missing", del: true, wantExists: false},
		{name: "nil blob writes nothing", start: []byte("old"), wantExists: true, want: "old"},
		{name: "nil blob on missing writes nothing", wantExists: false},
		{name: "empty blob stores empty", start: []byte("old"), blob: []byte{}, wantExists: true, want: ""},
		{name: "error leaves old value", start: []byte("old"), blob: []byte("new"), fnErr: errBoom, wantErr: errBoom, wantExists: true, want: "old"},
		{name: "error with delete leaves old value", start: []byte("old"), del: true, fnErr: errBoom, wantErr: errBoom, wantExists: true, want: "old"},
		{name: "error on missing creates nothing", blob: []byte("new"), fnErr: errBoom, wantErr: errBoom, wantExists: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStore(t)
			if tt.start != nil {
				if err := s.Put("ch", tt.start); err != nil {
					t.Fatal(err)
				}
			}
			var sawOld []byte
			var sawExists bool
			err := s.Update("ch", func(old []byte, exists bool) ([]byte, bool, error) {
				sawOld, sawExists = old, exists
				return tt.blob, tt.del, tt.fnErr
			})
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
				t.Fatalf("Update error = %v, want %v", err, tt.wantErr)
			}
			if sawExists != (tt.start != nil) || string(sawOld) != string(tt.start) {
				t.Errorf("fn saw (%q, %v), want (%q, %v)", sawOld, sawExists, tt.start, tt.start != nil)
			}
			got, ok := mustGet(t, s, "ch")
			if ok != tt.wantExists || string(got) != tt.want {
				t.Errorf("after Update Get = (%q, %v), want (%q, %v)", got, ok, tt.want, tt.wantExists)
			}
		})
	}
}

func TestUpdatePanicRollsBack(t *testing.T) {
	s := newStore(t)
	if err := s.Put("ch", []byte("old")); err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() {
			if r := recover(); r != "in fn" {
				t.Errorf("recovered %v from Update, want fn's own panic value %q", r, "in fn")
			}
		}()
		_ = s.Update("ch", func(old []byte, exists bool) ([]byte, bool, error) {
			panic("in fn")
		})
	}()
	if got, _ := mustGet(t, s, "ch"); string(got) != "old" {
		t.Errorf("after panicking Update Get = %q, want %q", got, "old")
	}
	// The write lock was released: another write goes through.
	if err := s.Put("ch", []byte("after")); err != nil {
		t.Errorf("Put after panicking Update: %v", err)
	}
}

func TestUpdateOldIsACopy(t *testing.T) {
	s := newStore(t)
	if err := s.Put("ch", []byte("abc")); err != nil {
		t.Fatal(err)
	}
	var kept []byte
	if err := s.Update("ch", func(old []byte, _ bool) ([]byte, bool, error) {
		kept = old
		old[0] = 'X' // writing to it must not touch the database
		return nil, false, nil
	}); err != nil {
		t.Fatal(err)
	}
	for i := range 100 { // churn pages so that a view into the mmap would change
		if err := s.Put(strconv.Itoa(i), bytes.Repeat([]byte{byte(i)}, 5000)); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := string(kept), "Xbc"; got != want {
		t.Errorf("kept old = %q, want %q", got, want)
	}
	if got, _ := mustGet(t, s, "ch"); string(got) != "abc" {
		t.Errorf("stored = %q, want %q", got, "abc")
	}
}

// TestUpdateConcurrentIncrements has many goroutines increment one counter
// through Update: with read-modify-write in one transaction no increment may
// be lost. Run it with -race.
func TestUpdateConcurrentIncrements(t *testing.T) {
	s := newStore(t)
	const goroutines, each = 32, 25
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for range goroutines {
		wg.Go(func() {
			for range each {
				err := s.Update("counter", func(old []byte, exists bool) ([]byte, bool, error) {
					n := 0
					if exists {
						var err error
						if n, err = strconv.Atoi(string(old)); err != nil {
							return nil, false, err
						}
					}
					return []byte(strconv.Itoa(n + 1)), false, nil
				})
				if err != nil {
					errs <- err
					return
				}
				// Reads run alongside the writers.
				if _, _, err := s.Get("counter"); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("Update: %v", err)
	}
	got, _ := mustGet(t, s, "counter")
	if want := strconv.Itoa(goroutines * each); string(got) != want {
		t.Errorf("counter = %s, want %s", got, want)
	}
}

func TestForEach(t *testing.T) {
	s := newStore(t)
	want := map[string]string{"3": "c", "1": "a", "2": "b", "10": ""}
	for ch, blob := range want {
		if err := s.Put(ch, []byte(blob)); err != nil {
			t.Fatal(err)
		}
	}
	var order []string
	got := map[string]string{}
	err := s.ForEach(func(ch string, blob []byte, err error) error {
		if err != nil {
			t.Errorf("ForEach: game %s: %v", ch, err)
		}
		order = append(order, ch)
		got[ch] = string(blob)
		// fn runs outside the transaction: it may write to the store.
		return s.Update(ch, func(old []byte, _ bool) ([]byte, bool, error) {
			return append(old, '!'), false, nil
		})
	})
	if err != nil {
		t.Fatalf("ForEach: %v", err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("ForEach saw %v, want %v", got, want)
	}
	if got, want := fmt.Sprint(order), "[1 10 2 3]"; got != want {
		t.Errorf("ForEach order = %s, want %s (byte order of channel IDs)", got, want)
	}
	if b, _ := mustGet(t, s, "2"); string(b) != "b!" {
		t.Errorf("write from inside ForEach: Get = %q, want %q", b, "b!")
	}

	t.Run("error stops the walk", func(t *testing.T) {
		errStop := errors.New("stop")
		calls := 0
		err := s.ForEach(func(string, []byte, error) error {
			calls++
			return errStop
		})
		if !errors.Is(err, errStop) {
			t.Errorf("ForEach error = %v, want %v", err, errStop)
		}
		if calls != 1 {
			t.Errorf("fn called %d times after an error, want 1", calls)
		}
	})
	t.Run("empty store", func(t *testing.T) {
		calls := 0
		if err := newStore(t).ForEach(func(string, []byte, error) error { calls++; return nil }); err != nil {
			t.Fatal(err)
		}
		if calls != 0 {
			t.Errorf("fn called %d times on an empty store, want 0", calls)
		}
	})
}

func TestEmptyKeysRefused(t *testing.T) {
	s := newStore(t)
	tests := []struct {
		name string
		call func() error
	}{
		{"Get", func() error { _, _, err := s.Get(""); return err }},
		{"Put", func() error { return s.Put("", []byte("x")) }},
		{"Delete", func() error { return s.Delete("") }},
		{"Update", func() error {
			return s.Update("", func([]byte, bool) ([]byte, bool, error) { return []byte("x"), false, nil })
		}},
		{"PutTimer", func() error { return s.PutTimer("", time.Now(), nil) }},
		{"DeleteTimer", func() error { return s.DeleteTimer("") }},
		{"appendRaw", func() error { return s.appendRaw("", []byte("x")) }},
		{"Results", func() error { _, err := s.Results("", 0); return err }},
		{"Record", func() error { _, _, err := s.Record("", "x"); return err }},
		{"Records", func() error { _, err := s.Records("", 0); return err }},
		{"DeleteUser", func() error { _, err := s.DeleteUser("g", ""); return err }},
		{"GuildLeft", func() error { return s.GuildLeft("", time.Now()) }},
		{"GuildBack", func() error { _, err := s.GuildBack(""); return err }},
		{"GuildSettings", func() error { _, _, err := s.GuildSettings(""); return err }},
		{"PutGuildSettings", func() error { return s.PutGuildSettings("", []byte("x")) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.call(); !errors.Is(err, ErrEmptyKey) {
				t.Errorf("%s(\"\") error = %v, want ErrEmptyKey", tt.name, err)
			}
		})
	}
}

func TestTimers(t *testing.T) {
	s := newStore(t)
	base := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	put := func(key string, due time.Time, payload string) {
		t.Helper()
		if err := s.PutTimer(key, due, []byte(payload)); err != nil {
			t.Fatalf("PutTimer(%q): %v", key, err)
		}
	}
	put("c", base.Add(3*time.Second), "p-c")
	put("a", base.Add(1*time.Second), "p-a")
	put("b", base.Add(2*time.Second), "p-b")
	put("z", base.Add(2*time.Second), "p-z") // same time as b: ordered by key
	put("old", time.Date(1960, 1, 1, 0, 0, 0, 0, time.UTC), "before 1970")
	put("x", base.Add(time.Hour), "first")
	put("x", base.Add(-time.Hour), "replaced") // replaces, and moves earlier

	str := func(ts []Timer) string {
		var b bytes.Buffer
		for _, tm := range ts {
			fmt.Fprintf(&b, "%s@%s=%s ", tm.Key, tm.Due.UTC().Format(time.RFC3339Nano), tm.Payload)
		}
		return b.String()
	}
	all, err := s.Timers()
	if err != nil {
		t.Fatal(err)
	}
	want := "old@1960-01-01T00:00:00Z=before 1970 x@2025-06-01T11:00:00Z=replaced " +
		"a@2025-06-01T12:00:01Z=p-a b@2025-06-01T12:00:02Z=p-b z@2025-06-01T12:00:02Z=p-z c@2025-06-01T12:00:03Z=p-c "
	if got := str(all); got != want {
		t.Errorf("Timers() =\n%s\nwant\n%s", got, want)
	}

	tests := []struct {
		name string
		now  time.Time
		want string
	}{
		{"before all", time.Date(1950, 1, 1, 0, 0, 0, 0, time.UTC), ""},
		{"exactly at a due time is due", base.Add(2 * time.Second), "old x a b z"},
		{"just before", base.Add(2*time.Second - time.Nanosecond), "old x a"},
		{"after all", base.Add(24 * time.Hour), "old x a b z c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			due, err := s.DueTimers(tt.now)
			if err != nil {
				t.Fatal(err)
			}
			var keys []string
			for _, tm := range due {
				keys = append(keys, tm.Key)
			}
			if got := fmt.Sprint(keys); got != "["+tt.want+"]" {
				t.Errorf("DueTimers(%v) keys = %s, want [%s]", tt.now, got, tt.want)
			}
		})
	}

	t.Run("delete", func(t *testing.T) {
		for _, k := range []string{"b", "old", "never-set"} {
			if err := s.DeleteTimer(k); err != nil {
				t.Fatalf("DeleteTimer(%q): %v", k, err)
			}
		}
		all, err := s.Timers()
		if err != nil {
			t.Fatal(err)
		}
		if got, want := str(all), "x@2025-06-01T11:00:00Z=replaced a@2025-06-01T12:00:01Z=p-a "+
			"z@2025-06-01T12:00:02Z=p-z c@2025-06-01T12:00:03Z=p-c "; got != want {
			t.Errorf("after delete Timers() =\n%s\nwant\n%s", got, want)
		}
	})
	t.Run("due time keeps nanoseconds", func(t *testing.T) {
		due := base.Add(123456789 * time.Nanosecond)
		put("ns", due, "")
		all, err := s.Timers()
		if err != nil {
			t.Fatal(err)
		}
		for _, tm := range all {
			if tm.Key == "ns" && !tm.Due.Equal(due) {
				t.Errorf("Due = %v, want %v", tm.Due, due)
			}
		}
	})
	t.Run("out of range", func(t *testing.T) {
		if err := s.PutTimer("far", time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC), nil); err == nil {
			t.Errorf("PutTimer in year 3000 succeeded, want an error")
		}
	})
}

func TestResults(t *testing.T) {
	s := newStore(t)
	for i := 1; i <= 5; i++ {
		if err := s.appendRaw("g1", []byte(fmt.Sprintf("g1-match%d", i))); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.appendRaw("g2", []byte("g2-match1")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		guild string
		limit int
		want  string
	}{
		{"g1", 0, "[g1-match5 g1-match4 g1-match3 g1-match2 g1-match1]"},
		{"g1", -1, "[g1-match5 g1-match4 g1-match3 g1-match2 g1-match1]"},
		{"g1", 2, "[g1-match5 g1-match4]"},
		{"g1", 5, "[g1-match5 g1-match4 g1-match3 g1-match2 g1-match1]"},
		{"g1", 50, "[g1-match5 g1-match4 g1-match3 g1-match2 g1-match1]"},
		{"g2", 10, "[g2-match1]"},
		{"g3", 10, "[]"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/limit=%d", tt.guild, tt.limit), func(t *testing.T) {
			rs, err := s.rawResults(tt.guild, tt.limit)
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprintf("%s", rs); got != tt.want {
				t.Errorf("Results(%q, %d) = %s, want %s", tt.guild, tt.limit, got, tt.want)
			}
		})
	}
	t.Run("order survives more than 255 results", func(t *testing.T) {
		// Keys are big-endian so byte order is numeric order past one byte.
		for i := 1; i <= 300; i++ {
			if err := s.appendRaw("big", []byte(strconv.Itoa(i))); err != nil {
				t.Fatal(err)
			}
		}
		rs, err := s.rawResults("big", 3)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := fmt.Sprintf("%s", rs), "[300 299 298]"; got != want {
			t.Errorf("Results = %s, want %s", got, want)
		}
	})
}

func TestGuildSettings(t *testing.T) {
	s := newStore(t)
	if b, ok, err := s.GuildSettings("g"); err != nil || ok || b != nil {
		t.Errorf("GuildSettings(missing) = %q, %v, %v; want nil, false, nil", b, ok, err)
	}
	for _, want := range []string{`{"lang":"de"}`, `{"lang":"fr"}`} {
		if err := s.PutGuildSettings("g", []byte(want)); err != nil {
			t.Fatal(err)
		}
		got, ok, err := s.GuildSettings("g")
		if err != nil || !ok || string(got) != want {
			t.Errorf("GuildSettings = %q, %v, %v; want %q, true, nil", got, ok, err, want)
		}
	}
	// Guild settings and games are separate namespaces.
	if _, ok := mustGet(t, s, "g"); ok {
		t.Errorf("a guild's settings show up as a game of the same ID")
	}
}

func TestPersistenceAcrossReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "dir", "q.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	due := time.Date(2030, 1, 2, 3, 4, 5, 6, time.UTC)
	steps := []error{
		s.Put("ch1", []byte("game1")),
		s.Update("ch2", func([]byte, bool) ([]byte, bool, error) { return []byte("game2"), false, nil }),
		s.PutTimer("ch1", due, []byte("turn")),
		s.appendRaw("g", []byte("r1")),
		s.appendRaw("g", []byte("r2")),
		s.PutGuildSettings("g", []byte("settings")),
	}
	if err := errors.Join(steps...); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close = %v, want nil", err)
	}

	s, err = Open(path)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s.Close()
	games := map[string]string{}
	if err := s.ForEach(func(ch string, b []byte, err error) error { games[ch] = string(b); return err }); err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(games), "map[ch1:game1 ch2:game2]"; got != want {
		t.Errorf("games after reopen = %s, want %s", got, want)
	}
	ts, err := s.Timers()
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 1 || ts[0].Key != "ch1" || !ts[0].Due.Equal(due) || string(ts[0].Payload) != "turn" {
		t.Errorf("timers after reopen = %+v, want one ch1 timer at %v", ts, due)
	}
	rs, err := s.rawResults("g", 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprintf("%s", rs), "[r2 r1]"; got != want {
		t.Errorf("results after reopen = %s, want %s", got, want)
	}
	// The sequence continues where it stopped: no key is reused.
	if err := s.appendRaw("g", []byte("r3")); err != nil {
		t.Fatal(err)
	}
	if rs, _ := s.rawResults("g", 0); fmt.Sprintf("%s", rs) != "[r3 r2 r1]" {
		t.Errorf("results after reopen and append = %s, want [r3 r2 r1]", rs)
	}
	if b, ok, _ := s.GuildSettings("g"); !ok || string(b) != "settings" {
		t.Errorf("settings after reopen = %q, %v; want %q, true", b, ok, "settings")
	}
}

func TestOpenCreatesFileAndDirs(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	path := filepath.Join(dir, "q.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fi.Mode().Perm(), os.FileMode(0o600); got != want {
		t.Errorf("file mode = %v, want %v", got, want)
	}
	if s.Path() != path {
		t.Errorf("Path() = %q, want %q", s.Path(), path)
	}
	if v, err := s.Version(); err != nil || v != SchemaVersion {
		t.Errorf("Version() = %d, %v; want %d, nil", v, err, SchemaVersion)
	}
}

func TestOpenEmptyPath(t *testing.T) {
	if _, err := Open(""); err == nil {
		t.Errorf("Open(\"\") succeeded, want an error")
	}
}

// TestOpenRefusesNonDatabase checks that files that are not qwixxbot
// databases are refused with ErrNotDatabase and left byte-identical.
func TestOpenRefusesNonDatabase(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 64<<10)
	for i := range random {
		random[i] = byte(rnd.UintN(256))
	}
	foreign := func(t *testing.T) []byte {
		// A healthy bbolt file of another program.
		p := filepath.Join(t.TempDir(), "other.db")
		db, err := bbolt.Open(p, 0o600, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Update(func(tx *bbolt.Tx) error {
			b, err := tx.CreateBucket([]byte("users"))
			if err != nil {
				return err
			}
			return b.Put([]byte("alice"), []byte("admin"))
		}); err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		return mustRead(t, p)
	}
	badVersion := func(t *testing.T) []byte {
		// A meta bucket whose version is not 8 bytes.
		return handBuilt(t, func(tx *bbolt.Tx) error {
			b, err := tx.CreateBucket(bucketMeta)
			if err != nil {
				return err
			}
			return b.Put(keyVersion, []byte("2"))
		})
	}
	damagedMeta := func(t *testing.T) []byte {
		// A real qwixxbot database whose two meta pages are both damaged.
		p := filepath.Join(t.TempDir(), "q.db")
		s, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		b := mustRead(t, p)
		page := os.Getpagesize()
		for _, off := range []int{0, page} {
			for i := off + 16; i < off+64; i++ {
				b[i] ^= 0x5a
			}
		}
		return b
	}
	realDB := func(t *testing.T) []byte {
		// A real qwixxbot database with some data in it.
		p := filepath.Join(t.TempDir(), "q.db")
		s, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 100 {
			if err := s.Put(strconv.Itoa(i), make([]byte, 3000)); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		return mustRead(t, p)
	}
	truncated := func(t *testing.T) []byte {
		b := realDB(t)
		return b[:2*os.Getpagesize()] // both meta pages, nothing else
	}
	badFreelist := func(t *testing.T) []byte {
		// Valid meta pages, but the freelist page they name is zeroed:
		// bbolt panics reading it.
		b := realDB(t)
		m0, _ := parseMeta(b)
		m1, _ := parseMeta(b[m0.pageSize:])
		off := 0
		if m1.txid > m0.txid {
			off = int(m0.pageSize)
		}
		freelist := binary.NativeEndian.Uint64(b[off+pageHeaderSize+32:])
		page := b[freelist*uint64(m0.pageSize):][:m0.pageSize]
		clear(page)
		return b
	}
	tests := []struct {
		name    string
		content func(t *testing.T) []byte
		why     string // in the error message
	}{
		{"truncated database", truncated, "truncated"},
		{"zeroed freelist page", badFreelist, "bbolt failed reading it"},
		{"random bytes", func(*testing.T) []byte { return random }, "no valid bbolt meta page"},
		{"text", func(*testing.T) []byte { return []byte("[discord]\ntoken = \"x\"\n") }, "no valid bbolt meta page"},
		{"zeros", func(*testing.T) []byte { return make([]byte, 32<<10) }, "no valid bbolt meta page"},
		{"one byte", func(*testing.T) []byte { return []byte{0} }, "no valid bbolt meta page"},
		{"damaged meta pages", damagedMeta, "no valid bbolt meta page"},
		{"foreign bbolt file", foreign, `buckets ["users"] but no meta bucket`},
		{"meta bucket with a bad version", badVersion, "meta/version is 1 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "q.db")
			want := tt.content(t)
			if err := os.WriteFile(path, want, 0o600); err != nil {
				t.Fatal(err)
			}
			s, err := Open(path)
			if err == nil {
				s.Close()
				t.Fatalf("Open succeeded, want ErrNotDatabase")
			}
			if !errors.Is(err, ErrNotDatabase) {
				t.Errorf("Open error = %v, want ErrNotDatabase", err)
			}
			if msg := err.Error(); !strings.Contains(msg, path) || !strings.Contains(msg, tt.why) {
				t.Errorf("Open error %q, want one naming the file %s and saying %q", msg, path, tt.why)
			}
			if got := mustRead(t, path); !bytes.Equal(got, want) {
				t.Errorf("Open changed the file: %d bytes, was %d", len(got), len(want))
			}
		})
	}
	t.Run("directory", func(t *testing.T) {
		if _, err := Open(t.TempDir()); !errors.Is(err, ErrNotDatabase) {
			t.Errorf("Open(directory) error = %v, want ErrNotDatabase", err)
		}
	})
}

func TestOpenZeroLengthFileIsNew(t *testing.T) {
	// A crash while creating the file can leave it empty: there is nothing
	// to lose, so it is initialised like a new file.
	path := filepath.Join(t.TempDir(), "q.db")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatalf("Open(empty file): %v", err)
	}
	defer s.Close()
	if v, _ := s.Version(); v != SchemaVersion {
		t.Errorf("Version() = %d, want %d", v, SchemaVersion)
	}
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "q.db")
	newer := SchemaVersion + 1
	want := handBuilt(t, func(tx *bbolt.Tx) error {
		if err := migrate1(tx); err != nil {
			return err
		}
		if err := migrate2(tx); err != nil {
			return err
		}
		return writeVersion(tx, newer)
	})
	if err := os.WriteFile(path, want, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err == nil {
		s.Close()
		t.Fatal("Open succeeded, want ErrSchemaTooNew")
	}
	if !errors.Is(err, ErrSchemaTooNew) {
		t.Errorf("Open error = %v, want ErrSchemaTooNew", err)
	}
	for _, v := range []string{strconv.Itoa(newer), strconv.Itoa(SchemaVersion)} {
		if !bytes.Contains([]byte(err.Error()), []byte(v)) {
			t.Errorf("Open error %q does not name version %s", err, v)
		}
	}
	if got := mustRead(t, path); !bytes.Equal(got, want) {
		t.Errorf("Open changed the file")
	}
}

func TestOpenLocked(t *testing.T) {
	tests := []struct {
		name    string
		opts    []Option
		timeout time.Duration
	}{
		{"default timeout", nil, DefaultLockTimeout},
		{"WithLockTimeout", []Option{WithLockTimeout(100 * time.Millisecond)}, 100 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "q.db")
			s, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			s2, err := Open(path, tt.opts...)
			elapsed := time.Since(start)
			if err == nil {
				s2.Close()
				t.Fatal("second Open succeeded while the first holds the lock")
			}
			if !errors.Is(err, ErrLocked) {
				t.Errorf("second Open error = %v, want ErrLocked", err)
			}
			if !strings.Contains(err.Error(), path) {
				t.Errorf("second Open error %q does not name the file", err)
			}
			// bbolt polls the lock every 50ms, so it may give up a poll early.
			if elapsed < tt.timeout/2 || elapsed > tt.timeout+5*time.Second {
				t.Errorf("second Open gave up after %v, want about %v", elapsed, tt.timeout)
			}
			// Once the first closes, the file opens again.
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			s2, err = Open(path, tt.opts...)
			if err != nil {
				t.Fatalf("Open after Close: %v", err)
			}
			s2.Close()
		})
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// handBuilt returns the bytes of a bbolt file written by fn directly,
// without this package's Open or migrations.
func handBuilt(t *testing.T, fn func(tx *bbolt.Tx) error) []byte {
	t.Helper()
	p := filepath.Join(t.TempDir(), "hand.db")
	db, err := bbolt.Open(p, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(fn); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return mustRead(t, p)
}
