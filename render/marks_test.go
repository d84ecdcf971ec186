package render

import (
	"image"
	"math"
	"slices"
	"testing"

	"github.com/qwixxbot/qwixxbot/game"
)

// Colour vision. The simulations are the matrices of Machado, Oliveira and
// Fernandes (2009) at severity 1.0, applied to linear RGB; "grey" is what a
// greyscale print or a monochromat sees (relative luminance).

type vision struct {
	name string
	m    [3][3]float64 // nil matrix: greyscale
	grey bool
}

var visions = []vision{
	{name: "normal", m: [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}},
	{name: "deuteranopia", m: [3][3]float64{{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}}},
	{name: "protanopia", m: [3][3]float64{{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}}},
	{name: "tritanopia", m: [3][3]float64{{1.255528, -0.076749, -0.178779}, {-0.078411, 0.930809, 0.147602}, {0.004733, 0.691367, 0.303900}}},
	{name: "greyscale", grey: true},
}

func toLinear(v uint8) float64 {
	c := float64(v) / 255
	if c <= 0.04045 {
		return c / 12.92
	}
	return math.Pow((c+0.055)/1.055, 2.4)
}

// lab is a colour in CIE L*a*b* (D65).
type lab struct{ l, a, b float64 }

// see is palette colour c as someone with vision v sees it, in L*a*b*.
func (v vision) see(c rgb) lab {
	lin := [3]float64{toLinear(c.r), toLinear(c.g), toLinear(c.b)}
	var s [3]float64
	if v.grey {
		y := 0.2126*lin[0] + 0.7152*lin[1] + 0.0722*lin[2]
		s = [3]float64{y, y, y}
	} else {
		for i := range 3 {
			for j := range 3 {
				s[i] += v.m[i][j] * lin[j]
			}
			s[i] = math.Min(1, math.Max(0, s[i]))
		}
	}
	x := (0.4124*s[0] + 0.3576*s[1] + 0.1805*s[2]) / 0.95047
	y := 0.2126*s[0] + 0.7152*s[1] + 0.0722*s[2]
	z := (0.0193*s[0] + 0.1192*s[1] + 0.9505*s[2]) / 1.08883
	f := func(t float64) float64 {
		if t > 0.008856 {
			return math.Cbrt(t)
		}
		return 7.787*t + 16.0/116
	}
	return lab{116*f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))}
}

// deltaE is the CIE76 colour difference.
func deltaE(p, q lab) float64 { return math.Sqrt(sq(p.l-q.l) + sq(p.a-q.a) + sq(p.b-q.b)) }

func sq(x float64) float64 { return x * x }

// lightness is the mean L* of r in img as seen in greyscale.
func lightness(img *image.Paletted, r image.Rectangle) float64 {
	grey := visions[len(visions)-1]
	sum := 0.0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			sum += grey.see(paletteRGB[img.ColorIndexAt(x, y)]).l
		}
	}
	return sum / float64(r.Dx()*r.Dy())
}

// markMask is the set of pixels of r whose colour, as v sees it, is far
// from the colour ground (a die's body, a card's face): what is left of a
// marking when its colour is not told apart from the ground's.
func markMask(img *image.Paletted, r image.Rectangle, ground uint8, v vision) []bool {
	g := v.see(paletteRGB[ground])
	out := make([]bool, 0, r.Dx()*r.Dy())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			out = append(out, deltaE(v.see(paletteRGB[img.ColorIndexAt(x, y)]), g) > 25)
		}
	}
	return out
}

// maskDiff is the share of the union of two masks that only one covers.
func maskDiff(a, b []bool) float64 {
	union, xor := 0, 0
	for i := range a {
		if a[i] || b[i] {
			union++
		}
		if a[i] != b[i] {
			xor++
		}
	}
	if union == 0 {
		return 0
	}
	return float64(xor) / float64(union)
}

// minShapeDiff is the share of two markings' area that must differ for
// them to count as different shapes. The row symbols have about the same
// area, so two of them differ in a modest share (the red and green dice's
// pips in 17 % or more), while the same shape drawn twice differs in none
// (round pips on both dice: 0 %).
const minShapeDiff = 0.1

// dieAlone draws die i showing d alone on paper, and the face's inside
// (without the rounded corners and the outline).
func dieAlone(i, d int) (*image.Paletted, image.Rectangle) {
	c := newCanvas(dieS+8, dieS+8, cPaper)
	drawDie(c, i, d, 4, 4)
	return c.p, image.Rect(4, 4, 4+dieS, 4+dieS).Inset(5)
}

// Colour-blind: every two dice that are not both white are told apart,
// under each vision, by the colour of their bodies or, where the bodies look
// alike, by the shape of their pips, for every pair of values. The red and
// green dice, which deuteranopia and protanopia turn into two olives, differ
// in the shape of their pips whatever they show.
func TestDiceToldApartWithoutColour(t *testing.T) {
	for _, v := range visions {
		for i := 0; i < 6; i++ {
			for j := max(i+1, 2); j < 6; j++ {
				bi, _, _, _ := dieColors(i)
				bj, _, _, _ := dieColors(j)
				body := deltaE(v.see(paletteRGB[bi]), v.see(paletteRGB[bj]))
				for d := 1; d <= 6; d++ {
					ai, r := dieAlone(i, d)
					aj, _ := dieAlone(j, d)
					shape := maskDiff(markMask(ai, r, bi, v), markMask(aj, r, bj, v))
					if body < 20 && shape < minShapeDiff {
						t.Errorf("%s: dice %d and %d showing %d look alike: bodies ΔE %.1f, pips differ in %.0f %% of their area", v.name, i+1, j+1, d, body, 100*shape)
					}
				}
			}
		}
	}
	red, green := game.DieOf(game.Red), game.DieOf(game.Green)
	for _, name := range []string{"deuteranopia", "protanopia"} {
		v := visions[slices.IndexFunc(visions, func(v vision) bool { return v.name == name })]
		br, _, _, _ := dieColors(red)
		bg, _, _, _ := dieColors(green)
		t.Logf("%s: red and green die bodies ΔE %.1f", name, deltaE(v.see(paletteRGB[br]), v.see(paletteRGB[bg])))
		least := 1.0
		for d := 1; d <= 6; d++ {
			ar, r := dieAlone(red, d)
			ag, _ := dieAlone(green, d)
			s := maskDiff(markMask(ar, r, br, v), markMask(ag, r, bg, v))
			if s < minShapeDiff {
				t.Errorf("%s: red and green dice showing %d: pips differ in only %.0f %% of their area", name, d, 100*s)
			}
			least = min(least, s)
		}
		t.Logf("%s: red and green dice's pips differ in at least %.0f %% of their area", name, 100*least)
	}
}

// A die that left the game (D7) still shows which it was: its symbol in
// its dashed outline.
func TestGoneDieKeepsItsSymbol(t *testing.T) {
	var masks [][]bool
	for _, col := range game.Colors {
		img, r := dieAlone(game.DieOf(col), 0)
		m := markMask(img, r, cPaper, visions[len(visions)-1])
		masks = append(masks, m)
	}
	for a := range masks {
		for b := a + 1; b < len(masks); b++ {
			if s := maskDiff(masks[a], masks[b]); s < minShapeDiff {
				t.Errorf("gone dice %v and %v look alike (%.0f %%)", game.Colors[a], game.Colors[b], 100*s)
			}
		}
	}
}

// This turn's crosses stand out in greyscale on every row, locked rows
// included: the cell's mean lightness differs from that of the cells beside
// it, an earlier cross, a passed and an open cell, by a clear margin (L* 30
// of 100; the orange cells before differed by 14 to 29), and the lock
// crossed this turn differs from an earlier lock in a large part of its
// cell.
func TestFreshCrossShowsInGreyscale(t *testing.T) {
	if err := loadFonts(); err != nil {
		t.Fatal(err)
	}
	art := rowArtwork()
	grey := visions[len(visions)-1]
	names := [numStates]string{"open", "passed", "crossed", "fresh"}
	least := 100.0
	defer func() { t.Logf("this turn's cross differs from the other cells by L* %.1f or more", least) }()
	for dim := range 2 {
		for _, c := range game.Colors {
			r := cellRect(c, 4).Inset(3)
			fresh := lightness(art[dim][stFresh], r)
			for _, st := range []int{stPlain, stPassed, stCrossed} {
				d := math.Abs(fresh - lightness(art[dim][st], r))
				least = min(least, d)
				if d < 30 {
					t.Errorf("%v row (dimmed %v): this turn's cross and a %s cell differ by L* %.1f in greyscale", c, dim == 1, names[st], d)
				}
			}
			lr := cellRect(c, game.LockPos)
			differ := 0
			for y := lr.Min.Y; y < lr.Max.Y; y++ {
				for x := lr.Min.X; x < lr.Max.X; x++ {
					p := grey.see(paletteRGB[art[dim][stFresh].ColorIndexAt(x, y)])
					q := grey.see(paletteRGB[art[dim][stCrossed].ColorIndexAt(x, y)])
					if math.Abs(p.l-q.l) > 25 {
						differ++
					}
				}
			}
			if share := float64(differ) / float64(lr.Dx()*lr.Dy()); share < 0.2 {
				t.Errorf("%v row (dimmed %v): the lock crossed this turn differs from an earlier lock in %.0f %% of its cell in greyscale", c, dim == 1, 100*share)
			}
		}
	}
}

// The cards just played carry their row's symbol large enough to read
// without the colour: under each vision two played cards of different
// colours with the same number differ in their markings.
func TestPlayedCardSymbols(t *testing.T) {
	l := DefaultLabels()
	if err := loadFonts(); err != nil {
		t.Fatal(err)
	}
	for _, v := range visions {
		for _, joker := range []bool{false, true} {
			var masks [][]bool
			for _, col := range game.Colors {
				c := newCanvas(tcW, tcH, cPaper)
				playedCard(c, l, 0, 0, game.PlayedCard{Number: 7, Joker: joker, Color: col})
				// The symbol's part of the face.
				sy := playedSymbolY(joker)
				r := image.Rect(tcW/2-playedSymR-2, sy-playedSymR-2, tcW/2+playedSymR+2, sy+playedSymR+2)
				masks = append(masks, markMask(c.p, r, rowC(col, sBg), v))
			}
			for a := range masks {
				for b := a + 1; b < len(masks); b++ {
					bodies := deltaE(v.see(baseRGB[rowC(game.Colors[a], sBg)]), v.see(baseRGB[rowC(game.Colors[b], sBg)]))
					if s := maskDiff(masks[a], masks[b]); s < minShapeDiff && bodies < 20 {
						t.Errorf("%s: played %v and %v cards (joker %v) look alike: faces ΔE %.1f, markings differ in %.0f %%", v.name, game.Colors[a], game.Colors[b], joker, bodies, 100*s)
					}
				}
			}
		}
	}
}

// The joker's stripe has the four row colours and nothing else, in four
// equal bands.
func TestJokerStripeIsTheFourRowColours(t *testing.T) {
	c := newCanvas(100, 10, cPaper)
	rainbow(c, 0, 0, 100, 10)
	count := map[uint8]int{}
	for _, ci := range c.p.Pix {
		count[ci]++
	}
	if len(count) != game.NumColors {
		t.Fatalf("the stripe has %d colours, want the %d row colours: %v", len(count), game.NumColors, count)
	}
	for _, col := range game.Colors {
		if n := count[rowC(col, sBg)]; n != 250 {
			t.Errorf("%v: %d pixels of 1000, want 250", col, n)
		}
	}
}

// withChoices is a dice game in action 2 whose active player has several
// crosses to choose from, and the cells those would cross (from the
// engine's legal moves).
func withChoices(t testing.TB) (game.PublicView, int, []Cell) {
	var cells []Cell
	g := find(t, game.Dice, []string{"Anna", "Ben", "Chloé"}, func(g *game.Game) bool {
		if g.Phase() != game.PhaseColor || g.Turn() < 6 {
			return false
		}
		cells = cells[:0]
		d := g.Dice()
		for _, m := range g.LegalMoves(g.Active()) {
			if m.Kind == game.Colored {
				c := Cell{m.Color, d[m.White-1] + d[game.DieOf(m.Color)]}
				if !slices.Contains(cells, c) {
					cells = append(cells, c)
				}
			}
		}
		return len(cells) >= 4
	})
	return g.Public(), g.Active(), cells
}

// findRings lists the centres where the choice ring is drawn: every pixel
// of its dashes is ink and every pixel between them is not.
func findRings(img *image.Paletted) []image.Point {
	m := choiceRing(ringRX, ringRY, ringW, ringDashes, ringDash)
	full := choiceRing(ringRX, ringRY, ringW, ringDashes, 1) // no gaps
	var on, off []image.Point
	for y := range m.h {
		for x := range m.w {
			p := image.Pt(x+m.ox, y+m.oy)
			switch a := m.pix[y*m.w+x]; {
			case a == 255:
				on = append(on, p)
			case a == 0 && full.pix[y*m.w+x] == 255:
				off = append(off, p)
			}
		}
	}
	if len(on) < 100 || len(off) < 50 {
		panic("findRings: the ring has too few pixels to look for")
	}
	var out []image.Point
	b := img.Rect
	for cy := b.Min.Y - m.oy; cy < b.Max.Y-m.oy-m.h; cy++ {
	next:
		for cx := b.Min.X - m.ox; cx < b.Max.X-m.ox-m.w; cx++ {
			for _, p := range on {
				if img.Pix[(cy+p.Y)*img.Stride+cx+p.X] != cInk {
					continue next
				}
			}
			for _, p := range off {
				if img.Pix[(cy+p.Y)*img.Stride+cx+p.X] == cInk {
					continue next
				}
			}
			out = append(out, image.Pt(cx, cy))
		}
	}
	return out
}

// The private sheet marks exactly the cells the player's current choices
// would cross, one ring each; without choices, and on the public table,
// there is none (RULES C10: nothing private on the public table).
func TestSheetChoicesMarked(t *testing.T) {
	l := DefaultLabels()
	v, seat, cells := withChoices(t)
	img, err := SheetImage(v, seat, l, cells...)
	if err != nil {
		t.Fatal(err)
	}
	var want []image.Point
	y0 := margin + topHeight(v) + gapY
	for _, c := range cells {
		r := cellRect(c.Color, game.Position(c.Color, c.Number))
		want = append(want, image.Pt(margin+r.Min.X+pitch/2, y0+r.Min.Y+rowH/2))
	}
	got := findRings(img)
	slices.SortFunc(want, cmpPoint)
	if !slices.Equal(got, want) {
		t.Errorf("rings at %v, want them at the cells %v: %v", got, cells, want)
	}
	plain, err := SheetImage(v, seat, l)
	if err != nil {
		t.Fatal(err)
	}
	table, err := TableImage(v, l)
	if err != nil {
		t.Fatal(err)
	}
	for name, im := range map[string]*image.Paletted{"sheet without choices": plain, "table": table} {
		if r := findRings(im); len(r) > 0 {
			t.Errorf("%s: rings at %v", name, r)
		}
	}
	// Only the choices' cells change.
	for y := range img.Rect.Dy() {
		for x := range img.Rect.Dx() {
			if img.ColorIndexAt(x, y) == plain.ColorIndexAt(x, y) {
				continue
			}
			in := false
			for _, p := range want {
				in = in || image.Rect(p.X-pitch/2, p.Y-rowH/2, p.X+pitch/2, p.Y+rowH/2).Overlaps(image.Rect(x, y, x+1, y+1))
			}
			if !in {
				t.Fatalf("pixel %d,%d changed outside the chosen cells", x, y)
			}
		}
	}
	// Cells that are not on the sheet's open part are ignored.
	odd, err := SheetImage(v, seat, l, Cell{game.Red, 13}, Cell{game.Color(9), 5})
	if err != nil {
		t.Fatal(err)
	}
	if d := diffPixels(odd, plain); d != "" {
		t.Errorf("cells off the sheet drew something: %s", d)
	}
}

func cmpPoint(a, b image.Point) int {
	if a.Y != b.Y {
		return a.Y - b.Y
	}
	return a.X - b.X
}

// The rings show under every vision: ink on each row's open cell differs
// from the cell by ΔE over 50.
func TestChoiceRingContrast(t *testing.T) {
	for _, v := range visions {
		for _, c := range game.Colors {
			for _, bg := range []uint8{rowC(c, sTint), rowC(c, sDimTint)} {
				if d := deltaE(v.see(baseRGB[cInk]), v.see(baseRGB[bg])); d < 50 {
					t.Errorf("%s: ring on a %v cell: ΔE %.1f", v.name, c, d)
				}
			}
		}
	}
}
