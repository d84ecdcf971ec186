package store

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
)

// Frames of saved games are pooled and reused once their transaction has
// ended (frameInTx): 32 goroutines each save their game 40 times, of
// sizes from a few bytes to 9 KiB, while every fifth save of some fails
// (its group rolled back and run again) and every seventh changes nothing;
// every game then reads back, after a reopen, as its last save wrote it,
// and a failed or rolled-back save left nothing of its own.
func TestPooledFramesKeepCommittedGames(t *testing.T) {
	path := filepath.Join(t.TempDir(), "q.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	blob := func(g, n int) []byte {
		return bytes.Repeat([]byte(fmt.Sprintf("<game %d save %d>", g, n)), 1+(g*37+n*101)%500)
	}
	errFail := errors.New("refused")
	const games, saves = 32, 40
	var wg sync.WaitGroup
	errs := make(chan error, games)
	for g := range games {
		wg.Go(func() {
			ch := fmt.Sprintf("channel-%02d", g)
			for n := range saves {
				err := s.Update(ch, func(old []byte, exists bool) ([]byte, bool, error) {
					if n > 0 && (!exists || !bytes.Equal(old, blob(g, lastWritten(g, n)))) {
						return nil, false, fmt.Errorf("save %d read %.40q", n, old)
					}
					switch {
					case g%2 == 1 && n%5 == 4:
						return blob(g, 999), false, errFail
					case n%7 == 6:
						return nil, false, nil
					}
					return blob(g, n), false, nil
				})
				if err != nil && !errors.Is(err, errFail) {
					errs <- fmt.Errorf("%s: %w", ch, err)
					return
				}
			}
		})
	}
	waitWriters(t, &wg, errs)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = reopen(t, path)
	for g := range games {
		got, ok := mustGet(t, s, fmt.Sprintf("channel-%02d", g))
		if want := blob(g, lastWritten(g, saves)); !ok || !bytes.Equal(got, want) {
			t.Errorf("game %d reads back as %.60q, want %.60q", g, got, want)
		}
	}
}

// lastWritten is the save that wrote game g before save n of
// TestPooledFramesKeepCommittedGames: the last one before n that was
// neither a seventh (which writes nothing) nor, for an odd game, a fifth
// (which fails).
func lastWritten(g, n int) int {
	for m := n - 1; m >= 0; m-- {
		if m%7 != 6 && (g%2 == 0 || m%5 != 4) {
			return m
		}
	}
	return 0
}
