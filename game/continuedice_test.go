package game

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestD4ContinueDiceGoesOnAsTheGame: a dice game continued from a seat's
// view shows that seat the same view (but for the hidden choices of
// action 1, D4: nobody has decided), passes Validate, and the moves the
// real game makes until the next roll lead it to the same sheets, open
// rows, misthrows (D6) and end (D9).
func TestD4ContinueDiceGoesOnAsTheGame(t *testing.T) {
	checked, ended, midColor := 0, 0, 0
	for i := range 40 {
		s := uint64(9100 + i)
		players := 1 + i%5
		g, err := New(Config{Variant: Dice, Players: names[:players], Seed: seed(s)})
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(s, 3))
		var buf []Move
		step := func() {
			w := g.Waiting()
			p := w[r.IntN(len(w))]
			buf = g.AppendLegalMoves(buf[:0], p)
			if err := g.Apply(buf[r.IntN(len(buf))]); err != nil {
				t.Fatal(err)
			}
		}
		for !g.Over() {
			// Some moments mid-turn: decided in action 1, or in action 2.
			for k := r.IntN(3); k > 0 && !g.Over(); k-- {
				step()
			}
			if g.Over() {
				break
			}
			if g.Phase() == PhaseColor {
				midColor++
			}
			seat := r.IntN(players)
			v := g.Private(seat)
			c, err := ContinueDice(v, seed(s+1000))
			if err != nil {
				t.Fatalf("game %d turn %d: %v", i, g.Turn(), err)
			}
			want := v
			want.Players = append([]PlayerView(nil), v.Players...)
			for p := range want.Players {
				want.Players[p].Decided = false
			}
			if got := c.Private(seat); !reflect.DeepEqual(got, want) {
				t.Fatalf("game %d turn %d: continued view\n%+v\nwant\n%+v", i, g.Turn(), got, want)
			}
			// The moves of the real game until the next roll; the
			// choices already made in action 1 first.
			turn := g.Turn()
			if g.Phase() == PhaseWhite {
				for p := range players {
					if m, ok := g.Decision(p); ok {
						if err := c.Apply(m); err != nil {
							t.Fatalf("game %d: decided %v refused: %v", i, m, err)
						}
					}
				}
			}
			for !g.Over() && g.Turn() == turn {
				step()
				m := g.st.Log.Moves[len(g.st.Log.Moves)-1]
				if err := c.Apply(m); err != nil {
					t.Fatalf("game %d turn %d: %v refused in the continued game: %v", i, turn, m, err)
				}
			}
			if err := c.Validate(); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(c.st.Sheets, g.st.Sheets) || c.st.Closed != g.st.Closed || c.st.End != g.st.End ||
				c.st.Active != g.st.Active || c.st.Turn != g.st.Turn {
				t.Fatalf("game %d turn %d: the continued game went elsewhere:\n%+v %v %v\nwant\n%+v %v %v", i, turn,
					c.st.Sheets, c.st.Closed, c.st.End, g.st.Sheets, g.st.Closed, g.st.End)
			}
			checked++
			if g.Over() {
				ended++
			}
		}
	}
	if checked < 200 || ended == 0 || midColor < 20 {
		t.Fatalf("%d moments checked, %d in action 2, %d ends: too few", checked, midColor, ended)
	}
}

// TestD1ContinueDiceRefusesOtherViews: only a dice game going on can be
// continued.
func TestD1ContinueDiceRefusesOtherViews(t *testing.T) {
	g, err := New(Config{Variant: Cards, Players: names[:2], Seed: seed(1)})
	if err != nil {
		t.Fatal(err)
	}
	if c, err := ContinueDice(g.Private(0), seed(2)); err == nil || c != nil {
		t.Fatalf("card game continued: %v", err)
	}
	d, err := New(Config{Variant: Dice, Players: names[:2], Seed: seed(1)})
	if err != nil {
		t.Fatal(err)
	}
	v := d.Private(0)
	v.Phase = PhaseOver
	if c, err := ContinueDice(v, seed(2)); err == nil || c != nil {
		t.Fatalf("ended game continued: %v", err)
	}
	v = d.Private(0)
	v.Dice[White1] = 7
	if c, err := ContinueDice(v, seed(2)); err == nil || c != nil {
		t.Fatalf("die showing 7 continued: %v", err)
	}
}
