package session

import (
	"bytes"
	"errors"
	"testing"

	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/game/ai"
)

// leaverGame plays a whole dice game of anna (host), ben and cleo from the
// lobby, with the host's leaver choice as set by setup; ben leaves with
// /qwixx leave when turn 2 begins, anna and cleo play on (as medium
// computer players would). It returns the table once the game is over,
// with ben's misthrows and crosses when he left and the turn the game
// ended in.
func leaverGame(t *testing.T, seed byte, setup func(*Table)) (tb *Table, misthrows, crosses int) {
	t.Helper()
	tb = lobby("anna")
	if setup != nil {
		setup(tb)
	}
	for _, u := range []string{"ben", "cleo"} {
		if err := tb.Join(u, u); err != nil {
			t.Fatal(err)
		}
	}
	var names []string
	for _, s := range tb.Seats {
		names = append(names, s.Name)
	}
	g, err := game.New(game.Config{Variant: game.Dice, Players: names, Seed: [32]byte{seed}})
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.Begin(g, timing(t0)); err != nil {
		t.Fatal(err)
	}
	left := false
	for steps := 0; tb.Stage == StagePlaying; steps++ {
		if steps > 2000 {
			t.Fatal("the game did not end")
		}
		g := tb.Game
		if !left && g.Turn() == 2 {
			misthrows, crosses = g.Sheet(1).Misthrows, g.Sheet(1).Crosses()
			if _, err := tb.Leave("ben", "ben", timing(t0)); err != nil {
				t.Fatal(err)
			}
			left = true
			continue
		}
		w := g.Waiting()
		if len(w) == 0 {
			t.Fatal("the game waits for nobody")
		}
		p := w[0]
		if left && p == 1 {
			t.Fatal("the game waits for ben, who left (P2)")
		}
		m := ai.Choose(ai.Medium, g.Private(p), g.LegalMoves(p))
		if err := tb.Apply(m, timing(t0)); err != nil {
			t.Fatalf("move %v: %v", m, err)
		}
	}
	if !left {
		t.Fatal("the game ended before turn 2")
	}
	return tb, misthrows, crosses
}

// RULES P2, D9: one of three players leaves at turn 2 of a dice game
// where the host chose passes for leavers. His turns are passed and cost
// him no misthrow, so his seat never ends the game: every game ends by
// the rules of those who stayed, two locked rows or the fourth misthrow
// of anna or cleo (D9). The record says he left. (Before, each of his
// turns cost him a misthrow and his fourth ended every one of these
// games.)
func TestP2D9LeaverAtTurn2PassesGameEndsByStayers(t *testing.T) {
	locks, misthrowEnds := 0, 0
	for seed := byte(1); seed <= 8; seed++ {
		tb, misthrows, _ := leaverGame(t, seed, func(tb *Table) {
			if err := tb.ToggleLeavers("anna"); err != nil || !tb.LeaverPass {
				t.Fatalf("the host's choice of passes: %v", err)
			}
		})
		g := tb.Game
		if !g.Over() || tb.Stage != StageOver {
			t.Fatalf("seed %d: not over", seed)
		}
		if s := tb.Seats[1]; !s.Left || s.Computer != "" {
			t.Fatalf("seed %d: ben's seat %+v", seed, s)
		}
		if got := g.Sheet(1).Misthrows; got != misthrows {
			t.Errorf("seed %d: ben took misthrows after leaving: %d, had %d (P2)", seed, got, misthrows)
		}
		switch g.EndReason() {
		case game.EndMisthrows:
			misthrowEnds++
			if g.Sheet(0).Misthrows < game.MaxMisthrows && g.Sheet(2).Misthrows < game.MaxMisthrows {
				t.Errorf("seed %d: ended by misthrows, none of them a stayer's (misthrows %d %d %d)", seed, g.Sheet(0).Misthrows, g.Sheet(1).Misthrows, g.Sheet(2).Misthrows)
			}
		case game.EndLocks:
			locks++
		}
		if rec := g.Record(); len(rec.Left) != 1 || rec.Left[0].Player != tb.Seats[1].Name {
			t.Errorf("seed %d: the record's departures %+v", seed, rec.Left)
		}
		if len(tb.Finished) != 1 {
			t.Errorf("seed %d: %d results kept", seed, len(tb.Finished))
		}
	}
	t.Logf("8 games: %d ended by two locks, %d by a stayer's fourth misthrow", locks, misthrowEnds)
}

// RULES P2, D9: by default a computer player takes the seat of one of
// three players who leaves at turn 2: the game never waits for it, the
// computer crosses numbers in it, and the game ends by the rules (D9) as
// the three seats play them; the seat keeps the leaver's user ID, so the
// result counts for him, and the next lobby seats neither him nor it.
func TestP2D9LeaverAtTurn2ComputerPlaysByDefault(t *testing.T) {
	for seed := byte(1); seed <= 3; seed++ {
		tb, _, crosses := leaverGame(t, seed, nil)
		g := tb.Game
		s := tb.Seats[1]
		if s.Computer != ai.Medium.String() || s.Left || !s.TakenOver() || s.UserID != "ben" {
			t.Fatalf("seed %d: ben's seat %+v, want a medium computer in it", seed, s)
		}
		if !g.Over() || g.EndReason() == game.NotOver || len(g.Departures()) != 0 {
			t.Fatalf("seed %d: over %v, end %v, departures %v", seed, g.Over(), g.EndReason(), g.Departures())
		}
		if g.Sheet(1).Crosses() <= crosses {
			t.Errorf("seed %d: the computer in ben's seat crossed nothing", seed)
		}
		if f := tb.Finished; len(f) != 1 || f[0].Result.Seats[1].UserID != "ben" {
			t.Errorf("seed %d: the result does not count for ben: %+v", seed, f)
		}
		if _, err := tb.PlayAgain("cleo"); err != nil {
			t.Fatal(err)
		}
		if len(tb.Seats) != 2 || tb.SeatOf("ben") >= 0 || tb.Seats[0].TakenOver() || tb.Seats[1].TakenOver() {
			t.Fatalf("seed %d: the next lobby seats %+v", seed, tb.Seats)
		}
	}
}

// RULES P2: the default for leavers changed from passes to a computer.
// Tables stored before kept "leaver_computer" (true where the host chose a
// computer, absent for the old default): both read as the computer, the
// new default; a host's choice of passes is stored and read back; and a
// stored game whose seat left with passes restores with its departure.
func TestP2StoredLeaverChoiceReadsBack(t *testing.T) {
	tb := lobby("anna")
	if err := tb.Join("ben", "ben"); err != nil {
		t.Fatal(err)
	}
	blob, err := tb.Encode()
	if err != nil {
		t.Fatal(err)
	}
	for _, old := range []string{`,"leaver_computer":true`, ""} {
		stored := bytes.Replace(blob, []byte(`"version":1`), []byte(`"version":1`+old), 1)
		if old != "" && !bytes.Contains(stored, []byte(old)) {
			t.Fatalf("could not store %q in %s", old, blob)
		}
		back, err := Decode(stored)
		if err != nil {
			t.Fatalf("%q: %v", old, err)
		}
		if back.LeaverPass {
			t.Errorf("a table stored with %q reads as passes", old)
		}
	}
	if err := tb.ToggleLeavers("anna"); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range tb.Seats {
		names = append(names, s.Name)
	}
	g, err := game.New(game.Config{Variant: game.Dice, Players: names, Seed: [32]byte{9}})
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.Begin(g, timing(t0)); err != nil {
		t.Fatal(err)
	}
	if _, err := tb.Leave("ben", "ben", timing(t0)); err != nil {
		t.Fatal(err)
	}
	// Leaving again, or being removed after leaving: not at the table.
	for _, by := range []string{"ben", "anna"} {
		if _, err := tb.Leave("ben", by, timing(t0)); !errors.Is(err, ErrNotSeated) {
			t.Fatalf("ben leaves again (asked by %s): %v", by, err)
		}
	}
	if blob, err = tb.Encode(); err != nil {
		t.Fatal(err)
	}
	back, err := Decode(blob)
	if err != nil {
		t.Fatal(err)
	}
	if !back.LeaverPass || !back.Seats[1].Left || !back.Game.HasLeft(1) {
		t.Fatalf("read back: passes %v, seat %+v, departures %v", back.LeaverPass, back.Seats[1], back.Game.Departures())
	}
}
