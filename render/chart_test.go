package render

import (
	"errors"
	"fmt"
	"image"
	"math"
	"strings"
	"testing"

	"github.com/qwixxbot/qwixxbot/game"
)

// chartOf draws the score chart of g.
func chartOf(g *game.Game, l Labels) (*image.Paletted, error) {
	return ChartImage(g.Public(), g.ScoreSeries(), l)
}

// chartDice2 is a whole 2-player dice game, played loosely (slack 1) so it
// has misthrows as well as locks.
func chartDice2(t testing.TB) *game.Game {
	g := newGame(t, game.Dice, 4, "Anna", "Benedikt")
	playUntil(t, g, 1, func(*game.Game) bool { return false })
	return g
}

// chartCards5 is a whole 5-player card game with jokers.
func chartCards5(t testing.TB) *game.Game {
	g := newGame(t, game.Jokers, 2, "Anna", "Benedikt", "Chloé", "Dörte", "Émile")
	playUntil(t, g, 1, func(*game.Game) bool { return false })
	return g
}

// chartStopped3 is a 3-player dice game stopped in turn 12, after action 1.
func chartStopped3(t testing.TB) *game.Game {
	g := newGame(t, game.Dice, 6, "Anna", "Maximiliane-Walburga von Hohenstein", "Ω")
	playUntil(t, g, 0, func(g *game.Game) bool { return g.Turn() == 12 && g.Phase() == game.PhaseColor })
	return g
}

// chartTurn1 is a 3-player dice game stopped after its first turn.
func chartTurn1(t testing.TB) *game.Game {
	g := newGame(t, game.Dice, 21, "Anna", "Ben", "Chloé")
	playUntil(t, g, 0, func(g *game.Game) bool { return g.Turn() >= 2 })
	return g
}

// chartGames are finished and stopped games of every variant and size.
func chartGames(t testing.TB) map[string]*game.Game {
	gs := map[string]*game.Game{
		"dice2": chartDice2(t), "cards5": chartCards5(t), "stopped3": chartStopped3(t),
	}
	for n := 1; n <= game.MaxPlayers; n++ {
		for _, va := range []game.Variant{game.Dice, game.Cards, game.Jokers} {
			if n == 1 && va != game.Dice {
				continue
			}
			g := newGame(t, va, byte(10+n), longNames[:n]...)
			playUntil(t, g, n%2, func(*game.Game) bool { return false })
			gs[fmt.Sprintf("%v%d", va, n)] = g
		}
	}
	return gs
}

// TestChartLineEndsAtFinalScoreS4: every player's line ends at the last
// turn, at the height of their final score (S4), and the picture has the
// player's ink there (the end dot), unless a marker covers it.
func TestChartLineEndsAtFinalScoreS4(t *testing.T) {
	checked := 0
	for name, g := range chartGames(t) {
		v, s := g.Public(), g.ScoreSeries()
		c, lay, err := chart(v, s, DefaultLabels(), newPage)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for p, pv := range v.Players {
			want := image.Pt(int(math.Round(lay.xf(s.Turns()))), int(math.Round(lay.yf(pv.Score))))
			if lay.ends[p] != want {
				t.Errorf("%s: player %d's line ends at %v, want %v (turn %d, score %d)", name, p+1, lay.ends[p], want, s.Turns(), pv.Score)
			}
			if s.Turns() > 0 && lay.ends[p].X != lay.x1 {
				t.Errorf("%s: player %d's line ends at x %d, the plot at %d", name, p+1, lay.ends[p].X, lay.x1)
			}
			if covered(lay, lay.ends[p], -1) || endNear(lay, p) {
				continue
			}
			if got, ink := c.p.ColorIndexAt(want.X, want.Y), lay.styleOf(p).ink; got != ink {
				t.Errorf("%s: player %d's line end %v has colour %d, want the ink %d", name, p+1, want, got, ink)
			}
			checked++
		}
	}
	if checked < 10 {
		t.Errorf("only %d line ends checked by pixel", checked)
	}
}

// covered reports whether a marker other than mark number skip lies
// within reach of at.
func covered(lay *chartLayout, at image.Point, skip int) bool {
	for i, m := range lay.marks {
		if i != skip && abs(m.at.X-at.X) < 32 && abs(m.at.Y-at.Y) < 32 {
			return true
		}
	}
	return false
}

// endNear reports whether another player's line ends near player p's, so
// that its end dot may cover p's.
func endNear(lay *chartLayout, p int) bool {
	for q, e := range lay.ends {
		if q < p && abs(e.X-lay.ends[p].X) < 14 && abs(e.Y-lay.ends[p].Y) < 14 {
			return true
		}
	}
	return false
}

// TestChartMarkersAtEventTurnsD6D7: a marker for exactly every event of the
// series, at its turn's x and on the player's line (stacked upwards when a
// player has two in one turn): a padlock in the row's colour for a lock
// (S3, D7, C8), an ✕ in the player's ink for a misthrow (D6, C7).
func TestChartMarkersAtEventTurnsD6D7(t *testing.T) {
	kinds := map[game.ScoreEventKind]int{}
	moved := 0
	for name, g := range chartGames(t) {
		v, s := g.Public(), g.ScoreSeries()
		c, lay, err := chart(v, s, DefaultLabels(), newPage)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(lay.marks) != len(s.Events) {
			t.Fatalf("%s: %d markers for %d events", name, len(lay.marks), len(s.Events))
		}
		for i, m := range lay.marks {
			e := s.Events[i]
			if m.kind != e.Kind || m.player != e.Player || m.turn != e.Turn || (e.Kind == game.EventLock && m.color != e.Color) {
				t.Errorf("%s: marker %+v for event %+v", name, m, e)
			}
			base := image.Pt(int(math.Round(lay.xf(e.Turn))), int(math.Round(lay.yf(s.Totals[e.Player][e.Turn]))))
			if m.base != base || m.at.X != base.X || (m.at.Y-base.Y)%chartStack != 0 {
				t.Errorf("%s: marker of %+v at %v (line point %v), want at the line point %v or moved straight up or down by steps of %d",
					name, e, m.at, m.base, base, chartStack)
			}
			for j, o := range lay.marks[:i] {
				if abs(o.at.X-m.at.X) < chartMarkGap && abs(o.at.Y-m.at.Y) < chartMarkGap {
					t.Errorf("%s: markers %d %v and %d %v overlap", name, j, o.at, i, m.at)
				}
			}
			if m.at != m.base {
				moved++
			}
			if e.Turn == s.Turns() {
				continue // a leader or a badge may be drawn over it
			}
			kinds[e.Kind]++
			switch e.Kind {
			case game.EventLock:
				at := m.at.Add(image.Pt(-6, chartLockBodyY))
				if got := c.p.ColorIndexAt(at.X, at.Y); got != rowC(e.Color, sBg) {
					t.Errorf("%s: lock of %+v: colour %d at %v, want the row's %d", name, e, got, at, rowC(e.Color, sBg))
				}
			case game.EventMisthrow:
				if got := c.p.ColorIndexAt(m.at.X, m.at.Y); got != lay.styleOf(e.Player).ink {
					t.Errorf("%s: ✕ of %+v: colour %d, want the player's ink %d", name, e, got, lay.styleOf(e.Player).ink)
				}
			}
		}
	}
	if kinds[game.EventLock] == 0 || kinds[game.EventMisthrow] == 0 || moved == 0 {
		t.Errorf("markers checked by pixel: %v, moved off their point: %d; want both kinds and some moved", kinds, moved)
	}
}

// TestChartRefusesAnotherGamesSeries: a series that does not belong to the
// view (other players, other scores, events out of range) is an ErrView.
func TestChartRefusesAnotherGamesSeries(t *testing.T) {
	g := chartDice2(t)
	v, s := g.Public(), g.ScoreSeries()
	other := chartCards5(t).ScoreSeries()
	bad := s
	bad.Totals = [][]int{s.Totals[0], append(append([]int(nil), s.Totals[1][:len(s.Totals[1])-1]...), v.Players[1].Score+1)}
	event := s
	event.Events = append(append([]game.ScoreEvent(nil), s.Events...), game.ScoreEvent{Turn: s.Turns() + 1, Kind: game.EventMisthrow})
	for name, ser := range map[string]game.ScoreSeries{"5 players": other, "other score": bad, "event after the end": event, "empty": {}} {
		if _, err := ChartImage(v, ser, DefaultLabels()); !errors.Is(err, ErrView) {
			t.Errorf("%s: error %v, want ErrView", name, err)
		}
	}
	if _, err := ChartImage(v, s, DefaultLabels()); err != nil {
		t.Errorf("the game's own series: %v", err)
	}
}

// TestChartTitleSaysRunningTotal: the chart plots each player's total after
// every turn, and its title says so (the old one said "Points per turn").
func TestChartTitleSaysRunningTotal(t *testing.T) {
	for lang, l := range map[string]Labels{"en": DefaultLabels(), "de": germanLabels(), "fr": frenchLabels()} {
		title := strings.ToLower(l.ChartTitle)
		if strings.Contains(title, "per turn") || !strings.Contains(title, map[string]string{"en": "total", "de": "punktestand", "fr": "total"}[lang]) {
			t.Errorf("%s: chart title %q does not say it shows the running total", lang, l.ChartTitle)
		}
	}
	// And the chart is what the title says: every line ends at the final
	// total, which TestChartLineEndsAtFinalScoreS4 checks point by point.
}

// TestChartBadgesCarryRank: the badge at the end of each line carries the
// player's rank as the results print it ("1. Chloé"; ties share a rank),
// not the seat number, and the leader has the first style.
func TestChartBadgesCarryRank(t *testing.T) {
	differ := 0
	for name, g := range chartGames(t) {
		v, s := g.Public(), g.ScoreSeries()
		var rlog, clog textLog
		if _, err := results(v, nil, DefaultLabels(), recording(&rlog)); err != nil {
			t.Fatal(err)
		}
		_, lay, err := chart(v, s, DefaultLabels(), recording(&clog))
		if err != nil {
			t.Fatal(err)
		}
		for p, pv := range v.Players {
			label := fit(fLabelB, playerName(pv.Name, p, DefaultLabels()), chartNameW)
			want := ""
			for _, tx := range rlog.texts {
				full := withNames(v, DefaultLabels()).Players[p].Name
				if r, n, ok := strings.Cut(tx.s, ". "); ok && (n == full || strings.HasSuffix(n, "…") && strings.HasPrefix(full, strings.TrimSuffix(n, "…"))) {
					want = r
				}
			}
			got := ""
			for _, nt := range clog.texts {
				if nt.s != label || nt.px != fLabelB.size {
					continue
				}
				for _, bt := range clog.texts { // the number in the badge left of the name
					if bt.px == fBox.size && bt.at.X < nt.at.X && nt.at.X-bt.at.X < 3*chartBadgeR && abs(bt.at.Y-nt.at.Y) <= 6 {
						got = bt.s
					}
				}
			}
			if got == "" || got != want {
				t.Errorf("%s: %s's badge says %q, the results rank them %q", name, pv.Name, got, want)
			}
			if want != fmt.Sprint(p+1) {
				differ++
			}
			if lay.style[p] == 0 && lay.rank[p] != 1 {
				t.Errorf("%s: %s has the first style and rank %d", name, pv.Name, lay.rank[p])
			}
		}
	}
	if differ == 0 {
		t.Fatal("in every game the ranks are the seats: the test shows nothing")
	}
}

// TestChartOneTurnNoLines: a game stopped after its first turn has one
// total per player; lines from 0 at turn 0 would fan out across the whole
// plot and suggest a trend. The chart shows each total as a dot at turn 1
// with its badge, and no line crosses the plot.
func TestChartOneTurnNoLines(t *testing.T) {
	v, s := chartTurn1(t).Public(), chartTurn1(t).ScoreSeries()
	if s.Turns() != 1 {
		t.Fatalf("series of %d turns", s.Turns())
	}
	nonzero := false
	for _, pv := range v.Players {
		nonzero = nonzero || pv.Score != 0
	}
	if !nonzero {
		t.Fatal("every total is 0: pick a seed where someone scored")
	}
	c, lay, err := chart(v, s, DefaultLabels(), newPage)
	if err != nil {
		t.Fatal(err)
	}
	inks := map[uint8]bool{}
	for p := range v.Players {
		inks[lay.styleOf(p).ink] = true
	}
	n := 0
	for y := lay.y0; y < lay.y1-3; y++ {
		for x := lay.x0 + 8; x < lay.x1-20; x++ {
			if inks[c.p.ColorIndexAt(x, y)] {
				n++
			}
		}
	}
	if n > 0 {
		t.Errorf("%d pixels of the players' lines inside the plot of a one-turn game", n)
	}
	for p, pv := range v.Players {
		if e := lay.ends[p]; c.p.ColorIndexAt(e.X, e.Y) != lay.styleOf(p).ink && !covered(lay, e, -1) && !endNear(lay, p) {
			t.Errorf("%s's total %d has no dot at %v", pv.Name, pv.Score, e)
		}
	}
}
