package render

import (
	"fmt"
	"image"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/qwixxbot/qwixxbot/game"
)

// Results layout.
const (
	resTitH  = 92
	stopTitH = 60 // the title of a stopped game: no winner line
	matchRow = 38
)

// Results draws the end of a game as PNG: the winner or tied winners, what
// ended the game ("Fourth misthrow: Ben", "Red and blue locked"), and the
// final sheets as compact panels in rank order ("1. Anna", the winners
// starred), legible on a phone like the table. With a match of several games
// of which at least one is finished it adds the match table: each game's
// scores and the running totals ("Game 2 of 5"). A game stopped before it
// was over (v.End is NotOver) has no winner: its title says so
// (Labels.Stopped) and the ranking shows the scores as they stood.
func Results(v game.PublicView, m *game.Match, l Labels) ([]byte, error) {
	return encodePooled(func(a alloc) (canvas, error) { return results(v, m, l, a) }, "results")
}

// ResultsImage draws the results (see Results) without encoding them.
func ResultsImage(v game.PublicView, m *game.Match, l Labels) (*image.Paletted, error) {
	return own(results(v, m, l, newPage))
}

func results(v game.PublicView, m *game.Match, l Labels, alloc alloc) (canvas, error) {
	if err := prepare(v, l); err != nil {
		return canvas{}, fmt.Errorf("render: results: %w", err)
	}
	v = withNames(v, l)
	if m != nil {
		for i, r := range m.Results {
			if len(r) != len(m.Players) {
				return canvas{}, fmt.Errorf("render: results: %w: match game %d has %d scores for %d players", ErrView, i+1, len(r), len(m.Players))
			}
		}
		if len(m.Players) == 0 || len(m.Players) > game.MaxPlayers || m.Games > game.MaxMatchGames || len(m.Results) > game.MaxMatchGames {
			return canvas{}, fmt.Errorf("render: results: %w: match of %d players, %d games", ErrView, len(m.Players), m.Games)
		}
	}
	n := len(v.Players)
	matchH := 0
	if m != nil && (m.Games <= 1 || m.Played() == 0) {
		m = nil // a single game's table would repeat the ranking; no game finished, nothing to show
	}
	if m != nil {
		matchH = 50 + matchRow + len(m.Players)*matchRow + 16 + gapY
	}
	stopped := v.End == game.NotOver
	titH := resTitH
	if stopped {
		titH = stopTitH
	}
	h := margin + titH + gapY + matchH + n*cPanelH + (n-1)*cGapY + margin
	c := alloc(Width, h)

	scores := make([]int, n)
	for p, pv := range v.Players {
		scores[p] = pv.Score
	}
	win := game.Winners(scores)
	if stopped {
		win = nil // nobody wins a game that was not played to its end
	}

	// Title: game over, why, and the winners.
	y := margin
	c.rbox(margin, y, panelW, titH, 14, cPaper)
	title := l.GameOver
	if stopped && l.Stopped != "" {
		title = l.Stopped
	}
	c.textIn(fTitle, fit(fTitle, title, panelW-32), margin+16, y+30, left, cInk)
	why := endWhy(v, l)
	x := margin + 50
	if len(win) > 0 {
		wl := l.Winner
		if len(win) > 1 {
			wl = l.Winners
		}
		names := make([]string, len(win))
		for i, w := range win {
			names[i] = v.Players[w].Name
		}
		c.draw(star(13), margin+30, y+68, cGold)
		colon := l.Colon
		if colon == "" {
			colon = ": "
		}
		line := wl + colon + strings.Join(names, ", ")
		x = c.textIn(fLabelB, fit(fLabelB, line, panelW-60), margin+50, y+68, left, cInk)
	}
	if why != "" {
		wx := max(x+24, panelW/2)
		c.textIn(fLabel, fit(fLabel, why, Width-margin-16-wx), Width-margin-16, y+30, right, cInkSoft)
	}
	y += titH + gapY

	if m != nil {
		drawMatch(c, m, l, y, matchH-gapY)
		y += matchH
	}
	// The final sheets in rank order, each name after its rank: the
	// ranking and the sheets in one (equal totals share a rank).
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return scores[b] - scores[a] })
	rank := 0
	for i, p := range order {
		if i == 0 || scores[p] != scores[order[i-1]] {
			rank = i + 1
		}
		pv := v.Players[p]
		pv.Name = strconv.Itoa(rank) + ". " + pv.Name
		o := sheetOpts{cards: v.Variant.CardGame(), winner: slices.Contains(win, p), noFresh: true, strip: true}
		if v.Variant == game.Dice {
			o.closed = v.Closed
		}
		drawCompact(c, l, pv, o, margin, y)
		y += cPanelH + cGapY
	}
	return c, nil
}

// Scoring strip geometry: a chip per term, an operator between two.
const (
	stripChipW = 60
	stripChipH = 26
	stripSymW  = 22 // the row's symbol at the chip's left
	stripOpW   = 20
)

// drawScoreLine draws sheet's score as the rulebook's scoring strip, right
// aligned at rx on the line cy: each row's points in a chip of the row's
// colour with its symbol (S4), "+" between them, "−" and the misthrow
// penalty in a grey chip with an ✕, "=" and the total. It returns the
// strip's left end.
func drawScoreLine(c canvas, sheet game.Sheet, rx, cy int) int {
	art := scoreLineArtwork()
	total := strconv.Itoa(sheet.Score())
	c.textIn(fName, total, rx, cy, right, cInk)
	x := rx - fName.width(total) - 4
	op := func(s string) {
		c.textIn(fLabelB, s, x-stripOpW/2, cy, center, cInkSoft)
		x -= stripOpW
	}
	chip := func(k int, n int, ink uint8) {
		x -= stripChipW
		c.blit(art[k], art[k].Rect, image.Pt(x-1, cy-stripChipH/2-1))
		c.textIn(fBox, strconv.Itoa(n), x+stripSymW+(stripChipW-stripSymW)/2, cy, center, ink)
	}
	op("=")
	chip(game.NumColors, game.MisthrowPenalty*sheet.Misthrows, cInk)
	op("−")
	for i := game.NumColors - 1; i >= 0; i-- {
		col := game.Colors[i]
		_, _, dark := rowColors(col, false)
		chip(int(col), sheet.Rows[col].Score(), dark)
		if i > 0 {
			op("+")
		}
	}
	return x
}

// scoreLineArtwork are the chips of the score line without their numbers,
// drawn once on the header's colour: one per row (its tint, its symbol on
// its band colour), then the misthrows' (grey, an ✕).
var scoreLineArtwork = sync.OnceValue(func() (art [game.NumColors + 1]*image.Paletted) {
	for k := range art {
		c := newCanvas(stripChipW+2, stripChipH+2, cHeader) // and the edges' antialiasing
		fill, symBg, sym, symInk := uint8(cPassBg), uint8(cInkSoft), cross(6, 3), uint8(cPaper)
		if k < game.NumColors {
			col := game.Colors[k]
			bg, tint, _ := rowColors(col, false)
			fill, symBg, sym, symInk = tint, bg, rowSymbol(col, 5.5), rowC(col, sSymbol)
		}
		c.draw(box(stripChipW, stripChipH, 6), 1, 1, fill)
		c.draw(box(stripSymW+6, stripChipH, 6), 1, 1, symBg)
		c.fill(image.Rect(1+stripSymW, 1, 1+stripSymW+6, 1+stripChipH), symBg)
		c.draw(sym, 1+stripSymW/2+1, 1+stripChipH/2, symInk)
		art[k] = c.p
	}
	return art
})

// endWhy says what ended the game, in the labels' words: whose fourth
// misthrow, which rows were locked (dice game, D9) or who locked two rows
// (card game, C9); "" for a game that is not over.
func endWhy(v game.PublicView, l Labels) string {
	var who []string
	switch v.End {
	case game.EndLocks:
		if v.Variant == game.Dice {
			if l.EndLocksRows == "" {
				return l.EndLocks
			}
			var rows []string
			for _, c := range game.Colors {
				if v.Closed[c] {
					rows = append(rows, l.RowColors[c])
				}
			}
			return resultsUpperFirst(fmt.Sprintf(l.EndLocksRows, resultsList(rows, l.And)))
		}
		for _, p := range v.Players {
			if p.Sheet.Locks() >= 2 {
				who = append(who, p.Name)
			}
		}
		if l.EndLocksBy == "" || len(who) == 0 {
			return l.EndLocks
		}
		return fmt.Sprintf(l.EndLocksBy, resultsList(who, l.And))
	case game.EndMisthrows:
		for _, p := range v.Players {
			if p.Sheet.Misthrows >= game.MaxMisthrows {
				who = append(who, p.Name)
			}
		}
		if l.EndMisthrowBy == "" || len(who) == 0 {
			return l.EndMisses
		}
		return fmt.Sprintf(l.EndMisthrowBy, resultsList(who, l.And))
	}
	return ""
}

// resultsList joins words as a list: "a", "a and b", "a, b and c".
func resultsList(words []string, and string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + and + " " + words[len(words)-1]
}

// resultsUpperFirst writes a text's first letter in upper case.
func resultsUpperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// drawMatch draws the match table: a column per game, the running total.
func drawMatch(c canvas, m *game.Match, l Labels, y, h int) {
	c.rbox(margin, y, panelW, h, 14, cPaper)
	games := max(m.Games, m.Played(), 1)
	c.textIn(fLabelB, fit(fLabelB, fmt.Sprintf(l.GameNofM, m.Played(), m.Games), panelW-32), margin+16, y+26, left, cInk)
	const nameW, totW = 190, 100
	x0 := margin + 16 + nameW
	colW := (Width - margin - 16 - totW - x0) / games
	hy := y + 50 + matchRow/2
	c.textIn(fLabel, l.Player, margin+16, hy, left, cInkSoft)
	for g := range games {
		s := fmt.Sprintf(l.Game, g+1)
		if fLabel.width(s) > colW-6 {
			s = strconv.Itoa(g + 1) // "Game 4" where it fits, else "4"
		}
		c.textIn(fLabel, s, x0+g*colW+colW/2, hy, center, cInkSoft)
	}
	tx := Width - margin - 16
	c.textIn(fLabel, l.Total, tx, hy, right, cInkSoft)
	tot := m.Totals()
	lead := m.Leaders()
	for p, name := range m.Players {
		ry := hy + (p+1)*matchRow
		if p%2 == 0 {
			c.rbox(margin+8, ry-matchRow/2+2, panelW-16, matchRow-4, 8, cHeader)
		}
		f := fLabel
		if slices.Contains(lead, p) && m.Played() > 0 {
			f = fLabelB
			c.draw(star(10), margin+16+nameW-16, ry, cGold)
		}
		c.textIn(f, fit(f, playerName(name, p, l), nameW-36), margin+16, ry, left, cInk)
		for g := range games {
			s := "–"
			if g < len(m.Results) {
				s = strconv.Itoa(m.Results[g][p])
			}
			c.textIn(fLabel, s, x0+g*colW+colW/2, ry, center, cInk)
		}
		c.textIn(fBox, strconv.Itoa(tot[p]), tx, ry, right, cInk)
	}
}
