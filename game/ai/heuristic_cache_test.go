package ai

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/qwixxbot/qwixxbot/game"
)

// sameFloat reports whether a and b are the same float64, bit for bit.
func sameFloat(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

// The cached card evaluator (cardEval) values every move exactly as the
// evaluator without caches did (refEval, to the bit), so the heuristic
// and hard's play-outs choose as before: over the decisions of many card
// and joker games of 2–5 players, each seat's view (C10: its own hand and
// the public table) values the moves of every player who may act, and
// the projections of every sheet agree; the choice agrees too (C4–C6:
// takes, the number for everyone, plays).
func TestC4C6CachedCardEvalMatchesReference(t *testing.T) {
	views, moves := 0, 0
	var legal []game.Move
	var memo evalMemo // shared by the views, as in a play-out
	for i := range 160 {
		v := game.Cards
		if i%2 == 1 {
			v = game.Jokers
		}
		n := game.MinPlayers + i/2%(game.MaxPlayers-game.MinPlayers+1)
		var sd [32]byte
		sd[0], sd[1] = byte(i), 91
		g, err := game.New(game.Config{Variant: v, Players: []string{"a", "b", "c", "d", "e"}[:n], Seed: sd})
		if err != nil {
			t.Fatal(err)
		}
		rnd := rand.New(rand.NewPCG(uint64(i), 5))
		tuned := heurBase // another tuning: the evaluation follows its parameters
		tuned.rate, tuned.length, tuned.cardVal = 1.7, 1.1, 0.8
		for !g.Over() {
			for seat := range n {
				view := g.Private(seat)
				for _, hp := range []*heurParams{&heurBase, &hardSearch.heur, &tuned} {
					ref := newRefEval(&view, hp)
					e := newCardEvalP(&view, hp, &memo)
					if !sameFloat(e.g, ref.g) || !sameFloat(e.q, ref.q) || !sameFloat(e.rival, ref.rival) || !sameFloat(e.sigma, ref.sigma) || e.rivalNow != ref.rivalNow || e.crossed != ref.crossed {
						t.Fatalf("game %d turn %d seat %d: eval %+v, want %+v", i, g.Turn(), seat, e, ref)
					}
					mine := view.Players[seat].Sheet
					if a, b := e.projectAfter(&e.mine, -1), ref.project(mine); !sameFloat(a, b) {
						t.Fatalf("projectAfter = %v, want %v", a, b)
					}
					if a, _ := e.handAfter(&e.mine, -1, nil, nil); !sameFloat(a, ref.handWorth(mine, nil, nil)) {
						t.Fatalf("handAfter = %v, want %v", a, ref.handWorth(mine, nil, nil))
					}
					for _, pv := range view.Players {
						if a, b := e.project(pv.Sheet), ref.project(pv.Sheet); !sameFloat(a, b) {
							t.Fatalf("project %v = %v, want %v", pv.Sheet, a, b)
						}
						if a, b := e.handWorth(pv.Sheet, nil, nil), ref.handWorth(pv.Sheet, nil, nil); !sameFloat(a, b) {
							t.Fatalf("handWorth %v = %v, want %v", pv.Sheet, a, b)
						}
					}
					for _, p := range g.Waiting() {
						legal = g.AppendLegalMoves(legal[:0], p)
						for _, m := range legal {
							p1, w1 := e.parts(m)
							p2, w2 := ref.parts(m)
							if !sameFloat(p1, p2) || !sameFloat(w1, w2) || !sameFloat(e.value(m), ref.value(m)) {
								t.Fatalf("game %d turn %d seat %d move %v: parts %v %v, want %v %v", i, g.Turn(), seat, m, p1, w1, p2, w2)
							}
							moves++
						}
						if p == seat {
							want := refChoice(&view, legal, hp)
							if a, b := heuristicChoiceP(&view, legal, hp), legal[e.choice(legal)]; a != want || b != want {
								t.Fatalf("game %d turn %d seat %d: choice %v and %v, want %v", i, g.Turn(), seat, a, b, want)
							}
							slices.Reverse(legal) // ties go the other way
							want = refChoice(&view, legal, hp)
							if a := legal[e.choice(legal)]; a != want {
								t.Fatalf("game %d turn %d seat %d, moves reversed: choice %v, want %v", i, g.Turn(), seat, a, want)
							}
						}
					}
				}
				views++
			}
			// Mostly the heuristic's moves, so that games run long and
			// reach their ends; some random ones for variety.
			p := g.Waiting()[0]
			view := g.Private(p)
			legal = g.AppendLegalMoves(legal[:0], p)
			m := legal[rnd.IntN(len(legal))]
			if rnd.IntN(4) > 0 {
				m = refChoice(&view, legal, &heurBase)
			}
			if err := g.Apply(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	if moves < 100000 {
		t.Fatalf("only %d moves valued in %d views", moves, views)
	}
	t.Logf("%d views, %d moves valued", views, moves)
}
