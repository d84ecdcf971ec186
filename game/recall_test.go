package game

import (
	"math/rand/v2"
	"testing"
)

// C4, C6, C10: what a player who remembers the game knows is true: the
// discard pile is the cards played since the last reshuffle, and every
// player holds at least the numbers Known says; a determinized game (the
// computer players' deal of the unseen cards) keeps both.
func TestC10RecallIsTrueAndDeterminizeKeepsIt(t *testing.T) {
	for _, v := range []Variant{Cards, Jokers} {
		discards, knowns := 0, 0
		for k, sm := range determinizeSamples(t, v) {
			d, err := Determinize(sm.view, rand.New(rand.NewPCG(uint64(k), 5)))
			if err != nil {
				t.Fatalf("sample %d: %v", k, err)
			}
			tb := sm.view.Table
			if len(tb.Discarded) != tb.DiscardSize {
				t.Fatalf("sample %d: %d cards discarded, %d listed", k, tb.DiscardSize, len(tb.Discarded))
			}
			if got := d.Public().Table.Discarded; len(got) != len(tb.Discarded) {
				t.Fatalf("sample %d: the deal's discard pile has %d cards, want %d", k, len(got), len(tb.Discarded))
			}
			for i, pc := range tb.Discarded {
				c := d.st.Discard[i]
				if c.Number() != pc.Number || c.Joker() != pc.Joker || (!c.Joker() && c.Color() != pc.Color) {
					t.Fatalf("sample %d: discard %d is %s in the deal, %+v remembered", k, i, c, pc)
				}
				discards++
			}
			for p, pv := range sm.view.Players {
				var count [13]int
				for _, c := range d.st.Hands[p] {
					count[c.Number()]++
				}
				for n, want := range pv.Known {
					if count[n] < int(want) {
						t.Fatalf("sample %d: player %d is known to hold %d× %d, the deal gives %d", k, p, want, n, count[n])
					}
					knowns += int(want)
				}
			}
		}
		if discards < 200 || knowns < 100 {
			t.Fatalf("%s: only %d discarded cards and %d known numbers checked", v, discards, knowns)
		}
	}
}

// Known holds in the real game too, and a restored game recomputes it.
func TestC4KnownNumbersAreHeldAndRestored(t *testing.T) {
	checked := 0
	for i := range 20 {
		v := Cards + Variant(i%2)
		g, err := New(Config{Variant: v, Players: names[:2+i%4], Seed: seed(uint64(900 + i))})
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(uint64(i), 1))
		for !g.Over() {
			for p, h := range g.st.Hands {
				var count [13]int
				for _, c := range h {
					count[c.Number()]++
				}
				for n, k := range g.st.Known[p] {
					if count[n] < int(k) {
						t.Fatalf("game %d: player %d is known to hold %d× %d, holds %d", i, p, k, n, count[n])
					}
					checked += int(k)
				}
			}
			p := g.Waiting()[0]
			legal := g.LegalMoves(p)
			if err := g.Apply(legal[r.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
		b, err := g.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		h, err := Restore(b)
		if err != nil {
			t.Fatal(err)
		}
		for p := range g.st.Known {
			if h.st.Known[p] != g.st.Known[p] {
				t.Fatalf("game %d: restored Known %v, want %v", i, h.st.Known[p], g.st.Known[p])
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d known numbers checked", checked)
	}
}
