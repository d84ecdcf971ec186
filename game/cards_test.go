package game

import (
	"reflect"
	"slices"
	"testing"
)

// cardGame deals a card game whose deck starts with top (then the rest in
// canonical order): 4 cards to each player, 4 to the display, the draw pile.
func cardGame(t *testing.T, v Variant, n, first int, top ...Card) *Game {
	t.Helper()
	g := newGame(v, names[:n], seed(3))
	deck := slices.Clone(top)
	for _, c := range FullDeck(v == Jokers) {
		if !slices.Contains(deck, c) {
			deck = append(deck, c)
		}
	}
	g.setup(first, deck)
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	return g
}

func cards(t *testing.T, names ...string) []Card {
	t.Helper()
	out, err := parseCards(names, Jokers)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestC1Deck(t *testing.T) {
	for _, tt := range []struct {
		jokers bool
		n      int
	}{{false, 44}, {true, 55}} {
		d := FullDeck(tt.jokers)
		if len(d) != tt.n {
			t.Fatalf("deck with jokers=%v has %d cards, want %d", tt.jokers, len(d), tt.n)
		}
		count := map[string]int{}
		for _, c := range d {
			name := c.String()
			back, err := ParseCard(name)
			if err != nil || back != c {
				t.Fatalf("card %v does not round-trip through %q", c, name)
			}
			if c.Joker() {
				count["J"]++
			} else {
				count[c.Color().String()]++
			}
			if c.Number() < 2 || c.Number() > 12 {
				t.Fatalf("card %v has number %d", c, c.Number())
			}
		}
		for _, col := range Colors {
			if count[col.String()] != 11 {
				t.Errorf("%d %s cards, want 11", count[col.String()], col)
			}
		}
		if tt.jokers && count["J"] != 11 {
			t.Errorf("%d jokers, want 11", count["J"])
		}
	}
}

func TestC2PlayerCount(t *testing.T) {
	for n := 1; n <= 6; n++ {
		_, err := New(Config{Variant: Cards, Players: []string{"a", "b", "c", "d", "e", "f"}[:n]})
		if ok := n >= 2 && n <= 5; (err == nil) != ok {
			t.Errorf("%d players: err=%v", n, err)
		}
	}
}

func TestC3Setup(t *testing.T) {
	top := cards(t, "R2", "R3", "R4", "R5", "Y2", "Y3", "Y4", "Y5", "G7", "B7", "R9", "J4", "B12")
	g := cardGame(t, Jokers, 2, 0, top...)
	if !slices.Equal(g.Hand(0), top[0:4]) || !slices.Equal(g.Hand(1), top[4:8]) {
		t.Fatalf("hands %v %v", g.Hand(0), g.Hand(1))
	}
	pv := g.Public()
	if want := []int{7, 7, 9, 4}; !slices.Equal(pv.Table.Display, want) {
		t.Errorf("display numbers %v, want %v", pv.Table.Display, want)
	}
	if pv.Table.DrawTop != 12 || pv.Table.DrawSize != 55-12 || pv.Table.DiscardSize != 0 {
		t.Errorf("draw top %d size %d discard %d", pv.Table.DrawTop, pv.Table.DrawSize, pv.Table.DiscardSize)
	}
	if pv.Players[0].HandSize != 4 || g.Phase() != PhaseTake {
		t.Errorf("hand size %d phase %s", pv.Players[0].HandSize, g.Phase())
	}
}

func TestC4Take(t *testing.T) {
	top := cards(t, "R2", "R3", "R4", "R5", "Y2", "Y3", "Y4", "Y5", "G7", "B7", "R9", "B4", "B12", "G3")
	g := cardGame(t, Cards, 2, 0, top...)
	// At the first turn exactly one card: the hand must reach 5.
	mustRefuse(t, g, TakeMove(0, 7, 9), ReasonTakeCount)
	mustRefuse(t, g, TakeMove(0, 8), ReasonNotInDisplay)
	mustRefuse(t, g, TakeMove(1, 7), ReasonNotYourTurn)
	if got := len(g.LegalMoves(0)); got != 3 {
		t.Errorf("%d distinct takes from display 7 7 9 4, want 3", got)
	}
	mustApply(t, g, TakeMove(0, 7))
	// The leftmost 7 (G7) is taken; the slot is refilled from the draw pile at once.
	if !slices.Contains(g.Hand(0), ColorCard(Green, 7)) || len(g.Hand(0)) != 5 {
		t.Fatalf("hand %v", g.Hand(0))
	}
	if pv := g.Public(); !slices.Equal(pv.Table.Display, []int{12, 7, 9, 4}) || pv.Table.DrawTop != 3 {
		t.Fatalf("display %v top %d, want [12 7 9 4] and 3", pv.Table.Display, pv.Table.DrawTop)
	}
	if g.Phase() != PhaseNumber {
		t.Fatalf("phase %s", g.Phase())
	}
	// Later turns take 1 to 3: after playing 3 cards, take 3.
	mustApply(t, g, PassMove(0), PassMove(1))
	mustApply(t, g, PlayMove(0, Red, cards(t, "R2", "R3", "R4")))
	mustApply(t, g, TakeMove(1, 7), PassMove(0), PassMove(1), PlayMove(1, Yellow, cards(t, "Y2")))
	mustRefuse(t, g, TakeMove(0, 7), ReasonTakeCount)
	if m := g.LegalMoves(0)[0]; m.N != 3 {
		t.Fatalf("legal take %v, want 3 cards", m)
	}
}

func TestC4ReshuffleWhenDrawPileRunsOut(t *testing.T) {
	g := cardGame(t, Cards, 2, 0)
	// Move all but one draw card to the discard pile, then take 2.
	g.st.Discard = append(g.st.Discard, g.st.Draw[1:]...)
	g.st.Draw = g.st.Draw[:1]
	mustApply(t, g, TakeMove(0, g.Public().Table.Display[0]))
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(g.st.Draw) == 0 || len(g.st.Discard) != 0 || len(g.st.Log.Reshuffles) != 1 {
		t.Fatalf("after the last draw card: draw %d discard %d reshuffles %d", len(g.st.Draw), len(g.st.Discard), len(g.st.Log.Reshuffles))
	}
	if got := len(g.st.Draw); got != 44-8-4-1 {
		t.Fatalf("new draw pile has %d cards, want the %d discarded", got, 44-8-4-1)
	}
}

func TestC5NumberForEveryone(t *testing.T) {
	top := cards(t, "R2", "R3", "R4", "R5", "Y2", "Y3", "Y4", "Y5", "G7", "B7", "R9", "B4", "B12", "G3", "Y7")
	g := cardGame(t, Cards, 3, 0, top...)
	// Three hands take 12 cards; the display is B12 G3 Y7 and the next card.
	mustApply(t, g, TakeMove(0, 12))
	n := g.TopNumber()
	if g.Phase() != PhaseNumber || !slices.Equal(g.Waiting(), []int{0, 1, 2}) {
		t.Fatalf("phase %s waiting %v", g.Phase(), g.Waiting())
	}
	// Anna crosses yellow, Ben red, Cleo passes: simultaneous, active included.
	mustApply(t, g, NumberMove(1, Red), NumberMove(0, Yellow))
	if g.Sheet(1).Rows[Red] != 0 {
		t.Fatal("action 2 applied before everybody decided")
	}
	mustApply(t, g, PassMove(2))
	if !g.Sheet(0).Rows[Yellow].Crossed(Position(Yellow, n)) || !g.Sheet(1).Rows[Red].Crossed(Position(Red, n)) {
		t.Fatal("the number for everyone was not crossed")
	}
	if g.Phase() != PhasePlay || !slices.Equal(g.Waiting(), []int{0}) {
		t.Fatalf("phase %s waiting %v", g.Phase(), g.Waiting())
	}
	// Nobody else crosses in action 3.
	mustRefuse(t, g, NumberMove(1, Blue), ReasonNotYourTurn)
}

// playGame deals hand to seat 0 of a 2-player card game and goes to action 3.
func playGame(t *testing.T, v Variant, hand []Card, sheet Sheet) *Game {
	t.Helper()
	top := slices.Clone(hand[:4])
	g := cardGame(t, v, 2, 0, top...)
	g.st.Sheets[0] = sheet
	if len(hand) == 5 {
		// put the fifth card in the display's first slot and take it
		i := slices.Index(g.st.Draw, hand[4])
		if i < 0 {
			j := slices.Index(g.st.Display, hand[4])
			g.st.Display[0], g.st.Display[j] = g.st.Display[j], g.st.Display[0]
		} else {
			g.st.Display[0], g.st.Draw[i] = g.st.Draw[i], g.st.Display[0]
		}
		mustApply(t, g, TakeMove(0, hand[4].Number()))
	} else {
		mustApply(t, g, TakeMove(0, g.Public().Table.Display[0]))
	}
	mustApply(t, g, PassMove(0), PassMove(1))
	return g
}

// C6, the rulebook's examples: red 4-5-7 may all be crossed (6 left out);
// yellow 2-4-6 not all three, but 2+4 or 4+6.
func TestC6GapRuleRulebookExamples(t *testing.T) {
	tests := []struct {
		name  string
		hand  []string
		as    Color
		cross []int
		want  Reason
	}{
		{"red 4-5-7 all", []string{"R4", "R5", "R7", "B2", "B3"}, Red, []int{4, 5, 7}, 0},
		{"yellow 2-4-6 all", []string{"Y2", "Y4", "Y6", "B2", "B3"}, Yellow, []int{2, 4, 6}, ReasonGap},
		{"yellow 2+4", []string{"Y2", "Y4", "Y6", "B2", "B3"}, Yellow, []int{2, 4}, 0},
		{"yellow 4+6", []string{"Y2", "Y4", "Y6", "B2", "B3"}, Yellow, []int{4, 6}, 0},
		{"yellow 2+6", []string{"Y2", "Y4", "Y6", "B2", "B3"}, Yellow, []int{2, 6}, ReasonGap},
		{"yellow none", []string{"Y2", "Y4", "Y6", "B2", "B3"}, Yellow, nil, 0},
		{"green 11-9 of 11-9-3 (Anna)", []string{"G11", "G9", "G3", "B2", "B3"}, Green, []int{11, 9}, 0},
		{"green 11-9-3 all", []string{"G11", "G9", "G3", "B2", "B3"}, Green, []int{11, 9, 3}, ReasonGap},
		{"mixed colours", []string{"R4", "Y5", "R7", "B2", "B3"}, Red, []int{4}, ReasonMixedColors},
		{"cross a number not played", []string{"R4", "R5", "R7", "B2", "B3"}, Red, []int{6}, ReasonCrossNotPlayed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hand := cards(t, tt.hand...)
			g := playGame(t, Cards, hand, Sheet{})
			played := append([]Card(nil), hand[:3]...)
			m := PlayMove(0, tt.as, played, tt.cross...)
			if tt.want != 0 {
				mustRefuse(t, g, m, tt.want)
				if slices.Contains(g.LegalMoves(0), m) {
					t.Fatal("legal moves list a refused play")
				}
				return
			}
			if !slices.Contains(g.LegalMoves(0), m) {
				t.Fatalf("legal moves do not list %v", m)
			}
			mustApply(t, g, m)
			for _, n := range tt.cross {
				if !g.Sheet(0).Rows[tt.as].Crossed(Position(tt.as, n)) {
					t.Errorf("%s %d not crossed", tt.as, n)
				}
			}
			if got := len(g.st.Discard); got != 3 {
				t.Errorf("discard has %d cards, want the 3 played", got)
			}
			if got := len(g.Hand(0)); got != 2 {
				t.Errorf("hand has %d cards after playing 3 of 5", got)
			}
			if pv := g.Public(); len(pv.Table.Played) != 3 || pv.Table.PlayedBy != 0 {
				t.Errorf("played cards not shown: %+v", pv.Table)
			}
		})
	}
}

// C6: crosses earlier in the same play count towards S3's five.
func TestC6EarlierCrossesOfPlayCountForLock(t *testing.T) {
	four := sheetWith(t, map[Color][]int{Red: {2, 3, 4, 5}})
	g := playGame(t, Cards, cards(t, "R10", "R11", "R12", "B2", "B3"), four)
	mustApply(t, g, PlayMove(0, Red, cards(t, "R10", "R11", "R12"), 10, 11, 12))
	r := g.Sheet(0).Rows[Red]
	if !r.Locked() || r.Count() != 8 {
		t.Fatalf("red row %b: want 2-5, 10, 11, 12 and the lock", r)
	}
	// With only 2 prior crosses, 10-11-12 cannot reach the lock.
	two := sheetWith(t, map[Color][]int{Red: {2, 3}})
	g = playGame(t, Cards, cards(t, "R10", "R11", "R12", "B2", "B3"), two)
	mustRefuse(t, g, PlayMove(0, Red, cards(t, "R10", "R11", "R12"), 10, 11, 12), ReasonNeedFive)
	mustApply(t, g, PlayMove(0, Red, cards(t, "R10", "R11", "R12"), 10, 11))
}

func TestC6PlayCountAndHand(t *testing.T) {
	g := playGame(t, Cards, cards(t, "R4", "R5", "R7", "R8", "B3"), Sheet{})
	mustRefuse(t, g, PlayMove(0, Red, nil), ReasonPlayCount)
	mustRefuse(t, g, PlayMove(0, Red, cards(t, "R4", "R5", "R7", "R8")), ReasonPlayCount)
	mustRefuse(t, g, PlayMove(0, Red, []Card{ColorCard(Red, 4), ColorCard(Red, 4)}), ReasonDuplicateCard)
	mustRefuse(t, g, PlayMove(0, Red, cards(t, "R9")), ReasonNotInHand)
	mustRefuse(t, g, PlayMove(0, Blue, cards(t, "R4")), ReasonJokerColor)
	mustRefuse(t, g, PassMove(0), ReasonWrongAction) // at least one card must be played
}

func TestC1JokerTakesNamedColour(t *testing.T) {
	g := playGame(t, Jokers, cards(t, "R4", "J5", "J7", "B2", "B3"), Sheet{})
	mustRefuse(t, g, PlayMove(0, Blue, cards(t, "R4", "J5")), ReasonJokerColor)
	mustRefuse(t, g, PlayMove(0, Red, cards(t, "R4", "B2")), ReasonMixedColors)
	// Mixed colours is the reason whichever of them is named.
	mustRefuse(t, g, PlayMove(0, Blue, cards(t, "R4", "B2")), ReasonMixedColors)
	mustRefuse(t, g, PlayMove(0, Blue, cards(t, "J5", "R4", "B2")), ReasonMixedColors)
	m := PlayMove(0, Red, cards(t, "R4", "J5", "J7"), 4, 5, 7)
	mustApply(t, g, m)
	if r := g.Sheet(0).Rows[Red]; r.Count() != 3 {
		t.Fatalf("red row %b", r)
	}
	pv := g.Public()
	for _, pc := range pv.Table.Played {
		if pc.Color != Red {
			t.Errorf("played %+v should show as red", pc)
		}
	}
	// Jokers alone may be played as any colour.
	g = playGame(t, Jokers, cards(t, "J5", "J6", "B9", "B2", "B3"), Sheet{})
	for _, c := range Colors {
		if !slices.Contains(g.LegalMoves(0), PlayMove(0, c, cards(t, "J5", "J6"), 5, 6)) {
			t.Errorf("jokers 5-6 as %s not offered", c)
		}
	}
}

func TestC7Misthrow(t *testing.T) {
	tests := []struct {
		name      string
		a2        Move
		cross     []int
		misthrows int
	}{
		{"nothing in 2 and 3", PassMove(0), nil, 1},
		{"cross in action 2 only", NumberMove(0, Red), nil, 0},
		{"cross in action 3 only", PassMove(0), []int{9}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			top := cards(t, "B9", "Y3", "G4", "R5", "Y2", "Y4", "Y5", "Y6", "R6", "B7", "R9", "B4", "R11")
			g := cardGame(t, Cards, 2, 0, top...)
			mustApply(t, g, TakeMove(0, 6), tt.a2, PassMove(1))
			mustApply(t, g, PlayMove(0, Blue, cards(t, "B9"), tt.cross...))
			if got := g.Sheet(0).Misthrows; got != tt.misthrows {
				t.Errorf("misthrows %d, want %d", got, tt.misthrows)
			}
			if g.Sheet(1).Misthrows != 0 {
				t.Error("a non-active player got a misthrow")
			}
		})
	}
}

// C8: a lock closes the row for that player only.
func TestC8LockIsPersonal(t *testing.T) {
	five := sheetWith(t, map[Color][]int{Green: fullRow(Green, 5)})
	g := playGame(t, Cards, cards(t, "G2", "B9", "B8", "B2", "B3"), five)
	mustApply(t, g, PlayMove(0, Green, cards(t, "G2"), 2))
	if !g.Sheet(0).Rows[Green].Locked() || g.Over() {
		t.Fatal("green 2 must lock Anna's green row; one lock does not end the game")
	}
	// Ben may still cross green; Anna may not.
	if err := g.Sheet(1).Check(Green, 12); err != nil {
		t.Fatalf("Ben's green row must stay open: %v", err)
	}
	if r := reason(g.st.Sheets[0].Check(Green, 12)); r != ReasonRowLockedOwn {
		t.Fatalf("Anna's green row must be closed, got %d", r)
	}
	if g.Public().Closed != [NumColors]bool{} {
		t.Fatal("a card-game lock closes no row for everybody")
	}
}

// C9: the end comes when a player locked two own rows, or a 4th misthrow;
// in action 2 it means action 3 is not played.
func TestC9End(t *testing.T) {
	t.Run("second own lock in action 2", func(t *testing.T) {
		top := cards(t, "B9", "Y3", "G4", "R5", "Y2", "Y4", "Y5", "Y6", "R6", "B7", "R9", "B4", "G5", "R12")
		g := cardGame(t, Cards, 2, 0, top...)
		g.st.Sheets[1] = sheetWith(t, map[Color][]int{Red: fullRow(Red, 5), Blue: fullRow(Blue, 11)})
		mustApply(t, g, TakeMove(0, 6))
		if g.TopNumber() != 12 {
			t.Fatalf("top %d", g.TopNumber())
		}
		mustApply(t, g, PassMove(0), NumberMove(1, Red))
		if !g.Over() || g.EndReason() != EndLocks {
			t.Fatalf("Ben's second own lock must end the game, phase %s", g.Phase())
		}
		if g.Sheet(0).Misthrows != 0 {
			t.Fatal("action 3 is not played: no misthrow")
		}
	})
	t.Run("two players lock different rows, one each", func(t *testing.T) {
		top := cards(t, "B9", "Y3", "G4", "R5", "Y2", "Y4", "Y5", "Y6", "R6", "B7", "R9", "B4", "G5", "R12")
		g := cardGame(t, Cards, 2, 0, top...)
		g.st.Sheets[0] = sheetWith(t, map[Color][]int{Red: fullRow(Red, 5)})
		g.st.Sheets[1] = sheetWith(t, map[Color][]int{Yellow: fullRow(Yellow, 5), Blue: fullRow(Blue, 11)})
		mustApply(t, g, TakeMove(0, 6), NumberMove(0, Red), NumberMove(1, Yellow))
		if !g.Over() {
			t.Fatal("Ben locked his second row")
		}
	})
	t.Run("fourth misthrow", func(t *testing.T) {
		g := playGame(t, Cards, cards(t, "R4", "R5", "R7", "R8", "B3"), Sheet{Misthrows: 3})
		mustApply(t, g, PlayMove(0, Red, cards(t, "R4")))
		if !g.Over() || g.EndReason() != EndMisthrows {
			t.Fatal("4th misthrow must end the game")
		}
	})
	t.Run("one lock each does not end", func(t *testing.T) {
		top := cards(t, "B9", "Y3", "G4", "R5", "Y2", "Y4", "Y5", "Y6", "R6", "B7", "R9", "B4", "G5", "R12")
		g := cardGame(t, Cards, 2, 0, top...)
		g.st.Sheets[0] = sheetWith(t, map[Color][]int{Red: fullRow(Red, 5)})
		g.st.Sheets[1] = sheetWith(t, map[Color][]int{Red: fullRow(Red, 5)})
		mustApply(t, g, TakeMove(0, 6), NumberMove(0, Red), NumberMove(1, Red))
		if g.Over() {
			t.Fatal("each player has one lock: the game goes on")
		}
	})
}

// cardPaths lists the paths from ty (named name) to every game.Card a
// value of that type can hold.
func cardPaths(ty reflect.Type, name string) []string {
	cardType := reflect.TypeOf(Card(0))
	var walk func(ty reflect.Type, path string, seen map[reflect.Type]bool) []string
	walk = func(ty reflect.Type, path string, seen map[reflect.Type]bool) []string {
		if ty == cardType {
			return []string{path}
		}
		if seen[ty] {
			return nil
		}
		seen[ty] = true
		var out []string
		switch ty.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			out = append(out, walk(ty.Elem(), path+"[]", seen)...)
		case reflect.Struct:
			for i := range ty.NumField() {
				f := ty.Field(i)
				out = append(out, walk(f.Type, path+"."+f.Name, seen)...)
			}
		}
		return out
	}
	return walk(ty, name, map[reflect.Type]bool{})
}

// C10: the public view cannot hold a card: no field of any type reachable
// from PublicView is game.Card.
func TestC10PublicViewHoldsNoCards(t *testing.T) {
	if leaks := cardPaths(reflect.TypeOf(PublicView{}), "PublicView"); len(leaks) > 0 {
		t.Fatalf("the public view can hold cards at %v", leaks)
	}
	if leaks := cardPaths(reflect.TypeOf(PrivateView{}), "PrivateView"); len(leaks) != 1 {
		t.Fatalf("the private view should hold exactly the hand, found %v", leaks)
	}
}

func TestP1TimeoutMoves(t *testing.T) {
	g := cardGame(t, Cards, 2, 0)
	m, err := g.TimeoutMove(0)
	if err != nil || m.Kind != Take || m.N != 1 {
		t.Fatalf("timeout take: %v %v", m, err)
	}
	mustApply(t, g, m)
	for _, p := range []int{0, 1} {
		m, err := g.TimeoutMove(p)
		if err != nil || m.Kind != Pass {
			t.Fatalf("timeout in action 2 must pass: %v %v", m, err)
		}
		mustApply(t, g, m)
	}
	if _, err := g.TimeoutMove(1); err != ErrNoMove {
		t.Fatalf("non-active player in action 3 has no move, got %v", err)
	}
	m, err = g.TimeoutMove(0)
	if err != nil || m.Kind != Play || m.N != 1 || m.Cross != 0 {
		t.Fatalf("timeout play must play one card crossing nothing: %v %v", m, err)
	}
	mustApply(t, g, m)
	if g.Sheet(0).Misthrows != 1 || g.Sheet(0).Crosses() != 0 {
		t.Fatal("a timed-out turn crosses nothing and costs the active player a misthrow")
	}
	dg := diceGame(t, 2, 0, [6]int{1, 1, 1, 1, 1, 1}, nil)
	if m, err := dg.TimeoutMove(1); err != nil || m.Kind != Pass {
		t.Fatalf("dice timeout: %v %v", m, err)
	}
}
