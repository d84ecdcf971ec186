package game

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// seriesOracle replays rec step by step and notes, at the end of every
// turn, the sheets as they stand: the totals, and the events read off the
// sheets (a row whose lock became crossed, a misthrow count that rose). It
// also returns the game as replayed.
func seriesOracle(t *testing.T, rec *Record) (totals [][]int, events []ScoreEvent, g *Game) {
	t.Helper()
	r, err := NewReplayer(rec)
	if err != nil {
		t.Fatal(err)
	}
	g = r.Game()
	n := g.NumPlayers()
	totals = make([][]int, n)
	for p := range totals {
		totals[p] = []int{0}
	}
	prev := make([]Sheet, n)
	snapshot := func(turn int) {
		for p := range n {
			sh := g.Sheet(p)
			totals[p] = append(totals[p], sh.Score())
			for _, c := range Colors {
				if sh.Rows[c].Locked() && !prev[p].Rows[c].Locked() {
					events = append(events, ScoreEvent{Turn: turn, Player: p, Kind: EventLock, Color: c})
				}
			}
			if sh.Misthrows > prev[p].Misthrows {
				events = append(events, ScoreEvent{Turn: turn, Player: p, Kind: EventMisthrow, Misthrow: sh.Misthrows})
			}
			prev[p] = sh
		}
	}
	for !r.Done() {
		turn := g.Turn()
		if err := r.Step(); err != nil {
			t.Fatal(err)
		}
		if g.Turn() != turn || g.Over() {
			snapshot(turn)
		}
	}
	return totals, events, g
}

// sameEvents compares events as sets per turn: the series lists a turn's
// locks in table order, the oracle by seat and row.
func sameEvents(a, b []ScoreEvent) bool {
	count := map[ScoreEvent]int{}
	for _, e := range a {
		count[e]++
	}
	for _, e := range b {
		count[e]--
	}
	for _, c := range count {
		if c != 0 {
			return false
		}
	}
	return len(a) == len(b)
}

func checkSeries(t *testing.T, name string, rec *Record) ScoreSeries {
	t.Helper()
	totals, events, g := seriesOracle(t, rec)
	s := g.ScoreSeries()
	if s.Partial {
		// Only a stopped game's unfinished turn may be partial.
		for p := range totals {
			totals[p] = append(totals[p], g.Sheet(p).Score())
		}
	}
	if !reflect.DeepEqual(s.Totals, totals) {
		t.Errorf("%s: totals\n got %v\nwant %v", name, s.Totals, totals)
	}
	if !sameEvents(s.Events, events) {
		t.Errorf("%s: events\n got %v\nwant %v", name, s.Events, events)
	}
	if got, want := s.Final(), g.Scores(); !reflect.DeepEqual(got, want) {
		t.Errorf("%s: last point %v, final scores %v", name, got, want)
	}
	for i := 1; i < len(s.Events); i++ {
		if s.Events[i].Turn < s.Events[i-1].Turn {
			t.Errorf("%s: events out of turn order: %v", name, s.Events)
		}
	}
	return s
}

// TestScoreSeriesS4RecordsTotalsPerTurn: replaying the example records, the
// series' totals are the sheets' totals (S4) at the end of every turn, the
// last point is the final score, and the events are exactly the turns in
// which a sheet's lock became crossed (S3) or its misthrow count rose (D6,
// C7).
func TestScoreSeriesS4RecordsTotalsPerTurn(t *testing.T) {
	for _, name := range []string{"turns-dice.json", "turns-dice-locks.json", "turns-five.json", "turns-cards.json", "turns-jokers.json", "dice-short.json"} {
		rec := loadRecord(t, name)
		checkSeries(t, name, rec)
	}
}

// TestScoreSeriesD7D9LocksEndTheGame: in turns-dice-locks.json Anna locks red
// in action 1 and Ben yellow in action 2 of turn 6, which ends the game
// (D7, D9); the misthrow of turn 5 is the chart's only ✕ of the game (D6).
func TestScoreSeriesD7D9LocksEndTheGame(t *testing.T) {
	s := checkSeries(t, "turns-dice-locks.json", loadRecord(t, "turns-dice-locks.json"))
	if s.Turns() != 6 || s.Partial {
		t.Fatalf("turns %d, partial %v; want 6 finished turns", s.Turns(), s.Partial)
	}
	var locks []ScoreEvent
	misthrows := 0
	for _, e := range s.Events {
		switch e.Kind {
		case EventLock:
			locks = append(locks, e)
		case EventMisthrow:
			misthrows++
		}
	}
	want := []ScoreEvent{{Turn: 6, Player: 0, Kind: EventLock, Color: Red}, {Turn: 6, Player: 1, Kind: EventLock, Color: Yellow}}
	if !reflect.DeepEqual(locks, want) {
		t.Errorf("locks %v, want %v", locks, want)
	}
	if misthrows == 0 {
		t.Error("no misthrow event, but the record has one (D6)")
	}
}

// TestScoreSeriesD7TwoPlayersLockOneRow: both players lock red with the
// same white sum (D7): two lock events in the same turn.
func TestScoreSeriesD7TwoPlayersLockOneRow(t *testing.T) {
	s := checkSeries(t, "same row", sameRowLockRecord(t))
	n := 0
	for _, e := range s.Events {
		if e.Kind == EventLock {
			n++
			if e.Turn != 6 || e.Color != Red {
				t.Errorf("lock event %+v, want turn 6, red", e)
			}
		}
	}
	if n != 2 {
		t.Errorf("%d lock events, want 2", n)
	}
}

// TestScoreSeriesD6C7D9C9RandomGames plays whole random games of every
// variant and size and checks the series against the replayed sheets: totals
// at every turn (S4), misthrows exactly when the count rises (D6, C7), locks
// exactly when rows lock (S3, D7, C8), and the last point is the final
// score of a game ended by D9 or C9.
func TestScoreSeriesD6C7D9C9RandomGames(t *testing.T) {
	kinds := map[ScoreEventKind]int{}
	for _, v := range []Variant{Dice, Cards, Jokers} {
		for n := MinPlayers; n <= MaxPlayers; n++ {
			for sd := uint64(1); sd <= 3; sd++ {
				g := playRandom(t, v, n, sd*7+uint64(n), nil)
				s := checkSeries(t, fmt.Sprintf("%v/%d/%d", v, n, sd), g.Record())
				if s.Partial || s.Turns() != g.Turn() {
					t.Errorf("%v/%d/%d: %d turns (partial %v), the game had %d", v, n, sd, s.Turns(), s.Partial, g.Turn())
				}
				for _, e := range s.Events {
					kinds[e.Kind]++
				}
			}
		}
	}
	if kinds[EventLock] == 0 || kinds[EventMisthrow] == 0 {
		t.Errorf("events seen %v: the games should have both kinds", kinds)
	}
}

// TestScoreSeriesStoppedGame: a game stopped at any step (the bot's /qwixx
// end) has a series whose last point is the sheets as they stand, with a
// partial point only for an unfinished turn that already crossed numbers.
func TestScoreSeriesStoppedGame(t *testing.T) {
	partial := 0
	for _, v := range []Variant{Dice, Jokers} {
		full := playRandom(t, v, 3, 11, nil).Record()
		r := rand.New(rand.NewPCG(5, 6))
		for range 12 {
			rec := *full
			rec.Moves = full.Moves[:r.IntN(len(full.Moves))]
			s := checkSeries(t, fmt.Sprintf("%v stopped after %d moves", v, len(rec.Moves)), &rec)
			if s.Partial {
				partial++
			}
		}
	}
	if partial == 0 {
		t.Error("no stopped game had a partial turn; the test does not reach that case")
	}
}
