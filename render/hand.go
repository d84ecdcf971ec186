package render

import (
	"fmt"
	"image"
	"strconv"

	"github.com/qwixxbot/qwixxbot/game"
)

// Hand card geometry.
const (
	hcW, hcH = 136, 190
	hcP      = 148
	handTitH = 48
	maxHand  = 8
)

// Hand draws a player's private hand as PNG: the cards face up in their
// colours, in the order given, jokers black with a rainbow. It is meant for
// the owner only (an ephemeral message), never for the channel. It draws
// from v only the variant, the hand, the seat and the players' names
// (bot.PictureCache keeps hand pictures under those).
func Hand(v game.PrivateView, l Labels) ([]byte, error) {
	// Drawn whole (the bot keeps a hand's picture), in three bands: the
	// title, which does not change while the seat's name does not, the
	// cards, whose every row changes with the hand, and the margin under
	// them (sections.go: a band costs besides its bytes).
	var err error
	s := section{h: handHeight, cuts: handCuts, maxBand: handHeight, draw: func(c canvas) {
		_, err = hand(v, l, func(w, h int) canvas { return c })
	}}
	bs, derr := drawSection(s)
	if err != nil {
		return nil, err
	}
	if derr != nil {
		return nil, fmt.Errorf("render: hand: %w", derr)
	}
	return writePNG(nil, Width, handHeight, palette, bs), nil
}

// handHeight is the height of a hand's picture.
const handHeight = margin + handTitH + hcH + 24 + margin

// handCuts end a hand's bands: the title, the cards.
var handCuts = []int{margin + handTitH + 8, margin + handTitH + 8 + hcH}

// HandImage draws a private hand (see Hand) without encoding it.
func HandImage(v game.PrivateView, l Labels) (*image.Paletted, error) {
	return own(hand(v, l, newPage))
}

func hand(v game.PrivateView, l Labels, alloc alloc) (canvas, error) {
	fail := func(err error) (canvas, error) { return canvas{}, fmt.Errorf("render: hand: %w", err) }
	if err := prepare(v.PublicView, l); err != nil {
		return fail(err)
	}
	v.PublicView = withNames(v.PublicView, l)
	if !v.Variant.CardGame() {
		return fail(fmt.Errorf("%w: a %v game has no hands", ErrView, v.Variant))
	}
	if len(v.Hand) > maxHand {
		return fail(fmt.Errorf("%w: %d cards", ErrView, len(v.Hand)))
	}
	for _, k := range v.Hand {
		if !k.Valid() {
			return fail(fmt.Errorf("%w: card %v", ErrView, k))
		}
	}
	h := handHeight
	c := alloc(Width, h)
	c.rbox(margin, margin, panelW, h-2*margin, 14, cPaper)
	title := l.Hand
	if v.Seat >= 0 && v.Seat < len(v.Players) {
		title += " · " + v.Players[v.Seat].Name
	}
	c.textIn(fName, fit(fName, title, panelW-32), margin+16, margin+handTitH/2+2, left, cInk)
	y := margin + handTitH + 8
	n := len(v.Hand)
	if n == 0 {
		c.draw(dashed(hcW, hcH), (Width-hcW)/2, y, cLine)
		return c, nil
	}
	p := hcP
	if n > 1 {
		p = min(hcP, (panelW-32-hcW)/(n-1))
	}
	x := (Width - (hcW + (n-1)*p)) / 2
	for i, k := range v.Hand {
		if p >= hcW {
			// Apart, each on the paper: a sprite. Overlapping, a card's
			// corners show the one under it, so it is painted in place.
			key := spriteKey{kind: spriteHandCard, a: int(k)}
			if k.Joker() {
				key.s = l.Joker
			}
			c.sprite(key, hcW, hcH, x+i*p, y, func(c canvas, x, y int) { handCard(c, l, x, y, k) })
		} else {
			handCard(c, l, x+i*p, y, k)
		}
	}
	return c, nil
}

// handCard draws card k face up at (x, y).
func handCard(c canvas, l Labels, x, y int, k game.Card) {
	num := strconv.Itoa(k.Number())
	if k.Joker() {
		c.draw(box(hcW, hcH, 14), x, y, cJoker)
		rainbow(c, x+10, y+12, hcW-20, 12)
		rainbow(c, x+10, y+hcH-24, hcW-20, 12)
		f := fitFace(l.Joker, hcW-16, fLabelB, fSmall)
		c.textIn(f, fit(f, l.Joker, hcW-16), x+hcW/2, y+46, center, cPaper)
		c.textIn(fCardBig, num, x+hcW/2, y+hcH/2+18, center, cPaper)
		return
	}
	col := k.Color()
	fg := rowC(col, sSymbol)
	c.draw(box(hcW, hcH, 14), x, y, rowC(col, sBg))
	c.draw(frameMask(hcW-12, hcH-12, 10, 2.5), x+6, y+6, fg)
	c.textIn(fLabelB, num, x+18, y+28, left, fg)
	c.draw(rowSymbol(col, 9), x+hcW-26, y+28, fg)
	c.draw(rowSymbol(col, 9), x+26, y+hcH-28, fg)
	c.textIn(fLabelB, num, x+hcW-18, y+hcH-28, right, fg)
	c.textIn(fCardBig, num, x+hcW/2, y+hcH/2, center, fg)
}
