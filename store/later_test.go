package store

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// openAt opens a store at a fresh path and returns both; the test closes
// it (Close is idempotent: the cleanup closes it again).
func openAt(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "qwixxbot.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func wantGame(t *testing.T, s *Store, key, want string) {
	t.Helper()
	got, ok := mustGet(t, s, key)
	if want == "" {
		if ok {
			t.Fatalf("%s: got %q, want none", key, got)
		}
		return
	}
	if !ok || string(got) != want {
		t.Fatalf("%s: got %q (exists %v), want %q", key, got, ok, want)
	}
	b, ok, same, err := s.GetUnless(key, []byte(want))
	if err != nil || !ok || !same || b != nil {
		t.Fatalf("%s: GetUnless(%q) = %q, %v, %v, %v; want the same", key, want, b, ok, same, err)
	}
}

// A write made later is read at once, costs no commit of its own while
// other writes come, and is on disk once the next write returns.
func TestPutLaterRidesTheNextCommit(t *testing.T) {
	s, path := openAt(t)
	if err := s.PutLater("a", []byte("A1")); err != nil {
		t.Fatal(err)
	}
	wantGame(t, s, "a", "A1")
	if st := s.Stats(); st.Commits != 0 || st.Later != 0 {
		t.Fatalf("after PutLater: %+v, want no commit yet", st)
	}
	var seen []string
	if err := s.ForEach(func(k string, b []byte, err error) error {
		seen = append(seen, k+"="+string(b))
		return err
	}); err != nil || fmt.Sprint(seen) != "[a=A1]" {
		t.Fatalf("ForEach saw %v (%v), want [a=A1]", seen, err)
	}
	if err := s.Put("b", []byte("B1")); err != nil {
		t.Fatal(err)
	}
	if st := s.Stats(); st.Commits != 1 || st.Writes != 2 || st.Later != 1 {
		t.Fatalf("after Put: %+v, want one commit of two writes, one of them made later", st)
	}
	if _, ok := s.laterValue("a"); ok {
		t.Fatal("a committed write made later is still in the overlay")
	}
	// On disk: read back after a close that has nothing left to commit.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2 := reopen(t, path)
	wantGame(t, s2, "a", "A1")
	wantGame(t, s2, "b", "B1")
}

// Writes keep the order they were made in, whichever kind: a write that
// waits, made after a write made later of the same key, sees it and
// replaces it; a write made later after a write that waits replaces it.
func TestPutLaterKeepsOrder(t *testing.T) {
	s, path := openAt(t)
	if err := s.PutLater("k", []byte("v1")); err != nil {
		t.Fatal(err)
	}
	if err := s.Update("k", func(old []byte, ok bool) ([]byte, bool, error) {
		if !ok || string(old) != "v1" {
			t.Errorf("Update saw %q (%v), want the write made later v1", old, ok)
		}
		return []byte("v2"), false, nil
	}); err != nil {
		t.Fatal(err)
	}
	wantGame(t, s, "k", "v2")
	if err := s.PutLater("k", []byte("v3")); err != nil {
		t.Fatal(err)
	}
	if err := s.PutLater("k", []byte("v4")); err != nil {
		t.Fatal(err)
	}
	wantGame(t, s, "k", "v4")
	if err := s.PutLater("gone", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete("gone"); err != nil {
		t.Fatal(err)
	}
	wantGame(t, s, "gone", "")
	if st := s.Stats(); st.Later != 4 {
		t.Fatalf("writes made later committed: %d, want 4 (v1, v3, v4 and x)", st.Later)
	}
	wantGame(t, s, "k", "v4")
	if err := s.PutLater("k", []byte("v5")); err != nil {
		t.Fatal(err)
	}
	// Close commits what was made later.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.PutLater("k", []byte("v6")); err == nil {
		t.Fatal("PutLater after Close: no error")
	}
	s2 := reopen(t, path)
	wantGame(t, s2, "k", "v5")
	wantGame(t, s2, "gone", "")
}

// With no other write coming, the timer commits the writes made later,
// together.
func TestPutLaterTimerCommits(t *testing.T) {
	s, _ := openAt(t)
	for i := range 3 {
		if err := s.PutLater("t"+strconv.Itoa(i), []byte{byte(i)}); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(20 * laterDelay)
	for s.Stats().Later < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("after %v: %+v, want the 3 writes made later committed", 20*laterDelay, s.Stats())
		}
		time.Sleep(laterDelay / 10)
	}
	if st := s.Stats(); st.Commits != 1 {
		t.Fatalf("%+v: want one commit for the three", st)
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	if st := s.Stats(); st.Commits != 1 {
		t.Fatalf("Flush with nothing waiting committed: %+v", st)
	}
}

// Many writers, each owning some keys and mixing writes made later with
// writes that wait (and a Flush now and then), while a commit is often in
// flight: every key ends with the last value written to it, read at once
// and after a reopen, and nothing is lost or reordered.
func TestPutLaterConcurrentWritersKeepTheLastValue(t *testing.T) {
	s, path := openAt(t)
	const writers, keys, rounds = 8, 4, 60
	last := make([][keys]string, writers)
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rnd := rand.New(rand.NewPCG(uint64(w), 1))
			for r := range rounds {
				k := rnd.IntN(keys)
				key := fmt.Sprintf("w%d-k%d", w, k)
				val := fmt.Sprintf("%d/%d", w, r)
				var err error
				switch rnd.IntN(5) {
				case 0:
					err = s.Put(key, []byte(val))
				case 1:
					err = s.Update(key, func(old []byte, ok bool) ([]byte, bool, error) {
						if want := last[w][k]; string(old) != want {
							return nil, false, fmt.Errorf("%s: Update saw %q, want %q", key, old, want)
						}
						return []byte(val), false, nil
					})
				case 2:
					err = s.Flush()
					val = last[w][k]
				default:
					err = s.PutLater(key, []byte(val))
				}
				if err != nil {
					errs <- err
					return
				}
				last[w][k] = val
				if got, _ := mustGetErr(s, key); string(got) != val {
					errs <- fmt.Errorf("%s: read %q right after writing %q", key, got, val)
					return
				}
			}
		}()
	}
	waitWriters(t, &wg, errs)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2 := reopen(t, path)
	for w := range writers {
		for k := range keys {
			wantGame(t, s2, fmt.Sprintf("w%d-k%d", w, k), last[w][k])
		}
	}
}

// waitWriters waits for the writers of wg and fails on the first error
// they sent on errs.
func waitWriters(t *testing.T, wg *sync.WaitGroup, errs chan error) {
	t.Helper()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

func mustGetErr(s *Store, key string) ([]byte, error) {
	b, _, err := s.Get(key)
	return b, err
}

// A lone writer's commits follow one another at once; once a group had
// company, the next commit starts no sooner than commitGap after it, and
// takes along what was queued meanwhile.
func TestCommitGapAfterAGroupWithCompany(t *testing.T) {
	s, _ := openAt(t)
	for i := range 20 {
		if err := s.Put("lone", []byte{byte(i)}); err != nil {
			t.Fatal(err)
		}
	}
	if n := s.stats.lingers.Load(); n != 0 {
		t.Fatalf("a lone writer's commits waited %d times", n)
	}
	putQueued(t, s, 3, func(i int) []byte { return []byte{byte(i)} }) // a group of 3
	first := s.lastStart
	if s.lastSize < 2 {
		t.Fatalf("the queued writes committed in a group of %d", s.lastSize)
	}
	if err := s.PutLater("later", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := s.Put("next", []byte("y")); err != nil {
		t.Fatal(err)
	}
	if gap := s.lastStart.Sub(first); gap < commitGap {
		t.Fatalf("the next commit started %v after a group with company, want at least %v", gap, commitGap)
	}
	if n := s.stats.lingers.Load(); n != 1 {
		t.Fatalf("%d commits waited, want 1", n)
	}
	wantGame(t, s, "later", "x")
	if _, ok := s.laterValue("later"); ok {
		t.Fatal("the write made later did not go with the next commit")
	}
}
