package render

import (
	"fmt"
	"image"
	"sync"

	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/render/lru"
)

// The table and the sheet are made of sections, runs of whole rows each
// drawn from inputs of its own: the top (the dice or the card display),
// each part of a player's panel (its header, each row, the full sheet's
// footer), the scoring strip. From one state of a game to the next most
// sections show the same inputs (a cross changes a row and a total, a
// roll the dice), so a section's compressed bands are kept under its
// inputs (topKey, headKey, rowKey, footKey, stripKey) and a section whose
// inputs did not change is neither drawn, nor hashed, nor compressed: its
// bands are copied into the PNG. A section that changed is drawn alone,
// on a canvas of its rows, and its bands go through the band cache
// (png.go), so only the bands whose pixels changed are compressed. The
// bands end where the content changes on its own (the dice's edges, the
// card labels), so a cross or the active player's mark changes one band,
// not the two or three 16-row bands it straddled.
//
// Measured before and after, alternated (go test ./render -run '^$' -bench
// 'Game(Tables|CardTables|Sheets|Hands)' -benchtime 1500x -cpu 1, six
// times each; cpu-ns/op, the process's CPU a picture, GC included):
// tables of a 4-player dice game 304 → 160 µs, of a jokers game 395 →
// 217 µs, sheets 270 → 183 µs, hands (in three bands, their cards
// sprites) 406 → 240 µs; 5–11 % fewer bytes.
//
// A section drawn on its own canvas has the pixels the whole picture has
// in its rows (the canvas clips what is drawn elsewhere), and its key holds
// everything that draws into its rows (the first row's holds the header's
// when the header's texts may reach into it, staysInHeader):
// TestSectionsDrawAsWhole compares the decoded pictures with pictures
// drawn whole, over games of every variant, 2 to 5 players, every
// language's labels, names in many scripts.

// section is a run of rows of a picture.
type section struct {
	key  any   // comparable, everything the rows show; nil: never kept
	h    int   // rows
	cuts []int // ends of bands inside the section, ascending, 0 < cut < h
	// maxBand is the most rows of a band (0: maxBandRows); a longer run
	// between two cuts is compressed in bands of bandRows.
	maxBand int
	// draw draws the rows on c, a Width × h canvas filled with the page
	// colour, with the section's top at y 0.
	draw func(c canvas)
}

// sectionBands holds the compressed bands of sections by their keys, least
// recently used out first. The bands are shared with the band cache, so
// the two together hold about one copy of each.
var sectionBands = lru.New[any](bandBudget, func(bs []*band) int {
	n := 0
	for _, b := range bs {
		n += len(b.z)
	}
	return n
})

// encodeSections draws what it must of the sections, one under the other,
// and returns the PNG of the Width-wide picture they make.
func encodeSections(secs []section, what string) ([]byte, error) {
	var all [24]*band
	bs := all[:0]
	ht := 0
	for _, s := range secs {
		var sb []*band
		var err error
		if s.key == nil {
			sb, err = drawSection(s)
		} else {
			sb, err = sectionBands.GetOrLoad(s.key, func() ([]*band, error) { return drawSection(s) })
		}
		if err != nil {
			return nil, fmt.Errorf("render: %s: %w", what, err)
		}
		bs = append(bs, sb...)
		ht += s.h
	}
	return writePNG(nil, Width, ht, palette, bs), nil
}

// maxBandRows is the most rows a section's band has by default. A band
// costs the compressor a fixed amount besides its bytes (a Huffman code
// of its own): measured on the hands, whose every row changes from one
// picture to the next, 80-row bands take 3/4 of the time of 16-row ones
// for 9 % fewer bytes. Rows that change alone still want bands of their
// own, hence the cuts.
const maxBandRows = 64

// drawSection draws section s and compresses its bands.
func drawSection(s section) ([]*band, error) {
	c := pooledPage(Width, s.h)
	defer func() { pix := c.p.Pix[:cap(c.p.Pix)]; pixPool.Put(&pix) }()
	s.draw(c)
	rp := scratchPool.Get().(*[]byte)
	defer scratchPool.Put(rp)
	bs := make([]*band, 0, len(s.cuts)+2)
	add := func(y0, y1 int) error {
		bd, err := compressBand(c.p.Pix[y0*Width:y1*Width], Width, rp)
		if err != nil {
			return fmt.Errorf("compress png: %w", err)
		}
		bs = append(bs, bd)
		return nil
	}
	y := 0
	for i := 0; i <= len(s.cuts); i++ {
		end := s.h
		if i < len(s.cuts) {
			end = s.cuts[i]
		}
		limit := s.maxBand
		if limit == 0 {
			limit = maxBandRows
		}
		if end-y > limit {
			for ; end-y > bandRows; y += bandRows {
				if err := add(y, y+bandRows); err != nil {
					return nil, err
				}
			}
		}
		if end > y {
			if err := add(y, end); err != nil {
				return nil, err
			}
		}
		y = end
	}
	return bs, nil
}

// labelsID numbers the label sets pictures are drawn with, so that a
// section's key holds a number rather than the 40 strings of its labels
// (hashed and compared at every look-up, and copied into every key).
var (
	labelsMu   sync.Mutex
	labelsIDs  = map[Labels]uint32{}
	labelsLast uint32
)

func labelsID(l *Labels) uint32 {
	labelsMu.Lock()
	defer labelsMu.Unlock()
	if id, ok := labelsIDs[*l]; ok {
		return id
	}
	if len(labelsIDs) >= maxStatics {
		// A set seen again gets a new number: its sections are drawn
		// again, never taken for another set's.
		clear(labelsIDs)
	}
	labelsLast++
	labelsIDs[*l] = labelsLast
	return labelsLast
}

// optsKey is what sheetOpts holds but the choices (which are not
// comparable); TestOptsKeyCoversSheetOpts checks it has every other field.
type optsKey struct {
	active, decided, cards bool
	closed                 [game.NumColors]bool
	winner                 bool
	noFresh                bool
	strip                  bool
}

func keyOf(o sheetOpts) optsKey {
	return optsKey{o.active, o.decided, o.cards, o.closed, o.winner, o.noFresh, o.strip}
}

// topKey is what the top section shows (drawTop): the dice, or the card
// display, the piles and the cards last played with their player's name.
type topKey struct {
	l       uint32 // labelsID
	variant game.Variant
	turn    int
	dice    [6]int
	// Card games.
	display                     [game.DisplaySize]int
	nDisplay                    int
	drawTop, drawSize, discards int
	played                      [3]game.PlayedCard
	nPlayed                     int
	playedBy                    string
}

// topSection is the picture's top margin, the dice or the cards, and the
// gap under them. v is checked (checkView) and its names filled in.
func topSection(v game.PublicView, l *Labels, lid uint32) section {
	k := topKey{l: lid, variant: v.Variant, turn: v.Turn}
	if t := v.Table; v.Variant.CardGame() && t != nil {
		k.nDisplay = copy(k.display[:], t.Display)
		k.drawTop, k.drawSize, k.discards = t.DrawTop, t.DrawSize, t.DiscardSize
		k.nPlayed = copy(k.played[:], t.Played)
		if len(t.Played) > 0 && t.PlayedBy >= 0 && t.PlayedBy < len(v.Players) {
			k.playedBy = v.Players[t.PlayedBy].Name
		}
	} else {
		k.dice = v.Dice
	}
	s := section{key: k, h: margin + topHeight(v) + gapY, draw: func(c canvas) { drawTop(c, v, *l, margin) }}
	if v.Variant.CardGame() {
		// The turn; the labels, the cards and the piles.
		s.cuts, s.maxBand = cardsTopCuts, s.h
	} else {
		// The turn and the dice, between rows that never change.
		s.cuts = diceTopCuts
	}
	return s
}

// diceTopCuts end the dice top's bands: above the dice (the panel's edge,
// never changes), the dice's top edges (the same whatever they show), the
// pips and the turn, their bottom edges, below them. Measured over a
// 4-player dice game (150 tables): 63 rows compressed a table, 65 with
// the dice in one band.
var diceTopCuts = []int{margin + 38 - dieS/2, margin + 38 - dieS/2 + 6, margin + 38 + dieS/2 - 6, margin + 38 + dieS/2}

// cardsTopCuts end the card top's bands: the turn; the labels over the
// cards (the last player's name); the cards' top edges; their faces and
// the piles' sizes; their bottom edges. Measured over a 4-player jokers
// game (114 tables): 91 rows compressed a table, 107 with the cards and
// labels in one band.
var cardsTopCuts = []int{margin + 34, margin + 60, margin + 74, margin + 140}

// A player's panel, compact on the table or full on the sheet, is a
// section per band: its header (name, badges, total, misthrows, who is
// active), each of its four rows, and (the full sheet) its footer of
// scores. Each is keyed by what its rows show, so a badge that comes or
// goes draws the header alone, and a cross its row and the header (the
// total). A part is drawn by drawing the panel on a canvas of the part's
// rows, the panel moved up by the part's top (the canvas clips the rest).

// headKey is what a panel's header shows.
type headKey struct {
	full      bool   // the full sheet's header, else the compact one
	l         uint32 // labelsID
	name      string
	score     int
	misthrows int
	handSize  int
	o         optsKey
	strip     game.Sheet // the score line of the results (o.strip)
}

func headOf(full bool, pv game.PlayerView, o sheetOpts, lid uint32) headKey {
	k := headKey{full: full, l: lid, name: pv.Name, score: pv.Score, misthrows: pv.Sheet.Misthrows, handSize: pv.HandSize, o: keyOf(o)}
	if o.strip {
		k.strip = pv.Sheet
	}
	return k
}

// rowKey is what one row of a panel shows, with the rows under it down to
// the next part (the gap to the next row, or the panel's bottom and what
// is below it).
type rowKey struct {
	full          bool
	l             uint32 // labelsID
	color         game.Color
	row, fresh    game.Row
	closed        bool
	winner, dim   bool   // the panel's gold outline; noFresh
	rings         uint16 // positions with a choice ring (full sheet)
	below, height int
	// The first row, when the header's texts may reach into it (an
	// Arabic name's descenders): the header's key too.
	head headKey
}

func rowOf(full bool, c game.Color, pv game.PlayerView, o sheetOpts, l *Labels, lid uint32, height, below int) rowKey {
	k := rowKey{full: full, l: lid, color: c, row: pv.Sheet.Rows[c], fresh: pv.Fresh[c], closed: o.closed[c],
		winner: o.winner, dim: o.noFresh, below: below, height: height}
	if c == game.Colors[0] {
		h := cHdrH
		if full {
			h = hdrH
		}
		if !staysInHeader(h, pv.Name, l, lid) {
			k.head = headOf(full, pv, o, lid)
		}
	}
	for _, ch := range o.choices {
		if ch.Color == c {
			if pos := game.Position(c, ch.Number); pos >= 0 && pos < 16 {
				k.rings |= 1 << pos
			}
		}
	}
	return k
}

// staysInHeader reports whether the texts a header of height h, centred on
// h/2, may show (the name, however it is cut, the badges, the hand size)
// keep their ink inside it, so that the row under it does not depend on
// them. Text that is shaped is not checked (false): its glyphs are not
// one per character.
func staysInHeader(h int, name string, l *Labels, lid uint32) bool {
	return headerChecks.get(headerCheck{h, name, lid}, func() bool { return textsStayInHeader(h, name, l) })
}

// headerChecks keeps staysInHeader's answers (a picture asks for every
// panel).
var headerChecks = newMemo[headerCheck, bool](1 << 14)

type headerCheck struct {
	h    int
	name string
	lid  uint32
}

func textsStayInHeader(h int, name string, l *Labels) bool {
	inside := func(f *face, s string) bool {
		s = clean(s)
		if complexText(s) {
			return false
		}
		base := h/2 + f.capH/2
		for _, r := range s + "…" {
			if m := &f.glyph(r).m; m.w > 0 && base+m.oy+m.h > h {
				return false
			}
		}
		return true
	}
	return inside(fName, name+" 0123456789") && inside(fLabel, l.Active) && inside(fLabel, l.Decided) && inside(fLabel, l.Hand+" 0123456789")
}

// footKey is what a full sheet's footer shows: the rows' scores, the
// misthrows, the total, with the gap under the sheet (no option changes
// it: the active player's outline and the winner's star are the header's).
type footKey struct {
	l     uint32 // labelsID
	sheet game.Sheet
}

// part is a section of rows [top, bottom) of a panel drawn by draw with
// its top-left corner at (x, y).
func part(key any, top, bottom int, draw func(c canvas, y int)) section {
	return section{key: key, h: bottom - top, draw: func(c canvas) { draw(c, -top) }}
}

// compactSections are player pv's compact panel on the table and the
// below rows under it.
func compactSections(secs []section, pv game.PlayerView, o sheetOpts, l *Labels, lid uint32, below int) []section {
	draw := func(c canvas, y int) { drawCompact(c, *l, pv, o, margin, y) }
	secs = append(secs, part(headOf(false, pv, o, lid), 0, cHdrH, draw))
	for _, col := range game.Colors {
		top, bottom := cRowY(col), cPanelH+below
		if int(col)+1 < game.NumColors {
			bottom = cRowY(col + 1)
		}
		secs = append(secs, part(rowOf(false, col, pv, o, l, lid, bottom-top, below), top, bottom, draw))
	}
	return secs
}

// maxKeyChoices is the most choices a sheet's parts are kept with; a
// sheet with more is drawn every time.
const maxKeyChoices = 8

// sheetSections are player pv's full sheet and the gap under it.
func sheetSections(secs []section, st *statics, pv game.PlayerView, o sheetOpts, l *Labels, lid uint32) []section {
	draw := func(c canvas, y int) { drawSheet(c, st, *l, pv, o, margin, y) }
	keep := len(o.choices) <= maxKeyChoices
	key := func(k any) any {
		if !keep {
			return nil
		}
		return k
	}
	secs = append(secs, part(key(headOf(true, pv, o, lid)), 0, hdrH, draw))
	for _, col := range game.Colors {
		top, bottom := rowY(col), footY
		if int(col)+1 < game.NumColors {
			bottom = rowY(col + 1)
		}
		secs = append(secs, part(key(rowOf(true, col, pv, o, l, lid, bottom-top, 0)), top, bottom, draw))
	}
	return append(secs, part(key(footKey{lid, pv.Sheet}), footY, panelH+gapY, draw))
}

// stripKey names the scoring strip under a sheet, with the picture's
// bottom margin.
type stripKey struct{ l uint32 }

func stripSection(st *statics, lid uint32) section {
	return section{key: stripKey{lid}, h: stripH + margin, draw: func(c canvas) {
		c.blit(st.strip, st.strip.Rect, image.Pt(margin, 0))
	}}
}
