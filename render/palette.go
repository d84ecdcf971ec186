package render

import (
	"image/color"
	"sync"

	"github.com/qwixxbot/qwixxbot/game"
)

// The renderer draws into an image.Paletted with one fixed palette. Every
// shape and glyph is drawn with a base colour (an "ink") over whatever is
// already there; antialiased edges take the palette entry nearest to the true
// blend, looked up in a table built once per ink. The palette holds the base
// colours and, for the ink/background pairs that occur most, a ramp of blends,
// so edges stay smooth while the image stays 8 bits per pixel.

// Base colours (palette indices).
const (
	cPage     = iota // page background
	cPaper           // sheet paper
	cInk             // crosses, text
	cInkSoft         // secondary text
	cLine            // thin borders
	cPassBg          // passed-over cell
	cPassFg          // passed-over number
	cFresh           // this turn's crosses: the X on an ink cell
	cCard            // card back (neutral side)
	cCardEdge        // card border
	cCardInk         // number on the neutral side
	cGold            // winner star
	cGood            // "decided" badge
	cJoker           // joker card face
	cHeader          // header band of a sheet
	cRowBase         // first of the row colours: numShades per colour
)

// Shades of each row colour.
const (
	sBg      = iota // row band
	sTint           // number cell
	sDark           // printed number
	sDimBg          // band of a locked row
	sDimTint        // cell of a locked row
	sDimDark        // number of a locked row
	sSymbol         // row symbol on the band
	numShades
)

const numBase = cRowBase + game.NumColors*numShades

// rowC is the palette index of shade s of row colour c.
func rowC(c game.Color, s int) uint8 { return uint8(cRowBase + int(c)*numShades + s) }

type rgb struct{ r, g, b uint8 }

var baseRGB = func() [numBase]rgb {
	var b [numBase]rgb
	b[cPage] = rgb{0xE8, 0xE4, 0xDA}
	b[cPaper] = rgb{0xFF, 0xFF, 0xFF}
	b[cInk] = rgb{0x17, 0x17, 0x1A}
	b[cInkSoft] = rgb{0x5C, 0x5A, 0x58}
	b[cLine] = rgb{0xA8, 0xA3, 0x99}
	b[cPassBg] = rgb{0xC9, 0xC6, 0xC0}
	b[cPassFg] = rgb{0x7A, 0x77, 0x72}
	b[cFresh] = rgb{0xFF, 0x96, 0x00}
	b[cCard] = rgb{0xF4, 0xEC, 0xD8}
	b[cCardEdge] = rgb{0x8A, 0x7C, 0x60}
	b[cCardInk] = rgb{0x4A, 0x40, 0x30}
	b[cGold] = rgb{0xF0, 0xB0, 0x00}
	b[cGood] = rgb{0x1F, 0x7A, 0x4D}
	b[cJoker] = rgb{0x22, 0x22, 0x28}
	b[cHeader] = rgb{0xF3, 0xF0, 0xE9}
	// Row colours: besides hue they differ in lightness (yellow light, red
	// medium, green darker, blue darkest) and every row carries a symbol.
	rows := [game.NumColors][3]rgb{
		{{0xE0, 0x34, 0x30}, {0xFC, 0xDD, 0xDB}, {0x9A, 0x15, 0x12}}, // red
		{{0xF6, 0xC3, 0x00}, {0xFF, 0xF5, 0xC4}, {0x6E, 0x55, 0x00}}, // yellow
		{{0x16, 0x6B, 0x34}, {0xD2, 0xEC, 0xD9}, {0x0C, 0x4A, 0x22}}, // green
		{{0x1D, 0x47, 0xA3}, {0xD6, 0xE0, 0xF6}, {0x12, 0x2E, 0x6E}}, // blue
	}
	// Locked rows keep a trace of their colour but turn mostly grey.
	grey := rgb{0xB4, 0xB2, 0xAE}
	for c, r := range rows {
		i := cRowBase + c*numShades
		b[i+sBg], b[i+sTint], b[i+sDark] = r[0], r[1], r[2]
		b[i+sDimBg] = blend(r[0], grey, 0.35)
		b[i+sDimTint] = blend(r[1], rgb{0xEC, 0xEB, 0xE8}, 0.3)
		b[i+sDimDark] = blend(r[2], rgb{0x90, 0x8E, 0x8A}, 0.3)
		b[i+sSymbol] = b[cPaper]
	}
	b[cRowBase+int(game.Yellow)*numShades+sSymbol] = b[cInk]
	return b
}()

// blend mixes a over b: t=1 is all a.
func blend(a, b rgb, t float64) rgb {
	f := func(x, y uint8) uint8 { return uint8(float64(x)*t + float64(y)*(1-t) + 0.5) }
	return rgb{f(a.r, b.r), f(a.g, b.g), f(a.b, b.b)}
}

// rampPairs are the ink/background pairs that get a ramp of blends in the
// palette: mostly text and crosses on their usual backgrounds.
func rampPairs() (fine, coarse [][2]uint8) {
	fine = [][2]uint8{
		{cInk, cPaper}, {cInk, cPage}, {cInk, cHeader}, {cInkSoft, cPaper}, {cInkSoft, cPage},
		{cPaper, cInk}, {cCardInk, cCard}, {cFresh, cInk}, {cPassFg, cPassBg}, {cPaper, cJoker},
		{cInkSoft, cHeader}, {cInk, cCard},
	}
	coarse = [][2]uint8{
		{cPaper, cPage}, {cLine, cPaper}, {cLine, cPage}, {cInk, cPassBg},
		{cGold, cPaper}, {cGood, cPaper}, {cCardEdge, cPage}, {cCard, cCardEdge}, {cPaper, cGood},
		{cHeader, cPaper}, {cInkSoft, cPassBg}, {cPaper, cInkSoft},
	}
	for _, c := range game.Colors {
		fine = append(fine,
			[2]uint8{rowC(c, sDark), rowC(c, sTint)},
			[2]uint8{cInk, rowC(c, sTint)},
			[2]uint8{rowC(c, sSymbol), rowC(c, sBg)},
			[2]uint8{rowC(c, sDimDark), rowC(c, sDimTint)},
		)
		coarse = append(coarse,
			[2]uint8{rowC(c, sBg), cPaper},
			[2]uint8{rowC(c, sTint), rowC(c, sBg)},
			[2]uint8{rowC(c, sDimBg), cPaper},
			[2]uint8{rowC(c, sDimTint), rowC(c, sDimBg)},
			[2]uint8{cInk, rowC(c, sDimTint)},
			[2]uint8{cPassBg, rowC(c, sBg)},
			[2]uint8{cInk, rowC(c, sBg)},
			[2]uint8{cInk, rowC(c, sDimBg)},
			[2]uint8{rowC(c, sBg), cPage},
			[2]uint8{rowC(c, sBg), cCard},
		)
	}
	return fine, coarse
}

// palette is the fixed palette of every image.
var palette, paletteRGB = func() (color.Palette, []rgb) {
	cols := make([]rgb, 0, 256)
	cols = append(cols, baseRGB[:]...)
	seen := map[rgb]bool{}
	for _, c := range cols {
		seen[c] = true
	}
	add := func(c rgb) {
		if len(cols) < 256 && !seen[c] {
			seen[c] = true
			cols = append(cols, c)
		}
	}
	fine, coarse := rampPairs()
	for _, p := range fine {
		for _, t := range []float64{0.2, 0.4, 0.6, 0.8} {
			add(blend(baseRGB[p[0]], baseRGB[p[1]], t))
		}
	}
	for _, p := range coarse {
		for _, t := range []float64{0.35, 0.7} {
			add(blend(baseRGB[p[0]], baseRGB[p[1]], t))
		}
	}
	pal := make(color.Palette, len(cols))
	for i, c := range cols {
		pal[i] = color.RGBA{c.r, c.g, c.b, 0xFF}
	}
	return pal, cols
}()

// Palette returns a copy of the fixed palette every image uses.
func Palette() color.Palette { return append(color.Palette(nil), palette...) }

// levels is the number of alpha steps of the blend tables (0 and levels
// included: 0 keeps the background, levels is the ink itself).
const levels = 16

// alphaLevel maps a mask alpha to a blend level.
var alphaLevel = func() (t [256]uint8) {
	for a := range t {
		t[a] = uint8((a*levels + 127) / 255)
	}
	return t
}()

// mixTable[bg][level] is the palette index nearest to ink blended over bg.
type mixTable [256][levels + 1]uint8

var (
	mixOnce [numBase]sync.Once
	mixTabs [numBase]*mixTable
)

// mixFor returns the blend table of ink colour fg, building it on first use.
func mixFor(fg uint8) *mixTable {
	mixOnce[fg].Do(func() {
		t := new(mixTable)
		ink := baseRGB[fg]
		for bg := range palette {
			t[bg][0] = uint8(bg)
			for l := 1; l < levels; l++ {
				t[bg][l] = nearest(blend(ink, paletteRGB[bg], float64(l)/levels))
			}
			t[bg][levels] = fg
		}
		mixTabs[fg] = t
	})
	return mixTabs[fg]
}

// nearest is the palette index closest to c (weighted RGB distance).
func nearest(c rgb) uint8 {
	best, bestD := 0, 1<<62
	for i, p := range paletteRGB {
		dr, dg, db := int(c.r)-int(p.r), int(c.g)-int(p.g), int(c.b)-int(p.b)
		d := 3*dr*dr + 4*dg*dg + 2*db*db
		if d < bestD {
			best, bestD = i, d
			if d == 0 {
				break
			}
		}
	}
	return uint8(best)
}
