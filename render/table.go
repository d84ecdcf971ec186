package render

import (
	"errors"
	"fmt"
	"image"
	"strconv"
	"strings"

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
// every player's sheet, compact (rows, name, total, misthrows, hand size),
// with the active player and those who already decided marked. It is made
// to be read on a phone in one preview (see compact.go); Sheet draws one
// sheet in full. It uses only the public view, so it cannot show a hidden
// card.
func Table(v game.PublicView, l Labels) ([]byte, error) {
	if err := prepare(v, l); err != nil {
		return nil, fmt.Errorf("render: table: %w", err)
	}
	v = withNames(v, l)
	lid := labelsID(&l)
	var all [1 + 5*game.MaxPlayers]section
	secs := append(all[:0], topSection(v, &l, lid))
	for p, pv := range v.Players {
		below := cGapY
		if p == len(v.Players)-1 {
			below = margin
		}
		secs = compactSections(secs, pv, optsFor(v, p), &l, lid, below)
	}
	return encodeSections(secs, "table")
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
	c := alloc(Width, tableHeight(v))
	y := drawTop(c, v, l, margin) + gapY
	for p, pv := range v.Players {
		drawCompact(c, l, pv, optsFor(v, p), margin, y)
		y += cPanelH + cGapY
	}
	return c, nil
}

// tableHeight is the height of the public table: the dice or the cards and
// a compact panel per player.
func tableHeight(v game.PublicView) int {
	n := len(v.Players)
	return margin + topHeight(v) + gapY + n*cPanelH + (n-1)*cGapY + margin
}

// Sheet draws one player's sheet as PNG, under the dice or the card display
// and above the scoring strip. It is the player's private view: each of
// choices, the cells their current choices would cross, gets a dashed ring
// (the public table never shows them).
func Sheet(v game.PublicView, seat int, l Labels, choices ...Cell) ([]byte, error) {
	if err := prepare(v, l); err != nil {
		return nil, fmt.Errorf("render: sheet: %w", err)
	}
	v = withNames(v, l)
	if seat < 0 || seat >= len(v.Players) {
		return nil, fmt.Errorf("render: sheet: %w: seat %d of %d", ErrView, seat, len(v.Players))
	}
	st := staticsFor(l)
	o := optsFor(v, seat)
	o.choices = choices
	lid := labelsID(&l)
	var all [7]section
	secs := append(all[:0], topSection(v, &l, lid))
	secs = sheetSections(secs, st, v.Players[seat], o, &l, lid)
	return encodeSections(append(secs, stripSection(st, lid)), "sheet")
}

// SheetImage draws one player's sheet (see Sheet) without encoding it.
func SheetImage(v game.PublicView, seat int, l Labels, choices ...Cell) (*image.Paletted, error) {
	return own(sheet(v, seat, l, choices, newPage))
}

func sheet(v game.PublicView, seat int, l Labels, choices []Cell, alloc alloc) (canvas, error) {
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
	o := optsFor(v, seat)
	o.choices = choices
	drawSheet(c, st, l, v.Players[seat], o, margin, y)
	c.log.addAt(st.panelTexts, margin, y)
	y += panelH + gapY
	c.blit(st.strip, st.strip.Rect, image.Pt(margin, y))
	c.log.addAt(st.stripTexts, margin, y)
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
	cardsH = 150
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
		drawDie(c, i, d, x, cy-dieS/2)
		x += dieS + 12
		if i == 1 {
			if v.Dice[0] > 0 && v.Dice[1] > 0 {
				c.textIn(fName, "= "+strconv.Itoa(v.Dice[0]+v.Dice[1]), x+4, cy, left, cInk)
			}
			x += 76
		}
	}
}

// drawDie draws die i (0 and 1 white, then red, yellow, green, blue)
// showing d, its top-left corner at (x, y); d 0 is a die that left the game
// (D7): a dashed outline. The pips of a coloured die are its row's symbol
// (red ●, yellow ▲, green ■, blue ◆), so the dice are told apart without
// their colours; a die that left the game keeps its symbol in grey.
func drawDie(c canvas, i, d, x, y int) {
	c.sprite(spriteKey{kind: spriteDie, a: i, b: d}, dieS, dieS, x, y, func(c canvas, x, y int) { paintDie(c, i, d, x, y) })
}

// paintDie paints die i showing d with its top-left corner at (x, y).
func paintDie(c canvas, i, d, x, y int) {
	body, pips, col, colored := dieColors(i)
	if d == 0 {
		c.draw(dashed(dieS, dieS), x, y, cLine)
		if colored {
			c.draw(rowSymbol(col, 11), x+dieS/2, y+dieS/2, cLine)
		}
		return
	}
	c.draw(box(dieS, dieS, 11), x, y, body)
	if !colored {
		c.draw(frameMask(dieS, dieS, 11, 2.5), x, y, cInk)
	}
	p := pip(5.5)
	if colored {
		p = rowSymbol(col, pipSymbol(col))
	}
	for _, s := range pipSpots[d] {
		c.draw(p, x+dieS/2+int(s[0]*15), y+dieS/2+int(s[1]*15), pips)
	}
}

// pipSymbol is the size of the row symbol that is a pip of the die of
// colour col. The squares are a little larger than the circles, so the two
// read apart at a glance (the red and green dice look alike to many
// colour-blind players); the diamond, the tallest, a little smaller, so
// the three pips of a column of six stay apart (15 px apart).
func pipSymbol(col game.Color) float64 {
	switch col {
	case game.Red:
		return 6
	case game.Green:
		return 7
	case game.Blue:
		return 5.4
	}
	return 6.5
}

// Card sizes on the table.
const (
	tcW, tcH = 58, 80
	tcP      = 64
)

// Left edges of the card groups on the table, and the width of their
// labels: the display, the draw pile, the discard pile, the cards played.
const (
	tcDisplayX = margin + 16
	tcDrawX    = tcDisplayX + 3*tcP + tcW + 16
	tcDiscardX = tcDrawX + 164
	tcPlayedX  = tcDiscardX + 108
)

func drawCards(c canvas, v game.PublicView, l Labels, y int) {
	t := v.Table
	c.rbox(margin, y, panelW, cardsH, 14, cPaper)
	if v.Turn > 0 {
		s := fmt.Sprintf(l.Turn, v.Turn)
		c.textIn(fLabelB, fit(fLabelB, s, panelW-32), margin+16, y+18, left, cInk)
	}
	ly, cy := y+48, y+62
	label := func(s string, x, w int) {
		c.textIn(fLabel, fit(fLabel, s, w), x, ly, left, cInkSoft)
	}
	// Display: four cards, numbers only.
	x := tcDisplayX
	label(l.Display, x, tcDrawX-x-10)
	for i, n := range t.Display {
		cardBack(c, x+i*tcP, cy, n)
	}
	// Draw pile: a stack, the top number and the size.
	x = tcDrawX
	label(l.DrawPile, x, tcDiscardX-x-8)
	if t.DrawSize > 0 {
		cardStack(c, x, cy, min(t.DrawSize, 3), 3, t.DrawTop)
		count(c, t.DrawSize, x+tcW+4, cy+tcH-14)
	} else {
		c.draw(dashed(tcW, tcH), x, cy, cLine)
	}
	// Discard pile, face down.
	x = tcDiscardX
	label(l.Discard, x, tcPlayedX-x-8)
	if t.DiscardSize > 0 {
		cardStack(c, x, cy, min(t.DiscardSize, 2), 4, 0)
		count(c, t.DiscardSize, x+tcW+4, cy+tcH-14)
	} else {
		c.draw(dashed(tcW, tcH), x, cy, cLine)
	}
	// The cards just played, face up.
	x = tcPlayedX
	if len(t.Played) > 0 {
		who := ""
		if t.PlayedBy >= 0 && t.PlayedBy < len(v.Players) {
			who = v.Players[t.PlayedBy].Name
		}
		label(fitName(fLabel, l.PlayedBy, who, Width-margin-x-8), x, Width-margin-x-8)
		for i, pc := range t.Played {
			playedCard(c, l, x+i*tcP, cy, pc)
		}
	}
}

// cardBack is a card on its neutral side: number n (none if 0).
func cardBack(c canvas, x, y, n int) {
	c.sprite(spriteKey{kind: spriteCardBack, a: n}, tcW, tcH, x, y, func(c canvas, x, y int) { paintCardBack(c, x, y, n) })
}

// cardStack is a pile of depth cards (1–3), each step off by d pixels
// right and down, n on top (none if 0).
func cardStack(c canvas, x, y, depth, d, n int) {
	c.sprite(spriteKey{kind: spriteStack, a: depth, b: d, c: n}, tcW+(depth-1)*d, tcH+(depth-1)*d, x, y, func(c canvas, x, y int) {
		for k := depth - 1; k > 0; k-- {
			paintCardBack(c, x+k*d, y+k*d, 0)
		}
		paintCardBack(c, x, y, n)
	})
}

func paintCardBack(c canvas, x, y, n int) {
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
	r := max(16, fLabelB.width(s)/2+6)
	c.draw(disc(float64(r)), cx, cy, cInk)
	c.textIn(fLabelB, s, cx, cy, center, cPaper)
}

// playedCard is a card shown face up on the table: its colour and, large,
// its row's symbol, so the colour reads without telling hues apart (a
// joker: the colour it was played as, with the joker's stripe and mark).
func playedCard(c canvas, l Labels, x, y int, pc game.PlayedCard) {
	k := spriteKey{kind: spritePlayed, a: int(pc.Color), b: pc.Number}
	if pc.Joker {
		k.c, k.s = 1, l.JokerMark
	}
	c.sprite(k, tcW, tcH, x, y, func(c canvas, x, y int) { paintPlayedCard(c, l, x, y, pc) })
}

func paintPlayedCard(c canvas, l Labels, x, y int, pc game.PlayedCard) {
	col := pc.Color
	if !col.Valid() {
		col = game.Red
	}
	fg := rowC(col, sSymbol)
	c.draw(box(tcW, tcH, 8), x, y, rowC(col, sBg))
	c.draw(frameMask(tcW-6, tcH-6, 6, 2), x+3, y+3, fg)
	text := strconv.Itoa(pc.Number)
	f := fCard
	if pc.Joker {
		rainbow(c, x+7, y+8, tcW-14, 8)
		text = l.JokerMark + text
		f = fitFace(text, tcW-10, fCard, fBox, fLabelB)
	}
	c.draw(rowSymbol(col, playedSymR), x+tcW/2, y+playedSymbolY(pc.Joker), fg)
	c.textIn(f, text, x+tcW/2, y+tcH-24, center, fg)
}

// playedSymR is the radius of the row symbol on a played card: as wide as
// the number's digits, so the row reads without its colour.
const playedSymR = 12

// playedSymbolY is the centre of the row symbol on a played card, below
// the joker's stripe on a joker.
func playedSymbolY(joker bool) int {
	if joker {
		return 32
	}
	return 25
}

// fitName fills format's %s with name, shortening the name rather than
// the words around it when the whole does not fit into w pixels.
func fitName(f *face, format, name string, w int) string {
	before, after, _ := strings.Cut(format, "%s")
	if whole := before + name + after; f.width(whole) <= w {
		return whole
	}
	if short := fit(f, name, w-f.width(before+after)); short != "" && short != "…" {
		return before + short + after
	}
	// Too narrow for the words and a name: the name alone, never the
	// words alone ("Zuletzt ausgespielt: …" named nobody).
	if name != "" {
		return fit(f, name, w)
	}
	return fit(f, before+after, w)
}

// rainbow paints the joker's stripe: the four row colours, nothing else.
func rainbow(c canvas, x, y, w, h int) {
	for i, col := range game.Colors {
		x0, x1 := x+i*w/len(game.Colors), x+(i+1)*w/len(game.Colors)
		c.fill(image.Rect(x0, y, x1, y+h), rowC(col, sBg))
	}
}
