package ai

import (
	"testing"

	"github.com/qwixxbot/qwixxbot/game"
)

// go test ./game/ai -run '^$' -bench . -benchmem
//
// How long a computer player takes to decide, over the decisions of whole
// 4-player games (every seat medium): each op is one decision.
func benchmarkChoose(b *testing.B, v game.Variant) {
	type decision struct {
		view  game.PrivateView
		legal []game.Move
	}
	var ds []decision
	for seed := byte(0); len(ds) < 2000; seed++ {
		var s [32]byte
		s[0] = seed
		g, err := game.New(game.Config{Variant: v, Players: []string{"a", "b", "c", "d"}, Seed: s})
		if err != nil {
			b.Fatal(err)
		}
		for !g.Over() {
			p := g.Waiting()[0]
			d := decision{g.Private(p), g.LegalMoves(p)}
			ds = append(ds, d)
			if err := g.Apply(Choose(Medium, d.view, d.legal)); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		d := ds[i%len(ds)]
		Choose(Medium, d.view, d.legal)
		i++
	}
}

func BenchmarkChooseDice(b *testing.B)   { benchmarkChoose(b, game.Dice) }
func BenchmarkChooseCards(b *testing.B)  { benchmarkChoose(b, game.Cards) }
func BenchmarkChooseJokers(b *testing.B) { benchmarkChoose(b, game.Jokers) }
