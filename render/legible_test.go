package render

import (
	"fmt"
	"image"
	"strings"
	"testing"

	"github.com/qwixxbot/qwixxbot/game"
)

// recording is an alloc whose canvas records every text drawn into log.
func recording(log *textLog) alloc {
	return func(w, h int) canvas {
		c := newPage(w, h)
		c.log = log
		return c
	}
}

var longNames = []string{
	"Maximiliane-Walburga von Hohenstein",
	"Jean-Baptiste Émile de la Fontaine",
	"Bartholomäus",
	"Ω",
	"Anne-Sophie Müller-Lüdenscheidt",
}

// phoneTable is a table of n players of variant va in a decided action,
// with the words that take the most room: every player decided (the active
// one also has the Active badge), long names, three misthrows, big hands.
func phoneTable(t testing.TB, va game.Variant, n int) game.PublicView {
	t.Helper()
	seats := max(n, 2)
	if va == game.Dice && n == 1 {
		seats = 1
	}
	g := find(t, va, []string{"A", "B", "C", "D", "E"}[:seats], func(g *game.Game) bool {
		return g.Turn() >= 5
	})
	v := g.Public()
	v.Players = append([]game.PlayerView(nil), v.Players[:n]...)
	v.Active = min(v.Active, n-1)
	for p := range v.Players {
		pv := &v.Players[p]
		pv.Name = longNames[p]
		pv.Decided = true
		pv.Sheet.Misthrows = 3
		pv.HandSize = 12
	}
	if v.Table != nil {
		v.Table.PlayedBy = 0
		if len(v.Table.Played) == 0 {
			v.Table.Played = []game.PlayedCard{{Color: game.Green, Number: 12, Joker: true}, {Color: game.Green, Number: 11}}
		}
	}
	return v
}

// TestTableTextLegibleAtPhoneWidth draws the public table for 1–5 players
// of every variant in English, German and French with long names, records
// every text drawn (the cells' numbers too, which come from a cached
// image) and fails when one would be under 11 px with the picture shown
// 400 px wide, as Discord shows it on a phone.
func TestTableTextLegibleAtPhoneWidth(t *testing.T) {
	langs := map[string]Labels{"en": DefaultLabels(), "de": germanLabels(), "fr": frenchLabels()}
	for _, va := range []game.Variant{game.Dice, game.Cards, game.Jokers} {
		for n := 1; n <= game.MaxPlayers; n++ {
			v := phoneTable(t, va, n)
			for lang, l := range langs {
				name := fmt.Sprintf("%v/%d/%s", va, n, lang)
				var log textLog
				c, err := table(v, l, recording(&log))
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				checkLegible(t, name, c.p.Rect, log.texts)
				// What must be among the texts, so the check saw them.
				want := []string{l.Active, l.Decided, "12", "2"}
				if va.CardGame() {
					want = append(want, l.Hand, l.Display, l.DrawPile, l.Discard)
				}
				for p := range n {
					want = append(want, longNames[p][:1])
				}
				numbers := 0
				for _, tx := range log.texts {
					if tx.s == "7" {
						numbers++
					}
				}
				if numbers < game.NumColors*n {
					t.Errorf("%s: %d texts \"7\" recorded, want at least one per row (%d)", name, numbers, game.NumColors*n)
				}
				for _, w := range want {
					if !drewText(log.texts, w) {
						t.Errorf("%s: no text starting %q recorded", name, w)
					}
				}
			}
		}
	}
}

// checkLegible fails for every text under minPhonePx at phoneWidth, and
// for text outside the picture.
func checkLegible(t *testing.T, name string, r image.Rectangle, texts []drawnText) {
	t.Helper()
	bad := 0
	for _, tx := range texts {
		if px := phonePx(tx.px, r.Dx()); px < minPhonePx {
			if bad++; bad <= 5 {
				t.Errorf("%s: %q drawn at %g px, %.1f px at %d px wide (want at least %d)", name, tx.s, tx.px, px, phoneWidth, minPhonePx)
			}
		}
		if !tx.at.In(r) {
			t.Errorf("%s: %q drawn at %v, outside the picture %v", name, tx.s, tx.at, r)
		}
	}
	if bad > 5 {
		t.Errorf("%s: %d texts too small in all", name, bad)
	}
}

func drewText(texts []drawnText, prefix string) bool {
	for _, tx := range texts {
		if strings.HasPrefix(tx.s, prefix) {
			return true
		}
	}
	return false
}

// TestTableFitsOnePhonePreview: the table of 4 or 5 players is at most 1.3
// times as tall as it is wide in every variant, so Discord's preview on a
// phone shows it whole.
func TestTableFitsOnePhonePreview(t *testing.T) {
	for _, va := range []game.Variant{game.Dice, game.Cards, game.Jokers} {
		for _, n := range []int{4, 5} {
			img, err := TableImage(phoneTable(t, va, n), DefaultLabels())
			if err != nil {
				t.Fatal(err)
			}
			w, h := img.Rect.Dx(), img.Rect.Dy()
			t.Logf("%v, %d players: %d×%d (%.2f)", va, n, w, h, float64(h)/float64(w))
			if float64(h) > 1.3*float64(w) {
				t.Errorf("%v, %d players: %d×%d, taller than 1.3 × the width", va, n, w, h)
			}
		}
	}
}

// TestSheetTextLegibleAtPhoneWidth holds the full sheet ("My sheet") to
// the same rule: every text, the row numbers, the footer and the scoring
// strip included, at least 11 px with the picture 400 px wide.
func TestSheetTextLegibleAtPhoneWidth(t *testing.T) {
	langs := map[string]Labels{"en": DefaultLabels(), "de": germanLabels(), "fr": frenchLabels()}
	for _, va := range []game.Variant{game.Dice, game.Jokers} {
		v := phoneTable(t, va, 3)
		for lang, l := range langs {
			for seat := range v.Players {
				name := fmt.Sprintf("%v/seat %d/%s", va, seat, lang)
				var log textLog
				c, err := sheet(v, seat, l, nil, recording(&log))
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				checkLegible(t, name, c.p.Rect, log.texts)
				misthrows, _, _ := strings.Cut(l.Misthrows, " ")
				for _, w := range []string{l.Total, misthrows, l.Crosses, l.Points, "12×", "78", "7", longNames[seat][:1]} {
					if !drewText(log.texts, w) {
						t.Errorf("%s: no text starting %q recorded", name, w)
					}
				}
			}
		}
	}
}

// TestResultsTextLegibleAtPhoneWidth: the results are posted to the channel
// like the table, so they follow the same rule, with the match table of a
// five-game match and long names, in the three languages; five players fit
// one phone preview (with a match's table, 1.6 × the width).
func TestResultsTextLegibleAtPhoneWidth(t *testing.T) {
	langs := map[string]Labels{"en": DefaultLabels(), "de": germanLabels(), "fr": frenchLabels()}
	for _, va := range []game.Variant{game.Dice, game.Cards} {
		for n := 2; n <= game.MaxPlayers; n++ {
			v := phoneTable(t, va, n)
			m, err := game.NewMatch(longNames[:n], game.MaxMatchGames)
			if err != nil {
				t.Fatal(err)
			}
			for g := 0; g < 3; g++ {
				scores := make([]int, n)
				for p := range scores {
					scores[p] = 10*g + p - 5
				}
				if err := m.Add(scores); err != nil {
					t.Fatal(err)
				}
			}
			for lang, l := range langs {
				name := fmt.Sprintf("%v/%d/%s", va, n, lang)
				var log textLog
				c, err := results(v, m, l, recording(&log))
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				checkLegible(t, name, c.p.Rect, log.texts)
				if !drewText(log.texts, "1. ") || !drewText(log.texts, l.Total) {
					t.Errorf("%s: the ranked names or the match table were not recorded", name)
				}
				if n < game.MaxPlayers {
					continue
				}
				// Five players fit one preview; a match's table adds a
				// sixth of a phone screen.
				single, err := results(v, nil, l, newPage)
				if err != nil {
					t.Fatal(err)
				}
				for _, x := range []struct {
					r   image.Rectangle
					max float64
				}{{single.p.Rect, 1.3}, {c.p.Rect, 1.6}} {
					if float64(x.r.Dy()) > x.max*float64(x.r.Dx()) {
						t.Errorf("%s: %v is %.2f × as tall as wide (want at most %.1f)", name, x.r, float64(x.r.Dy())/float64(x.r.Dx()), x.max)
					}
				}
			}
		}
	}
}

// TestChartTextLegibleAtPhoneWidth: every text of the chart, in English,
// German and French, 1–5 players with long names, is at least 11 px with
// the picture 400 px wide, and the chart is at most 1.3 times as tall as
// it is wide.
func TestChartTextLegibleAtPhoneWidth(t *testing.T) {
	langs := map[string]Labels{"en": DefaultLabels(), "de": germanLabels(), "fr": frenchLabels()}
	for name, g := range chartGames(t) {
		for lang, l := range langs {
			var log textLog
			c, _, err := chart(g.Public(), g.ScoreSeries(), l, recording(&log))
			if err != nil {
				t.Fatalf("%s/%s: %v", name, lang, err)
			}
			checkLegible(t, name+"/"+lang, c.p.Rect, log.texts)
			if w, h := c.p.Rect.Dx(), c.p.Rect.Dy(); w != Width || float64(h) > 1.3*float64(w) {
				t.Errorf("%s: %d×%d, want %d wide and at most 1.3 times as tall", name, w, h, Width)
			}
			want := []string{l.ChartTitle, l.TurnAxis, l.Points, "0", "1"}
			for _, pv := range g.Public().Players {
				want = append(want, string([]rune(pv.Name)[:1]))
			}
			for _, w := range want {
				if !drewText(log.texts, w) {
					t.Errorf("%s/%s: no text starting %q recorded", name, lang, w)
				}
			}
		}
	}
}

// Discord shows a picture about 400 px wide on a phone. Text in the public
// table must stay at least minPhonePx there, so every font the table uses is
// at least minFontPx at the picture's Width.
const (
	phoneWidth = 400
	minPhonePx = 11
	minFontPx  = (minPhonePx*Width + phoneWidth - 1) / phoneWidth
)

// phonePx is the size of text drawn at px in a picture w pixels wide when it
// is shown phoneWidth wide.
func phonePx(px float64, w int) float64 { return px * phoneWidth / float64(w) }
