package render

import (
	"image"
	"strings"
)

// textLog records what is drawn as text on a canvas: each string with its
// font size and position, so the tests can hold a picture to the phone rule
// (Discord shows a picture about 400 px wide on a phone, and text in the
// public table must stay at least 11 px there: legible_test.go).
type textLog struct {
	texts []drawnText
}

// drawnText is one text drawn: s at font size px, its left end and baseline
// at at.
type drawnText struct {
	s  string
	px float64
	at image.Point
}

func (l *textLog) add(f *face, s string, x, y int) {
	l.texts = append(l.texts, drawnText{s: s, px: f.size, at: image.Pt(x, y)})
}

// addAt records texts drawn elsewhere (on a cached image) and copied to the
// canvas with their origin at (x, y). A nil log records nothing.
func (l *textLog) addAt(texts []drawnText, x, y int) {
	if l == nil {
		return
	}
	for _, t := range texts {
		t.at = t.at.Add(image.Pt(x, y))
		l.texts = append(l.texts, t)
	}
}

// textLines draws s right-aligned at x, centred on cy, in f: on one line if
// it fits into w pixels, else on two lines broken at a space where both fit,
// else shortened with an ellipsis. The font size never shrinks.
func textLines(c canvas, f *face, s string, w, x, cy int, fg uint8) {
	if f.width(s) > w {
		for i := strings.LastIndexByte(s, ' '); i > 0; i = strings.LastIndexByte(s[:i], ' ') {
			a, b := s[:i], s[i+1:]
			if f.width(a) <= w && f.width(b) <= w {
				gap := f.capH/2 + 4
				c.textIn(f, a, x, cy-gap, right, fg)
				c.textIn(f, b, x, cy+gap, right, fg)
				return
			}
		}
	}
	c.textIn(f, fit(f, s, w), x, cy, right, fg)
}
