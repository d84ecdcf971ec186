package render

import (
	"errors"
	"fmt"
	"image"
	"strconv"

	"github.com/qwixxbot/qwixxbot/game"
)

// ErrView reports a view the renderer cannot draw (no players, too many, a
// card game without its table …).
var ErrView = errors.New("render: invalid view")

// checkView reports what makes v undrawable.
func checkView(v game.PublicView) error {
	if n := len(v.Players); n < 1 || n > game.MaxPlayers {
		return fmt.Errorf("%w: %d players, want 1 to %d", ErrView, n, game.MaxPlayers)
	}
	switch {
	case v.Variant == game.Dice:
		for i, d := range v.Dice {
			if d < 0 || d > 6 {
				return fmt.Errorf("%w: die %d shows %d", ErrView, i+1, d)
			}
		}
	case v.Variant.CardGame():
		if v.Table == nil {
			return fmt.Errorf("%w: a card game without its table", ErrView)
		}
		if len(v.Table.Display) > game.DisplaySize || len(v.Table.Played) > 3 {
			return fmt.Errorf("%w: %d display cards, %d played", ErrView, len(v.Table.Display), len(v.Table.Played))
		}
	default:
		return fmt.Errorf("%w: variant %v", ErrView, v.Variant)
	}
	return nil
}

// prepare loads the fonts and checks the labels and the view.
func prepare(v game.PublicView, l Labels) error {
	if err := loadFonts(); err != nil {
		return err
	}
	if err := l.Validate(); err != nil {
		return err
	}
	return checkView(v)
}

// Table draws the public table as PNG: the dice or the card display, and
// every player's sheet with the active player and those who already decided
// marked. It uses only the public view, so it cannot show a hidden card.
func Table(v game.PublicView, l Labels) ([]byte, error) {
	return encodePooled(func(a alloc) (canvas, error) { return table(v, l, a) }, "table")
}

// TableImage draws the public table (see Table) without encoding it.
func TableImage(v game.PublicView, l Labels) (*image.Paletted, error) {
	return own(table(v, l, newPage))
}

func table(v game.PublicView, l Labels, alloc alloc) (canvas, error) {
	if err := prepare(v, l); err != nil {
		return canvas{}, fmt.Errorf("render: table: %w", err)
	}
	v = withNames(v, l)
	st := staticsFor(l)
	h := margin + topHeight(v) + gapY + len(v.Players)*(panelH+gapY) + stripH + margin
	c := alloc(Width, h)
	y := drawTop(c, v, l, margin) + gapY
	for p, pv := range v.Players {
		drawSheet(c, st, l, pv, optsFor(v, p), margin, y)
		y += panelH + gapY
	}
	c.blit(st.strip, st.strip.Rect, image.Pt(margin, y))
	return c, nil
}

// Sheet draws one player's sheet as PNG, under the dice or the card display
// and above the scoring strip.
func Sheet(v game.PublicView, seat int, l Labels) ([]byte, error) {
	return encodePooled(func(a alloc) (canvas, error) { return sheet(v, seat, l, a) }, "sheet")
}

// SheetImage draws one player's sheet (see Sheet) without encoding it.
func SheetImage(v game.PublicView, seat int, l Labels) (*image.Paletted, error) {
	return own(sheet(v, seat, l, newPage))
}

func sheet(v game.PublicView, seat int, l Labels, alloc alloc) (canvas, error) {
	if err := prepare(v, l); err != nil {
		return canvas{}, fmt.Errorf("render: sheet: %w", err)
	}
	v = withNames(v, l)
	if seat < 0 || seat >= len(v.Players) {
		return canvas{}, fmt.Errorf("render: sheet: %w: seat %d of %d", ErrView, seat, len(v.Players))
	}
	st := staticsFor(l)
	h := margin + topHeight(v) + gapY + panelH + gapY + stripH + margin
	c := alloc(Width, h)
	y := drawTop(c, v, l, margin) + gapY
	drawSheet(c, st, l, v.Players[seat], optsFor(v, seat), margin, y)
	y += panelH + gapY
	c.blit(st.strip, st.strip.Rect, image.Pt(margin, y))
	return c, nil
}

func optsFor(v game.PublicView, p int) sheetOpts {
	o := sheetOpts{
		active:  p == v.Active && v.Phase != game.PhaseOver,
		decided: v.Players[p].Decided,
		cards:   v.Variant.CardGame(),
	}
	if v.Variant == game.Dice {
		o.closed = v.Closed
	}
	return o
}

// Heights of the top sections.
const (
	diceH  = 96
	cardsH = 168
	dieS   = 58
)

func topHeight(v game.PublicView) int {
	if v.Variant.CardGame() {
		return cardsH
	}
	return diceH
}

// drawTop draws the dice or the cards at y and returns the bottom.
func drawTop(c canvas, v game.PublicView, l Labels, y int) int {
	if v.Variant.CardGame() {
		drawCards(c, v, l, y)
		return y + cardsH
	}
	drawDice(c, v, l, y)
	return y + diceH
}

// dieColors are the body and pip colours of the six dice.
func dieColors(i int) (body, pips uint8, col game.Color, colored bool) {
	if i < 2 {
		return cPaper, cInk, 0, false
	}
	col = game.Color(i - 2)
	return rowC(col, sBg), rowC(col, sSymbol), col, true
}

func drawDice(c canvas, v game.PublicView, l Labels, y int) {
	c.rbox(margin, y, panelW, diceH, 14, cPaper)
	cy := y + 38
	if v.Turn > 0 {
		c.textIn(fLabelB, fit(fLabelB, fmt.Sprintf(l.Turn, v.Turn), 170), margin+16, cy, left, cInk)
	}
	x := 200
	for i, d := range v.Dice {
		body, pips, col, colored := dieColors(i)
		dy := cy - dieS/2
		switch {
		case d == 0:
			c.draw(dashed(dieS, dieS), x, dy, cLine)
		default:
			c.draw(box(dieS, dieS, 11), x, dy, body)
			if !colored {
				c.draw(frameMask(dieS, dieS, 11, 2.5), x, dy, cInk)
			}
			for _, s := range pipSpots[d] {
				c.draw(pip(5.5), x+dieS/2+int(s[0]*15), dy+dieS/2+int(s[1]*15), pips)
			}
		}
		if colored {
			sc := rowC(col, sBg)
			if d == 0 {
				sc = cLine
			}
			c.draw(rowSymbol(col, 7), x+dieS/2, y+diceH-12, sc)
		}
		x += dieS + 12
		if i == 1 {
			if v.Dice[0] > 0 && v.Dice[1] > 0 {
				c.textIn(fName, "= "+strconv.Itoa(v.Dice[0]+v.Dice[1]), x+4, cy, left, cInk)
			}
			x += 76
		}
	}
}

// Card sizes on the table.
const (
	tcW, tcH = 62, 88
	tcP      = 70
)

func drawCards(c canvas, v game.PublicView, l Labels, y int) {
	t := v.Table
	c.rbox(margin, y, panelW, cardsH, 14, cPaper)
	if v.Turn > 0 {
		c.textIn(fLabelB, fmt.Sprintf(l.Turn, v.Turn), margin+16, y+20, left, cInk)
	}
	ly, cy := y+52, y+66
	label := func(s string, x, w int) {
		f := fitFace(s, w, fLabel, fSmall)
		c.textIn(f, fit(f, s, w), x, ly, left, cInkSoft)
	}
	// Display: four cards, numbers only.
	x := margin + 16
	label(l.Display, x, 4*tcP-8)
	for i, n := range t.Display {
		cardBack(c, x+i*tcP, cy, n)
	}
	// Draw pile: a stack, the top number and the size.
	x = margin + 16 + 4*tcP + 20
	label(l.DrawPile, x, 124)
	if t.DrawSize > 0 {
		if t.DrawSize > 2 {
			cardBack(c, x+6, cy+6, 0)
		}
		if t.DrawSize > 1 {
			cardBack(c, x+3, cy+3, 0)
		}
		cardBack(c, x, cy, t.DrawTop)
		count(c, t.DrawSize, x+tcW+2, cy+tcH-4)
	} else {
		c.draw(dashed(tcW, tcH), x, cy, cLine)
	}
	// Discard pile, face down.
	x += 130
	label(l.Discard, x, 96)
	if t.DiscardSize > 0 {
		if t.DiscardSize > 1 {
			cardBack(c, x+4, cy+4, 0)
		}
		cardBack(c, x, cy, 0)
		count(c, t.DiscardSize, x+tcW+2, cy+tcH-4)
	} else {
		c.draw(dashed(tcW, tcH), x, cy, cLine)
	}
	// The cards just played, face up.
	x += 104
	if len(t.Played) > 0 {
		who := ""
		if t.PlayedBy >= 0 && t.PlayedBy < len(v.Players) {
			who = v.Players[t.PlayedBy].Name
		}
		label(fmt.Sprintf(l.PlayedBy, who), x, Width-margin-x-8)
		for i, pc := range t.Played {
			playedCard(c, l, x+i*tcP, cy, pc)
		}
	}
}

// cardBack is a card on its neutral side: number n (none if 0).
func cardBack(c canvas, x, y, n int) {
	c.draw(box(tcW, tcH, 8), x, y, cCardEdge)
	c.draw(box(tcW-4, tcH-4, 6), x+2, y+2, cCard)
	if n > 0 {
		c.textIn(fCard, strconv.Itoa(n), x+tcW/2, y+tcH/2, center, cCardInk)
	} else {
		c.draw(frameMask(tcW-16, tcH-16, 4, 2), x+8, y+8, cCardEdge)
	}
}

// count is a pile's size in a dark circle at (cx, cy).
func count(c canvas, n, cx, cy int) {
	s := strconv.Itoa(n)
	r := max(15, fSmall.width(s)/2+7)
	c.draw(disc(float64(r)), cx, cy, cInk)
	c.textIn(fLabelB, s, cx, cy, center, cPaper)
}

// playedCard is a card shown face up on the table: its colour (a joker: the
// colour it was played as, with a rainbow edge and the joker mark).
func playedCard(c canvas, l Labels, x, y int, pc game.PlayedCard) {
	col := pc.Color
	if !col.Valid() {
		col = game.Red
	}
	c.draw(box(tcW, tcH, 8), x, y, rowC(col, sBg))
	text := strconv.Itoa(pc.Number)
	f := fCard
	if pc.Joker {
		rainbow(c, x+4, y+5, tcW-8, 7)
		text = l.JokerMark + text
		f = fitFace(text, tcW-8, fCard, fBox, fLabelB)
	}
	c.textIn(f, text, x+tcW/2, y+tcH/2+4, center, rowC(col, sSymbol))
	c.draw(rowSymbol(col, 6), x+12, y+tcH-13, rowC(col, sSymbol))
}

// rainbow paints the joker's stripe of the four row colours.
func rainbow(c canvas, x, y, w, h int) {
	cols := []uint8{rowC(game.Red, sBg), rowC(game.Yellow, sBg), rowC(game.Green, sBg), rowC(game.Blue, sBg), cPurple}
	sw := w / len(cols)
	for i, ci := range cols {
		x1 := x + (i+1)*sw
		if i == len(cols)-1 {
			x1 = x + w
		}
		c.fill(image.Rect(x+i*sw, y, x1, y+h), ci)
	}
}
