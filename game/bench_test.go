package game

import (
	"math/rand/v2"
	"testing"
)

// benchGame plays one whole random 4-player game per iteration.
func benchGame(b *testing.B, v Variant) {
	r := rand.New(rand.NewPCG(1, 2))
	buf := make([]Move, 0, 256)
	var wait []int
	b.ReportAllocs()
	turns := 0
	for i := 0; b.Loop(); i++ {
		g, err := New(Config{Variant: v, Players: names[:4], Seed: seed(uint64(i))})
		if err != nil {
			b.Fatal(err)
		}
		for !g.Over() {
			wait = g.AppendWaiting(wait[:0])
			p := wait[r.IntN(len(wait))]
			buf = g.AppendLegalMoves(buf[:0], p)
			if err := g.Apply(buf[r.IntN(len(buf))]); err != nil {
				b.Fatal(err)
			}
		}
		turns += g.Turn()
	}
	b.ReportMetric(float64(turns)/float64(b.N), "turns/game")
}

func BenchmarkGameDice4(b *testing.B)   { benchGame(b, Dice) }
func BenchmarkGameCards4(b *testing.B)  { benchGame(b, Cards) }
func BenchmarkGameJokers4(b *testing.B) { benchGame(b, Jokers) }

// benchLegal lists legal moves in a mid-game position of variant v.
func benchLegal(b *testing.B, v Variant, phase Phase) {
	g, err := New(Config{Variant: v, Players: names[:4], Seed: seed(5)})
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for g.Turn() < 6 || g.Phase() != phase {
		p := g.Waiting()[0]
		ms := g.LegalMoves(p)
		if err := g.Apply(ms[r.IntN(len(ms))]); err != nil {
			b.Fatal(err)
		}
	}
	p := g.Waiting()[0]
	buf := make([]Move, 0, 1024)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		buf = g.AppendLegalMoves(buf[:0], p)
		n = len(buf)
	}
	b.ReportMetric(float64(n), "moves")
}

func BenchmarkLegalMovesDiceWhite(b *testing.B) { benchLegal(b, Dice, PhaseWhite) }
func BenchmarkLegalMovesDiceColor(b *testing.B) { benchLegal(b, Dice, PhaseColor) }
func BenchmarkLegalMovesCardsPlay(b *testing.B) { benchLegal(b, Jokers, PhasePlay) }
func BenchmarkLegalMovesCardsTake(b *testing.B) { benchLegal(b, Cards, PhaseTake) }
