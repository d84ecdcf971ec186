package render

import (
	"fmt"
	"image"
	"strconv"
	"sync"

	"github.com/qwixxbot/qwixxbot/game"
)

// The public table shows every player's sheet as a compact panel, one under
// the other: a header line (name, badges, hand size, misthrows, total) and
// the four rows, lower than on the full sheet and without the score footer.
// Five of them under the card display fit in a picture at most 1.3 times as
// tall as it is wide, so a phone shows the whole table in one preview, and
// every text stays at least minFontPx (the full sheet, with the row scores
// and the scoring strip, is the private "My sheet").
//
// The horizontal geometry of the rows is the full sheet's (cellX0, pitch).
const (
	cHdrH    = 34 // header line
	cRowH    = 29
	cRowGap  = 2
	cRowsY   = cHdrH
	cRowsH   = game.NumColors*cRowH + (game.NumColors-1)*cRowGap
	cPanelH  = cRowsY + cRowsH + 6
	cGapY    = 6  // between two panels
	cMisS    = 22 // misthrow box size
	cMisP    = 27 // misthrow box pitch
	cTotalW  = 56 // room for the total at the right end of the header
	cNameX   = 36 // the name starts here, after the active marker
	maxBadge = 170
)

// cRowY is the top of row c in compact panel coordinates.
func cRowY(c game.Color) int { return cRowsY + int(c)*(cRowH+cRowGap) }

// cCellRect is the pitch rectangle of position pos (0…11, 11 the lock) of
// row c, in compact panel coordinates.
func cCellRect(c game.Color, pos int) image.Rectangle {
	x, y := cellX0+pos*pitch, cRowY(c)
	return image.Rect(x, y, x+pitch, y+cRowH)
}

// cMisthrowX is the left edge of misthrow box i in panel coordinates.
func cMisthrowX(i int) int {
	return panelW - 14 - cTotalW - 12 - game.MaxMisthrows*cMisP + (cMisP - cMisS) + i*cMisP
}

// compactArt[dim][state] are the four compact rows with every cell in one
// state; compactPanel is an empty compact panel. Neither holds a word, so
// they serve every language.
var (
	compactOnce  sync.Once
	compactArt   [2][numStates]*image.Paletted
	compactPanel *image.Paletted
	compactTexts []drawnText // the numbers printed in compactPanel
)

func compactArtwork() *[2][numStates]*image.Paletted {
	compactOnce.Do(func() {
		for dim := range 2 {
			for st := range numStates {
				c := newCanvas(panelW, cPanelH, cPaper)
				for _, col := range game.Colors {
					drawCompactRow(c, col, dim == 1, st)
				}
				compactArt[dim][st] = c.p
			}
		}
		c := newCanvas(panelW, cPanelH, cPage)
		c.log = &textLog{}
		c.rbox(0, 0, panelW, cPanelH, 12, cPaper)
		c.rbox(0, 0, panelW, cHdrH+6, 12, cHeader)
		c.fill(image.Rect(0, cHdrH, panelW, cHdrH+6), cPaper)
		for _, col := range game.Colors {
			drawCompactRow(c, col, false, stPlain)
		}
		cy := cHdrH / 2
		for i := range game.MaxMisthrows {
			c.draw(box(cMisS, cMisS, 4), cMisthrowX(i), cy-cMisS/2, cInkSoft)
			c.draw(box(cMisS-4, cMisS-4, 3), cMisthrowX(i)+2, cy-cMisS/2+2, cPaper)
		}
		compactPanel, compactTexts = c.p, c.log.texts
	})
	return &compactArt
}

// drawCompactRow paints row col of a compact panel with every cell in st.
func drawCompactRow(c canvas, col game.Color, dim bool, st int) {
	bg, tint, dark := rowColors(col, dim)
	y := cRowY(col)
	c.rbox(bandX0, y, bandX1-bandX0, cRowH, 8, bg)
	c.draw(rowSymbol(col, 8), symCX, y+cRowH/2, rowC(col, sSymbol))
	for pos := 0; pos <= game.LockPos; pos++ {
		r := cCellRect(col, pos)
		cx, cy := r.Min.X+pitch/2, r.Min.Y+cRowH/2
		if pos == game.LockPos {
			// As on the full sheet: open; closed by someone else; locked by
			// this player; locked this turn.
			switch st {
			case stPlain:
				c.draw(disc(12.5), cx, cy, tint)
				c.draw(smallLock(false), cx, cy, dark)
			case stPassed:
				c.draw(disc(12.5), cx, cy, tint)
				c.draw(smallLock(true), cx, cy, cInk)
			case stCrossed:
				c.draw(disc(13.5), cx, cy, cInk)
				c.draw(smallLock(true), cx, cy, cPaper)
			case stFresh:
				c.draw(disc(14.5), cx, cy, cInk)
				c.draw(disc(11.5), cx, cy, cFresh)
				c.draw(smallLock(true), cx, cy, cInk)
			}
			continue
		}
		fill, num, mark := tint, dark, uint8(cInk)
		switch st {
		case stPassed:
			fill, num = cPassBg, cPassFg
		case stFresh:
			// As on the full sheet: an ink cell, the number in paper and
			// the X in orange, seen on every row and in greyscale.
			fill, num, mark = cInk, cPaper, cFresh
		}
		c.draw(box(pitch-6, cRowH-4, 6), r.Min.X+3, r.Min.Y+2, fill)
		c.textIn(fBox, strconv.Itoa(game.NumberAt(col, pos)), cx, cy, center, num)
		switch st {
		case stPassed:
			c.draw(box(pitch-22, 3, 1.5), r.Min.X+11, cy-1, cInkSoft)
		case stCrossed, stFresh:
			c.draw(cross(10, 4.5), cx, cy, mark)
		}
	}
}

// smallLock is the padlock of the compact rows, centred on its anchor.
func smallLock(closed bool) *mask {
	return shape(fmt.Sprintf("slock/%v", closed), 13, func(p *path) {
		const k = 0.56 // scale of padlock; moved down 4 units to centre it
		lockPath(p, k, 4*k, 2, closed, !closed)
	})
}

// drawCompact draws player pv's compact panel with its top-left corner at
// (x0, y0).
func drawCompact(c canvas, l Labels, pv game.PlayerView, o sheetOpts, x0, y0 int) {
	art := compactArtwork() // also makes compactPanel
	c.blit(compactPanel, compactPanel.Rect, image.Pt(x0, y0))
	c.log.addAt(compactTexts, x0, y0)
	drawCells(c, art, pv, o, cRowY, cRowH, cCellRect, x0, y0)
	cy := y0 + cHdrH/2
	// Right end: the total, the misthrows, the hand size; in the results
	// the scoring strip instead.
	var rx int
	if o.strip {
		c.fill(image.Rect(x0+cMisthrowX(0)-2, cy-cMisS/2-2, x0+cMisthrowX(game.MaxMisthrows-1)+cMisS+2, cy+cMisS/2+2), cHeader)
		rx = drawScoreLine(c, pv.Sheet, x0+panelW-14, cy) - 14
	} else {
		c.textIn(fName, strconv.Itoa(pv.Score), x0+panelW-14, cy, right, cInk)
		for i := range min(pv.Sheet.Misthrows, game.MaxMisthrows) {
			c.draw(cross(7, 3.5), x0+cMisthrowX(i)+cMisS/2, cy, cInk)
		}
		rx = x0 + cMisthrowX(0) - 14
	}
	// The frame after the score line, whose chips are copied with their
	// background.
	// The active player's header line is boxed in bold, not the whole
	// panel: when the turn passes on only the header lines' rows change,
	// and the PNG encoder compresses again only the bands of rows that
	// changed (png.go).
	switch {
	case o.active:
		c.rframe(x0, y0, panelW, cPanelH, 12, 2, cLine)
		c.rframe(x0, y0, panelW, cHdrH, 12, 4, cInk)
		c.draw(marker(), x0+19, cy, cInk)
	case o.winner:
		c.rframe(x0, y0, panelW, cPanelH, 12, 4, cGold)
		c.draw(star(11), x0+19, cy, cGold)
	default:
		c.rframe(x0, y0, panelW, cPanelH, 12, 2, cLine)
	}
	if o.cards && !o.strip {
		s := l.Hand + " " + strconv.Itoa(pv.HandSize)
		s = fit(fLabel, s, 160)
		rx = c.textIn(fLabel, s, rx, cy, right, cInkSoft) - fLabel.width(s) - 14
	}
	// Left: the name, then the badges.
	var badges []badge
	if o.active && l.Active != "" {
		badges = append(badges, badge{fit(fLabel, l.Active, maxBadge), cInk, false})
	}
	if o.decided && l.Decided != "" {
		badges = append(badges, badge{fit(fLabel, l.Decided, maxBadge), cGood, true})
	}
	bw := 0
	for _, b := range badges {
		bw += b.width() + 10
	}
	x := x0 + cNameX
	name := fit(fName, pv.Name, max(rx-x-bw-12, 40))
	x = c.textIn(fName, name, x, cy, left, cInk) + 12
	for _, b := range badges {
		x = b.draw(c, x, cy) + 10
	}
}
