package render

import (
	"fmt"
	"image"
	"sync"
	"unicode/utf8"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// face is a font at one size with a glyph cache. Glyph masks are rendered
// once (at integer pixel positions) and then shared by every goroutine; the
// opentype face itself is not safe for concurrent use, so it is only touched
// under mu.
type face struct {
	mu     sync.Mutex
	f      font.Face
	size   float64 // the font size in pixels
	capH   int     // height of the digits and capitals
	glyphs sync.Map
}

type glyph struct {
	m   mask
	adv fixed.Int26_6
}

// Faces used by the layouts, by role.
var (
	fNum      *face // numbers in the sheet cells
	fName     *face // player names, titles
	fLabel    *face // words
	fLabelB   *face // bold words
	fSmall    *face // small words
	fBox      *face // numbers in the score boxes
	fCard     *face // numbers on table cards
	fCardBig  *face // numbers on hand cards
	fTitle    *face // image titles
	fontsErr  error
	fontsOnce sync.Once
)

func loadFonts() error {
	fontsOnce.Do(func() {
		bold, err := opentype.Parse(gobold.TTF)
		if err != nil {
			fontsErr = fmt.Errorf("render: parse Go Bold: %w", err)
			return
		}
		reg, err := opentype.Parse(goregular.TTF)
		if err != nil {
			fontsErr = fmt.Errorf("render: parse Go Regular: %w", err)
			return
		}
		mk := func(f *opentype.Font, size float64) *face {
			if fontsErr != nil {
				return nil
			}
			ff, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone})
			if err != nil {
				fontsErr = fmt.Errorf("render: font face %v px: %w", size, err)
				return nil
			}
			fc := &face{f: ff, size: size}
			if b, _, ok := ff.GlyphBounds('0'); ok {
				fc.capH = (-b.Min.Y).Round()
			}
			return fc
		}
		fNum = mk(bold, 32)
		fName = mk(bold, 27)
		fLabel = mk(reg, 22)
		fLabelB = mk(bold, 22)
		fSmall = mk(reg, 16)
		fBox = mk(bold, 24)
		fCard = mk(bold, 34)
		fCardBig = mk(bold, 66)
		fTitle = mk(bold, 32)
	})
	return fontsErr
}

// glyph returns the cached glyph of r.
func (f *face) glyph(r rune) *glyph {
	if g, ok := f.glyphs.Load(r); ok {
		return g.(*glyph)
	}
	f.mu.Lock()
	dr, m, mp, adv, ok := f.f.Glyph(fixed.Point26_6{}, r)
	g := &glyph{adv: adv}
	if ok && !dr.Empty() {
		g.m = mask{w: dr.Dx(), h: dr.Dy(), ox: dr.Min.X, oy: dr.Min.Y, pix: make([]uint8, dr.Dx()*dr.Dy())}
		if a, isAlpha := m.(*image.Alpha); isAlpha {
			for y := 0; y < dr.Dy(); y++ {
				copy(g.m.pix[y*g.m.w:][:g.m.w], a.Pix[a.PixOffset(mp.X, mp.Y+y):])
			}
		} else {
			for y := 0; y < dr.Dy(); y++ {
				for x := 0; x < dr.Dx(); x++ {
					_, _, _, al := m.At(mp.X+x, mp.Y+y).RGBA()
					g.m.pix[y*g.m.w+x] = uint8(al >> 8)
				}
			}
		}
	}
	f.mu.Unlock()
	got, _ := f.glyphs.LoadOrStore(r, g)
	return got.(*glyph)
}

// width is the advance width of s in pixels.
func (f *face) width(s string) int {
	var x fixed.Int26_6
	for _, r := range s {
		x += f.glyph(r).adv
	}
	return x.Ceil()
}

// text draws s with its left end at x on baseline y and returns the end x.
func (c canvas) text(f *face, s string, x, y int, fg uint8) int {
	if c.log != nil {
		c.log.add(f, s, x, y)
	}
	dot := fixed.I(x)
	for _, r := range s {
		g := f.glyph(r)
		if g.m.w > 0 {
			c.draw(&g.m, dot.Round(), y, fg)
		}
		dot += g.adv
	}
	return dot.Ceil()
}

// Alignments for textIn.
const (
	left = iota
	center
	right
)

// textIn draws s vertically centred (by cap height) on cy and aligned at x.
func (c canvas) textIn(f *face, s string, x, cy, align int, fg uint8) int {
	y := cy + f.capH/2
	switch align {
	case center:
		x -= f.width(s) / 2
	case right:
		x -= f.width(s)
	}
	return c.text(f, s, x, y, fg)
}

// fit shortens s with an ellipsis until it is at most w pixels wide.
func fit(f *face, s string, w int) string {
	if f.width(s) <= w {
		return s
	}
	for len(s) > 0 {
		_, n := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-n]
		if f.width(s+"…") <= w {
			return s + "…"
		}
	}
	return ""
}

// fitFace returns the first face in which s fits into w pixels, or the last.
func fitFace(s string, w int, faces ...*face) *face {
	for _, f := range faces {
		if f.width(s) <= w {
			return f
		}
	}
	return faces[len(faces)-1]
}
