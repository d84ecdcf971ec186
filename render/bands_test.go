package render

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/qwixxbot/qwixxbot/game"
)

// changedRows counts the rows from y0 on whose pixels differ between two
// pictures of the same size.
func changedRows(t *testing.T, a, b []byte, w, y0 int) int {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("pictures of %d and %d pixels", len(a), len(b))
	}
	n := 0
	for y := y0; y < len(a)/w; y++ {
		if !bytes.Equal(a[y*w:(y+1)*w], b[y*w:(y+1)*w]) {
			n++
		}
	}
	return n
}

// TestNewTurnRedrawsFewRows: when the turn passes on, a sheet changes in
// its header line (who is active) and where crosses were made, not in
// every row, so the PNG encoder compresses again only those bands
// (png.go). The bold outline of the active player's whole sheet changed
// every row of two sheets at every new turn.
func TestNewTurnRedrawsFewRows(t *testing.T) {
	for _, v := range []game.Variant{game.Dice, game.Cards} {
		g := newGame(t, v, 7, "Anna", "Ben", "Chloé")
		l := DefaultLabels()
		prev, err := TableImage(g.Public(), l)
		if err != nil {
			t.Fatal(err)
		}
		turns := 0
		for step := 0; step < 60 && !g.Over(); step++ {
			turn := g.Turn()
			if err := g.Apply(choose(g, g.Waiting()[0], 1)); err != nil {
				t.Fatal(err)
			}
			img, err := TableImage(g.Public(), l)
			if err != nil {
				t.Fatal(err)
			}
			if g.Turn() != turn {
				turns++
			}
			if img.Rect != prev.Rect {
				prev = img
				continue
			}
			// Each sheet: at most its header line and two rows of cells
			// (a player's white and coloured crosses).
			y := margin + topHeight(g.Public()) + gapY
			for p := range g.Public().Players {
				n := changedRows(t, prev.Pix[:(y+cPanelH)*img.Stride], img.Pix[:(y+cPanelH)*img.Stride], img.Stride, y)
				if limit := cHdrH + 2*cRowH; n > limit {
					t.Errorf("%v step %d (turn %d → %d): %d of the %d rows of player %d's sheet changed, want at most %d",
						v, step, turn, g.Turn(), n, cPanelH, p, limit)
				}
				y += cPanelH + cGapY
			}
			prev = img
		}
		if turns < 8 {
			t.Errorf("%v: only %d turns passed", v, turns)
		}
	}
}

// TestPNGAllocatedAtItsSize: a picture's bytes take no more memory than
// their length (the bot's picture cache counts lengths against its
// budget; a 128 KiB buffer per 40 KiB picture tripled what it held).
func TestPNGAllocatedAtItsSize(t *testing.T) {
	out, err := Table(dice4(t), DefaultLabels())
	if err != nil {
		t.Fatal(err)
	}
	// The allocator's size classes, and whole 8 KiB pages above 32 KiB.
	if cap(out) > len(out)+max(len(out)/16, 8<<10) {
		t.Fatalf("a picture of %d bytes holds %d", len(out), cap(out))
	}
}

// TestHandShowsOnlyTheHand: a hand's picture is the same whatever else
// the game shows (the bot keeps hand pictures under the variant, the
// seat, the players' names and the hand alone), and differs when the hand
// does.
func TestHandShowsOnlyTheHand(t *testing.T) {
	g := newGame(t, game.Cards, 5, "Anna", "Ben", "Chloé")
	l := DefaultLabels()
	const seat = 0
	byHand := map[string][]byte{}
	same := 0
	for step := 0; step < 80 && !g.Over(); step++ {
		v := g.Private(seat)
		png, err := Hand(v, l)
		if err != nil {
			t.Fatal(err)
		}
		key := fmt.Sprint(v.Hand)
		if before, ok := byHand[key]; ok {
			same++
			if !bytes.Equal(png, before) {
				t.Fatalf("step %d: hand %s drawn differently in another state of the game", step, key)
			}
		}
		for k, before := range byHand {
			if k != key && bytes.Equal(png, before) {
				t.Fatalf("step %d: hands %s and %s drawn the same", step, k, key)
			}
		}
		byHand[key] = png
		if err := g.Apply(choose(g, g.Waiting()[0], 1)); err != nil {
			t.Fatal(err)
		}
	}
	if same < 10 || len(byHand) < 3 {
		t.Fatalf("%d states with a hand seen before, %d hands: too little checked", same, len(byHand))
	}
}
