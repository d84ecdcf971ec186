package render

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/qwixxbot/qwixxbot/game"
)

// goldIn counts the winner star's pixels in the title box of a results
// image.
func goldIn(t *testing.T, v game.PublicView, m *game.Match) int {
	t.Helper()
	img, err := ResultsImage(v, m, DefaultLabels())
	if err != nil {
		t.Fatal(err)
	}
	n, titH := 0, resTitH
	if v.End == game.NotOver {
		titH = stopTitH // below it the first panel
	}
	for y := margin; y < margin+titH; y++ {
		for x := 0; x < img.Rect.Dx(); x++ {
			if img.ColorIndexAt(x, y) == cGold {
				n++
			}
		}
	}
	return n
}

func resultsHeight(t *testing.T, v game.PublicView, m *game.Match) int {
	t.Helper()
	img, err := ResultsImage(v, m, DefaultLabels())
	if err != nil {
		t.Fatal(err)
	}
	return img.Rect.Dy()
}

// A single game has no match table repeating the ranking, and a match
// with no finished game has none either (nothing to show, never "Game 0
// of 2"); a match with a finished game has one (D11).
func TestResultsMatchTableD11(t *testing.T) {
	v, played := finished3(t) // a match of 5 with 3 games played
	plain := resultsHeight(t, v, nil)
	one, err := game.NewMatch([]string{"Anna", "Ben", "Chloé"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := one.Add([]int{v.Players[0].Score, v.Players[1].Score, v.Players[2].Score}); err != nil {
		t.Fatal(err)
	}
	if h := resultsHeight(t, v, one); h != plain {
		t.Errorf("a match of one game is %d px high, the game alone %d: a match table was drawn", h, plain)
	}
	none, err := game.NewMatch([]string{"Anna", "Ben", "Chloé"}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if h := resultsHeight(t, v, none); h != plain {
		t.Errorf("a match with no finished game is %d px high, the game alone %d", h, plain)
	}
	if h := resultsHeight(t, v, played); h <= plain {
		t.Errorf("a match of several games played is %d px high, the game alone %d: no match table", h, plain)
	}
}

// A game stopped before its end has no winner: no star in the title.
func TestResultsStoppedHasNoWinner(t *testing.T) {
	v, _ := finished3(t)
	if goldIn(t, v, nil) == 0 {
		t.Fatal("a finished game's results show no winner star")
	}
	g := newGame(t, game.Dice, 13, "Anna", "Ben", "Chloé")
	playUntil(t, g, 1, func(g *game.Game) bool { return g.Turn() >= 6 })
	stopped := g.Public()
	if stopped.End != game.NotOver {
		t.Fatal("the game is over")
	}
	if n := goldIn(t, stopped, nil); n != 0 {
		t.Errorf("a stopped game's title has %d star pixels", n)
	}
}

// The title says what ended the game: whose fourth misthrow (D9, C9), which
// rows were locked (D9), who locked two rows (C9).
func TestResultsEndWhyD9C9(t *testing.T) {
	l := DefaultLabels()
	var locks game.PublicView
	locks.Variant, locks.End = game.Dice, game.EndLocks
	locks.Closed[game.Red], locks.Closed[game.Blue] = true, true
	if got := endWhy(locks, l); got != "Red and blue locked" {
		t.Errorf("dice locks: %q", got)
	}
	locks.Closed[game.Green] = true
	if got := endWhy(locks, l); got != "Red, green and blue locked" {
		t.Errorf("three locks: %q", got)
	}
	var miss game.PublicView
	miss.Variant, miss.End = game.Cards, game.EndMisthrows
	miss.Players = []game.PlayerView{{Name: "Anna"}, {Name: "Ben", Sheet: game.Sheet{Misthrows: 4}}}
	if got := endWhy(miss, l); got != "Fourth misthrow: Ben" {
		t.Errorf("misthrows: %q", got)
	}
	var card game.PublicView
	card.Variant, card.End = game.Cards, game.EndLocks
	var two game.Sheet
	two.Rows[game.Red] = 1 << game.LockPos
	two.Rows[game.Green] = 1 << game.LockPos
	card.Players = []game.PlayerView{{Name: "Anna", Sheet: two}, {Name: "Ben"}}
	if got := endWhy(card, l); got != "Anna locked two rows" {
		t.Errorf("card locks: %q", got)
	}
	// Without the new labels, the general words.
	old := l
	old.EndLocksRows, old.EndMisthrowBy = "", ""
	if endWhy(locks, old) != l.EndLocks || endWhy(miss, old) != l.EndMisses {
		t.Error("no fallback to EndLocks and EndMisses")
	}
	var running game.PublicView
	if endWhy(running, l) != "" {
		t.Error("a running game has an end")
	}
}

// TestWriteResultsPictures writes the results pictures to a directory for
// looking at them: QWIXXTEST_RESULTS_DIR=/tmp/res go test ./render -run
// WriteResults.
func TestWriteResultsPictures(t *testing.T) {
	dir := os.Getenv("QWIXXTEST_RESULTS_DIR")
	if dir == "" {
		t.Skip("QWIXXTEST_RESULTS_DIR not set")
	}
	v, m := finished3(t)
	g := newGame(t, game.Dice, 13, "Anna", "Ben", "Chloé")
	playUntil(t, g, 1, func(g *game.Game) bool { return g.Turn() >= 6 })
	none, _ := game.NewMatch([]string{"Anna", "Ben", "Chloé"}, 2)
	for name, draw := range map[string]func() ([]byte, error){
		"single":  func() ([]byte, error) { return Results(v, nil, DefaultLabels()) },
		"match":   func() ([]byte, error) { return Results(v, m, DefaultLabels()) },
		"stopped": func() ([]byte, error) { return Results(g.Public(), none, DefaultLabels()) },
	} {
		b, err := draw()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".png"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestResultsRowBreakdownS4: each player's panel in the results carries the
// rulebook's scoring strip on its header line: the points of each colour
// row, the misthrow penalty and the total (S4), so the total can be
// checked. The old results showed the total only.
func TestResultsRowBreakdownS4(t *testing.T) {
	games := map[string]*game.Game{}
	for _, va := range []game.Variant{game.Dice, game.Jokers} {
		g := newGame(t, va, 13, "Anna", "Ben", "Chloé", "Dörte")
		playUntil(t, g, 1, func(*game.Game) bool { return false })
		games[va.String()] = g
	}
	for name, g := range games {
		v := g.Public()
		var log textLog
		if _, err := results(v, nil, DefaultLabels(), recording(&log)); err != nil {
			t.Fatal(err)
		}
		misthrows := 0
		for _, pv := range v.Players {
			misthrows += pv.Sheet.Misthrows
			var on []drawnText // the texts on the player's header line
			baseline := -1
			for _, tx := range log.texts {
				if strings.HasSuffix(tx.s, ". "+pv.Name) {
					baseline = tx.at.Y
				}
			}
			if baseline < 0 {
				t.Fatalf("%s: no ranked name %q", name, pv.Name)
			}
			for _, tx := range log.texts {
				if tx.at.Y >= baseline-4 && tx.at.Y <= baseline+4 {
					on = append(on, tx)
				}
			}
			slices.SortFunc(on, func(a, b drawnText) int { return a.at.X - b.at.X })
			var line []string // left to right
			for _, tx := range on {
				line = append(line, tx.s)
			}
			want := []string{}
			for _, c := range game.Colors {
				want = append(want, strconv.Itoa(pv.Sheet.Rows[c].Score()), "+")
			}
			want[len(want)-1] = "−"
			want = append(want, strconv.Itoa(game.MisthrowPenalty*pv.Sheet.Misthrows), "=", strconv.Itoa(pv.Score))
			if got := strings.Join(line[1:], " "); got != strings.Join(want, " ") {
				t.Errorf("%s: %s's header line %q, want %q after the name", name, pv.Name, got, strings.Join(want, " "))
			}
			sum := -game.MisthrowPenalty * pv.Sheet.Misthrows
			for _, c := range game.Colors {
				sum += pv.Sheet.Rows[c].Score()
			}
			if sum != pv.Score {
				t.Errorf("%s: %s's rows and misthrows make %d, the score is %d", name, pv.Name, sum, pv.Score)
			}
		}
		if misthrows == 0 {
			t.Logf("%s: no misthrows in this game", name)
		}
	}
}
