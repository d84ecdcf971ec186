package game

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// playLeaving plays a game of v in which the players in left leave when
// turn leaveTurn begins: from then on their seats make the timeout moves
// (P1, P2), the others random legal moves. It checks after every move
// that a left seat's misthrows stay as they were when it left while
// anybody still plays, and returns the game over with those counts.
func playLeaving(t *testing.T, v Variant, players int, s uint64, leaveTurn int, left []int) (*Game, []int) {
	t.Helper()
	g, err := New(Config{Variant: v, Players: names[:players], Seed: seed(s)})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(s, 7))
	atLeave := make([]int, players)
	gone := false
	for steps := 0; !g.Over(); steps++ {
		if steps > maxSteps {
			t.Fatalf("%s game with seed %d did not end in %d moves", v, s, maxSteps)
		}
		if !gone && g.Turn() == leaveTurn {
			for _, p := range left {
				if err := g.Leave(p); err != nil {
					t.Fatal(err)
				}
				atLeave[p] = g.Sheet(p).Misthrows
			}
			if err := g.Leave(left[0]); err != ErrLeft {
				t.Fatalf("leaving twice: %v", err)
			}
			gone = true
		}
		w := g.Waiting()
		p := w[r.IntN(len(w))]
		var m Move
		if g.HasLeft(p) {
			m, err = g.TimeoutMove(p)
			if err != nil {
				t.Fatal(err)
			}
		} else {
			legal := g.LegalMoves(p)
			m = legal[r.IntN(len(legal))]
		}
		if err := g.Apply(m); err != nil {
			t.Fatalf("move %v refused: %v", m, err)
		}
		if gone && len(left) < players {
			for _, q := range left {
				if n := g.Sheet(q).Misthrows; n != atLeave[q] {
					t.Fatalf("seed %d: the left seat %d took misthrow %d (P2)", s, q, n)
				}
			}
		}
	}
	return g, atLeave
}

// checkRecordKeepsDepartures replays the game's record and restores its
// snapshot: both come to the same game, departures included; and the
// turn summaries (Turns, ScoreSeries), replayed from the log, agree with
// the sheets.
func checkRecordKeepsDepartures(t *testing.T, g *Game) {
	t.Helper()
	if got, want := g.ScoreSeries().Final(), g.Scores(); !slices.Equal(got, want) {
		t.Fatalf("the score series ends at %v, the scores are %v", got, want)
	}
	for _, ts := range g.Turns() {
		if ts.Misthrow > g.Sheet(ts.Active).Misthrows {
			t.Fatalf("turn %d: the summary gives %s misthrow %d, the sheet has %d", ts.Turn, g.Players()[ts.Active], ts.Misthrow, g.Sheet(ts.Active).Misthrows)
		}
	}
	if err := g.CheckLog(); err != nil {
		t.Fatalf("the record does not replay to the game: %v", err)
	}
	js, err := json.Marshal(g.Record())
	if err != nil {
		t.Fatal(err)
	}
	rec, err := ParseRecord(js)
	if err != nil {
		t.Fatalf("the record does not parse: %v", err)
	}
	h, err := Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Departures()) != len(g.Departures()) || h.EndReason() != g.EndReason() {
		t.Fatalf("replayed: departures %v end %v, want %v %v", h.Departures(), h.EndReason(), g.Departures(), g.EndReason())
	}
	snap, err := g.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back, err := RestoreChecked(snap)
	if err != nil {
		t.Fatalf("restore: %v", err)
	}
	again, _ := back.MarshalBinary()
	if !bytes.Equal(again, snap) {
		t.Fatal("a restored game with departures differs")
	}
}

// RULES P2, D9, C9: one of three players leaves at turn 2 and nobody
// plays the seat: its passes cost no misthrow, so it never ends the game;
// the game ends by the rules of those who stayed (two locks, or a
// stayer's fourth misthrow), over many games of every variant. The record
// keeps the departure and replays to the same game.
func TestP2D9LeftSeatNeverEndsTheGame(t *testing.T) {
	for _, v := range []Variant{Dice, Cards, Jokers} {
		byLocks, byMisthrows := 0, 0
		for s := range uint64(40) {
			g, _ := playLeaving(t, v, 3, s, 2, []int{1})
			switch g.EndReason() {
			case EndMisthrows:
				byMisthrows++
				if g.Sheet(1).Misthrows >= MaxMisthrows {
					t.Fatalf("%s seed %d: the seat that left ended the game", v, s)
				}
			case EndLocks:
				byLocks++
			default:
				t.Fatalf("%s seed %d: not over", v, s)
			}
			checkRecordKeepsDepartures(t, g)
		}
		if byMisthrows == 0 {
			t.Errorf("%s: no game ended by a stayer's misthrows: the test proves little", v)
		}
		t.Logf("%s: %d games ended by locks, %d by a stayer's 4th misthrow", v, byLocks, byMisthrows)
	}
}

// RULES P2, D9: when every player has left, nobody stays for whom the
// game must go on: misthrows count again and the game ends as D9 and C9
// say, its seats playing the timeout moves.
func TestP2D9EveryoneLeftEndsAsEver(t *testing.T) {
	for _, v := range []Variant{Dice, Cards} {
		g, _ := playLeaving(t, v, 2, 5, 2, []int{0, 1})
		if !g.Over() {
			t.Fatal("not over")
		}
		checkRecordKeepsDepartures(t, g)
	}
}

// A record's departures are checked like its moves: a stranger, an order
// that goes back or a move count past the record are refused; a player
// who leaves twice too.
func TestP2RecordLeftRefusesNonsense(t *testing.T) {
	g, _ := playLeaving(t, Dice, 3, 1, 2, []int{1})
	base := g.Record()
	for _, tc := range []struct {
		name string
		left []RecordLeft
		want string
	}{
		{"stranger", []RecordLeft{{Player: "Zoe", After: 1}}, "not among the players"},
		{"past the end", []RecordLeft{{Player: base.Players[1], After: len(base.Moves) + 1}}, "past the last move"},
		{"backwards", []RecordLeft{{Player: base.Players[1], After: 4}, {Player: base.Players[0], After: 3}}, "out of order"},
		{"twice", []RecordLeft{{Player: base.Players[1], After: 3}, {Player: base.Players[1], After: 4}}, "already left"},
	} {
		rec := *base
		rec.Left = tc.left
		_, err := Replay(&rec)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// RULES P2, C10: that a seat left is public, in every view, and the games
// a computer player makes up from its view (Determinize) know it, so its
// play-outs do not end by the left seat's misthrows either.
func TestP2C10DepartureIsPublicAndDeterminized(t *testing.T) {
	g, err := New(Config{Variant: Cards, Players: names[:3], Seed: seed(4)})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Leave(2); err != nil {
		t.Fatal(err)
	}
	pub := g.Public()
	if !pub.Players[2].Left || pub.Players[0].Left || pub.Players[1].Left {
		t.Fatalf("public view's departures: %+v", pub.Players)
	}
	d, err := Determinize(g.Private(0), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	if !d.HasLeft(2) || d.HasLeft(0) || d.HasLeft(1) {
		t.Fatalf("the determinized game's departures: %v", d.Departures())
	}
}
