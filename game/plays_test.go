package game

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// appendPlaysRef is appendPlays as it was before playLegal: every
// candidate play checked by checkPlay, the rules' own check (C6).
func (g *Game) appendPlaysRef(dst []Move, p int) []Move {
	hand := g.st.Hands[p]
	n := len(hand)
	var set [3]Card
	for mask := 1; mask < 1<<n; mask++ {
		k := 0
		for i := 0; i < n && k <= 3; i++ {
			if mask&(1<<i) != 0 {
				if k < 3 {
					set[k] = hand[i]
				}
				k++
			}
		}
		if k > 3 {
			continue
		}
		cards := set[:k]
		for _, c := range Colors {
			if !canCountAs(cards, c) {
				continue
			}
			var numbers uint16
			for _, card := range cards {
				numbers |= 1 << card.Number()
			}
			for sub := numbers; ; sub = (sub - 1) & numbers {
				m := PlayMove(p, c, cards)
				m.Cross = sub
				if _, _, e := g.checkPlay(m); e.Reason == 0 {
					dst = append(dst, m)
				}
				if sub == 0 {
					break
				}
			}
		}
	}
	return dst
}

// The fast listing of plays gives exactly the plays checkPlay allows, in
// the same order (C6, S2, S3), in the play action of many random games of
// both card variants and every table size; and the seat's sheet is also
// tried with every row state near a lock, where S3's five crosses matter.
func TestC6FastPlaysMatchCheckPlay(t *testing.T) {
	plays, moves := 0, 0
	for i := range 400 {
		v := Cards
		if i%2 == 1 {
			v = Jokers
		}
		n := MinPlayers + i%(MaxPlayers-MinPlayers+1)
		g, err := New(Config{Variant: v, Players: names[:n], Seed: seed(uint64(1000 + i))})
		if err != nil {
			t.Fatal(err)
		}
		rnd := rand.New(rand.NewPCG(uint64(i), 77))
		for !g.Over() {
			p := g.Waiting()[0]
			if g.Phase() == PhasePlay {
				want := g.appendPlaysRef(nil, p)
				got := g.appendPlays(nil, p)
				if !slices.Equal(got, want) {
					t.Fatalf("game %d turn %d: plays\n%v\nwant\n%v", i, g.Turn(), got, want)
				}
				// The same hand on other sheets: random rows, a quarter
				// of them locked.
				saved := g.st.Sheets[p]
				for trial := range 20 {
					for c := range g.st.Sheets[p].Rows {
						r := Row(rnd.Uint32N(1 << LastPos))
						if trial%4 == 0 {
							r |= 1 << LastPos
							r |= 1 << LockPos
						}
						g.st.Sheets[p].Rows[c] = r
					}
					want := g.appendPlaysRef(nil, p)
					got := g.appendPlays(nil, p)
					if !slices.Equal(got, want) {
						t.Fatalf("game %d turn %d sheet %v: plays\n%v\nwant\n%v", i, g.Turn(), g.st.Sheets[p], got, want)
					}
					moves += len(want)
				}
				g.st.Sheets[p] = saved
				plays++
				moves += len(want)
			}
			legal := g.LegalMoves(p)
			if err := g.Apply(legal[rnd.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if plays < 1000 || moves < 50000 {
		t.Fatalf("only %d play actions, %d plays compared", plays, moves)
	}
	t.Logf("%d play actions, %d plays compared", plays, moves)
}

// canCountAs reports whether cards can be played together as colour c.
func canCountAs(cards []Card, c Color) bool {
	for _, k := range cards {
		if !k.Joker() && k.Color() != c {
			return false
		}
	}
	return true
}
