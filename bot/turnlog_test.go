package bot

import (
	"encoding/binary"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/qwixxbot/qwixxbot/bot/view"
	"github.com/qwixxbot/qwixxbot/game"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files in testdata/")

// turnLogRecords are the hand-written records whose turns the golden file
// words: the dice game (RULES D4–D9), the card game (C4–C7) and jokers (C1).
var turnLogRecords = []string{"turns-dice.json", "turns-dice-locks.json", "turns-cards.json", "turns-jokers.json", "turns-five.json"}

// randomGame plays a seeded game of v for players with random legal moves,
// calling each (if not nil) after every move.
func randomGame(t testing.TB, v game.Variant, players []string, s uint64, each func(g *game.Game)) *game.Game {
	t.Helper()
	var sd [32]byte
	binary.LittleEndian.PutUint64(sd[:], s)
	g, err := game.New(game.Config{Variant: v, Players: players, Seed: sd})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(s, 5))
	for !g.Over() {
		w := g.Waiting()
		p := w[r.IntN(len(w))]
		legal := g.LegalMoves(p)
		if err := g.Apply(legal[r.IntN(len(legal))]); err != nil {
			t.Fatal(err)
		}
		if each != nil {
			each(g)
		}
	}
	return g
}

// TestTurnLogGolden words every turn of the hand-written records, and the
// last turns of a seeded 5-player game of each variant (how games end, D9,
// C9), in every language, and compares with testdata/turnlog.golden
// (go test ./bot -run TurnLogGolden -update rewrites it).
func TestTurnLogGolden(t *testing.T) {
	var b strings.Builder
	type source struct {
		name  string
		g     *game.Game
		turns []game.TurnSummary
	}
	var sources []source
	for _, f := range turnLogRecords {
		data, err := os.ReadFile("../game/testdata/records/" + f)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := game.ParseRecord(data)
		if err != nil {
			t.Fatal(err)
		}
		g, err := game.Replay(rec)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		sources = append(sources, source{f, g, g.Turns()})
	}
	five := []string{"Anna", "Ben", "Chloé", "Dan", "Émile"}
	for i, v := range []game.Variant{game.Dice, game.Cards, game.Jokers} {
		g := randomGame(t, v, five, uint64(11+i), nil)
		turns := g.Turns()
		sources = append(sources, source{fmt.Sprintf("random %s game, last turns", v), g, turns[len(turns)-3:]})
	}
	// Hand-made summaries for what the records above do not show: a card
	// game ending in action 2 with a player's second lock (C8, C9), and two
	// players locking one row at once in action 1 (D7).
	made := &game.Game{}
	sources = append(sources, source{"made-up summaries", made, []game.TurnSummary{
		{Variant: game.Cards, Turn: 31, Active: 1, Finished: true, Took: []int{5, 9}, Number: 12,
			Decisions: []game.Decision{
				{Action: 1, Player: 1, Kind: game.Take, Took: []int{5, 9}},
				{Action: 2, Player: 1, Kind: game.Number, Color: game.Red, Crossed: []int{12}, Locked: true},
				{Action: 2, Player: 2, Kind: game.Pass},
				{Action: 2, Player: 0, Kind: game.Number, Color: game.Green, Crossed: []int{12}},
			},
			Locks: []game.Lock{{Player: 1, Color: game.Red, Action: 2}}, End: game.EndLocks, EndedBy: []int{1}},
		{Variant: game.Dice, Turn: 40, Active: 2, Finished: true, Dice: [6]int{1, 1, 4, 0, 5, 2},
			Decisions: []game.Decision{
				{Action: 1, Player: 2, Kind: game.White, Color: game.Green, Crossed: []int{2}, Locked: true},
				{Action: 1, Player: 0, Kind: game.Pass},
				{Action: 1, Player: 1, Kind: game.White, Color: game.Green, Crossed: []int{2}, Locked: true},
				{Action: 2, Player: 2, Kind: game.Colored, Color: game.Red, Crossed: []int{5}, WhiteDie: 1, Sum: [2]int{1, 4}},
			},
			Locks: []game.Lock{{Player: 2, Color: game.Green, Action: 1}, {Player: 1, Color: game.Green, Action: 1}}},
	}})
	for _, src := range sources {
		for _, code := range []string{"en", "de", "fr"} {
			fmt.Fprintf(&b, "# %s (%s)\n", src.name, code)
			for _, ts := range src.turns {
				players := []string{"Anna", "Ben", "Chloé"}
				if src.g != made {
					players = src.g.Players()
				}
				b.WriteString(view.TurnLogLine(LangFor(code), ts, players) + "\n")
			}
		}
		b.WriteString("\n")
	}
	const path = "testdata/turnlog.golden"
	if *updateGolden {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got := b.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range max(len(gl), len(wl)) {
			g, w := "", ""
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("line %d differs from %s (-update rewrites it):\ngot  %q\nwant %q", i+1, path, g, w)
			}
		}
	}
}

// TestTurnLogLineLength words every turn of many random 5-player games of
// each variant, in every language, with names of Discord's maximum length
// (32): every line is one line within Discord's 2000-character limit. With
// ordinary names a line stays compact.
func TestTurnLogLineLength(t *testing.T) {
	games := 60
	if testing.Short() {
		games = 15
	}
	long := make([]string, 5)
	for i := range long {
		long[i] = strings.Repeat(string(rune('A'+i)), 31) + "é"
	}
	short := []string{"Anna", "Ben", "Chloé", "Dan", "Émile"}
	for _, v := range []game.Variant{game.Dice, game.Cards, game.Jokers} {
		longest, longestShort := 0, ""
		for i := range games {
			g := randomGame(t, v, short, uint64(100+i), nil)
			for _, ts := range g.Turns() {
				for _, code := range []string{"en", "de", "fr"} {
					l := LangFor(code)
					line := view.TurnLogLine(l, ts, long)
					if n := utf8.RuneCountInString(line); n > 2000 || strings.Contains(line, "\n") {
						t.Fatalf("%s turn %d (%s): %d characters or several lines:\n%s", v, ts.Turn, code, n, line)
					}
					s := view.TurnLogLine(l, ts, short)
					if n := utf8.RuneCountInString(s); n > longest {
						longest, longestShort = n, s
					}
				}
			}
		}
		t.Logf("%s: longest line with ordinary names: %d characters: %s", v, longest, longestShort)
		if longest > 300 {
			t.Errorf("%s: a line of %d characters with ordinary names is not compact: %s", v, longest, longestShort)
		}
	}
}
