package ai

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qwixxbot/qwixxbot/game"
)

// goldenFile holds hard's card values for goldenDecisions, bit for bit,
// as the search before its speed-ups (commit 021d1e7) computed them.
// QWIXX_GOLDEN=write go test ./game/ai -run HardCardsGolden rewrites it.
var goldenFile = filepath.Join("testdata", "hardcards_golden.txt")

// goldenDecisions are every 9th decision of games played by oscleePolicy
// (Medium as it was when the golden values were written): cards and
// jokers, 2 and 5 players.
func goldenDecisions(t *testing.T) (names []string, views []game.PrivateView, legals [][]game.Move) {
	for _, v := range []game.Variant{game.Cards, game.Jokers} {
		for _, n := range []int{2, 5} {
			k := 0
			for seed := byte(0); seed < 3; seed++ {
				var s [32]byte
				s[0], s[1] = seed, 17
				g, err := game.New(game.Config{Variant: v, Players: []string{"a", "b", "c", "d", "e"}[:n], Seed: s})
				if err != nil {
					t.Fatal(err)
				}
				for !g.Over() {
					p := g.Waiting()[0]
					view, legal := g.Private(p), g.LegalMoves(p)
					if k%9 == 0 && len(legal) > 1 {
						names = append(names, fmt.Sprintf("%s/%dp/%d/turn%d/%s", v, n, seed, g.Turn(), g.Phase()))
						views, legals = append(views, view), append(legals, legal)
					}
					k++
					if err := g.Apply(chooseOsclee(view, legal)); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
	return names, views, legals
}

// The hard card search, with the knobs it had then (80 deals at two
// players, 6 candidates), values the golden decisions exactly as before
// its evaluation and move listing were made faster: the same deals, the
// same play-outs, the same values to the bit, so the same choices (C10:
// from the seat's view alone, as then).
func TestC10HardCardsGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("plays some 40,000 play-outs")
	}
	then := cardSearch{candidates: 6, rollouts: 160, rollouts2: 160, marginWeight: 0.05, horizon: 3, sigmaScale: 1, hands: 1, heur: heurBase}
	names, views, legals := goldenDecisions(t)
	var got []string
	for i := range views {
		vals := then.values(views[i], legals[i])
		var b strings.Builder
		b.WriteString(names[i])
		for _, x := range vals {
			fmt.Fprintf(&b, " %x", math.Float64bits(x))
		}
		got = append(got, b.String())
	}
	if os.Getenv("QWIXX_GOLDEN") == "write" {
		if err := os.WriteFile(goldenFile, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %d decisions", len(got))
		return
	}
	f, err := os.Open(goldenFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var want []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		want = append(want, sc.Text())
	}
	if len(want) != len(got) {
		t.Fatalf("%d decisions, the golden file has %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("decision %d:\n got %s\nwant %s", i, got[i], want[i])
		}
	}
}
