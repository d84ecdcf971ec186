package render

import (
	"encoding/binary"
	"image"
	"image/draw"
	"math"
	"sync"

	"golang.org/x/image/vector"
)

// canvas draws on a paletted image whose bounds start at (0, 0). log, when
// set, records every text drawn (see textLog).
type canvas struct {
	p   *image.Paletted
	log *textLog
	// paintAll paints sprites in place instead of copying them (to check
	// that copying gives the same pixels).
	paintAll bool
}

// A sprite is a part of a picture that is always drawn on the panels'
// paper and inside its box (a die, a card, a pile): painted once on paper
// and copied, with the texts it drew, wherever it is drawn. Dice and
// cards were about a tenth of a picture's drawing.
type sprite struct {
	once  sync.Once
	img   *image.Paletted
	texts []drawnText
}

// spriteKey names a sprite: its kind and what it shows.
type spriteKey struct {
	kind    spriteKind
	a, b, c int
	s       string
}

type spriteKind uint8

const (
	spriteDie spriteKind = iota + 1
	spriteCardBack
	spriteStack
	spritePlayed
	spriteHandCard
)

// sprites holds the sprites painted so far; there are a few hundred at
// most (dice faces, numbers, colours, joker marks per language).
var sprites sync.Map // spriteKey → *sprite

// sprite draws what paint paints in the w×h box at (x, y), which must lie
// on the panels' paper (cPaper) when it is drawn and hold all paint
// paints, from a copy painted once (TestSpritesPaintAsInPlace).
func (c canvas) sprite(k spriteKey, w, h, x, y int, paint func(c canvas, x, y int)) {
	if c.paintAll {
		paint(c, x, y)
		return
	}
	v, ok := sprites.Load(k)
	if !ok {
		v, _ = sprites.LoadOrStore(k, new(sprite))
	}
	s := v.(*sprite)
	s.once.Do(func() {
		sc := newCanvas(w, h, cPaper)
		sc.log = &textLog{}
		paint(sc, 0, 0)
		s.img, s.texts = sc.p, sc.log.texts
	})
	c.blit(s.img, s.img.Rect, image.Pt(x, y))
	c.log.addAt(s.texts, x, y)
}

func newCanvas(w, h int, bg uint8) canvas {
	c := canvas{p: image.NewPaletted(image.Rect(0, 0, w, h), palette)}
	if bg != 0 {
		c.fill(c.p.Rect, bg)
	}
	return c
}

// fill paints r with colour ci.
func (c canvas) fill(r image.Rectangle, ci uint8) {
	r = r.Intersect(c.p.Rect)
	if r.Empty() {
		return
	}
	w := r.Dx()
	first := c.p.Pix[r.Min.Y*c.p.Stride+r.Min.X:][:w]
	first[0] = ci
	for n := 1; n < w; n *= 2 {
		copy(first[n:], first[:n])
	}
	for y := r.Min.Y + 1; y < r.Max.Y; y++ {
		copy(c.p.Pix[y*c.p.Stride+r.Min.X:][:w], first)
	}
}

// blit copies rectangle sr of src to dp.
func (c canvas) blit(src *image.Paletted, sr image.Rectangle, dp image.Point) {
	dr := image.Rectangle{dp, dp.Add(sr.Size())}.Intersect(c.p.Rect)
	sr = image.Rectangle{sr.Min.Add(dr.Min.Sub(dp)), sr.Min.Add(dr.Max.Sub(dp))}
	if dr.Empty() || !sr.In(src.Rect) {
		return
	}
	w := dr.Dx()
	for y := 0; y < dr.Dy(); y++ {
		copy(c.p.Pix[(dr.Min.Y+y)*c.p.Stride+dr.Min.X:][:w], src.Pix[(sr.Min.Y+y-src.Rect.Min.Y)*src.Stride+sr.Min.X-src.Rect.Min.X:][:w])
	}
}

// mask is an alpha coverage map placed relative to an anchor point.
type mask struct {
	w, h   int
	ox, oy int // top-left corner relative to the anchor
	stride int // 0 means w
	pix    []uint8
}

// part is the sub-mask r (in mask pixels), anchored at its own top-left.
func (m *mask) part(r image.Rectangle) *mask {
	st := m.stride
	if st == 0 {
		st = m.w
	}
	return &mask{w: r.Dx(), h: r.Dy(), stride: st, pix: m.pix[r.Min.Y*st+r.Min.X:]}
}

// draw paints ink fg through m with its anchor at (x, y).
func (c canvas) draw(m *mask, x, y int, fg uint8) {
	x0, y0 := x+m.ox, y+m.oy
	mx0, my0 := 0, 0
	if x0 < 0 {
		mx0 = -x0
	}
	if y0 < 0 {
		my0 = -y0
	}
	mx1, my1 := min(m.w, c.p.Rect.Dx()-x0), min(m.h, c.p.Rect.Dy()-y0)
	if mx0 >= mx1 || my0 >= my1 {
		return
	}
	t := mixFor(fg)
	st := m.stride
	if st == 0 {
		st = m.w
	}
	// Eight mask pixels at a time where they are all clear (nothing to
	// do) or all opaque (the ink itself): the inside and the outside of a
	// card or a box, most of a big mask. Edges go pixel by pixel.
	fg8 := uint64(fg) * 0x0101010101010101
	for my := my0; my < my1; my++ {
		src := m.pix[my*st+mx0 : my*st+mx1]
		dst := c.p.Pix[(y0+my)*c.p.Stride+x0+mx0:][:len(src)]
		i := 0
		for ; i+8 <= len(src); i += 8 {
			switch w := binary.LittleEndian.Uint64(src[i:]); w {
			case 0:
			case ^uint64(0):
				binary.LittleEndian.PutUint64(dst[i:], fg8)
			default:
				blendMask(dst[i:i+8], src[i:i+8], fg, t)
			}
		}
		blendMask(dst[i:], src[i:], fg, t)
	}
}

// blendMask paints ink fg through the mask pixels src onto dst.
func blendMask(dst, src []uint8, fg uint8, t *mixTable) {
	dst = dst[:len(src)]
	for i, a := range src {
		if a == 0 {
			continue
		}
		l := alphaLevel[a]
		if l == levels {
			dst[i] = fg
		} else {
			dst[i] = t[dst[i]][l]
		}
	}
}

// path builds a mask with the vector rasterizer. Subpaths wound the same
// way add up (union); a subpath wound the other way cuts a hole.
type path struct {
	z      *vector.Rasterizer
	x0, y0 float32 // origin of the mask in the caller's coordinates
	w, h   int
	ox, oy int
}

var rasterPool = sync.Pool{New: func() any { return &vector.Rasterizer{} }}

// newPath starts a mask covering the box (x0, y0)–(x1, y1) in coordinates
// relative to the mask's anchor.
func newPath(x0, y0, x1, y1 int) *path {
	if x1-x0 > 2*bigMask || y1-y0 > 2*bigMask {
		panic("render: mask too large for exact rasterization")
	}
	z := rasterPool.Get().(*vector.Rasterizer)
	z.Reset(x1-x0, y1-y0)
	return &path{z: z, x0: float32(x0), y0: float32(y0), w: x1 - x0, h: y1 - y0, ox: x0, oy: y0}
}

func (p *path) moveTo(x, y float64) { p.z.MoveTo(float32(x)-p.x0, float32(y)-p.y0) }
func (p *path) lineTo(x, y float64) { p.z.LineTo(float32(x)-p.x0, float32(y)-p.y0) }
func (p *path) cubeTo(ax, ay, bx, by, x, y float64) {
	p.z.CubeTo(float32(ax)-p.x0, float32(ay)-p.y0, float32(bx)-p.x0, float32(by)-p.y0, float32(x)-p.x0, float32(y)-p.y0)
}
func (p *path) close() { p.z.ClosePath() }

// poly adds a closed polygon.
func (p *path) poly(pts ...float64) {
	p.moveTo(pts[0], pts[1])
	for i := 2; i+1 < len(pts); i += 2 {
		p.lineTo(pts[i], pts[i+1])
	}
	p.close()
}

// circle adds a circle; hole winds it the other way.
func (p *path) circle(cx, cy, r float64, hole bool) {
	p.ellipse(cx, cy, r, r, hole)
}

func (p *path) ellipse(cx, cy, rx, ry float64, hole bool) {
	const k = 0.5522847498
	s := 1.0
	if hole {
		s = -1
	}
	p.moveTo(cx+rx, cy)
	p.cubeTo(cx+rx, cy+s*k*ry, cx+k*rx, cy+s*ry, cx, cy+s*ry)
	p.cubeTo(cx-k*rx, cy+s*ry, cx-rx, cy+s*k*ry, cx-rx, cy)
	p.cubeTo(cx-rx, cy-s*k*ry, cx-k*rx, cy-s*ry, cx, cy-s*ry)
	p.cubeTo(cx+k*rx, cy-s*ry, cx+rx, cy-s*k*ry, cx+rx, cy)
	p.close()
}

// rrect adds a rounded rectangle; hole winds it the other way.
func (p *path) rrect(x0, y0, x1, y1, r float64, hole bool) {
	r = math.Min(r, math.Min(x1-x0, y1-y0)/2)
	const k = 0.4477152502 // 1 - 0.5523
	if !hole {
		p.moveTo(x0+r, y0)
		p.lineTo(x1-r, y0)
		p.cubeTo(x1-k*r, y0, x1, y0+k*r, x1, y0+r)
		p.lineTo(x1, y1-r)
		p.cubeTo(x1, y1-k*r, x1-k*r, y1, x1-r, y1)
		p.lineTo(x0+r, y1)
		p.cubeTo(x0+k*r, y1, x0, y1-k*r, x0, y1-r)
		p.lineTo(x0, y0+r)
		p.cubeTo(x0, y0+k*r, x0+k*r, y0, x0+r, y0)
	} else {
		p.moveTo(x0+r, y0)
		p.cubeTo(x0+k*r, y0, x0, y0+k*r, x0, y0+r)
		p.lineTo(x0, y1-r)
		p.cubeTo(x0, y1-k*r, x0+k*r, y1, x0+r, y1)
		p.lineTo(x1-r, y1)
		p.cubeTo(x1-k*r, y1, x1, y1-k*r, x1, y1-r)
		p.lineTo(x1, y0+r)
		p.cubeTo(x1, y0+k*r, x1-k*r, y0, x1-r, y0)
		p.lineTo(x0+r, y0)
	}
	p.close()
}

// frame adds the outline of a rounded rectangle, w thick, inside the box.
func (p *path) frame(x0, y0, x1, y1, r, w float64) {
	p.rrect(x0, y0, x1, y1, r, false)
	p.rrect(x0+w, y0+w, x1-w, y1-w, math.Max(r-w, 0), true)
}

// line adds a straight stroke w wide from (ax, ay) to (bx, by).
func (p *path) line(ax, ay, bx, by, w float64) {
	dx, dy := bx-ax, by-ay
	l := math.Hypot(dx, dy)
	if l == 0 {
		return
	}
	nx, ny := -dy/l*w/2, dx/l*w/2
	p.poly(ax+nx, ay+ny, bx+nx, by+ny, bx-nx, by-ny, ax-nx, ay-ny)
}

// done rasterizes the path into a mask.
func (p *path) done() *mask {
	a := image.NewAlpha(image.Rect(0, 0, p.w, p.h))
	p.z.DrawOp = draw.Src
	p.z.Draw(a, a.Rect, image.Opaque, image.Point{})
	rasterPool.Put(p.z)
	p.z = nil
	return &mask{w: p.w, h: p.h, ox: p.ox, oy: p.oy, pix: a.Pix}
}

// maskCache keeps shapes that are drawn again and again.
var maskCache sync.Map // string -> *mask

// cached returns the mask stored under key, building it on first use.
func cached(key string, build func() *mask) *mask {
	if m, ok := maskCache.Load(key); ok {
		return m.(*mask)
	}
	m, _ := maskCache.LoadOrStore(key, build())
	return m.(*mask)
}

// bigMask is the size above which rounded rectangles are drawn in pieces:
// masks stay small, so the rasterizer always uses its exact fixed-point
// arithmetic (it switches to floating point above 512 pixels) and pictures
// are the same on every machine.
const bigMask = 256

// rbox paints a w×h rectangle with corners of radius r at (x, y).
func (c canvas) rbox(x, y, w, h, r int, fg uint8) {
	if w <= bigMask && h <= bigMask {
		c.draw(box(w, h, float64(r)), x, y, fg)
		return
	}
	m := box(2*r, 2*r, float64(r))
	c.corners(m, x, y, w, h, r, fg)
	c.fill(image.Rect(x+r, y, x+w-r, y+h), fg)
	c.fill(image.Rect(x, y+r, x+r, y+h-r), fg)
	c.fill(image.Rect(x+w-r, y+r, x+w, y+h-r), fg)
}

// rframe paints the outline, t pixels thick, of the rounded rectangle.
func (c canvas) rframe(x, y, w, h, r, t int, fg uint8) {
	m := frameMask(2*r, 2*r, float64(r), float64(t))
	c.corners(m, x, y, w, h, r, fg)
	c.fill(image.Rect(x+r, y, x+w-r, y+t), fg)
	c.fill(image.Rect(x+r, y+h-t, x+w-r, y+h), fg)
	c.fill(image.Rect(x, y+r, x+t, y+h-r), fg)
	c.fill(image.Rect(x+w-t, y+r, x+w, y+h-r), fg)
}

// corners paints the four quadrants of the 2r×2r mask m at the corners of
// the w×h rectangle at (x, y).
func (c canvas) corners(m *mask, x, y, w, h, r int, fg uint8) {
	c.draw(m.part(image.Rect(0, 0, r, r)), x, y, fg)
	c.draw(m.part(image.Rect(r, 0, 2*r, r)), x+w-r, y, fg)
	c.draw(m.part(image.Rect(0, r, r, 2*r)), x, y+h-r, fg)
	c.draw(m.part(image.Rect(r, r, 2*r, 2*r)), x+w-r, y+h-r, fg)
}
