package store

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestBackupUnderWritesIsConsistent backs up while writers go on: every
// backup opens, verifies, and holds every write acknowledged before it
// began, each exactly as written (a write is a counter value that only
// grows, so a torn copy would show an older value than acknowledged).
func TestBackupUnderWritesIsConsistent(t *testing.T) {
	s := newStore(t)
	dir := t.TempDir()
	const writers = 4
	var acked [writers]atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := int64(1); ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				if err := s.Put(fmt.Sprintf("ch%d", w), []byte(fmt.Sprint(n))); err != nil {
					t.Errorf("Put: %v", err)
					return
				}
				acked[w].Store(n)
			}
		}()
	}
	var paths []string
	var floors [][writers]int64
	for range 5 {
		var floor [writers]int64
		for w := range writers {
			floor[w] = acked[w].Load()
		}
		p, err := s.BackupFile(dir)
		if err != nil {
			t.Fatalf("BackupFile: %v", err)
		}
		paths = append(paths, p)
		floors = append(floors, floor)
	}
	close(stop)
	wg.Wait()

	for i, p := range paths {
		sum, err := Verify(p)
		if err != nil {
			t.Fatalf("Verify(%s): %v", p, err)
		}
		if sum.Version != SchemaVersion {
			t.Errorf("backup %d: schema %d, want %d", i, sum.Version, SchemaVersion)
		}
		b, err := Open(p)
		if err != nil {
			t.Fatalf("Open backup: %v", err)
		}
		for w := range writers {
			v, ok, err := b.Get(fmt.Sprintf("ch%d", w))
			if err != nil {
				t.Fatalf("backup %d ch%d: %v", i, w, err)
			}
			var got int64
			if ok {
				fmt.Sscan(string(v), &got)
			}
			if got < floors[i][w] {
				t.Errorf("backup %d: ch%d = %d, but %d was acknowledged before the backup began", i, w, got, floors[i][w])
			}
		}
		b.Close()
	}
	list, err := Backups(dir)
	if err != nil || len(list) != len(paths) {
		t.Fatalf("Backups = %v, %v; want the %d written", list, err, len(paths))
	}
	for i := 1; i < len(list); i++ {
		if list[i-1] >= list[i] {
			t.Errorf("Backups not in time order: %s before %s", list[i-1], list[i])
		}
	}
}

// TestBackupStreamEqualsFile: Backup to a writer gives a database that
// Verify accepts and that holds what the store holds.
func TestBackupStream(t *testing.T) {
	s := newStore(t)
	for i := range 50 {
		if err := s.Put(fmt.Sprintf("ch%02d", i), bytes.Repeat([]byte{byte(i)}, 100+i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.PutGuildSettings("g1", []byte(`{"lang":"de"}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.PutTimer("ch01", time.Unix(1000, 0), []byte("t")); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	n, err := s.Backup(&buf)
	if err != nil || n != int64(buf.Len()) {
		t.Fatalf("Backup = %d, %v; wrote %d", n, err, buf.Len())
	}
	p := filepath.Join(t.TempDir(), "copy.db")
	if err := os.WriteFile(p, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	sum, err := Verify(p)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Games != 50 || sum.Guilds != 1 || sum.Timers != 1 {
		t.Errorf("Verify = %+v; want 50 games, 1 guild, 1 timer", sum)
	}
}

// TestVerifyRefusesDamage: a backup with one flipped bit in a stored value
// does not verify, and Restore from it changes nothing.
func TestVerifyRefusesDamage(t *testing.T) {
	s := newStore(t)
	payload := bytes.Repeat([]byte("qwixx-value-"), 40)
	if err := s.Put("ch", payload); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := s.Backup(&buf); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	i := bytes.Index(b, payload)
	if i < 0 {
		t.Fatal("payload not found in the backup")
	}
	// Flip a bit in every copy of the value (bbolt may keep older copies).
	for j := 0; j < len(b); {
		k := bytes.Index(b[j:], payload)
		if k < 0 {
			break
		}
		b[j+k+7] ^= 0x04
		j += k + len(payload)
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.db")
	if err := os.WriteFile(bad, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(bad); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Verify of a damaged backup = %v, want ErrCorrupt", err)
	}
	target := filepath.Join(dir, "live.db")
	if err := os.WriteFile(target, []byte("the old database"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Restore(bad, target, time.Now()); err == nil || !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Restore from a damaged backup = %v, want ErrCorrupt", err)
	}
	if got := mustRead(t, target); string(got) != "the old database" {
		t.Errorf("Restore from a damaged backup changed the target")
	}
	// Not a database at all: refused too.
	if _, err := Verify(target); !errors.Is(err, ErrNotDatabase) {
		t.Errorf("Verify of a text file = %v, want ErrNotDatabase", err)
	}
}

// TestRestoreRefusesRunningBot: while a Store (a running bot) holds the
// target, Restore refuses and names what to do.
func TestRestoreRefusesRunningBot(t *testing.T) {
	dir := t.TempDir()
	live := filepath.Join(dir, "live.db")
	s, err := Open(live)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Put("ch", []byte("live")); err != nil {
		t.Fatal(err)
	}
	bk, err := s.BackupFile(filepath.Join(dir, "backups"))
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = Restore(bk, live, time.Now())
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "stop the bot") {
		t.Fatalf("Restore over a database in use = %v, want ErrLocked saying to stop the bot", err)
	}
}

// TestRestoreKeepsOldAndReruns: Restore puts the backup's contents in
// place, keeps the old database beside, and runs again after a restore
// that died with its temporary copy half written.
func TestRestoreKeepsOldAndReruns(t *testing.T) {
	dir := t.TempDir()
	live := filepath.Join(dir, "live.db")
	s, err := Open(live)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Put("ch", []byte("before")); err != nil {
		t.Fatal(err)
	}
	bk, err := s.BackupFile(filepath.Join(dir, "backups"))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Put("ch", []byte("after")); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// A restore killed while copying left its temporary file.
	if err := os.WriteFile(live+".restore.tmp", []byte("half"), 0o600); err != nil {
		t.Fatal(err)
	}
	kept, sum, err := Restore(bk, live, time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if sum.Games != 1 {
		t.Errorf("restored summary %+v, want 1 game", sum)
	}
	if fileExists(live + ".restore.tmp") {
		t.Error("the temporary copy is still there")
	}
	for _, c := range []struct {
		path, want string
		restored   bool
	}{{live, "before", true}, {kept, "after", false}} {
		db, err := Open(c.path)
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := db.Get("ch")
		if err != nil || string(got) != c.want {
			t.Errorf("%s: ch = %q, %v; want %q", c.path, got, err, c.want)
		}
		// The restored database is marked for the bot, until it clears it.
		at, marked, err := db.Restored()
		if err != nil || marked != c.restored || (marked && !at.Equal(time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC))) {
			t.Errorf("%s: Restored() = %v, %v, %v; want marked %v at the restore's time", c.path, at, marked, err, c.restored)
		}
		if marked {
			if err := db.ClearRestored(); err != nil {
				t.Fatal(err)
			}
			if _, marked, _ := db.Restored(); marked {
				t.Errorf("%s: still marked after ClearRestored", c.path)
			}
		}
		db.Close()
	}
}

// TestPruneBackups keeps the newest ones and touches nothing else.
func TestPruneBackups(t *testing.T) {
	s := newStore(t)
	dir := t.TempDir()
	base := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	var made []string
	for i := range 5 {
		s.now = func() time.Time { return base.Add(time.Duration(i) * time.Hour) }
		p, err := s.BackupFile(dir)
		if err != nil {
			t.Fatal(err)
		}
		made = append(made, p)
	}
	other := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(other, []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	gone, err := PruneBackups(dir, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(gone) != 3 || gone[0] != made[0] || gone[2] != made[2] {
		t.Errorf("pruned %v, want the three oldest of %v", gone, made)
	}
	left, _ := Backups(dir)
	if len(left) != 2 || left[0] != made[3] || left[1] != made[4] {
		t.Errorf("left %v, want the newest two", left)
	}
	if !fileExists(other) {
		t.Error("PruneBackups deleted a file it did not write")
	}
}
