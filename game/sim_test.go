package game

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

func seed(n uint64) [32]byte {
	var s [32]byte
	binary.LittleEndian.PutUint64(s[:], n)
	return s
}

var names = []string{"Anna", "Ben", "Cleo", "Dan", "Emma"}

// playRandom plays a whole game with uniformly random legal moves, calling
// each after every move.
func playRandom(t testing.TB, v Variant, players int, s uint64, each func(g *Game, m Move)) *Game {
	g, err := New(Config{Variant: v, Players: names[:players], Seed: seed(s)})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(s, 99))
	var buf []Move
	for steps := 0; !g.Over(); steps++ {
		if steps > maxSteps {
			t.Fatalf("%s game with seed %d did not end in %d moves", v, s, maxSteps)
		}
		w := g.Waiting()
		p := w[r.IntN(len(w))]
		buf = g.AppendLegalMoves(buf[:0], p)
		if len(buf) == 0 {
			t.Fatalf("player %d may act but has no legal move (phase %s)", p, g.Phase())
		}
		m := buf[r.IntN(len(buf))]
		if err := g.Apply(m); err != nil {
			t.Fatalf("legal move %v refused: %v", m, err)
		}
		if each != nil {
			each(g, m)
		}
	}
	return g
}

// maxSteps bounds a game: each turn crosses something or costs a misthrow
// for the active player, and the sheets hold at most 48 crosses each; 4
// misthrows end it. A generous bound still catches a stalled game.
const maxSteps = 5 * 200 * 6

func TestSimulationQuick(t *testing.T) {
	for _, v := range []Variant{Dice, Cards, Jokers} {
		for n := 2; n <= 5; n++ {
			for s := uint64(0); s < 20; s++ {
				g := playRandom(t, v, n, s, func(g *Game, m Move) {
					if err := g.Validate(); err != nil {
						t.Fatalf("after %v: %v", m, err)
					}
				})
				if g.EndReason() == NotOver {
					t.Fatal("over without reason")
				}
			}
		}
	}
}
