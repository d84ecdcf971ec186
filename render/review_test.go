package render

import (
	"errors"
	"image"
	"testing"

	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/game/ai"
)

// reviewDice2 is chartDice2 with the review of its first player: the
// costliest choices as the bot marks them.
func reviewDice2(t testing.TB) (*game.Game, []Moment) {
	g := chartDice2(t)
	rv, err := ai.Review(g.Record(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var ms []Moment
	for i, d := range rv.Costliest {
		ms = append(ms, Moment{Turn: d.Turn, Player: 0, N: i + 1})
	}
	if len(ms) == 0 {
		t.Fatal("the loosely played game has no costly choice to mark")
	}
	return g, ms
}

// The review chart is the score chart with a red numbered ring at each
// moment, on the player's line at that turn (golden: review2-dice.png).
func TestReviewChartMarksMoments(t *testing.T) {
	g, ms := reviewDice2(t)
	img, err := ReviewChartImage(g.Public(), g.ScoreSeries(), DefaultLabels(), ms)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "review2-dice", img)
	plain, err := ChartImage(g.Public(), g.ScoreSeries(), DefaultLabels())
	if err != nil {
		t.Fatal(err)
	}
	s := g.ScoreSeries()
	_, lay, err := chart(g.Public(), s, DefaultLabels(), newPage)
	if err != nil {
		t.Fatal(err)
	}
	ink := rowC(game.Red, sDark)
	for _, m := range ms {
		// The ring's edge, 15 px right of the moment's point: red ink on
		// the review chart.
		at := lay.pt(m.Turn, s.Totals[0][m.Turn])
		edge := image.Pt(at.X+15, at.Y)
		if img.ColorIndexAt(edge.X, edge.Y) != ink {
			t.Errorf("moment %d (turn %d): no ring at %v", m.N, m.Turn, edge)
		}
		if plain.ColorIndexAt(edge.X, edge.Y) == ink && plain.ColorIndexAt(at.X+16, at.Y+1) == ink {
			t.Errorf("the plain chart is already red at moment %d", m.N)
		}
	}
	// A moment off the series is an error, not a mark somewhere.
	_, err = ReviewChartImage(g.Public(), s, DefaultLabels(), []Moment{{Turn: s.Turns() + 1, Player: 0, N: 1}})
	if !errors.Is(err, ErrView) {
		t.Fatalf("a moment after the last turn: %v", err)
	}
	if _, err := ReviewChart(g.Public(), s, DefaultLabels(), ms); err != nil {
		t.Fatal(err)
	}
}
