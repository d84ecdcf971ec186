package render

import (
	"bytes"
	"embed"
	"fmt"
	"image"
	"io"
	"slices"
	"sync"
	"unicode"

	gtfont "github.com/go-text/typesetting/font"
	"github.com/klauspost/compress/gzip"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// fontFiles are the fallback fonts, gzipped (see fonts/README.md): each
// has only the characters no font before it in the chain has.
//
//go:embed fonts/*.gz
var fontFiles embed.FS

// fallbackScripts are the Noto Sans fonts of other scripts, in chain order.
var fallbackScripts = []string{"Arabic", "Hebrew", "Devanagari", "Bengali", "Gurmukhi", "Gujarati",
	"Tamil", "Telugu", "Kannada", "Malayalam", "Sinhala", "Thai", "Lao",
	"Khmer", "Myanmar", "Georgian", "Armenian", "Ethiopic"}

// A source is one font of a chain, parsed on first use: a fallback font is
// only decompressed when a character reaches it.
type source struct {
	name  string  // file in fonts/, or "" for an in-memory Go font
	ttf   []byte  // the Go font
	scale float64 // size relative to the face's, 0 for 1
	once  sync.Once
	data  []byte // the font file, unpacked
	f     *sfnt.Font
	err   error

	gtOnce sync.Once // the font parsed for shaping (shape.go)
	gt     *gtfont.Face
	gtErr  error
}

func (s *source) font() (*sfnt.Font, error) {
	s.once.Do(func() {
		data := s.ttf
		if s.name != "" {
			data, s.err = gunzipFile(s.name)
			if s.err != nil {
				return
			}
		}
		s.data = data
		s.f, s.err = sfnt.Parse(data)
		if s.err != nil {
			s.err = fmt.Errorf("render: parse font %s: %w", s.name, s.err)
		}
	})
	return s.f, s.err
}

// mayHave reports whether r is on a page of s's cmap (fontPages), which
// spares loading fonts that cannot have it.
func (s *source) mayHave(r rune) bool {
	if s.name == "" {
		return true
	}
	_, ok := slices.BinarySearch(fontPages[s.name], uint16(r>>8))
	return ok && r >= 0
}

func gunzipFile(name string) ([]byte, error) {
	z, err := fontFiles.ReadFile("fonts/" + name)
	if err != nil {
		return nil, fmt.Errorf("render: font %s: %w", name, err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(z))
	if err != nil {
		return nil, fmt.Errorf("render: font %s: %w", name, err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("render: font %s: %w", name, err)
	}
	return data, nil
}

// A chain is a list of fonts tried in order for each character: the Go
// font of its weight first, then the fallbacks.
type chain struct {
	srcs  []*source
	mu    sync.Mutex
	buf   sfnt.Buffer
	which sync.Map // rune → int: index in srcs of the first font with the glyph, -1 for none
}

func newChain(goTTF []byte, weight string) *chain {
	c := &chain{srcs: []*source{{ttf: goTTF}, {name: "NotoSans-" + weight + ".ttf.gz"}}}
	for _, s := range fallbackScripts {
		c.srcs = append(c.srcs, &source{name: "NotoSans" + s + "-" + weight + ".ttf.gz"})
	}
	c.srcs = append(c.srcs, sharedFallbacks...)
	return c
}

// sharedFallbacks serve both weights (they have one).
var sharedFallbacks = []*source{
	{name: "DroidSansFallback.ttf.gz"}, // Han, kana, Hangul
	{name: "Symbola.ttf.gz"},           // symbols, monochrome emoji
	// Unifont's letters are small for their em (capitals 10 of 16 pixels):
	// drawn larger, they match the Go fonts' capitals.
	{name: "Unifont.otf.gz", scale: 1.15},      // the rest of the BMP
	{name: "UnifontUpper.otf.gz", scale: 1.15}, // newer emoji, other planes
}

// find returns the index of the first font in c that has a glyph for r,
// or -1. A font that fails to load counts as not having it.
func (c *chain) find(r rune) int {
	if i, ok := c.which.Load(r); ok {
		return i.(int)
	}
	c.mu.Lock()
	found := -1
	for i, s := range c.srcs {
		if !s.mayHave(r) {
			continue
		}
		f, err := s.font()
		if err != nil {
			continue
		}
		if g, err := f.GlyphIndex(&c.buf, r); err == nil && g != 0 {
			found = i
			break
		}
	}
	c.mu.Unlock()
	c.which.Store(r, found)
	return found
}

var (
	regularChain *chain
	boldChain    *chain
)

// drawable reports whether every face has a glyph for r (in some font of
// its chain); the text functions leave out everything else.
func drawable(r rune) bool {
	if loadFonts() != nil {
		return r >= ' ' && r <= '~'
	}
	return assigned(r) && regularChain.find(r) >= 0 && boldChain.find(r) >= 0
}

// assigned reports whether r is a character of the Unicode version Go
// knows, other than a control, format, private-use or surrogate code point
// (Unifont draws boxes for some unassigned ones).
func assigned(r rune) bool {
	return unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Zs)
}

// face is a font chain at one size with a glyph cache. Glyph masks are
// rendered once (at integer pixel positions) and then shared by every
// goroutine; the opentype faces themselves are not safe for concurrent
// use, so they are only touched under mu.
type face struct {
	mu     sync.Mutex
	ch     *chain
	size   float64     // the font size in pixels
	fs     []font.Face // by index in ch.srcs, made on first use
	capH   int         // height of the digits and capitals
	glyphs sync.Map    // rune → *glyph, for text that is not shaped
	gids   sync.Map    // glyphKey → *mask, for shaped text

	linesMu sync.Mutex
	lines   map[string]*shaped // shaped text, by cleaned string
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
		regularChain = newChain(goregular.TTF, "Regular")
		boldChain = newChain(gobold.TTF, "Bold")
		for _, c := range []*chain{regularChain, boldChain} {
			if _, err := c.srcs[0].font(); err != nil {
				fontsErr = err
				return
			}
		}
		mk := func(c *chain, size float64) *face {
			if fontsErr != nil {
				return nil
			}
			fc := &face{ch: c, size: size, fs: make([]font.Face, len(c.srcs))}
			ff, err := fc.faceAt(0)
			if err != nil {
				fontsErr = err
				return nil
			}
			if b, _, ok := ff.GlyphBounds('0'); ok {
				fc.capH = (-b.Min.Y).Round()
			}
			return fc
		}
		fNum = mk(boldChain, 32)
		fName = mk(boldChain, 27)
		fLabel = mk(regularChain, 22)
		fLabelB = mk(boldChain, 22)
		fSmall = mk(regularChain, 16)
		fBox = mk(boldChain, 24)
		fCard = mk(boldChain, 34)
		fCardBig = mk(boldChain, 66)
		fTitle = mk(boldChain, 32)
	})
	return fontsErr
}

// faceAt returns the face of font i of the chain at f's size; f.mu or
// loadFonts' once must be held.
func (f *face) faceAt(i int) (font.Face, error) {
	if f.fs[i] != nil {
		return f.fs[i], nil
	}
	sf, err := f.ch.srcs[i].font()
	if err != nil {
		return nil, err
	}
	size := f.size
	if sc := f.ch.srcs[i].scale; sc != 0 {
		size *= sc
	}
	ff, err := opentype.NewFace(sf, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		return nil, fmt.Errorf("render: font face %v px: %w", f.size, err)
	}
	f.fs[i] = ff
	return ff, nil
}

// glyph returns the cached glyph of r, from the first font of the chain
// that has it; a rune no font has is empty with no advance.
func (f *face) glyph(r rune) *glyph {
	if g, ok := f.glyphs.Load(r); ok {
		return g.(*glyph)
	}
	g := &glyph{}
	if i := f.ch.find(r); i >= 0 {
		f.mu.Lock()
		if ff, err := f.faceAt(i); err == nil {
			g = renderGlyph(ff, r)
		}
		f.mu.Unlock()
	}
	got, _ := f.glyphs.LoadOrStore(r, g)
	return got.(*glyph)
}

func renderGlyph(ff font.Face, r rune) *glyph {
	dr, m, mp, adv, ok := ff.Glyph(fixed.Point26_6{}, r)
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
	return g
}

// width is the advance width of s in pixels, as text draws it.
func (f *face) width(s string) int {
	s = clean(s)
	if complexText(s) {
		return f.shape(s).adv.Ceil()
	}
	var x fixed.Int26_6
	for _, r := range s {
		x += f.glyph(r).adv
	}
	return x.Ceil()
}

// text draws s with its left end at x on baseline y and returns the end x.
// s is cleaned first (see clean); text with right-to-left or complex
// script characters is put in visual order and shaped (shape.go), the rest
// is drawn a cached glyph per character.
func (c canvas) text(f *face, s string, x, y int, fg uint8) int {
	if c.log != nil {
		c.log.add(f, s, x, y)
	}
	s = clean(s)
	if complexText(s) {
		l := f.shape(s)
		base := fixed.I(x)
		for _, g := range l.gs {
			if m := f.glyphByIndex(g.src, g.gid); m.w > 0 {
				c.draw(m, (base + g.x).Round(), y+g.y.Round(), fg)
			}
		}
		return (base + l.adv).Ceil()
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

// fit returns s cleaned (see clean) and, if that is wider than w pixels,
// cut at a character and ended with an ellipsis so that it fits; "" if not
// even the ellipsis fits. Marks stay with their base character.
func fit(f *face, s string, w int) string {
	s = clean(s)
	if f.width(s) <= w {
		return s
	}
	if complexText(s) {
		return fitShaped(f, s, w)
	}
	limit := fixed.I(w) - f.glyph('…').adv
	var x fixed.Int26_6
	cut := 0 // bytes of s before the last cluster start that still fits
	for i, r := range s {
		if !isMark(r) {
			if x > limit {
				break
			}
			cut = i
		}
		x += f.glyph(r).adv
	}
	if x <= limit {
		cut = len(s)
	}
	if limit < 0 {
		return ""
	}
	return trimSpace(s[:cut]) + "…"
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

// fitShaped is fit for text that is shaped: the longest prefix that ends
// before a character with no mark and fits with the ellipsis. Vowel signs
// and marks stay with their letter.
func fitShaped(f *face, s string, w int) string {
	if f.glyph('…').adv > fixed.I(w) {
		return ""
	}
	var cuts []int
	for i, r := range s {
		if i > 0 && !unicode.In(r, unicode.Mn, unicode.Mc, unicode.Me) {
			cuts = append(cuts, i)
		}
	}
	for k := len(cuts) - 1; k >= 0; k-- {
		if c := trimSpace(s[:cuts[k]]) + "…"; f.width(c) <= w {
			return c
		}
	}
	return "…"
}
