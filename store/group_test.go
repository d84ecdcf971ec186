package store

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"go.etcd.io/bbolt"
	bberrors "go.etcd.io/bbolt/errors"
)

// queued is how many writes wait for the next group.
func queued(s *Store) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue)
}

// waitQueued waits until n writes wait for the next group.
func waitQueued(t *testing.T, s *Store, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for queued(s) != n {
		if time.Now().After(deadline) {
			t.Fatalf("%d writes queued, want %d", queued(s), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// holdLeader starts a write of key "leader" whose fn blocks until release
// is called, so that the writes started meanwhile queue up for one group.
// wait returns the held write's result.
func holdLeader(t *testing.T, s *Store) (release func(), wait func() error) {
	t.Helper()
	entered, rel, res := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		res <- s.Update("leader", func([]byte, bool) ([]byte, bool, error) {
			select {
			case <-entered: // run again: do not wait twice
			default:
				close(entered)
				<-rel
			}
			return []byte("L"), false, nil
		})
	}()
	<-entered
	var once sync.Once
	return func() { once.Do(func() { close(rel) }) }, func() error { return <-res }
}

// writer is one kind of write, for the tests that mix them.
type writer struct {
	name  string
	write func(s *Store, i int) error
	check func(t *testing.T, s *Store, i int)
}

var writers = []writer{
	{"Put", func(s *Store, i int) error {
		return s.Put("put-"+strconv.Itoa(i), []byte("p"+strconv.Itoa(i)))
	}, func(t *testing.T, s *Store, i int) {
		if got, _ := mustGet(t, s, "put-"+strconv.Itoa(i)); string(got) != "p"+strconv.Itoa(i) {
			t.Errorf("put-%d = %q", i, got)
		}
	}},
	{"Update", func(s *Store, i int) error {
		return s.Update("upd-"+strconv.Itoa(i), func(old []byte, exists bool) ([]byte, bool, error) {
			return append(old, 'u'), false, nil
		})
	}, func(t *testing.T, s *Store, i int) {
		if got, _ := mustGet(t, s, "upd-"+strconv.Itoa(i)); string(got) != "u" {
			t.Errorf("upd-%d = %q, want %q", i, got, "u")
		}
	}},
	{"PutTimer", func(s *Store, i int) error {
		return s.PutTimer("timer-"+strconv.Itoa(i), time.Unix(int64(i), 0), []byte{byte(i)})
	}, func(t *testing.T, s *Store, i int) {
		ts, err := s.Timers()
		if err != nil {
			t.Fatal(err)
		}
		for _, tm := range ts {
			if tm.Key == "timer-"+strconv.Itoa(i) && tm.Due.Equal(time.Unix(int64(i), 0)) {
				return
			}
		}
		t.Errorf("timer-%d missing", i)
	}},
	{"AppendResult", func(s *Store, i int) error {
		return s.appendRaw("guild-"+strconv.Itoa(i%4), []byte("r"+strconv.Itoa(i)))
	}, func(t *testing.T, s *Store, i int) {
		rs, err := s.rawResults("guild-"+strconv.Itoa(i%4), 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			if string(r) == "r"+strconv.Itoa(i) {
				return
			}
		}
		t.Errorf("result r%d missing", i)
	}},
	{"PutGuildSettings", func(s *Store, i int) error {
		return s.PutGuildSettings("gs-"+strconv.Itoa(i), []byte("s"+strconv.Itoa(i)))
	}, func(t *testing.T, s *Store, i int) {
		if got, _, err := s.GuildSettings("gs-" + strconv.Itoa(i)); err != nil || string(got) != "s"+strconv.Itoa(i) {
			t.Errorf("gs-%d = %q, %v", i, got, err)
		}
	}},
}

// TestGroupConcurrentWritersPersist has 64 goroutines write, all at once,
// to different keys: every write is readable after Close and a reopen.
func TestGroupConcurrentWritersPersist(t *testing.T) {
	for _, w := range writers {
		t.Run(w.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "q.db")
			s, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			const goroutines = 64
			start := make(chan struct{})
			errs := make(chan error, goroutines)
			var wg sync.WaitGroup
			for i := range goroutines {
				wg.Go(func() {
					<-start
					errs <- w.write(s, i)
				})
			}
			close(start)
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Fatalf("write: %v", err)
				}
			}
			st := s.Stats()
			if st.Writes != goroutines || st.Commits == 0 || st.Commits > goroutines {
				t.Errorf("Stats = %+v, want %d writes in 1 to %d commits", st, goroutines, goroutines)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			s = reopen(t, path)
			for i := range goroutines {
				w.check(t, s, i)
			}
		})
	}
}

// TestGroupCommitsFewerThanWrites: 64 goroutines writing at once share
// fsyncs, so there are far fewer commits than writes.
func TestGroupCommitsFewerThanWrites(t *testing.T) {
	s := newStore(t)
	const goroutines, each = 64, 20
	start := make(chan struct{})
	errs := make(chan error, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			<-start
			for j := range each {
				key := fmt.Sprintf("ch-%d", g)
				err := s.Update(key, func(old []byte, exists bool) ([]byte, bool, error) {
					return []byte(strconv.Itoa(j)), false, nil
				})
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("Update: %v", err)
	}
	st := s.Stats()
	t.Logf("%+v: %.3f commits per write", st, float64(st.Commits)/float64(st.Writes))
	if st.Writes != goroutines*each {
		t.Errorf("Writes = %d, want %d", st.Writes, goroutines*each)
	}
	if st.Commits >= st.Writes/2 {
		t.Errorf("Commits = %d, want fewer than half of the %d writes", st.Commits, st.Writes)
	}
	if st.MaxGroup < 2 || st.MaxGroup > maxGroup {
		t.Errorf("MaxGroup = %d, want 2 to %d", st.MaxGroup, maxGroup)
	}
	for g := range goroutines {
		if got, _ := mustGet(t, s, fmt.Sprintf("ch-%d", g)); string(got) != strconv.Itoa(each-1) {
			t.Errorf("ch-%d = %q, want %q", g, got, strconv.Itoa(each-1))
		}
	}
}

// TestGroupOneGroup holds a commit in flight while 63 writes queue: they
// are committed together, in one transaction.
func TestGroupOneGroup(t *testing.T) {
	s := newStore(t)
	const n = 63
	putQueued(t, s, n, func(i int) []byte { return []byte{byte(i)} })
	if st := s.Stats(); st.Commits != 2 || st.Writes != n+1 || st.MaxGroup != n {
		t.Errorf("Stats = %+v, want 2 commits, %d writes, MaxGroup %d", st, n+1, n)
	}
}

// TestGroupCap: no group has more than maxGroup members.
func TestGroupCap(t *testing.T) {
	s := newStore(t)
	s.db.NoSync = true
	const n = maxGroup + 10
	putQueued(t, s, n, func(int) []byte { return nil })
	if st := s.Stats(); st.Commits != 3 || st.MaxGroup != maxGroup {
		t.Errorf("Stats = %+v, want 3 commits, MaxGroup %d", st, maxGroup)
	}
}

var errRefused = errors.New("refused")

// TestGroupMemberFails: a member of a group that fails, with an error or a
// panic, before or after writing part of its changes, leaves no write;
// the other members, before and after it in the group, are committed.
func TestGroupMemberFails(t *testing.T) {
	tests := []struct {
		name string
		// fail is the failing member's write; it may write "bad-*" keys
		// before failing.
		fail      func(s *Store) error
		wantErr   error // errors.Is the failing write's error
		wantPanic any   // the failing write panics with this value
	}{
		{"Update fn error", func(s *Store) error {
			return s.Update("bad-upd", func([]byte, bool) ([]byte, bool, error) {
				return []byte("x"), false, errRefused
			})
		}, errRefused, nil},
		{"error after a write", func(s *Store) error {
			return s.update(func(tx *bbolt.Tx, _ func(func())) error {
				if err := tx.Bucket(bucketGames).Put([]byte("bad-partial"), encodeFrame([]byte("x"))); err != nil {
					return err
				}
				return errRefused
			})
		}, errRefused, nil},
		{"bbolt error", func(s *Store) error {
			return s.Put("bad-"+string(make([]byte, bbolt.MaxKeySize+1)), []byte("x"))
		}, bberrors.ErrKeyTooLarge, nil},
		{"Update fn panic", func(s *Store) error {
			return s.Update("bad-panic", func([]byte, bool) ([]byte, bool, error) {
				panic("in fn")
			})
		}, nil, "in fn"},
		{"panic after a write", func(s *Store) error {
			return s.update(func(tx *bbolt.Tx, guard func(func())) error {
				if err := tx.Bucket(bucketGames).Put([]byte("bad-partial"), encodeFrame([]byte("x"))); err != nil {
					return err
				}
				guard(func() { panic(errRefused) })
				return nil
			})
		}, nil, errRefused},
		{"bbolt panic", func(s *Store) error {
			return s.update(func(tx *bbolt.Tx, _ func(func())) error {
				if err := tx.Bucket(bucketGames).Put([]byte("bad-partial"), encodeFrame([]byte("x"))); err != nil {
					return err
				}
				panic("bbolt stand-in")
			})
		}, ErrCorrupt, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStore(t)
			release, wait := holdLeader(t, s)
			const before, after = 5, 5
			errs := make(chan error, before+after)
			put := func(i int) {
				go func() { errs <- s.Put("k"+strconv.Itoa(i), []byte{byte(i)}) }()
				waitQueued(t, s, i+1)
			}
			for i := range before {
				put(i)
			}
			type outcome struct {
				err      error
				panicked any
			}
			failed := make(chan outcome, 1)
			go func() {
				var o outcome
				defer func() {
					o.panicked = recover()
					failed <- o
				}()
				o.err = tt.fail(s)
			}()
			waitQueued(t, s, before+1)
			for i := before + 1; i <= before+after; i++ {
				put(i)
			}
			release()
			if err := wait(); err != nil {
				t.Fatalf("held write: %v", err)
			}
			for range before + after {
				if err := <-errs; err != nil {
					t.Errorf("other member: %v", err)
				}
			}
			o := <-failed
			switch {
			case tt.wantPanic != nil:
				if o.panicked != tt.wantPanic {
					t.Errorf("failing write panicked with %v, want %v", o.panicked, tt.wantPanic)
				}
			case o.panicked != nil:
				t.Errorf("failing write panicked: %v", o.panicked)
			case !errors.Is(o.err, tt.wantErr):
				t.Errorf("failing write = %v, want %v", o.err, tt.wantErr)
			}
			for i := range before + after + 1 {
				if i == before {
					continue
				}
				if got, ok := mustGet(t, s, "k"+strconv.Itoa(i)); !ok || len(got) != 1 || got[0] != byte(i) {
					t.Errorf("k%d = %q, %v, want written", i, got, ok)
				}
			}
			if got, _ := mustGet(t, s, "leader"); string(got) != "L" {
				t.Errorf("leader = %q, want written", got)
			}
			err := s.ForEach(func(id string, _ []byte, _ error) error {
				if len(id) >= 4 && id[:4] == "bad-" {
					t.Errorf("the failing write's %q was written", id)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			st := s.Stats()
			if st.Commits != 2 || st.Writes != before+after+1 || st.Retries != 1 {
				t.Errorf("Stats = %+v, want 2 commits, %d writes, 1 retry", st, before+after+1)
			}
		})
	}
}

// TestGroupIdleWriteCommitsAtOnce: a write to an idle Store commits at
// once, alone: nothing waits for company.
func TestGroupIdleWriteCommitsAtOnce(t *testing.T) {
	s := newStore(t)
	begin := time.Now()
	if err := s.Put("ch", []byte("x")); err != nil {
		t.Fatal(err)
	}
	took := time.Since(begin)
	if st := s.Stats(); st != (Stats{Commits: 1, Writes: 1, MaxGroup: 1}) {
		t.Errorf("after one Put Stats = %+v, want one commit of one write", st)
	}
	t.Logf("one idle write took %v", took)
	if err := s.Put("ch", []byte("y")); err != nil {
		t.Fatal(err)
	}
	if st := s.Stats(); st.Commits != 2 {
		t.Errorf("after two Puts Commits = %d, want 2", st.Commits)
	}
}

// TestGroupNoChangeCostsNoCommit: writes that change nothing commit
// nothing, alone or in a group; in a group with a change they share its
// commit.
func TestGroupNoChangeCostsNoCommit(t *testing.T) {
	noops := []struct {
		name string
		op   func(s *Store) error
	}{
		{"Update returning nil", func(s *Store) error {
			return s.Update("ch", func([]byte, bool) ([]byte, bool, error) { return nil, false, nil })
		}},
		{"Update deleting a missing game", func(s *Store) error {
			return s.Update("missing", func([]byte, bool) ([]byte, bool, error) { return nil, true, nil })
		}},
		{"Delete of a missing game", func(s *Store) error { return s.Delete("missing") }},
		{"DeleteTimer of a missing timer", func(s *Store) error { return s.DeleteTimer("missing") }},
		{"Quarantine of a missing game", func(s *Store) error {
			moved, err := s.Quarantine("missing", "test")
			if moved {
				return errors.New("moved a missing game")
			}
			return err
		}},
	}
	for _, tt := range noops {
		t.Run(tt.name, func(t *testing.T) {
			s := newStore(t)
			if err := s.Put("ch", []byte("x")); err != nil {
				t.Fatal(err)
			}
			if err := tt.op(s); err != nil {
				t.Fatal(err)
			}
			if st := s.Stats(); st.Commits != 1 || st.Writes != 1 || st.NoChange != 1 {
				t.Errorf("Stats = %+v, want only the Put's commit", st)
			}
		})
	}
	t.Run("a group of no-ops", func(t *testing.T) {
		s := newStore(t)
		if err := s.Put("ch", []byte("x")); err != nil {
			t.Fatal(err)
		}
		// Hold a write in flight with a no-op fn, so that the no-ops
		// queue behind it and then form one group of their own.
		entered, rel, res := make(chan struct{}), make(chan struct{}), make(chan error, 1)
		go func() {
			res <- s.Update("ch", func([]byte, bool) ([]byte, bool, error) {
				close(entered)
				<-rel
				return nil, false, nil
			})
		}()
		<-entered
		errs := make(chan error, len(noops))
		for i, op := range noops {
			go func() { errs <- op.op(s) }()
			waitQueued(t, s, i+1)
		}
		close(rel)
		if err := <-res; err != nil {
			t.Fatal(err)
		}
		for range noops {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		if st := s.Stats(); st.Commits != 1 || st.NoChange != uint64(len(noops)+1) {
			t.Errorf("Stats = %+v, want only the Put's commit and %d no-ops", st, len(noops)+1)
		}
	})
	t.Run("no-ops in a group with a write", func(t *testing.T) {
		s := newStore(t)
		release, wait := holdLeader(t, s)
		errs := make(chan error, len(noops)+1)
		for i, op := range noops {
			go func() { errs <- op.op(s) }()
			waitQueued(t, s, i+1)
		}
		go func() { errs <- s.Put("ch", []byte("y")) }()
		waitQueued(t, s, len(noops)+1)
		release()
		if err := wait(); err != nil {
			t.Fatal(err)
		}
		for range len(noops) + 1 {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		if st := s.Stats(); st.Commits != 2 || st.Writes != 2 || st.NoChange != uint64(len(noops)) || st.MaxGroup != len(noops)+1 {
			t.Errorf("Stats = %+v, want 2 commits, 2 writes, %d no-ops, MaxGroup %d", st, len(noops), len(noops)+1)
		}
	})
}

// TestGroupCloseWaits: Close waits for the running group and for the
// writes queued behind it, which are all committed; later writes fail.
func TestGroupCloseWaits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "q.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	release, wait := holdLeader(t, s)
	const n = 10
	errs := make(chan error, n)
	for i := range n {
		go func() { errs <- s.Put("k"+strconv.Itoa(i), []byte("v")) }()
	}
	waitQueued(t, s, n)
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	// Close is waiting for the group in flight: it does not return
	// while the held write goes on.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		s.mu.Lock()
		c := s.closed
		s.mu.Unlock()
		if c {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("Close did not begin within 10 s")
		}
	}
	select {
	case err := <-closed:
		t.Fatalf("Close returned (%v) with a write in flight", err)
	case <-time.After(20 * time.Millisecond):
	}
	if err := s.Put("late", []byte("v")); !errors.Is(err, bberrors.ErrDatabaseNotOpen) {
		t.Errorf("Put after Close = %v, want %v", err, bberrors.ErrDatabaseNotOpen)
	}
	release()
	if err := wait(); err != nil {
		t.Fatal(err)
	}
	for range n {
		if err := <-errs; err != nil {
			t.Errorf("queued write: %v", err)
		}
	}
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	s = reopen(t, path)
	for i := range n {
		if _, ok := mustGet(t, s, "k"+strconv.Itoa(i)); !ok {
			t.Errorf("k%d lost", i)
		}
	}
	if _, ok := mustGet(t, s, "late"); ok {
		t.Errorf("the write after Close was written")
	}
}

// TestGroupGoexit: an fn that calls runtime.Goexit (t.FailNow does) ends
// the goroutine that runs its group, but does not wedge the Store: the
// other members are committed by a new leader.
func TestGroupGoexit(t *testing.T) {
	goexitFn := func([]byte, bool) ([]byte, bool, error) {
		runtime.Goexit()
		return nil, false, nil
	}
	t.Run("own group", func(t *testing.T) {
		s := newStore(t)
		done := make(chan bool, 1)
		go func() {
			returned := false
			defer func() { done <- returned }()
			_ = s.Update("goexit", goexitFn)
			returned = true
		}()
		if <-done {
			t.Errorf("Update returned after its fn called runtime.Goexit")
		}
		if err := s.Put("after", []byte("a")); err != nil {
			t.Errorf("Put after the Goexit: %v", err)
		}
		if _, ok := mustGet(t, s, "goexit"); ok {
			t.Errorf("the Goexit write was written")
		}
	})
	t.Run("another's group", func(t *testing.T) {
		s := newStore(t)
		release, wait := holdLeader(t, s)
		// Queue a, g, b: a leads the group and runs g's fn, which ends
		// a's goroutine.
		aDone := make(chan bool, 1)
		go func() {
			returned := false
			defer func() { aDone <- returned }()
			_ = s.Put("a", []byte("a"))
			returned = true
		}()
		waitQueued(t, s, 1)
		g := make(chan error, 1)
		go func() { g <- s.Update("g", goexitFn) }()
		waitQueued(t, s, 2)
		b := make(chan error, 1)
		go func() { b <- s.Put("b", []byte("b")) }()
		waitQueued(t, s, 3)
		release()
		if err := wait(); err != nil {
			t.Fatal(err)
		}
		if <-aDone {
			t.Errorf("a's Put returned; its goroutine should have ended with g's Goexit")
		}
		if err := <-g; !errors.Is(err, errGoexit) {
			t.Errorf("g's Update = %v, want %v", err, errGoexit)
		}
		if err := <-b; err != nil {
			t.Errorf("b's Put = %v", err)
		}
		if _, ok := mustGet(t, s, "b"); !ok {
			t.Errorf("b's write lost")
		}
		for _, k := range []string{"a", "g"} {
			if _, ok := mustGet(t, s, k); ok {
				t.Errorf("%s was written", k)
			}
		}
		if err := s.Put("after", []byte("x")); err != nil {
			t.Errorf("Put after the Goexit: %v", err)
		}
	})
}

// reopen opens the database at path again, closed when the test ends.
func reopen(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// putQueued holds a commit open while n writes (k0, k1, … with value(i))
// queue behind it, then lets them all commit and checks they succeeded.
func putQueued(t *testing.T, s *Store, n int, value func(i int) []byte) {
	t.Helper()
	release, wait := holdLeader(t, s)
	errs := make(chan error, n)
	for i := range n {
		go func() { errs <- s.Put("k"+strconv.Itoa(i), value(i)) }()
	}
	waitQueued(t, s, n)
	release()
	if err := wait(); err != nil {
		t.Fatal(err)
	}
	for range n {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
