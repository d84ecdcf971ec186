package game

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// diceGame starts a dice game with n players, player first active and the
// given dice, optionally with preset sheets.
func diceGame(t *testing.T, n, first int, dice [6]int, sheets map[int]Sheet) *Game {
	t.Helper()
	g := newGame(Dice, names[:n], seed(7))
	g.st.Script = &script{Rolls: [][6]int{dice}}
	g.setup(first, nil)
	for p, s := range sheets {
		g.st.Sheets[p] = s
	}
	return g
}

func mustApply(t *testing.T, g *Game, ms ...Move) {
	t.Helper()
	for _, m := range ms {
		if err := g.Apply(m); err != nil {
			t.Fatalf("apply %v: %v", m, err)
		}
	}
}

func mustRefuse(t *testing.T, g *Game, m Move, want Reason) {
	t.Helper()
	before, _ := g.MarshalBinary()
	err := g.Apply(m)
	if reason(err) != want {
		t.Fatalf("apply %v: got %v (reason %d), want reason %d", m, err, reason(err), want)
	}
	after, _ := g.MarshalBinary()
	if string(before) != string(after) {
		t.Fatalf("refused move %v changed the game", m)
	}
}

func fullRow(c Color, k int) []int {
	out := make([]int, k)
	for i := range out {
		out[i] = NumberAt(c, i)
	}
	return out
}

// D1, C2: 2–5 players; one sheet only in the solo dice game.
func TestD1PlayerCount(t *testing.T) {
	for _, v := range []Variant{Dice, Cards, Jokers} {
		for n := 0; n <= 6; n++ {
			_, err := New(Config{Variant: v, Players: append([]string{}, []string{"a", "b", "c", "d", "e", "f"}[:n]...)})
			if ok := n >= 2 && n <= 5 || v == Dice && n == 1; (err == nil) != ok {
				t.Errorf("%v, %d players: err=%v, want ok=%v", v, n, err, ok)
			}
		}
	}
	if _, err := New(Config{Variant: Dice, Players: []string{"a", "a"}}); err == nil {
		t.Error("two players with one name must be refused")
	}
}

func TestD2FirstPlayerRandomThenClockwise(t *testing.T) {
	seen := map[int]bool{}
	for s := uint64(0); s < 100; s++ {
		g, err := New(Config{Variant: Dice, Players: names[:4], Seed: seed(s)})
		if err != nil {
			t.Fatal(err)
		}
		seen[g.Active()] = true
	}
	if len(seen) != 4 {
		t.Errorf("first players over 100 seeds: %v, want all 4 seats", seen)
	}
	g := diceGame(t, 3, 2, [6]int{1, 1, 1, 1, 1, 1}, nil)
	var order []int
	for range 4 {
		order = append(order, g.Active())
		mustApply(t, g, PassMove(0), PassMove(1), PassMove(2), PassMove(g.Active()))
	}
	if want := []int{2, 0, 1, 2}; !slices.Equal(order, want) {
		t.Errorf("turn order %v, want %v", order, want)
	}
}

func TestD3RollDiceStillInPlay(t *testing.T) {
	g := diceGame(t, 2, 0, [6]int{3, 3, 1, 1, 1, 1}, nil)
	g.closeRow(Blue)
	mustApply(t, g, PassMove(0), PassMove(1), PassMove(0))
	for range 50 {
		d := g.Dice()
		for i, x := range d {
			if want := i != DieOf(Blue); (x >= 1 && x <= 6) != want {
				t.Fatalf("dice %v: die %d in play=%v", d, i, want)
			}
		}
		mustApply(t, g, PassMove(0), PassMove(1))
		if g.Over() {
			break
		}
		mustApply(t, g, PassMove(g.Active()))
		if g.Over() {
			break
		}
	}
}

func TestD4ActionOneEverybodySimultaneous(t *testing.T) {
	g := diceGame(t, 3, 0, [6]int{2, 4, 1, 1, 1, 1}, map[int]Sheet{
		1: sheetWith(t, map[Color][]int{Red: {7}}),
	})
	// Everybody, active player included, may cross 6 (or pass); Ben's red is past 6.
	if got := g.Waiting(); !slices.Equal(got, []int{0, 1, 2}) {
		t.Fatalf("waiting %v, want everybody", got)
	}
	mustRefuse(t, g, WhiteMove(1, Red), ReasonLeftOfLast)
	mustApply(t, g, WhiteMove(1, Yellow))
	// Ben's choice is hidden until everybody has decided.
	if g.Sheet(1).Rows[Yellow] != 0 {
		t.Fatal("a choice was applied before action 1 resolved")
	}
	pv := g.Public()
	if !pv.Players[1].Decided || pv.Players[0].Decided {
		t.Fatal("public view must show who decided, and only them")
	}
	// Ben may change his mind until the action resolves (P4); the same
	// choice again is no change.
	mustApply(t, g, WhiteMove(1, Green), WhiteMove(1, Yellow))
	mustRefuse(t, g, WhiteMove(1, Yellow), ReasonAlreadyDecided)
	mustApply(t, g, WhiteMove(2, Red), WhiteMove(0, Blue))
	if !g.Sheet(1).Rows[Yellow].Crossed(Position(Yellow, 6)) || !g.Sheet(2).Rows[Red].Crossed(Position(Red, 6)) || !g.Sheet(0).Rows[Blue].Crossed(Position(Blue, 6)) {
		t.Fatal("action 1 crosses were not applied together")
	}
	if g.Phase() != PhaseColor || !slices.Equal(g.Waiting(), []int{0}) {
		t.Fatalf("after action 1: phase %s waiting %v, want action 2 for the active player", g.Phase(), g.Waiting())
	}
}

// D5: red 5 crossed in action 1, then red 7 in action 2 is allowed, red 4 is not.
func TestD5ActionTwoAfterOwnActionOne(t *testing.T) {
	// Whites 2 and 3 (sum 5), red 4: white 2 + red makes 6, white 3 + red 7.
	g := diceGame(t, 2, 0, [6]int{2, 3, 4, 1, 1, 1}, nil)
	mustApply(t, g, WhiteMove(0, Red), PassMove(1))
	mustApply(t, g, ColoredMove(0, 2, Red))
	if r := g.Sheet(0).Rows[Red]; !r.Crossed(Position(Red, 5)) || !r.Crossed(Position(Red, 7)) {
		t.Fatalf("red row %b, want 5 and 7 crossed", r)
	}
	if g.Sheet(0).Misthrows != 0 {
		t.Fatal("crossing in action 1 and 2 is no misthrow")
	}

	// Whites 2 and 3, red 2: white 1 + red = 4 is left of the red 5 just crossed.
	g = diceGame(t, 2, 0, [6]int{2, 3, 2, 1, 1, 1}, nil)
	mustApply(t, g, WhiteMove(0, Red), PassMove(1))
	mustRefuse(t, g, ColoredMove(0, 1, Red), ReasonLeftOfLast)
	mustRefuse(t, g, ColoredMove(0, 2, Red), ReasonAlreadyCrossed)
	if slices.ContainsFunc(g.LegalMoves(0), func(m Move) bool { return m.Kind == Colored && m.Color == Red }) {
		t.Fatal("legal moves offer a red action 2 left of the action-1 cross")
	}
	// Only the active player acts in action 2.
	mustRefuse(t, g, ColoredMove(1, 1, Yellow), ReasonNotYourTurn)
	mustRefuse(t, g, ColoredMove(0, 3, Yellow), ReasonBadWhiteDie)
}

func TestD6MisthrowOnlyForActivePlayerWhoCrossedNothing(t *testing.T) {
	tests := []struct {
		name      string
		a1        Move
		a2        Move
		misthrows int
	}{
		{"passes both", PassMove(0), PassMove(0), 1},
		{"crosses in action 1 only", WhiteMove(0, Red), PassMove(0), 0},
		{"crosses in action 2 only", PassMove(0), ColoredMove(0, 1, Blue), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := diceGame(t, 3, 0, [6]int{1, 2, 3, 4, 5, 6}, nil)
			mustApply(t, g, tt.a1, PassMove(1), PassMove(2), tt.a2)
			if got := g.Sheet(0).Misthrows; got != tt.misthrows {
				t.Errorf("active player misthrows = %d, want %d", got, tt.misthrows)
			}
			for p := 1; p < 3; p++ {
				if g.Sheet(p).Misthrows != 0 {
					t.Errorf("non-active player %d got a misthrow", p)
				}
			}
		})
	}
	// Nobody may take a misthrow voluntarily: there is no such move.
	g := diceGame(t, 2, 0, [6]int{1, 2, 3, 4, 5, 6}, nil)
	for _, m := range g.LegalMoves(0) {
		if m.Kind != Pass && m.Kind != White {
			t.Errorf("unexpected action-1 move %v", m)
		}
	}
}

// D7: two players lock red at once in action 1: both get the lock cross, and
// it is one locked row, so the game goes on.
func TestD7SimultaneousLockIsOneRow(t *testing.T) {
	five := sheetWith(t, map[Color][]int{Red: fullRow(Red, 5)})
	four := sheetWith(t, map[Color][]int{Red: fullRow(Red, 4)})
	g := diceGame(t, 3, 0, [6]int{6, 6, 1, 1, 1, 1}, map[int]Sheet{0: five, 1: five, 2: four})
	mustRefuse(t, g, WhiteMove(2, Red), ReasonNeedFive)
	mustApply(t, g, WhiteMove(0, Red), WhiteMove(1, Red), PassMove(2))
	for p := range 2 {
		if r := g.Sheet(p).Rows[Red]; !r.Locked() || r.Count() != 7 {
			t.Errorf("player %d: red row %b, want 5 + 12 + lock", p, r)
		}
	}
	if g.Over() {
		t.Fatal("one row locked by two players is one locked row: the game goes on")
	}
	if !g.Closed(Red) || g.Dice()[DieOf(Red)] != 0 {
		t.Fatal("red must be closed and its die gone")
	}
	// D8: the red die is gone for action 2 of this very turn.
	mustRefuse(t, g, ColoredMove(0, 1, Red), ReasonDieGone)
	mustApply(t, g, PassMove(0))
	// Nobody may cross red afterwards, not even with 5 crosses.
	mustRefuse(t, g, WhiteMove(2, Red), ReasonRowClosed)
}

func TestD7LockInActionTwoClosesRowForEverybody(t *testing.T) {
	g := diceGame(t, 2, 0, [6]int{1, 1, 1, 1, 1, 1}, map[int]Sheet{
		0: sheetWith(t, map[Color][]int{Blue: fullRow(Blue, 5)}),
	})
	mustApply(t, g, PassMove(0), PassMove(1), ColoredMove(0, 1, Blue))
	if !g.Sheet(0).Rows[Blue].Locked() || !g.Closed(Blue) || g.Over() {
		t.Fatal("blue 2 in action 2 must lock blue for everybody, game goes on")
	}
	if g.Dice()[DieOf(Blue)] != 0 {
		t.Fatal("the blue die must leave the game")
	}
	for _, m := range g.LegalMoves(1) {
		if m.Color == Blue && m.Kind != Pass {
			t.Fatalf("blue offered after the lock: %v", m)
		}
	}
}

// D9, the rulebook example: green already closed; Emma rolls 6+6; Max locks
// red and Linus locks yellow in the same action 1: the game is over at once,
// with three rows locked, and action 2 is not played.
func TestD9SecondAndThirdLockInActionOneEndsWithoutActionTwo(t *testing.T) {
	players := []string{"Emma", "Max", "Linus"}
	g := newGame(Dice, players, seed(1))
	g.st.Script = &script{Rolls: [][6]int{{6, 6, 1, 1, 0, 1}}}
	g.st.Closed[Green] = true
	g.setup(0, nil)
	g.st.Sheets[1] = sheetWith(t, map[Color][]int{Red: fullRow(Red, 5)})
	g.st.Sheets[2] = sheetWith(t, map[Color][]int{Yellow: fullRow(Yellow, 6)})
	mustApply(t, g, PassMove(0), WhiteMove(1, Red), WhiteMove(2, Yellow))
	if !g.Over() || g.EndReason() != EndLocks {
		t.Fatalf("game must be over by locks, phase %s", g.Phase())
	}
	if !g.Closed(Red) || !g.Closed(Yellow) || !g.Closed(Green) {
		t.Fatal("red and yellow must be locked together with green")
	}
	mustRefuse(t, g, PassMove(0), ReasonGameOver)
	if g.Sheet(0).Misthrows != 0 {
		t.Fatal("the game ended before action 2: no misthrow for Emma")
	}
}

func TestD9EndChecksImmediately(t *testing.T) {
	t.Run("second lock in action 2", func(t *testing.T) {
		g := diceGame(t, 2, 0, [6]int{1, 1, 1, 1, 1, 1}, map[int]Sheet{
			0: sheetWith(t, map[Color][]int{Blue: fullRow(Blue, 5)}),
		})
		g.closeRow(Red)
		g.st.Dice[DieOf(Red)] = 0
		mustApply(t, g, PassMove(0), PassMove(1), ColoredMove(0, 1, Blue))
		if !g.Over() || g.EndReason() != EndLocks {
			t.Fatal("the second locked row ends the game at once")
		}
		if g.Turn() != 1 {
			t.Fatalf("no new turn after the end, turn = %d", g.Turn())
		}
	})
	t.Run("fourth misthrow", func(t *testing.T) {
		s := Sheet{Misthrows: 3}
		g := diceGame(t, 2, 0, [6]int{1, 1, 1, 1, 1, 1}, map[int]Sheet{0: s})
		mustApply(t, g, PassMove(0), PassMove(1), PassMove(0))
		if !g.Over() || g.EndReason() != EndMisthrows || g.Sheet(0).Misthrows != 4 {
			t.Fatalf("fourth misthrow must end the game: over=%v misthrows=%d", g.Over(), g.Sheet(0).Misthrows)
		}
	})
	t.Run("one lock does not end", func(t *testing.T) {
		g := diceGame(t, 2, 0, [6]int{1, 1, 1, 1, 1, 1}, map[int]Sheet{
			0: sheetWith(t, map[Color][]int{Blue: fullRow(Blue, 5)}),
		})
		mustApply(t, g, PassMove(0), PassMove(1), ColoredMove(0, 1, Blue))
		if g.Over() {
			t.Fatal("one locked row does not end the game")
		}
	})
}

func TestD10P3SharedWin(t *testing.T) {
	tests := []struct {
		scores []int
		want   []int
	}{
		{[]int{10, 20, 5}, []int{1}},
		{[]int{20, 20, 5}, []int{0, 1}},
		{[]int{-5, -5}, []int{0, 1}},
		{[]int{3, 1, 3, 3}, []int{0, 2, 3}},
	}
	for _, tt := range tests {
		if got := Winners(tt.scores); !slices.Equal(got, tt.want) {
			t.Errorf("Winners(%v) = %v, want %v", tt.scores, got, tt.want)
		}
	}
}

func TestD11Match(t *testing.T) {
	if _, err := NewMatch(names[:2], 6); err == nil {
		t.Error("a match of 6 games must be refused")
	}
	m, err := NewMatch(names[:3], 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range [][]int{{10, 20, 30}, {40, 5, 10}, {0, 25, 5}} {
		if err := m.Add(sc); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := m.Totals(), []int{50, 50, 45}; !slices.Equal(got, want) {
		t.Errorf("totals %v, want %v", got, want)
	}
	if !slices.Equal(m.Leaders(), []int{0, 1}) || !m.Done() {
		t.Errorf("leaders %v done %v", m.Leaders(), m.Done())
	}
	if err := m.Add([]int{1, 2, 3}); err == nil {
		t.Error("a complete match must refuse more games")
	}
	g := playRandom(t, Dice, 2, 3, nil)
	m2, _ := NewMatch(names[:2], 2)
	if err := m2.AddGame(g); err != nil || !slices.Equal(m2.Totals(), g.Scores()) {
		t.Errorf("AddGame: %v, totals %v want %v", err, m2.Totals(), g.Scores())
	}
}

func TestMoveErrorIs(t *testing.T) {
	g := diceGame(t, 2, 0, [6]int{1, 1, 1, 1, 1, 1}, nil)
	mustApply(t, g, PassMove(0))
	err := g.Apply(PassMove(0))
	if !errors.Is(err, &MoveError{Reason: ReasonAlreadyDecided}) {
		t.Fatalf("errors.Is by reason fails: %v", err)
	}
	if err := g.Apply(Move{Player: 9, Kind: Pass}); reason(err) != ReasonNoSuchPlayer {
		t.Fatalf("unknown seat: %v", err)
	}
	if err := g.Apply(TakeMove(1, 3)); reason(err) != ReasonWrongAction {
		t.Fatalf("card move in a dice game: %v", err)
	}
}

// D8: a row locked in action 1 cannot be used in action 2 of the same turn,
// even by the active player who did not lock it, and legal moves never offer it.
func TestD8RowLockedInActionOneGoneForActionTwo(t *testing.T) {
	g := diceGame(t, 2, 0, [6]int{1, 1, 1, 1, 5, 1}, map[int]Sheet{
		1: sheetWith(t, map[Color][]int{Green: fullRow(Green, 5)}),
	})
	// Ben locks green with the white sum 2; Anna, active, could have crossed
	// green 6 (white 1 + green 5) in action 2, but the green die is gone.
	mustApply(t, g, PassMove(0), WhiteMove(1, Green))
	mustRefuse(t, g, ColoredMove(0, 1, Green), ReasonDieGone)
	for _, m := range g.LegalMoves(0) {
		if m.Kind == Colored && m.Color == Green {
			t.Fatalf("legal moves offer the gone green die: %v", m)
		}
	}
}

// P2: a player who left is replaced by passes (TimeoutMove); the game still
// ends and their sheet still scores.
func TestP2LeaverReplacedByPasses(t *testing.T) {
	for _, v := range []Variant{Dice, Cards, Jokers} {
		g, err := New(Config{Variant: v, Players: names[:3], Seed: seed(9)})
		if err != nil {
			t.Fatal(err)
		}
		const gone = 1
		for steps := 0; !g.Over(); steps++ {
			if steps > maxSteps {
				t.Fatalf("%s: game with a leaver stalled", v)
			}
			p := g.Waiting()[0]
			var m Move
			if p == gone {
				m, err = g.TimeoutMove(p)
				if err != nil {
					t.Fatal(err)
				}
			} else {
				ms := g.LegalMoves(p)
				m = ms[len(ms)-1]
			}
			before := g.Sheet(gone).Crosses()
			mustApply(t, g, m)
			if p == gone && g.Sheet(gone).Crosses() != before {
				t.Fatalf("%s: a replacement move crossed something", v)
			}
		}
		if len(g.Scores()) != 3 || g.Scores()[gone] != g.Sheet(gone).Score() {
			t.Fatalf("%s: the leaver's sheet must still score", v)
		}
	}
}

// P4: a decided player may change their choice until the action resolves;
// the last choice counts, in the game and in its record's replay.
func TestP4ChoiceChangedUntilTheActionResolves(t *testing.T) {
	g := diceGame(t, 3, 0, [6]int{3, 3, 1, 1, 1, 1}, nil)
	mustApply(t, g, WhiteMove(1, Red))
	if m, ok := g.Decision(1); !ok || m.Kind != White || m.Color != Red {
		t.Fatalf("Ben's decision %v %v", m, ok)
	}
	if _, ok := g.Decision(0); ok {
		t.Fatal("Anna has no decision yet")
	}
	if ch := g.Choices(1); len(ch) == 0 || len(g.LegalMoves(1)) != 0 {
		t.Fatalf("a decided player has %d choices to change to and %d legal moves", len(ch), len(g.LegalMoves(1)))
	}
	mustApply(t, g, PassMove(1), WhiteMove(1, Blue))
	mustRefuse(t, g, WhiteMove(1, Blue), ReasonAlreadyDecided)
	mustApply(t, g, PassMove(0), PassMove(2))
	if g.Phase() != PhaseColor {
		t.Fatalf("the action did not resolve: %v", g.Phase())
	}
	sh := g.Sheet(1)
	if sh.Rows[Red] != 0 || !sh.Rows[Blue].Crossed(Position(Blue, 6)) {
		t.Fatalf("Ben's last choice (blue 6) is not the one applied: %+v", sh.Rows)
	}
	// Resolved: no more changes.
	if err := g.Apply(WhiteMove(1, Red)); err == nil {
		t.Fatal("a change after the action resolved was taken")
	}
	h, err := Replay(g.Record())
	if err != nil || !slices.Equal(h.Scores(), g.Scores()) || h.Sheet(1) != g.Sheet(1) {
		t.Fatalf("the record does not replay the changes: %v", err)
	}
}

// P4 with the turns after it: a changed choice in action 1 leaves every
// later colour move's sum in the record, the turn summaries and the log
// check right (they counted one move per player and action).
func TestP4ChangedChoiceKeepsTheRecordInStep(t *testing.T) {
	for seed := range 30 {
		g, err := New(Config{Variant: Dice, Players: []string{"A", "B", "C"}, Seed: [32]byte{byte(seed), 4}})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(seed), 9))
		changes := 0
		for moves := 0; !g.Over() && moves < 400; moves++ {
			w := g.Waiting()
			p := w[rng.IntN(len(w))]
			legal := g.LegalMoves(p)
			mustApply(t, g, legal[rng.IntN(len(legal))])
			// Now and then somebody who decided changes their mind.
			if g.Phase() == PhaseWhite && rng.IntN(3) == 0 {
				for q := range g.NumPlayers() {
					if _, ok := g.Decision(q); ok {
						ch := g.Choices(q)
						if m := ch[rng.IntN(len(ch))]; g.Check(m) == nil {
							mustApply(t, g, m)
							changes++
						}
						break
					}
				}
			}
		}
		if changes == 0 {
			continue
		}
		if err := g.CheckLog(); err != nil {
			t.Fatalf("seed %d, %d changes: %v", seed, changes, err)
		}
		rec := g.Record()
		for i, rm := range rec.Moves {
			if rm.Action == "color" && rm.Sum == 0 {
				t.Fatalf("seed %d: colour move %d without its sum", seed, i)
			}
		}
		var finished int
		for _, ts := range g.Turns() {
			if ts.Finished {
				finished++
			}
		}
		if finished < g.Turn()-1 {
			t.Fatalf("seed %d: %d finished turn summaries at turn %d", seed, finished, g.Turn())
		}
	}
}
