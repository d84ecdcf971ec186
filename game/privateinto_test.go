package game

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// PrivateInto gives the view Private gives (C10: the seat's own hand and
// the public view only), however stale the view it reuses.
func TestC10PrivateIntoMatchesPrivate(t *testing.T) {
	for _, v := range []Variant{Dice, Cards, Jokers} {
		var reused PrivateView
		steps := 0
		for i := range 6 {
			n := 2 + i%4
			g, err := New(Config{Variant: v, Players: []string{"a", "b", "c", "d", "e"}[:n], Seed: seed(uint64(40 + i))})
			if err != nil {
				t.Fatal(err)
			}
			rnd := rand.New(rand.NewPCG(uint64(i), 9))
			for !g.Over() {
				for p := range n {
					want := g.Private(p)
					g.PrivateInto(&reused, p)
					got := reused
					if len(got.Hand) == 0 && want.Hand == nil {
						got.Hand = nil
					}
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("%s step %d seat %d: PrivateInto gives\n%+v\nPrivate gives\n%+v", v, steps, p, got, want)
					}
				}
				p := g.Waiting()[0]
				legal := g.LegalMoves(p)
				if err := g.Apply(legal[rnd.IntN(len(legal))]); err != nil {
					t.Fatal(err)
				}
				steps++
			}
		}
		if steps < 100 {
			t.Fatalf("%s: only %d steps", v, steps)
		}
	}
}
