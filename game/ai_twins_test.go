package game_test

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/game/ai"
)

// RULES C10 for computer players: in twin card games that differ only in
// cards a seat cannot see (other hands, face-down piles), the seat's view
// and legal moves are the same, and so is every computer player's choice.
// Here, in package game's directory, because the twins are made from the
// engine's insides.
func TestC10ComputerChoicesSameForHiddenTwins(t *testing.T) {
	for _, v := range []game.Variant{game.Cards, game.Jokers} {
		twins, otherHands, hardTwins := 0, 0, 0 // twins compared; of them, with another hand changed; with the hard player
		for i := range 40 {
			n := 2 + i%4
			names := []string{"a", "b", "c", "d", "e"}[:n]
			var s [32]byte
			s[0], s[1] = byte(i), byte(v)
			g, err := game.New(game.Config{Variant: v, Players: names, Seed: s})
			if err != nil {
				t.Fatal(err)
			}
			rnd := rand.New(rand.NewPCG(uint64(i), 3))
			for step := 0; !g.Over(); step++ {
				p := g.Waiting()[0]
				if step%7 == 3 {
					if h := game.HiddenTwinFor(t, g, p); h != nil {
						twins++
						for q := range n {
							if q != p && !reflect.DeepEqual(g.Hand(q), h.Hand(q)) {
								otherHands++
								break
							}
						}
						if !reflect.DeepEqual(g.Private(p), h.Private(p)) {
							t.Fatalf("the twins differ in what seat %d sees", p)
						}
						legal := g.LegalMoves(p)
						if !reflect.DeepEqual(legal, h.LegalMoves(p)) {
							t.Fatalf("the twins differ in seat %d's legal moves", p)
						}
						levels := []ai.Level{ai.Easy, ai.Medium}
						if twins%8 == 1 { // the hard player plays out games: slower
							levels = append(levels, ai.Hard)
							hardTwins++
						}
						for _, l := range levels {
							if a, b := ai.Choose(l, g.Private(p), legal), ai.Choose(l, h.Private(p), h.LegalMoves(p)); a != b {
								t.Fatalf("%s chose %+v in one twin, %+v in the other", l, a, b)
							}
						}
					}
				}
				legal := g.LegalMoves(p)
				m := legal[rnd.IntN(len(legal))]
				if step%2 == 0 {
					m = ai.Choose(ai.Medium, g.Private(p), legal)
				}
				if err := g.Apply(m); err != nil {
					t.Fatal(err)
				}
			}
		}
		if twins < 100 || otherHands < twins/2 || hardTwins < 25 {
			t.Fatalf("%s: only %d twins compared, %d with other hands changed, %d with the hard player", v, twins, otherHands, hardTwins)
		}
		t.Logf("%s: %d twins, %d with other hands changed, %d with the hard player", v, twins, otherHands, hardTwins)
	}
}
