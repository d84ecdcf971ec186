package render

import (
	"bytes"
	"fmt"
	"image"
	"image/draw"
	"math"
	"sync"
	"unicode"

	"github.com/go-text/typesetting/bidi"
	"github.com/go-text/typesetting/di"
	gtfont "github.com/go-text/typesetting/font"
	"github.com/go-text/typesetting/language"
	"github.com/go-text/typesetting/shaping"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// Text that needs it is shaped: put in visual order by the bidi algorithm
// (bidi.go), split into items of one level, font and script, and each item
// shaped by go-text/typesetting's HarfBuzz port with the layout tables of
// its font (Arabic joining and lam-alef, Indic reordering and conjuncts,
// Thai and Hebrew mark positioning, mirrored brackets in right-to-left
// runs). Everything else (Latin, Greek, Cyrillic, CJK, symbols) takes the
// fast path: one cached glyph per character, as before.

// needsShaping reports whether r is right to left or of a script whose
// letters change shape or order.
func needsShaping(r rune) bool {
	switch {
	case r < 0x0590:
		return false
	case r <= 0x10FF: // Hebrew, Arabic, Syriac, Thaana, NKo, Indic, Sinhala, Thai, Lao, Tibetan, Myanmar
		return true
	case r >= 0x1780 && r <= 0x18AF, // Khmer, Mongolian
		r >= 0x1A00 && r <= 0x1CFF, // Tai Tham, Balinese, Sundanese, Vedic ...
		r >= 0xA800 && r <= 0xAAFF, // Indic and Southeast Asian extensions
		r >= 0xFB1D && r <= 0xFDFF, // Hebrew and Arabic presentation forms
		r >= 0xFE70 && r <= 0xFEFF,
		r >= 0x10800 && r <= 0x11FFF, // historic right-to-left and Brahmic scripts
		r >= 0x1E800 && r <= 0x1EFFF:
		return true
	}
	return false
}

// complexText reports whether s takes the shaping path.
func complexText(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			for _, r := range s[i:] {
				if needsShaping(r) {
					return true
				}
			}
			return false
		}
	}
	return false
}

// gtFace returns s parsed by go-text for shaping.
func (s *source) gtFace() (*gtfont.Face, error) {
	s.gtOnce.Do(func() {
		if _, err := s.font(); err != nil {
			s.gtErr = err
			return
		}
		s.gt, s.gtErr = gtfont.ParseTTF(bytes.NewReader(s.data))
		if s.gtErr != nil {
			s.gtErr = fmt.Errorf("render: parse font %s for shaping: %w", s.name, s.gtErr)
		}
	})
	return s.gt, s.gtErr
}

// has reports whether font i of c has a glyph for r.
func (c *chain) has(i int, r rune) bool {
	s := c.srcs[i]
	if !s.mayHave(r) {
		return false
	}
	f, err := s.font()
	if err != nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	g, err := f.GlyphIndex(&c.buf, r)
	return err == nil && g != 0
}

// A placed glyph of a shaped line: glyph gid of font src of the chain,
// its origin x (from the line's start) and y (down) in pixels.
type placed struct {
	src  int
	gid  sfnt.GlyphIndex
	x, y fixed.Int26_6
	at   int // index in the line's runes of the first character of its cluster
}

// A shaped line is s laid out: its glyphs from left to right and its width.
type shaped struct {
	gs  []placed
	adv fixed.Int26_6
}

// shaper is the HarfBuzz shaper; it is not safe for concurrent use.
var (
	shaperMu sync.Mutex
	shaper   shaping.HarfbuzzShaper
)

// maxLines bounds each face's cache of shaped lines.
const maxLines = 4096

// shape returns s (cleaned) laid out in f, from f's cache.
func (f *face) shape(s string) *shaped {
	f.linesMu.Lock()
	if l, ok := f.lines[s]; ok {
		f.linesMu.Unlock()
		return l
	}
	f.linesMu.Unlock()
	l := f.layout(s)
	f.linesMu.Lock()
	if f.lines == nil || len(f.lines) >= maxLines {
		f.lines = make(map[string]*shaped)
	}
	f.lines[s] = l
	f.linesMu.Unlock()
	return l
}

// An item is a run of runes of one level, font and script.
type item struct {
	start, end int
	level      int8
	src        int
	script     language.Script
}

// layout shapes s: bidi levels, items, HarfBuzz per item, items in visual
// order (rule L2).
func (f *face) layout(s string) *shaped {
	rs := []rune(s)
	if len(rs) == 0 {
		return &shaped{}
	}
	levels := bidiLevels(rs, bidi.Neutral)
	srcs := make([]int, len(rs))
	for i, r := range rs {
		srcs[i] = f.ch.find(r)
		// A mark or vowel sign stays in its base's font when that has it.
		if i > 0 && unicode.In(r, unicode.Mn, unicode.Mc, unicode.Me) && srcs[i-1] >= 0 && srcs[i-1] != srcs[i] && f.ch.has(srcs[i-1], r) {
			srcs[i] = srcs[i-1]
		}
	}
	scripts := make([]language.Script, len(rs))
	for i, r := range rs {
		scripts[i] = language.LookupScript(r)
	}
	// Common and inherited characters (spaces, digits, marks) take the
	// script around them: the one before, else the one after.
	specific := func(sc language.Script) bool {
		return sc != language.Common && sc != language.Inherited && sc != language.Unknown
	}
	for i := range scripts {
		if !specific(scripts[i]) && i > 0 && specific(scripts[i-1]) {
			scripts[i] = scripts[i-1]
		}
	}
	for i := len(scripts) - 2; i >= 0; i-- {
		if !specific(scripts[i]) && specific(scripts[i+1]) {
			scripts[i] = scripts[i+1]
		}
	}
	var items []item
	for i := range rs {
		if n := len(items); n > 0 && items[n-1].level == levels[i] && items[n-1].src == srcs[i] && items[n-1].script == scripts[i] {
			items[n-1].end = i + 1
			continue
		}
		items = append(items, item{start: i, end: i + 1, level: levels[i], src: srcs[i], script: scripts[i]})
	}
	itemLevels := make([]int8, len(items))
	for i, it := range items {
		itemLevels[i] = it.level
	}
	out := &shaped{}
	for _, k := range visualOrder(itemLevels) {
		out.adv = f.shapeItem(rs, items[k], out.adv, &out.gs)
	}
	return out
}

// shapeItem appends the glyphs of it, starting at pen x, and returns the
// pen after them.
func (f *face) shapeItem(rs []rune, it item, x fixed.Int26_6, gs *[]placed) fixed.Int26_6 {
	if it.src < 0 {
		return x // no font has these characters (clean leaves none)
	}
	src := f.ch.srcs[it.src]
	gf, err := src.gtFace()
	if err != nil {
		// Unshapeable font: its characters one by one.
		return f.unshaped(rs, it, x, gs)
	}
	dir := di.DirectionLTR
	if it.level%2 == 1 {
		dir = di.DirectionRTL
	}
	shaperMu.Lock()
	out := shaper.Shape(shaping.Input{
		Text: rs, RunStart: it.start, RunEnd: it.end,
		Direction: dir, Face: gf, Size: fixed.I(f.pixels(it.src)),
		Script: it.script, Language: language.DefaultLanguage(),
	})
	glyphs := out.Glyphs
	shaperMu.Unlock()
	for _, g := range glyphs {
		*gs = append(*gs, placed{src: it.src, gid: sfnt.GlyphIndex(g.GlyphID), x: x + g.XOffset, y: -g.YOffset, at: g.TextIndex()})
		x += g.Advance
	}
	return x
}

// unshaped places the runes of it with their own glyphs, reversed in a
// right-to-left item.
func (f *face) unshaped(rs []rune, it item, x fixed.Int26_6, gs *[]placed) fixed.Int26_6 {
	sf, err := f.ch.srcs[it.src].font()
	if err != nil {
		return x
	}
	for k := it.start; k < it.end; k++ {
		i := k
		if it.level%2 == 1 {
			i = it.end - 1 - (k - it.start)
		}
		f.ch.mu.Lock()
		gid, err := sf.GlyphIndex(&f.ch.buf, rs[i])
		f.ch.mu.Unlock()
		if err != nil {
			continue
		}
		*gs = append(*gs, placed{src: it.src, gid: gid, x: x, at: i})
		x += f.glyph(rs[i]).adv
	}
	return x
}

// pixels is the size in pixels font i of the chain is drawn at in f: whole
// pixels, as HarfBuzz scales.
func (f *face) pixels(i int) int {
	size := f.size
	if sc := f.ch.srcs[i].scale; sc != 0 {
		size *= sc
	}
	return int(math.Ceil(size - 1e-9))
}

type glyphKey struct {
	src int
	gid sfnt.GlyphIndex
}

// glyphByIndex returns the cached mask of glyph gid of font src.
func (f *face) glyphByIndex(src int, gid sfnt.GlyphIndex) *mask {
	k := glyphKey{src, gid}
	if m, ok := f.gids.Load(k); ok {
		return m.(*mask)
	}
	m := &mask{}
	if sf, err := f.ch.srcs[src].font(); err == nil {
		var buf sfnt.Buffer
		if segs, err := sf.LoadGlyph(&buf, gid, fixed.I(f.pixels(src)), nil); err == nil {
			m = rasterize(segs)
		}
	}
	got, _ := f.gids.LoadOrStore(k, m)
	return got.(*mask)
}

// rasterize fills the outline segs (26.6 pixels, y down, origin at the
// glyph's origin) into a coverage mask.
func rasterize(segs sfnt.Segments) *mask {
	if len(segs) == 0 {
		return &mask{}
	}
	b := segs.Bounds()
	x0, y0 := b.Min.X.Floor(), b.Min.Y.Floor()
	w, h := b.Max.X.Ceil()-x0, b.Max.Y.Ceil()-y0
	if w <= 0 || h <= 0 {
		return &mask{}
	}
	r := vector.NewRasterizer(w, h)
	r.DrawOp = draw.Src
	pt := func(p fixed.Point26_6) (float32, float32) {
		return float32(p.X)/64 - float32(x0), float32(p.Y)/64 - float32(y0)
	}
	for _, s := range segs {
		switch s.Op {
		case sfnt.SegmentOpMoveTo:
			r.MoveTo(pt(s.Args[0]))
		case sfnt.SegmentOpLineTo:
			r.LineTo(pt(s.Args[0]))
		case sfnt.SegmentOpQuadTo:
			ax, ay := pt(s.Args[0])
			bx, by := pt(s.Args[1])
			r.QuadTo(ax, ay, bx, by)
		case sfnt.SegmentOpCubeTo:
			ax, ay := pt(s.Args[0])
			bx, by := pt(s.Args[1])
			cx, cy := pt(s.Args[2])
			r.CubeTo(ax, ay, bx, by, cx, cy)
		}
	}
	dst := image.NewAlpha(image.Rect(0, 0, w, h))
	r.Draw(dst, dst.Bounds(), image.Opaque, image.Point{})
	return &mask{w: w, h: h, ox: x0, oy: y0, pix: dst.Pix}
}
