package session

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// restoreTables is Tables in memory, with a restore's mark (RestoreMark),
// for AfterRestore.
type restoreTables struct {
	m        map[string][]byte
	marked   bool
	at       time.Time
	clearErr error
}

func (s *restoreTables) Get(_ context.Context, key string) ([]byte, bool, error) {
	b, ok := s.m[key]
	return b, ok, nil
}

func (s *restoreTables) GetUnless(ctx context.Context, key string, _ []byte) ([]byte, bool, bool, error) {
	b, ok, err := s.Get(ctx, key)
	return b, ok, false, err
}

func (s *restoreTables) Update(_ context.Context, key string, fn func([]byte, bool) ([]byte, bool, error)) error {
	old, ok := s.m[key]
	blob, del, err := fn(old, ok)
	switch {
	case err != nil:
		return err
	case del:
		delete(s.m, key)
	default:
		s.m[key] = blob
	}
	return nil
}

func (s *restoreTables) ForEach(_ context.Context, fn func(string, []byte, error) error) error {
	for k, v := range s.m {
		if err := fn(k, v, nil); err != nil {
			return err
		}
	}
	return nil
}

func (s *restoreTables) Quarantine(context.Context, string, string) (bool, error) {
	return false, nil
}

func (s *restoreTables) GuildSettings(context.Context, string) ([]byte, bool, error) {
	return nil, false, nil
}

func (s *restoreTables) PutGuildSettings(context.Context, string, []byte) error { return nil }

func (s *restoreTables) Restored(context.Context) (time.Time, bool, error) {
	return s.at, s.marked, nil
}

func (s *restoreTables) ClearRestored(context.Context) error {
	if s.clearErr != nil {
		return s.clearErr
	}
	s.marked = false
	return nil
}

// TestAfterRestoreReadiesEveryTableOnce: with a restore's mark, every
// readable table is readied (its stamp jumps, its live message is no
// longer taken as shown), an unreadable one is left as it is, and the
// mark is cleared; without a mark nothing changes. A mark that cannot be
// cleared is an error, and the next start readies the tables again.
func TestAfterRestoreReadiesEveryTableOnce(t *testing.T) {
	tb := storedTable(t)
	blob, err := tb.Encode()
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 28, 3, 0, 0, 0, time.UTC)
	s := &restoreTables{m: map[string][]byte{"c1": blob, "bad": []byte("not a table")}, at: at}
	ctx := context.Background()

	if got, n, err := AfterRestore(ctx, s, s); err != nil || n != 0 || !got.Equal(at) || string(s.m["c1"]) != string(blob) {
		t.Fatalf("unmarked: at %v, %d readied, %v; table changed %v", got, n, err, string(s.m["c1"]) != string(blob))
	}

	s.marked, s.clearErr = true, fmt.Errorf("disk full")
	if _, n, err := AfterRestore(ctx, s, s); err == nil || n != 1 || !s.marked {
		t.Fatalf("mark not cleared: %d readied, %v, still marked %v", n, err, s.marked)
	}
	s.clearErr = nil
	got, n, err := AfterRestore(ctx, s, s)
	if err != nil || n != 1 || !got.Equal(at) || s.marked {
		t.Fatalf("marked: at %v, %d readied, %v, still marked %v", got, n, err, s.marked)
	}
	if string(s.m["bad"]) != "not a table" {
		t.Errorf("the unreadable table was changed to %q", s.m["bad"])
	}
	ready, err := Decode(s.m["c1"])
	if err != nil {
		t.Fatal(err)
	}
	if ready.Stamp() != tb.Stamp()+2*restoreSeqJump || ready.Shown.Msg != "" || ready.Shown.Reminder != tb.Shown.Reminder {
		t.Errorf("readied twice: stamp %d (was %d), live message %q, reminder %q", ready.Stamp(), tb.Stamp(), ready.Shown.Msg, ready.Shown.Reminder)
	}
}
