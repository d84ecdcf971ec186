package game

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// compactRecord builds a record from moves written as "Anna white red",
// "Ben color yellow 1" (the white die), "Ben pass", "Ben take 5 9",
// "Anna number green", "Ben play red R4 R5 / 4 5".
func compactRecord(t *testing.T, v Variant, players []string, first string, rolls [][6]int, moves ...string) *Record {
	t.Helper()
	rec := &Record{Format: RecordFormat, Version: RecordVersion, Variant: v.String(), Players: players, First: first, Rolls: rolls}
	for _, s := range moves {
		f := strings.Fields(s)
		rm := RecordMove{Player: f[0], Action: f[1]}
		switch rm.Action {
		case "white", "number":
			rm.Row = f[2]
		case "color":
			rm.Row = f[2]
			rm.White, _ = strconv.Atoi(f[3])
		case "take":
			for _, x := range f[2:] {
				n, _ := strconv.Atoi(x)
				rm.Take = append(rm.Take, n)
			}
		case "play":
			rm.Row = f[2]
			crossing := false
			for _, x := range f[3:] {
				switch {
				case x == "/":
					crossing = true
				case crossing:
					n, _ := strconv.Atoi(x)
					rm.Cross = append(rm.Cross, n)
				default:
					rm.Cards = append(rm.Cards, x)
				}
			}
		}
		rec.Moves = append(rec.Moves, rm)
	}
	return rec
}

func mustReplay(t *testing.T, rec *Record) *Game {
	t.Helper()
	g, err := Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// sameRowLockRecord: Anna and Ben cross the white sum in red every turn,
// 2, 3, 4, 5, 6, then both lock red with 6+6 in the same action 1 (D7); the
// game goes on without the red die.
func sameRowLockRecord(t *testing.T) *Record {
	rolls := [][6]int{{1, 1, 1, 1, 1, 1}, {1, 2, 1, 1, 1, 1}, {2, 2, 1, 1, 1, 1}, {2, 3, 1, 1, 1, 1}, {3, 3, 1, 1, 1, 1}, {6, 6, 5, 1, 1, 1}, {1, 1, 3, 1, 1, 1}}
	var moves []string
	for turn := range 6 {
		active := []string{"Anna", "Ben"}[turn%2]
		moves = append(moves, "Ben white red", "Anna white red", active+" pass")
	}
	return compactRecord(t, Dice, []string{"Anna", "Ben"}, "Anna", rolls, moves...)
}

// secondLockInActionOneRecord is turns-dice-locks.json up to its turn 6,
// where Anna locks red and Ben yellow in the same action 1 (D9).
func secondLockInActionOneRecord(t *testing.T) *Record {
	rec := loadRecord(t, "turns-dice-locks.json")
	rec.Moves = rec.Moves[:len(rec.Moves)-3]
	rec.Moves = append(rec.Moves,
		RecordMove{Player: "Ben", Action: "white", Row: "yellow"},
		RecordMove{Player: "Anna", Action: "white", Row: "red"})
	return rec
}

func TestTurnsScripted(t *testing.T) {
	dice := mustReplay(t, loadRecord(t, "turns-dice.json")).Turns()
	locks := mustReplay(t, loadRecord(t, "turns-dice-locks.json")).Turns()
	sameRow := mustReplay(t, sameRowLockRecord(t)).Turns()
	second := mustReplay(t, secondLockInActionOneRecord(t)).Turns()
	cards := mustReplay(t, loadRecord(t, "turns-cards.json")).Turns()
	jokers := mustReplay(t, loadRecord(t, "turns-jokers.json")).Turns()
	pass := func(a, p int) Decision { return Decision{Action: a, Player: p, Kind: Pass} }
	cross := func(a, p int, k Kind, c Color, n ...int) Decision {
		return Decision{Action: a, Player: p, Kind: k, Color: c, Crossed: n}
	}
	tests := []struct {
		name string
		got  any
		want any
	}{
		{"D2 D3 turn, active player and the dice rolled", []any{dice[0].Turn, dice[0].Active, dice[0].Dice, dice[0].Finished}, []any{1, 1, [6]int{3, 3, 4, 6, 2, 1}, true}},
		// Clicked Chloé, Anna, Ben; listed from the active player Ben.
		{"D4 action 1 listed by seat from the active player, not by click", dice[0].Decisions[:3],
			[]Decision{pass(1, 1), cross(1, 2, White, Blue, 6), cross(1, 0, White, Red, 6)}},
		{"D5 action 2 names the white die and the coloured die", dice[0].Decisions[3],
			Decision{Action: 2, Player: 1, Kind: Colored, Color: Yellow, Crossed: []int{9}, WhiteDie: 1, Sum: [2]int{3, 6}}},
		{"D6 misthrow of the active player who crossed nothing", []int{dice[0].Misthrow, dice[1].Misthrow}, []int{0, 1}},
		{"D4 unrevealed action-1 choices of the current turn stay hidden", []any{len(dice), dice[2].Finished, len(dice[2].Decisions), dice[2].Dice},
			[]any{3, false, 0, [6]int{5, 6, 2, 3, 4, 5}}},
		{"D6 misthrows count up on the sheet (2/4)", locks[4].Misthrow, 1},
		{"D7 lock in action 1 crosses the number and the lock", locks[5].Decisions[1],
			Decision{Action: 1, Player: 0, Kind: White, Color: Red, Crossed: []int{12}, Locked: true}},
		{"D7 D9 locks in both actions end the game", []any{locks[5].Locks, locks[5].End, locks[5].EndedBy, len(locks)},
			[]any{[]Lock{{0, Red, 1}, {1, Yellow, 2}}, EndLocks, []int{0, 1}, 6}},
		{"D7 two players lock the same row at once (listed from the active Ben)", sameRow[5].Locks, []Lock{{1, Red, 1}, {0, Red, 1}}},
		{"D7 D3 the locked row's die has left the game", []any{sameRow[6].Dice, sameRow[5].End, sameRow[6].Finished}, []any{[6]int{1, 1, 0, 1, 1, 1}, NotOver, false}},
		{"D9 second lock in action 1: no action 2", []any{len(second[5].Decisions), second[5].Locks, second[5].End, second[5].EndedBy},
			[]any{2, []Lock{{1, Yellow, 1}, {0, Red, 1}}, EndLocks, []int{0, 1}}},
		{"C4 C5 took and the number for everyone", []any{cards[0].Took, cards[0].Number, cards[2].Took, cards[2].Number}, []any{[]int{9}, 7, []int{5, 7}, 9}},
		{"C4 C5 C6 decisions in action order, action 2 by seat from the active player", cards[0].Decisions, []Decision{
			{Action: 1, Player: 1, Kind: Take, Took: []int{9}},
			pass(2, 1),
			cross(2, 0, Number, Green, 7),
			{Action: 3, Player: 1, Kind: Play, Color: Red, Crossed: []int{4, 5}, Cards: []PlayedCard{{4, false, Red}, {5, false, Red}}},
		}},
		{"C6 played cards in row order (blue runs 12 to 2)", cards[2].Decisions[3].Cards, []PlayedCard{{12, false, Blue}, {11, false, Blue}}},
		{"C7 misthrow after crossing nothing in actions 2 and 3", []int{cards[0].Misthrow, cards[1].Misthrow}, []int{0, 1}},
		{"C5 C10 the current turn shows the take and the number, not the unrevealed choices", []any{cards[3].Finished, cards[3].Took, cards[3].Number, len(cards[3].Decisions)},
			[]any{false, []int{3}, 6, 1}},
		{"C1 C6 a joker is shown as the colour it was played as", jokers[0].Decisions[4], Decision{Action: 3, Player: 0, Kind: Play, Color: Red, Crossed: []int{5, 7},
			Cards: []PlayedCard{{5, false, Red}, {7, true, Red}}}},
		{"C6 C7 jokers played crossing nothing", []any{jokers[1].Decisions[4].Cards, jokers[1].Decisions[4].Crossed, jokers[1].Misthrow},
			[]any{[]PlayedCard{{12, true, Green}, {6, true, Green}}, []int(nil), 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !reflect.DeepEqual(tt.got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", tt.got, tt.want)
			}
		})
	}
}

// C10: nothing reachable from a TurnSummary can hold a card, so no hand and
// no face-down card can be in it; played cards are PlayedCard values.
func TestC10TurnSummaryHoldsNoCards(t *testing.T) {
	if leaks := cardPaths(reflect.TypeOf(TurnSummary{}), "TurnSummary"); len(leaks) > 0 {
		t.Fatalf("a turn summary can hold cards at %v", leaks)
	}
}

// turnGames is how many random games of each variant the property tests
// play.
func turnGames() int {
	if testing.Short() || raceEnabled {
		return 40
	}
	return 200
}

// TestTurnsSummaryConsistentWithSheets plays random games and checks that
// the summaries add up to the final sheets: every cross and lock (S3, D7,
// C8) and misthrow (D6, C7) is in exactly one decision; turns are numbered
// from 1 with the active player going clockwise (D2); the dice are the rolls
// (D3); each action has its decisions (D4, D5, C4–C6); the end is in the
// last turn (D9, C9); and the summary of a finished turn, taken while the
// game went on, never changes.
func TestTurnsSummaryConsistentWithSheets(t *testing.T) {
	for _, v := range []Variant{Dice, Cards, Jokers} {
		t.Run(v.String(), func(t *testing.T) {
			t.Parallel()
			for i := range turnGames() {
				n := 2 + i%4
				var snaps [][]TurnSummary
				step := 0
				g := playRandom(t, v, n, uint64(1000+i), func(_ observed, g *Game, _ Move) {
					if step++; step%17 == 0 {
						snaps = append(snaps, g.Turns())
					}
				})
				turns := g.Turns()
				checkTurns(t, g, turns)
				// The stored game gives the same summaries: restored, or
				// replayed from its record.
				data, _ := g.MarshalBinary()
				restored, err := Restore(data)
				if err != nil {
					t.Fatal(err)
				}
				replayed, err := Replay(g.Record())
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(restored.Turns(), turns) || !reflect.DeepEqual(replayed.Turns(), turns) {
					t.Fatalf("game %d: a restored or replayed game summarises differently", i)
				}
				for _, snap := range snaps {
					for k, ts := range snap {
						if ts.Finished && !reflect.DeepEqual(ts, turns[k]) {
							t.Fatalf("game %d: turn %d changed after it finished:\n%+v\n%+v", i, ts.Turn, ts, turns[k])
						}
					}
					if last := snap[len(snap)-1]; last.Finished && last.End == NotOver {
						t.Fatalf("game %d: the current turn %d is marked finished", i, last.Turn)
					}
				}
			}
		})
	}
}

func checkTurns(t *testing.T, g *Game, turns []TurnSummary) {
	t.Helper()
	n := g.NumPlayers()
	if len(turns) != g.Turn() {
		t.Fatalf("%d summaries for %d turns", len(turns), g.Turn())
	}
	sheets := make([]Sheet, n)
	for k, ts := range turns {
		last := k == len(turns)-1
		if ts.Turn != k+1 || ts.Active != (g.st.First+k)%n {
			t.Fatalf("turn %d: number %d active %d", k+1, ts.Turn, ts.Active)
		}
		if ts.Finished != (!last || g.Over()) {
			t.Fatalf("turn %d: finished %v", ts.Turn, ts.Finished)
		}
		if (ts.End != NotOver) != (last && g.Over()) || (last && ts.End != g.EndReason()) {
			t.Fatalf("turn %d: end %v, game end %v", ts.Turn, ts.End, g.EndReason())
		}
		if v := g.Variant(); v == Dice && ts.Dice != g.st.Log.Rolls[k] {
			t.Fatalf("turn %d: dice %v, rolled %v", ts.Turn, ts.Dice, g.st.Log.Rolls[k])
		}
		// The actions in order, each complete once finished.
		var count [4]int
		prev := 0
		var locks []Lock
		for _, d := range ts.Decisions {
			if d.Action < prev {
				t.Fatalf("turn %d: action %d after action %d", ts.Turn, d.Action, prev)
			}
			prev = d.Action
			count[d.Action]++
			if simultaneous := (g.Variant() == Dice) == (d.Action == 1); !simultaneous && d.Player != ts.Active {
				t.Fatalf("turn %d: %+v by a player who is not active", ts.Turn, d)
			}
			sheet := &sheets[d.Player]
			for _, num := range d.Crossed {
				pos := Position(d.Color, num)
				if pos <= sheet.Rows[d.Color].Last() {
					t.Fatalf("turn %d: %+v crosses left of the last cross (S2)", ts.Turn, d)
				}
				sheet.Rows[d.Color] |= 1 << pos
			}
			if d.Locked != (len(d.Crossed) > 0 && d.Crossed[len(d.Crossed)-1] == LastNumber(d.Color)) {
				t.Fatalf("turn %d: %+v: the lock goes with the rightmost number (S3)", ts.Turn, d)
			}
			if d.Locked {
				sheet.Rows[d.Color] |= 1 << LockPos
				locks = append(locks, Lock{d.Player, d.Color, d.Action})
			}
		}
		if !slices.Equal(locks, ts.Locks) {
			t.Fatalf("turn %d: locks %v, decisions locked %v", ts.Turn, ts.Locks, locks)
		}
		if ts.Finished {
			a1 := count[1] == n
			if g.Variant().CardGame() {
				a1 = count[1] == 1 && count[2] == n && (count[3] == 1 || (ts.End != NotOver))
			} else {
				a1 = a1 && (count[2] == 1 || (ts.End != NotOver))
			}
			if !a1 {
				t.Fatalf("turn %d: decisions per action %v", ts.Turn, count)
			}
		}
		if ts.Misthrow > 0 {
			sheets[ts.Active].Misthrows++
			if ts.Misthrow != sheets[ts.Active].Misthrows {
				t.Fatalf("turn %d: misthrow %d, count %d", ts.Turn, ts.Misthrow, sheets[ts.Active].Misthrows)
			}
		}
		if ts.End != NotOver {
			for _, p := range ts.EndedBy {
				sh := g.Sheet(p)
				if ok := (ts.End == EndMisthrows && sh.Misthrows == MaxMisthrows) || (ts.End == EndLocks && sh.Locks() > 0); !ok {
					t.Fatalf("turn %d: end %d by %d (%+v)", ts.Turn, ts.End, p, sh)
				}
			}
			if len(ts.EndedBy) == 0 {
				t.Fatalf("turn %d: the game ended by nobody", ts.Turn)
			}
		}
	}
	if g.Variant() == Dice {
		var closed [NumColors]bool
		for _, ts := range turns {
			for _, l := range ts.Locks {
				closed[l.Color] = true
			}
		}
		if closed != g.st.Closed {
			t.Fatalf("locked rows %v, the game's %v (D7)", closed, g.st.Closed)
		}
	}
	for p := range n {
		if sheets[p] != g.Sheet(p) {
			t.Fatalf("player %d: the summaries add up to %+v, the sheet is %+v", p, sheets[p], g.Sheet(p))
		}
	}
}

// hiddenTwin replays g's log on a deck in which cards that nobody has
// played yet trade places with unplayed cards of the same number: every
// card in a hand that has such a partner trades with it. The twin differs
// from g only in what is hidden (C10: hand colours, face-down cards); its
// public moves are g's. It returns nil when no card could trade.
func hiddenTwin(t *testing.T, g *Game) *Game { return hiddenTwinFor(t, g, -1) }

// hiddenTwinFor is hiddenTwin keeping seat's hand as it is (no seat for
// -1): the twin differs only in what seat cannot see.
func hiddenTwinFor(t *testing.T, g *Game, seat int) *Game {
	t.Helper()
	mine := map[Card]bool{}
	if seat >= 0 {
		for _, c := range g.st.Hands[seat] {
			mine[c] = true
		}
	}
	played := map[Card]bool{}
	for _, m := range g.st.Log.Moves {
		if m.Kind == Play {
			for _, c := range m.CardList() {
				played[c] = true
			}
		}
	}
	deck := slices.Clone(g.st.Log.Deck)
	moved := map[Card]bool{}
	for _, hand := range g.st.Hands {
		for _, c := range hand {
			if moved[c] || played[c] || mine[c] { // played before a reshuffle: public
				continue
			}
			for _, d := range deck {
				if d != c && d.Number() == c.Number() && !played[d] && !moved[d] && !mine[d] {
					i, j := slices.Index(deck, c), slices.Index(deck, d)
					deck[i], deck[j] = d, c
					moved[c], moved[d] = true, true
					break
				}
			}
		}
	}
	if len(moved) == 0 {
		return nil
	}
	h := newGame(g.st.Variant, g.st.Players, seed(0))
	sc := &script{}
	for _, pile := range g.st.Log.Reshuffles {
		sc.Shuffles = append(sc.Shuffles, slices.Clone(pile))
	}
	h.st.Script = sc
	h.setup(g.st.First, deck)
	for _, m := range g.st.Log.Moves {
		if err := h.Apply(m); err != nil {
			t.Fatalf("the twin refuses %v: %v", m, err)
		}
	}
	if seat < 0 && reflect.DeepEqual(h.st.Hands, g.st.Hands) {
		t.Fatal("the twin's hands are g's") // with a seat kept, the piles may be all that differs
	}
	return h
}

// TestC10TurnsSameForHiddenTwins: card games that differ only in hidden
// cards (hand colours, face-down display and draw pile cards) have the same
// summaries, turn by turn, as they have the same public view.
func TestC10TurnsSameForHiddenTwins(t *testing.T) {
	for _, v := range []Variant{Cards, Jokers} {
		t.Run(v.String(), func(t *testing.T) {
			t.Parallel()
			twins := 0
			for i := range turnGames() {
				step := 0
				playRandom(t, v, 2+i%4, uint64(2000+i), func(_ observed, g *Game, _ Move) {
					if step++; step%23 != 0 {
						return
					}
					h := hiddenTwin(t, g)
					if h == nil {
						return
					}
					twins++
					if a, b := g.Turns(), h.Turns(); !reflect.DeepEqual(a, b) {
						t.Fatalf("game %d: the summaries depend on hidden cards:\n%+v\n%+v", i, a, b)
					}
					if a, b := g.Public(), h.Public(); !reflect.DeepEqual(a, b) {
						t.Fatalf("game %d: twins differ in public: %+v\n%+v", i, a, b)
					}
				})
			}
			if twins < turnGames() {
				t.Fatalf("only %d twins compared", twins)
			}
		})
	}
}

// TestD4C5TurnsHideUnrevealedChoices: while a simultaneous action is under
// way, games that differ only in the choices already made (hidden until
// everybody has chosen, D4, C5) have the same summaries.
func TestD4C5TurnsHideUnrevealedChoices(t *testing.T) {
	for _, v := range []Variant{Dice, Cards, Jokers} {
		t.Run(v.String(), func(t *testing.T) {
			t.Parallel()
			compared := 0
			for i := range turnGames() {
				n := 2 + i%4
				g, err := New(Config{Variant: v, Players: names[:n], Seed: seed(uint64(3000 + i))})
				if err != nil {
					t.Fatal(err)
				}
				r := rand.New(rand.NewPCG(uint64(i), 7))
				for !g.Over() {
					w := g.Waiting()
					p := w[r.IntN(len(w))]
					legal := g.LegalMoves(p)
					m := legal[r.IntN(len(legal))]
					if g.Phase().Simultaneous() && len(w) > 1 && len(legal) > 1 && r.IntN(4) == 0 {
						data, _ := g.MarshalBinary()
						h, err := Restore(data)
						if err != nil {
							t.Fatal(err)
						}
						other := legal[(slices.Index(legal, m)+1+r.IntN(len(legal)-1))%len(legal)]
						mustApply(t, h, other)
						mustApply(t, g, m)
						if a, b := g.Turns(), h.Turns(); !reflect.DeepEqual(a, b) {
							t.Fatalf("game %d: the summaries show an unrevealed choice (%v or %v):\n%+v\n%+v", i, m, other, a, b)
						}
						compared++
						continue
					}
					mustApply(t, g, m)
				}
			}
			if compared == 0 {
				t.Fatal("nothing compared")
			}
		})
	}
}

// BenchmarkTurns measures summarising a whole 5-player game (a replay of
// its log).
func BenchmarkTurns(b *testing.B) {
	for _, v := range []Variant{Dice, Jokers} {
		b.Run(v.String(), func(b *testing.B) {
			g := playRandom(b, v, 5, 7, nil)
			b.ReportMetric(float64(g.Turn()), "turns")
			for b.Loop() {
				g.Turns()
			}
		})
	}
}
