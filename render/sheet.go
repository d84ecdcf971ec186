package render

import (
	"image"
	"strconv"
	"sync"

	"github.com/qwixxbot/qwixxbot/game"
)

// Layout of the images, in pixels. Every image is Width wide: Discord shows
// it about 400 px wide on a phone, half size, so no text is under 22 px
// (minFontPx) on the table and the full sheet.
const (
	// Width is the width of every image.
	Width  = 800
	margin = 8
	panelW = Width - 2*margin
	hdrH   = 46
	rowH   = 54
	rowGap = 5
	rowsY  = hdrH
	rowsH  = game.NumColors*rowH + (game.NumColors-1)*rowGap
	footY  = rowsY + rowsH + 7
	footH  = 40
	panelH = footY + footH + 7
	bandX0 = 6
	bandX1 = panelW - 6
	symCX  = 29
	cellX0 = 52
	pitch  = 60
	gapY   = 10 // between blocks of an image
	stripH = 56
)

// Cell states, one row-art image each.
const (
	stPlain   = iota
	stPassed  // passed over (S2); for the lock: row closed by someone else
	stCrossed //
	stFresh   // crossed this turn
	numStates
)

// rowY is the top of row c in panel coordinates.
func rowY(c game.Color) int { return rowsY + int(c)*(rowH+rowGap) }

// cellRect is the pitch rectangle of position pos (0…11, 11 the lock) of
// row c, in panel coordinates.
func cellRect(c game.Color, pos int) image.Rectangle {
	x, y := cellX0+pos*pitch, rowY(c)
	return image.Rect(x, y, x+pitch, y+rowH)
}

// rowArt[dim][state] are the four rows with every cell in one state, so a
// sheet is assembled by copying cells. They do not depend on the labels.
var (
	rowArtOnce  sync.Once
	rowArt      [2][numStates]*image.Paletted
	rowArtTexts []drawnText // the numbers of the plain rows
)

func rowArtwork() *[2][numStates]*image.Paletted {
	rowArtOnce.Do(func() {
		for dim := range 2 {
			for st := range numStates {
				c := newCanvas(panelW, panelH, cPaper)
				c.log = &textLog{}
				for _, col := range game.Colors {
					drawRow(c, col, dim == 1, st)
				}
				rowArt[dim][st] = c.p
				if dim == 0 && st == stPlain {
					rowArtTexts = c.log.texts
				}
			}
		}
	})
	return &rowArt
}

// rowColors are a row's background, cell tint and dark ink, dimmed for a
// locked row.
func rowColors(col game.Color, dim bool) (bg, tint, dark uint8) {
	if dim {
		return rowC(col, sDimBg), rowC(col, sDimTint), rowC(col, sDimDark)
	}
	return rowC(col, sBg), rowC(col, sTint), rowC(col, sDark)
}

// drawRow paints row col of a panel at the origin with every cell in state st.
func drawRow(c canvas, col game.Color, dim bool, st int) {
	bg, tint, dark := rowColors(col, dim)
	y := rowY(col)
	c.rbox(bandX0, y, bandX1-bandX0, rowH, 12, bg)
	c.draw(rowSymbol(col, 13), symCX, y+rowH/2, rowC(col, sSymbol))
	for pos := 0; pos <= game.LockPos; pos++ {
		r := cellRect(col, pos)
		cx, cy := r.Min.X+pitch/2, r.Min.Y+rowH/2
		fill, num, mark := tint, dark, uint8(cInk)
		switch st {
		case stPassed:
			if pos != game.LockPos {
				fill, num = cPassBg, cPassFg
			}
		case stFresh:
			// This turn's crosses: an ink cell, the number in paper and the
			// X in orange; it stands out on every row and in greyscale.
			fill, num, mark = cInk, cPaper, cFresh
		}
		if pos == game.LockPos {
			// Open lock; closed by someone else (filled); locked by this
			// player (the lock cross: an inverted disc); locked this turn.
			switch st {
			case stPlain:
				c.draw(disc(23), cx, cy, tint)
				c.draw(padlock(false), cx, cy, dark)
			case stPassed:
				c.draw(disc(23), cx, cy, tint)
				c.draw(padlock(true), cx, cy, cInk)
			case stCrossed:
				c.draw(disc(24), cx, cy, cInk)
				c.draw(padlock(true), cx, cy, cPaper)
			case stFresh:
				c.draw(box(pitch-6, rowH-6, 8), r.Min.X+3, r.Min.Y+3, cInk)
				c.draw(disc(21), cx, cy, cFresh)
				c.draw(padlock(true), cx, cy, cInk)
			}
			continue
		}
		c.draw(box(pitch-6, rowH-6, 8), r.Min.X+3, r.Min.Y+3, fill)
		c.textIn(fNum, strconv.Itoa(game.NumberAt(col, pos)), cx, cy, center, num)
		switch st {
		case stPassed:
			c.draw(box(pitch-18, 4, 2), r.Min.X+9, cy-2, cInkSoft)
		case stCrossed, stFresh:
			c.draw(cross(15, 6.5), cx, cy, mark)
		}
	}
}

// statics are the parts of the images that depend only on the labels, with
// the texts drawn on them.
type statics struct {
	panel      *image.Paletted // an empty sheet, no name, no numbers
	strip      *image.Paletted // the scoring strip
	panelTexts []drawnText
	stripTexts []drawnText
}

// staticCache keeps the statics of each label set.
var staticCache = newMemo[Labels, *statics](maxStatics)

// maxStatics bounds the cache (a few languages are expected).
const maxStatics = 32

func staticsFor(l Labels) *statics {
	return staticCache.get(l, func() *statics {
		s := &statics{}
		s.panel, s.panelTexts = drawPanel(l)
		s.strip, s.stripTexts = drawStrip(l)
		return s
	})
}

// Footer geometry: the boxes row + row + row + row − misthrows = total.
const (
	fbW   = 58
	fbH   = 34
	fOpW  = 18
	fTotW = 76
	mbS   = 30 // misthrow box size
	mbP   = 36 // misthrow box pitch
)

func footBoxX(i int) int { return 14 + i*(fbW+fOpW) }

func misthrowBoxX(i int) int { return panelW - 14 - game.MaxMisthrows*mbP + (mbP - mbS) + i*mbP }

// drawPanel paints an empty sheet: paper, header band, rows, footer.
func drawPanel(l Labels) (*image.Paletted, []drawnText) {
	c := newCanvas(panelW, panelH, cPage)
	c.log = &textLog{}
	c.rbox(0, 0, panelW, panelH, 14, cPaper)
	c.rbox(0, 0, panelW, hdrH+8, 14, cHeader)
	c.fill(image.Rect(0, hdrH, panelW, hdrH+8), cPaper)
	art := rowArtwork()[0][stPlain]
	c.blit(art, image.Rect(0, rowsY, panelW, rowsY+rowsH), image.Pt(0, rowsY))
	c.log.addAt(rowArtTexts, 0, 0)
	// Header: the total's label; the number is drawn per sheet.
	c.textIn(fLabel, l.Total, panelW-16-60, hdrH/2, right, cInkSoft)
	// Footer.
	y, cy := footY+3, footY+3+fbH/2
	for i, col := range game.Colors {
		x := footBoxX(i)
		c.draw(box(fbW, fbH, 7), x, y, rowC(col, sBg))
		c.draw(box(fbW-6, fbH-6, 5), x+3, y+3, cPaper)
		c.draw(rowSymbol(col, 6), x+13, cy, rowC(col, sBg))
		op := "+"
		if i == game.NumColors-1 {
			op = "−"
		}
		c.textIn(fBox, op, x+fbW+fOpW/2, cy, center, cInk)
	}
	x := footBoxX(game.NumColors)
	c.draw(box(fbW, fbH, 7), x, y, cInkSoft)
	c.draw(box(fbW-6, fbH-6, 5), x+3, y+3, cPaper)
	c.draw(cross(5, 2.5), x+13, cy, cInkSoft)
	c.textIn(fBox, "=", x+fbW+fOpW/2, cy, center, cInk)
	x = footBoxX(game.NumColors + 1)
	c.draw(box(fTotW, fbH, 7), x, y, cInk)
	c.draw(box(fTotW-8, fbH-8, 4), x+4, y+4, cPaper)
	// Misthrow boxes with their label.
	mx := misthrowBoxX(0)
	lw := mx - 10 - (footBoxX(game.NumColors+1) + fTotW + 12)
	textLines(c, fLabel, l.Misthrows, lw, mx-10, cy, cInkSoft)
	for i := range game.MaxMisthrows {
		c.draw(box(mbS, mbS, 5), misthrowBoxX(i), cy-mbS/2, cInkSoft)
		c.draw(box(mbS-4, mbS-4, 3), misthrowBoxX(i)+2, cy-mbS/2+2, cPaper)
	}
	return c.p, c.log.texts
}

// drawStrip paints the scoring strip: crosses 1…12 over points 1…78 (S4).
func drawStrip(l Labels) (*image.Paletted, []drawnText) {
	c := newCanvas(panelW, stripH, cPage)
	c.log = &textLog{}
	c.rbox(0, 0, panelW, stripH, 12, cPaper)
	const colW = 52
	x0 := panelW - 8 - 12*colW
	lw := x0 - 20
	c.textIn(fLabel, fit(fLabel, l.Crosses, lw), x0-10, 16, right, cInkSoft)
	c.textIn(fLabelB, fit(fLabelB, l.Points, lw), x0-10, 40, right, cInk)
	for n := 1; n <= 12; n++ {
		x := x0 + (n-1)*colW
		if n%2 == 1 {
			c.draw(box(colW, stripH-8, 6), x, 4, cHeader)
		}
		c.textIn(fLabel, strconv.Itoa(n)+"×", x+colW/2, 16, center, cInkSoft)
		c.textIn(fLabelB, strconv.Itoa(game.RowScore(n)), x+colW/2, 40, center, cInk)
	}
	return c.p, c.log.texts
}

// sheetOpts says how to mark a sheet on the table.
type sheetOpts struct {
	active, decided, cards bool
	closed                 [game.NumColors]bool
	winner                 bool
	noFresh                bool // final sheets: no highlight
	strip                  bool // results: the header ends in the score line (drawScoreLine)
	// choices are the cells the viewer's current choices would cross,
	// marked with a dashed ring (their private sheet only).
	choices []Cell
}

// Choice ring geometry: radii to the middle of the stroke, stroke width,
// dashes and the share of a dash's pitch it covers.
const (
	ringRX, ringRY = 24.5, 21
	ringW          = 3.5
	ringDashes     = 16
	ringDash       = 0.6
)

// Cell is a number cell of a sheet: its row and the number printed in it.
type Cell struct {
	Color  game.Color
	Number int
}

// drawSheet draws player pv's sheet with its top-left corner at (x0, y0).
// drawCells paints the cells of pv's rows that are not plain (crossed,
// crossed this turn, passed, locked or closed) from art, the row images of
// a layout whose rows start at rowTop, rowHeight high, with cell gives the
// cells' rectangles; a locked or closed row is first dimmed whole.
func drawCells(c canvas, art *[2][numStates]*image.Paletted, pv game.PlayerView, o sheetOpts,
	rowTop func(game.Color) int, rowHeight int, cell func(game.Color, int) image.Rectangle, x0, y0 int) {
	for _, col := range game.Colors {
		row := pv.Sheet.Rows[col]
		fresh := pv.Fresh[col]
		if o.noFresh {
			fresh = 0
		}
		dim := 0
		if row.Locked() || o.closed[col] {
			dim = 1
			band := image.Rect(0, rowTop(col), panelW, rowTop(col)+rowHeight)
			c.blit(art[dim][stPlain], band, band.Min.Add(image.Pt(x0, y0)))
		}
		for pos := 0; pos <= game.LockPos; pos++ {
			s := stPlain
			switch {
			case row.Crossed(pos) && fresh.Crossed(pos):
				s = stFresh
			case row.Crossed(pos):
				s = stCrossed
			case pos == game.LockPos && o.closed[col]:
				s = stPassed
			case pos < game.LockPos && row.Passed(pos):
				s = stPassed
			}
			if s != stPlain {
				r := cell(col, pos)
				c.blit(art[dim][s], r, r.Min.Add(image.Pt(x0, y0)))
			}
		}
	}
}

func drawSheet(c canvas, st *statics, l Labels, pv game.PlayerView, o sheetOpts, x0, y0 int) {
	c.blit(st.panel, st.panel.Rect, image.Pt(x0, y0))
	drawCells(c, rowArtwork(), pv, o, rowY, rowH, cellRect, x0, y0)
	for _, ch := range o.choices {
		pos := game.Position(ch.Color, ch.Number)
		if !ch.Color.Valid() || pos < 0 || pos >= game.LockPos {
			continue
		}
		r := cellRect(ch.Color, pos)
		c.draw(choiceRing(ringRX, ringRY, ringW, ringDashes, ringDash), x0+r.Min.X+pitch/2, y0+r.Min.Y+rowH/2, cInk)
	}
	// Outline; the active player's header is boxed in bold. Only the
	// header's rows change when the turn passes on: the PNG encoder
	// compresses again only the bands of rows that changed (png.go), and
	// a bold outline of the whole sheet changed every row of two sheets.
	c.rframe(x0, y0, panelW, panelH, 14, 2, cLine)
	if o.active {
		c.rframe(x0, y0, panelW, hdrH-1, 14, 4, cInk)
		c.draw(marker(), x0+20, y0+hdrH/2, cInk)
	}
	if o.winner {
		c.draw(star(14), x0+20, y0+hdrH/2, cGold)
	}
	// Header: name, badges, hand size, total.
	cy := y0 + hdrH/2
	rx := x0 + panelW - 16 - 60 - fLabel.width(l.Total) - 14
	if o.cards {
		s := l.Hand + " " + strconv.Itoa(pv.HandSize)
		rx -= fLabel.width(s)
		c.textIn(fLabel, s, rx, cy, left, cInkSoft)
		rx -= 18
	}
	c.textIn(fName, strconv.Itoa(pv.Score), x0+panelW-16, cy, right, cInk)
	x := x0 + 40
	var badges []badge
	if o.active && l.Active != "" {
		badges = append(badges, badge{l.Active, cInk, false})
	}
	if o.decided && l.Decided != "" {
		badges = append(badges, badge{l.Decided, cGood, true})
	}
	bw := 0
	for _, b := range badges {
		bw += b.width() + 10
	}
	name := fit(fName, pv.Name, max(rx-x-bw-8, 40))
	x = c.textIn(fName, name, x, cy, left, cInk) + 12
	for _, b := range badges {
		x = b.draw(c, x, cy) + 10
	}
	// Footer numbers.
	fy := y0 + footY + 3 + fbH/2
	for i, col := range game.Colors {
		c.textIn(fBox, strconv.Itoa(pv.Sheet.Rows[col].Score()), x0+footBoxX(i)+fbW-8, fy, right, cInk)
	}
	c.textIn(fBox, strconv.Itoa(game.MisthrowPenalty*pv.Sheet.Misthrows), x0+footBoxX(game.NumColors)+fbW-8, fy, right, cInk)
	c.textIn(fBox, strconv.Itoa(pv.Sheet.Score()), x0+footBoxX(game.NumColors+1)+fTotW/2, fy, center, cInk)
	for i := range min(pv.Sheet.Misthrows, game.MaxMisthrows) {
		c.draw(cross(10, 4.5), x0+misthrowBoxX(i)+mbS/2, fy, cInk)
	}
}

// badge is a small pill with a word, optionally with a check mark.
type badge struct {
	text  string
	bg    uint8
	check bool
}

func (b badge) width() int {
	w := fLabel.width(b.text) + 20
	if b.check {
		w += 20
	}
	return w
}

func (b badge) draw(c canvas, x, cy int) int {
	w := b.width()
	c.draw(box(w, 28, 14), x, cy-14, b.bg)
	tx := x + 10
	if b.check {
		c.draw(checkMark(8), tx+8, cy, cPaper)
		tx += 20
	}
	c.textIn(fLabel, b.text, tx, cy, left, cPaper)
	return x + w
}
