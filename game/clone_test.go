package game

import (
	"bytes"
	stdjson "encoding/json"
	"math/rand/v2"
	"reflect"
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

// A snapshot encodes only the moves made since the last one (the log is
// only appended to): at every move of whole random games of each variant,
// the snapshot written that way is byte for byte the one written from
// scratch (by a restored copy, which has encoded nothing yet), says what
// the plain encoding of the state says, and restores the same game; a
// clone that went its own way writes its own moves.
func TestSnapshotWrittenIncrementally(t *testing.T) {
	for _, v := range []Variant{Dice, Cards, Jokers} {
		for s := range uint64(2) {
			step := 0
			playRandom(t, v, 2+2*int(s), s+21, func(_ observed, g *Game, _ Move) {
				step++
				data, err := g.MarshalBinary()
				if err != nil {
					t.Fatal(err)
				}
				r, err := Restore(data)
				if err != nil {
					t.Fatalf("%v step %d: %v", v, step, err)
				}
				again, _ := r.MarshalBinary()
				if !bytes.Equal(again, data) {
					t.Fatalf("%v step %d: the snapshot written move by move differs from one written at once", v, step)
				}
				if step%7 != 0 {
					return
				}
				rnd, _ := g.src.MarshalBinary()
				plain, err := stdjson.Marshal(snapshot{Version: StateVersion, State: g.st, Rand: rnd})
				if err != nil {
					t.Fatal(err)
				}
				var a, b any
				if stdjson.Unmarshal(data, &a) != nil || stdjson.Unmarshal(plain, &b) != nil || !reflect.DeepEqual(a, b) {
					t.Fatalf("%v step %d: the snapshot says other than the state's plain JSON", v, step)
				}
				c := g.Clone()
				if c.Over() {
					return
				}
				if legal := c.LegalMoves(c.Waiting()[0]); len(legal) > 0 {
					if err := c.Apply(legal[len(legal)-1]); err != nil {
						t.Fatal(err)
					}
					cd, _ := c.MarshalBinary()
					cr, err := Restore(cd)
					if err != nil {
						t.Fatal(err)
					}
					if len(cr.st.Log.Moves) != len(g.st.Log.Moves)+1 {
						t.Fatalf("%v step %d: the clone's snapshot holds %d moves, want %d", v, step, len(cr.st.Log.Moves), len(g.st.Log.Moves)+1)
					}
				}
			})
		}
	}
}
