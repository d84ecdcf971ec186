package game

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// A clone is the same game, independent of the original: played on with
// the same moves both stay identical (the generator included: the same
// dice and shuffles), and moves made in the clone leave the original as
// it was. Checked at every move of whole random games of each variant,
// and for a game replayed from a record (its script of chance outcomes).
func TestCloneIsIndependentAndIdentical(t *testing.T) {
	for _, v := range []Variant{Dice, Cards, Jokers} {
		for s := range uint64(3) {
			playRandom(t, v, 2+int(s), s+11, func(_ observed, g *Game, _ Move) {
				checkClone(t, g, s)
			})
		}
	}
	rec := playRandom(t, Cards, 3, 5, nil).Record()
	g, err := Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	checkClone(t, g, 1)
}

func checkClone(t *testing.T, g *Game, s uint64) {
	t.Helper()
	if g.Over() {
		return
	}
	before, err := g.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	c := g.Clone()
	if got, _ := c.MarshalBinary(); !bytes.Equal(got, before) {
		t.Fatal("the clone differs from the original")
	}
	// Play the clone on a few moves; then the original the same moves.
	r := rand.New(rand.NewPCG(s, 7))
	var moves []Move
	for range 3 {
		if c.Over() {
			break
		}
		w := c.Waiting()
		legal := c.LegalMoves(w[r.IntN(len(w))])
		m := legal[r.IntN(len(legal))]
		if err := c.Apply(m); err != nil {
			t.Fatal(err)
		}
		moves = append(moves, m)
	}
	if after, _ := g.MarshalBinary(); !bytes.Equal(after, before) {
		t.Fatal("moves in the clone changed the original")
	}
	o := g.Clone() // the original stays untouched by this check
	for _, m := range moves {
		if err := o.Apply(m); err != nil {
			t.Fatalf("a move of the clone refused in the original: %v", err)
		}
	}
	a, _ := o.MarshalBinary()
	b, _ := c.MarshalBinary()
	if !bytes.Equal(a, b) {
		t.Fatal("the same moves led the clone and the original apart (the generator?)")
	}
}

// CloneInto gives the same copy as Clone, however stale the game whose
// memory it reuses, and the copy is as independent of the original.
func TestCloneIntoIsClone(t *testing.T) {
	var dst *Game
	copies := 0
	for _, v := range []Variant{Cards, Dice, Jokers} {
		for s := range uint64(3) {
			playRandom(t, v, 2+int(s), s+21, func(_ observed, g *Game, _ Move) {
				if g.Over() {
					return
				}
				before, _ := g.MarshalBinary()
				dst = g.CloneInto(dst)
				if got, _ := dst.MarshalBinary(); !bytes.Equal(got, before) {
					t.Fatalf("%s: CloneInto differs from the original:\n%s\n%s", v, got, before)
				}
				c := g.Clone()
				r := rand.New(rand.NewPCG(s, 8))
				for range 4 {
					if dst.Over() {
						break
					}
					w := dst.Waiting()
					legal := dst.LegalMoves(w[r.IntN(len(w))])
					m := legal[r.IntN(len(legal))]
					if err := dst.Apply(m); err != nil {
						t.Fatal(err)
					}
					if err := c.Apply(m); err != nil {
						t.Fatal(err)
					}
				}
				if after, _ := g.MarshalBinary(); !bytes.Equal(after, before) {
					t.Fatal("moves in the copy changed the original")
				}
				a, _ := dst.MarshalBinary()
				b, _ := c.MarshalBinary()
				if !bytes.Equal(a, b) {
					t.Fatal("the same moves led CloneInto's copy and Clone's apart")
				}
				copies++
			})
		}
	}
	if copies < 300 {
		t.Fatalf("only %d copies checked", copies)
	}
}
