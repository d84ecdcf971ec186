package render

import (
	"errors"
	"fmt"
	"image"
	"testing"

	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/game/ai"
)

// checkMomentsApart fails when two numbered rings' boxes intersect or a
// ring leaves the chart, and reports how many moments shared their point
// on the line with an earlier one.
func checkMomentsApart(t *testing.T, what string, g *game.Game, ms []Moment) (shared int) {
	t.Helper()
	s := g.ScoreSeries()
	_, lay, err := chart(g.Public(), s, DefaultLabels(), newPage)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	base, at, err := placeMoments(lay, s, ms)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	page := image.Rect(margin, margin, Width-margin, chartH-margin)
	for i := range ms {
		if !momentBox(at[i]).In(page) {
			t.Errorf("%s: ring %d at %v leaves the chart", what, ms[i].N, at[i])
		}
		for j := range i {
			if momentBox(at[i]).Overlaps(momentBox(at[j])) {
				t.Errorf("%s: ring %d (turn %d) at %v covers ring %d (turn %d) at %v", what, ms[i].N, ms[i].Turn, at[i], ms[j].N, ms[j].Turn, at[j])
			}
			if base[i] == base[j] {
				shared++
			}
		}
	}
	return shared
}

// Issue 40: in the 🔍 Review chart ② (turn 7, action 1) sat exactly
// under ① (turn 7, action 2): two choices of one turn share the line's
// point. Over the reviews of every seat of many loosely played dice
// games, no two numbered rings' boxes intersect, and every ring stays on
// the chart; some reviews had moments sharing a point.
func TestReviewChartMomentsNeverOverlap(t *testing.T) {
	games, shared := 0, 0
	for seed := byte(1); seed <= 40; seed++ {
		players := []string{"Anna", "Ben", "Chloé", "Dan"}[:2+int(seed)%3]
		g := newGame(t, game.Dice, seed, players...)
		playUntil(t, g, 2+int(seed)%3, func(*game.Game) bool { return false })
		for seat := range players {
			rv, err := ai.Review(g.Record(), seat)
			if err != nil {
				t.Fatal(err)
			}
			ms := make([]Moment, len(rv.Costliest))
			for i, d := range rv.Costliest {
				ms[i] = Moment{Turn: d.Turn, Player: seat, N: i + 1}
			}
			shared += checkMomentsApart(t, fmt.Sprintf("seed %d seat %d", seed, seat), g, ms)
		}
		games++
	}
	// The worst cases, made up: three moments on one point, on the
	// highest and the lowest point of the chart, and side by side.
	g := chartDice2(t)
	s := g.ScoreSeries()
	hi, lo := 0, 0
	for tn, x := range s.Totals[0] {
		if x > s.Totals[0][hi] {
			hi = tn
		}
		if x < s.Totals[0][lo] {
			lo = tn
		}
	}
	last := s.Turns()
	for _, ms := range [][]Moment{
		{{Turn: 7, N: 1}, {Turn: 7, N: 2}, {Turn: 7, N: 3}},
		{{Turn: hi, N: 1}, {Turn: hi, N: 2}, {Turn: hi, N: 3}},
		{{Turn: lo, N: 1}, {Turn: lo, N: 2}, {Turn: lo, N: 3}},
		{{Turn: last, N: 1}, {Turn: last, N: 2}, {Turn: last - 1, N: 3}},
		{{Turn: 1, N: 1}, {Turn: 1, N: 2}, {Turn: 2, N: 3}},
	} {
		shared += checkMomentsApart(t, fmt.Sprintf("made up %v", ms), g, ms)
	}
	if shared == 0 {
		t.Fatal("no two moments shared a point: the test proves nothing")
	}
	t.Logf("%d games reviewed seat by seat; %d moments shared a point with another", games, shared)
}

// Issue 40: a game stopped before its first turn ended got a chart with
// nothing on it. Such a chart, plain or of a review, is refused with
// ErrNoTurn (and ErrView), so callers show none; one finished turn is
// drawn (TestChartOneTurnNoLines).
func TestChartOfNoTurnIsRefused(t *testing.T) {
	g := newGame(t, game.Dice, 3, "Anna", "Ben", "Chloé")
	s := g.ScoreSeries()
	if s.Turns() != 0 {
		t.Fatalf("a new game's series has %d turns", s.Turns())
	}
	if _, err := Chart(g.Public(), s, DefaultLabels()); !errors.Is(err, ErrNoTurn) || !errors.Is(err, ErrView) {
		t.Errorf("chart of no turn: %v", err)
	}
	if _, err := ReviewChart(g.Public(), s, DefaultLabels(), nil); !errors.Is(err, ErrNoTurn) {
		t.Errorf("review chart of no turn: %v", err)
	}
	playUntil(t, g, 0, func(g *game.Game) bool { return g.Turn() == 2 })
	if _, err := Chart(g.Public(), g.ScoreSeries(), DefaultLabels()); err != nil {
		t.Errorf("chart of one turn: %v", err)
	}
}
