package render

import (
	"fmt"
	"math"

	"github.com/qwixxbot/qwixxbot/game"
)

// shape returns the cached mask key, anchored at (0, 0) and covering the box
// -r…r in both directions, drawn by build.
func shape(key string, r int, build func(p *path)) *mask {
	return cached(key, func() *mask {
		p := newPath(-r, -r, r, r)
		build(p)
		return p.done()
	})
}

// rowSymbol is the shape that tells a row apart without its colour: red ●,
// yellow ▲, green ■, blue ◆. s is about the radius.
func rowSymbol(c game.Color, s float64) *mask {
	return shape(fmt.Sprintf("sym%d/%g", c, s), int(math.Ceil(s*1.4))+1, func(p *path) {
		switch c {
		case game.Red:
			p.circle(0, 0, s, false)
		case game.Yellow:
			p.poly(0, -s*1.2, s*1.2, s*0.9, -s*1.2, s*0.9)
		case game.Green:
			h := s * 0.88
			p.poly(-h, -h, h, -h, h, h, -h, h)
		default:
			p.poly(0, -s*1.3, s*1.05, 0, 0, s*1.3, -s*1.05, 0)
		}
	})
}

// cross is the bold X of a crossed number, half-size h, stroke w.
func cross(h, w float64) *mask {
	return shape(fmt.Sprintf("x/%g/%g", h, w), int(h+w)+1, func(p *path) {
		p.line(-h, -h, h, h, w)
		p.line(-h, h, h, -h, w)
	})
}

// padlock is the lock symbol: closed with a filled body, or open with an
// outlined body.
func padlock(closed bool) *mask {
	return shape(fmt.Sprintf("lock/%v", closed), 20, func(p *path) {
		lockPath(p, 1, 0, 3, closed, !closed)
	})
}

// lockPath draws the padlock scaled by k and moved down by dy: the body
// (corner radius r; only its outline when outline is set) and the shackle,
// lifted open on its left post unless closed.
func lockPath(p *path, k, dy, r float64, closed, outline bool) {
	if outline {
		p.frame(-11*k, -2*k+dy, 11*k, 15*k+dy, r, r)
	} else {
		p.rrect(-11*k, -2*k+dy, 11*k, 15*k+dy, r, false)
	}
	ro, ri := 8*k, 4.5*k
	top, rightEnd := -9*k+dy, dy
	if !closed {
		top, rightEnd = -14*k+dy, -9*k+dy
	}
	pts := []float64{-ro, dy, -ro, top}
	for i := 1; i < 12; i++ {
		a := math.Pi * float64(i) / 12
		pts = append(pts, -ro*math.Cos(a), top-ro*math.Sin(a))
	}
	pts = append(pts, ro, top, ro, rightEnd, ri, rightEnd, ri, top)
	for i := 11; i > 0; i-- {
		a := math.Pi * float64(i) / 12
		pts = append(pts, -ri*math.Cos(a), top-ri*math.Sin(a))
	}
	pts = append(pts, -ri, top, -ri, dy)
	p.poly(pts...)
}

// checkMark is ✓ of about radius s.
func checkMark(s float64) *mask {
	return shape(fmt.Sprintf("check/%g", s), int(s)+3, func(p *path) {
		p.line(-s*0.8, 0, -s*0.25, s*0.6, s*0.38)
		p.line(-s*0.38, s*0.6, s*0.85, -s*0.7, s*0.38)
	})
}

// marker is ▶, the active player's marker.
func marker() *mask {
	return shape("marker", 14, func(p *path) { p.poly(-7, -11, 11, 0, -7, 11) })
}

// star is the winner's star of radius r.
func star(r float64) *mask {
	return shape(fmt.Sprintf("star/%g", r), int(r)+1, func(p *path) {
		var pts []float64
		for i := range 10 {
			rr := r
			if i%2 == 1 {
				rr = r * 0.45
			}
			a := -math.Pi/2 + math.Pi*float64(i)/5
			pts = append(pts, rr*math.Cos(a), rr*math.Sin(a))
		}
		p.poly(pts...)
	})
}

// box is a filled rounded rectangle w×h anchored at its top-left corner.
func box(w, h int, r float64) *mask {
	return cached(fmt.Sprintf("box/%d/%d/%g", w, h, r), func() *mask {
		p := newPath(0, 0, w, h)
		p.rrect(0, 0, float64(w), float64(h), r, false)
		return p.done()
	})
}

// frameMask is the outline (t thick) of a rounded rectangle w×h anchored at
// its top-left corner.
func frameMask(w, h int, r, t float64) *mask {
	return cached(fmt.Sprintf("frame/%d/%d/%g/%g", w, h, r, t), func() *mask {
		p := newPath(0, 0, w, h)
		p.frame(0, 0, float64(w), float64(h), r, t)
		return p.done()
	})
}

// dashed is a dashed rounded outline w×h, for something absent (a die that
// left the game, an empty pile).
func dashed(w, h int) *mask {
	return cached(fmt.Sprintf("dash/%d/%d", w, h), func() *mask {
		p := newPath(0, 0, w, h)
		const t, dash, gap, r = 2.5, 8.0, 6.0, 8.0
		x0, y0, x1, y1 := t/2, t/2, float64(w)-t/2, float64(h)-t/2
		seg := func(ax, ay, bx, by float64) {
			l := math.Hypot(bx-ax, by-ay)
			for s := 0.0; s < l; s += dash + gap {
				e := math.Min(s+dash, l)
				p.line(ax+(bx-ax)*s/l, ay+(by-ay)*s/l, ax+(bx-ax)*e/l, ay+(by-ay)*e/l, t)
			}
		}
		seg(x0+r, y0, x1-r, y0)
		seg(x1, y0+r, x1, y1-r)
		seg(x1-r, y1, x0+r, y1)
		seg(x0, y1-r, x0, y0+r)
		return p.done()
	})
}

// pip is one pip of a die.
func pip(r float64) *mask {
	return shape(fmt.Sprintf("pip/%g", r), int(r)+2, func(p *path) { p.circle(0, 0, r, false) })
}

// disc is a filled circle of radius r.
func disc(r float64) *mask {
	return shape(fmt.Sprintf("disc/%g", r), int(r)+2, func(p *path) { p.circle(0, 0, r, false) })
}

// pipSpots are the pip positions of 1…6 in units of the pip distance.
var pipSpots = [7][][2]float64{
	nil,
	{{0, 0}},
	{{-1, -1}, {1, 1}},
	{{-1, -1}, {0, 0}, {1, 1}},
	{{-1, -1}, {1, -1}, {-1, 1}, {1, 1}},
	{{-1, -1}, {1, -1}, {0, 0}, {-1, 1}, {1, 1}},
	{{-1, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {1, 1}},
}

// choiceRing is a dashed ellipse with radii rx, ry (to the middle of the
// stroke), stroke w, in n dashes with one centred at each of the top,
// bottom, left and right (n a multiple of 4), each dash the share dash of
// its pitch: the mark of a cell a choice would cross, around its number.
func choiceRing(rx, ry, w float64, n int, dash float64) *mask {
	return shape(fmt.Sprintf("ring/%g/%g/%g/%d/%g", rx, ry, w, n, dash), int(math.Max(rx, ry)+w)+1, func(p *path) {
		const steps = 8
		step := 2 * math.Pi / float64(n)
		half := step * dash / 2
		for k := range n {
			a0, a1 := float64(k)*step-half, float64(k)*step+half
			var pts []float64
			for i := 0; i <= steps; i++ {
				a := a0 + (a1-a0)*float64(i)/steps
				pts = append(pts, (rx+w/2)*math.Cos(a), (ry+w/2)*math.Sin(a))
			}
			for i := steps; i >= 0; i-- {
				a := a0 + (a1-a0)*float64(i)/steps
				pts = append(pts, (rx-w/2)*math.Cos(a), (ry-w/2)*math.Sin(a))
			}
			p.poly(pts...)
		}
	})
}
