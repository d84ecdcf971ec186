package render

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/qwixxbot/qwixxbot/game"
)

// at is the palette index at (x, y).
func at(img *image.Paletted, x, y int) uint8 { return img.ColorIndexAt(x, y) }

// sheetTop is the y of seat p's compact sheet on a table image.
func sheetTop(v game.PublicView, p int) int {
	return margin + topHeight(v) + gapY + p*(cPanelH+cGapY)
}

// TestTableGeometry: every image is Width wide, and each player adds one
// compact sheet to the table's height (2–5 players, D1).
func TestTableGeometry(t *testing.T) {
	l := DefaultLabels()
	two, err := TableImage(emptyDice2(t), l)
	if err != nil {
		t.Fatal(err)
	}
	five, err := TableImage(dice5Locked(t), l)
	if err != nil {
		t.Fatal(err)
	}
	if two.Rect.Dx() != Width || five.Rect.Dx() != Width {
		t.Errorf("widths %d and %d, want %d", two.Rect.Dx(), five.Rect.Dx(), Width)
	}
	if got, want := five.Rect.Dy()-two.Rect.Dy(), 3*(cPanelH+cGapY); got != want {
		t.Errorf("5 players are %d px taller than 2, want %d", got, want)
	}
}

// sheetGeom is where a layout puts a sheet's parts, in image coordinates
// once the sheet's top-left corner is added.
type sheetGeom struct {
	rowY      func(game.Color) int
	rowH      int
	cell      func(game.Color, int) image.Rectangle
	lockProbe int         // x offset from the lock's centre inside the disc
	corner    image.Point // a point in a cell off its number and cross
	misthrow  func(i int) image.Point
}

var (
	fullGeom = sheetGeom{rowY, rowH, cellRect, -20, image.Pt(6, 10),
		func(i int) image.Point { return image.Pt(misthrowBoxX(i)+mbS/2, footY+3+fbH/2) }}
	compactGeom = sheetGeom{cRowY, cRowH, cCellRect, -10, image.Pt(7, 9),
		func(i int) image.Point { return image.Pt(cMisthrowX(i)+cMisS/2, cHdrH/2) }}
)

// TestSheetMarks checks the sheets against the view cell by cell, on the
// table (compact) and on each player's full sheet: crosses are ink at the
// cell centre, fresh crosses have the highlight, passed numbers are greyed
// (S2), locked and closed rows are dimmed (S3, D7), misthrows crossed.
func TestSheetMarks(t *testing.T) {
	views := map[string]game.PublicView{"dice5": dice5Locked(t)}
	_, views["cards4"] = cards4(t)
	_, views["over5"] = dice5TwoLocks(t)
	for name, v := range views {
		img, err := TableImage(v, DefaultLabels())
		if err != nil {
			t.Fatal(err)
		}
		for p := range v.Players {
			checkSheetMarks(t, name+" table", img, v, p, compactGeom, image.Pt(margin, sheetTop(v, p)))
			full, err := SheetImage(v, p, DefaultLabels())
			if err != nil {
				t.Fatal(err)
			}
			checkSheetMarks(t, name+" sheet", full, v, p, fullGeom, image.Pt(margin, margin+topHeight(v)+gapY))
		}
	}
}

func checkSheetMarks(t *testing.T, name string, img *image.Paletted, v game.PublicView, p int, g sheetGeom, o image.Point) {
	t.Helper()
	pv := v.Players[p]
	for _, c := range game.Colors {
		row, fresh := pv.Sheet.Rows[c], pv.Fresh[c]
		dim := row.Locked() || (v.Variant == game.Dice && v.Closed[c])
		wantBand := rowC(c, sBg)
		if dim {
			wantBand = rowC(c, sDimBg)
		}
		// The band between the symbol and the first cell.
		if got := at(img, o.X+cellX0-1, o.Y+g.rowY(c)+g.rowH/2); got != wantBand {
			t.Errorf("%s seat %d %v: band colour %d, want %d (dimmed %v)", name, p, c, got, wantBand, dim)
		}
		for pos := 0; pos < game.LockPos; pos++ {
			r := g.cell(c, pos).Add(o)
			cx, cy := r.Min.X+pitch/2, r.Min.Y+g.rowH/2
			corner := at(img, r.Min.X+g.corner.X, r.Min.Y+g.corner.Y)
			switch {
			case row.Crossed(pos):
				// The X: ink, or orange on the ink cell of this turn's crosses.
				wantX := uint8(cInk)
				if fresh.Crossed(pos) {
					wantX = cFresh
				}
				if got := at(img, cx, cy); got != wantX {
					t.Errorf("%s seat %d %v %d: crossed cell centre %d, want %d", name, p, c, game.NumberAt(c, pos), got, wantX)
				}
				if fresh.Crossed(pos) != (corner == cInk) {
					t.Errorf("%s seat %d %v %d: fresh %v but cell colour %d", name, p, c, game.NumberAt(c, pos), fresh.Crossed(pos), corner)
				}
			case row.Passed(pos):
				if corner != cPassBg {
					t.Errorf("%s seat %d %v %d: passed cell colour %d, want grey", name, p, c, game.NumberAt(c, pos), corner)
				}
			default:
				want := rowC(c, sTint)
				if dim {
					want = rowC(c, sDimTint)
				}
				if corner != want {
					t.Errorf("%s seat %d %v %d: open cell colour %d, want %d", name, p, c, game.NumberAt(c, pos), corner, want)
				}
			}
		}
		// The lock: an ink disc once crossed, the highlight this turn.
		lr := g.cell(c, game.LockPos).Add(o)
		edge := at(img, lr.Min.X+pitch/2+g.lockProbe, lr.Min.Y+g.rowH/2)
		switch {
		case row.Locked() && fresh.Locked():
			if edge != cFresh {
				t.Errorf("%s seat %d %v: lock crossed this turn, disc colour %d", name, p, c, edge)
			}
		case row.Locked():
			if edge != cInk {
				t.Errorf("%s seat %d %v: own lock, disc colour %d, want ink", name, p, c, edge)
			}
		}
	}
	// Misthrow boxes: an X in each used one.
	for i := range game.MaxMisthrows {
		m := g.misthrow(i).Add(o)
		if got := at(img, m.X, m.Y) == cInk; got != (i < pv.Sheet.Misthrows) {
			t.Errorf("%s seat %d: misthrow box %d marked %v, misthrows %d", name, p, i+1, got, pv.Sheet.Misthrows)
		}
	}
}

// TestActiveAndDecided: the active player's header line has the bold
// outline, the others' the thin one, and below the header every sheet has
// the thin one; the decided badge appears exactly for those decided.
func TestActiveAndDecided(t *testing.T) {
	v := dice4(t)
	img, err := TableImage(v, DefaultLabels())
	if err != nil {
		t.Fatal(err)
	}
	decided := 0
	for p, pv := range v.Players {
		y0 := sheetTop(v, p)
		edge := at(img, margin+2, y0+cHdrH/2)
		if want := p == v.Active; (edge == cInk) != want {
			t.Errorf("seat %d: header outline colour %d, active %v", p, edge, want)
		}
		if edge := at(img, margin+1, y0+cPanelH/2); edge != cLine {
			t.Errorf("seat %d: sheet outline colour %d, want the thin line's", p, edge)
		}
		green := 0
		for x := margin; x < margin+panelW; x++ {
			if at(img, x, y0+cHdrH/2) == cGood {
				green++
			}
		}
		if (green > 0) != pv.Decided {
			t.Errorf("seat %d: decided %v, badge pixels %d", p, pv.Decided, green)
		}
		if pv.Decided {
			decided++
		}
	}
	if decided == 0 || decided == len(v.Players) {
		t.Fatalf("scenario should have some players decided, has %d", decided)
	}
}

// TestDice: a die shows its pips (the centre pip exactly for odd values), a
// die that left the game (0, D7) is drawn as an empty outline with its
// row's symbol.
func TestDice(t *testing.T) {
	for _, v := range []game.PublicView{dice5Locked(t), emptyDice2(t)} {
		img, err := TableImage(v, DefaultLabels())
		if err != nil {
			t.Fatal(err)
		}
		cy := margin + 38
		x := 200
		for i, d := range v.Dice {
			body, pips, _, _ := dieColors(i)
			centre := at(img, x+dieS/2, cy)
			inside := at(img, x+4, cy)
			switch {
			case d == 0:
				// Empty but for its row's symbol in grey.
				if inside != cPaper || centre != cLine {
					t.Errorf("die %d gone: inside %d, centre %d, want paper and the grey symbol", i+1, inside, centre)
				}
			default:
				if inside != body {
					t.Errorf("die %d: body %d, want %d", i+1, inside, body)
				}
				if (centre == pips) != (d%2 == 1) {
					t.Errorf("die %d shows %d: centre pip %v", i+1, d, centre == pips)
				}
			}
			x += dieS + 12
			if i == 1 {
				x += 76
			}
		}
	}
}

// TestEveryLabelIsUsed changes one label at a time and expects some image
// to change: no field is dead, so no word can be missing from a language.
func TestEveryLabelIsUsed(t *testing.T) {
	base := DefaultLabels()
	_, cv := cards4(t)
	dv := dice4(t)
	res, m := finished3(t)
	_, over := dice5TwoLocks(t)
	hand := handWithJokers(t)
	tie := tiedGame(t)
	// A card game ended by a player's two locks (C9), drawn from a running
	// one; dv, still running, draws as a stopped game.
	cardLocks := cv
	cardLocks.End = game.EndLocks
	cardLocks.Players = slices.Clone(cv.Players)
	cardLocks.Players[0].Sheet.Rows[game.Red] |= 1 << game.LockPos
	cardLocks.Players[0].Sheet.Rows[game.Blue] |= 1 << game.LockPos
	chartG := chartDice2(t)
	draw := func(l Labels) [][]byte {
		var out [][]byte
		for _, f := range []func() (*image.Paletted, error){
			func() (*image.Paletted, error) { return TableImage(cv, l) },
			func() (*image.Paletted, error) { return TableImage(dv, l) },
			func() (*image.Paletted, error) { return SheetImage(cv, 1, l) },
			func() (*image.Paletted, error) { return ResultsImage(res, m, l) },
			func() (*image.Paletted, error) { return ResultsImage(over, nil, l) },
			func() (*image.Paletted, error) { return HandImage(hand, l) },
			func() (*image.Paletted, error) { return ResultsImage(tie, nil, l) },
			func() (*image.Paletted, error) { return ResultsImage(cardLocks, nil, l) },
			func() (*image.Paletted, error) { return ResultsImage(dv, nil, l) },
			func() (*image.Paletted, error) { return chartOf(chartG, l) },
		} {
			img, err := f()
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, img.Pix)
		}
		return out
	}
	want := draw(base)
	// EndLocks and EndMisses are what the results say when the labels name
	// no player or row (EndLocksRows, EndLocksBy, EndMisthrowBy empty).
	general := base
	general.EndLocksRows, general.EndLocksBy, general.EndMisthrowBy = "", "", ""
	wantGeneral := draw(general)
	rv := reflect.ValueOf(&base).Elem()
	for i := range rv.NumField() {
		name := rv.Type().Field(i).Name
		l, ref := base, want
		if name == "EndLocks" || name == "EndMisses" {
			l, ref = general, wantGeneral
		}
		f := reflect.ValueOf(&l).Elem().Field(i)
		if f.Kind() == reflect.Array {
			for j := range f.Len() {
				f.Index(j).SetString("Wq" + strings.ToLower(f.Index(j).String()))
			}
		} else {
			f.SetString("Wq" + strings.ToLower(f.String()))
		}
		got := draw(l)
		same := true
		for k := range got {
			same = same && bytes.Equal(got[k], ref[k])
		}
		if same {
			t.Errorf("label %s is drawn nowhere", name)
		}
	}
}

func TestErrors(t *testing.T) {
	l := DefaultLabels()
	dv := dice4(t)
	_, cv := cards4(t)
	bad := l
	bad.GameNofM = "Game %d"
	noTable := cv
	noTable.Table = nil
	badDie := dv
	badDie.Dice[3] = 7
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"labels", func() error { _, err := Table(dv, bad); return err }(), ErrLabels},
		{"no players", func() error { _, err := Table(game.PublicView{Variant: game.Dice}, l); return err }(), ErrView},
		{"card game without table", func() error { _, err := Table(noTable, l); return err }(), ErrView},
		{"die shows 7", func() error { _, err := Table(badDie, l); return err }(), ErrView},
		{"seat out of range", func() error { _, err := Sheet(dv, 4, l); return err }(), ErrView},
		{"dice game hand", func() error { _, err := Hand(game.PrivateView{PublicView: dv}, l); return err }(), ErrView},
		{"match with a short result", func() error {
			res, m := finished3(t)
			m2 := *m
			m2.Results = append([][]int{{1}}, m.Results...)
			_, err := Results(res, &m2, l)
			return err
		}(), ErrView},
	}
	for _, tc := range tests {
		if !errors.Is(tc.err, tc.want) {
			t.Errorf("%s: error %v, want %v", tc.name, tc.err, tc.want)
		}
	}
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "GameNofM") {
		t.Errorf("Validate = %v, want it to name GameNofM", err)
	}
	for _, ls := range []Labels{l, germanLabels(), frenchLabels()} {
		if err := ls.Validate(); err != nil {
			t.Errorf("Validate(%s): %v", ls.Total, err)
		}
	}
}

// TestConcurrent renders from many goroutines at once (run with -race):
// every result equals the one rendered alone.
func TestConcurrent(t *testing.T) {
	_, cv := cards4(t)
	views := []game.PublicView{dice4(t), cv, dice5Locked(t)}
	langs := []Labels{DefaultLabels(), germanLabels(), frenchLabels()}
	want := map[string][]byte{}
	for i, v := range views {
		for j, l := range langs {
			b, err := Table(v, l)
			if err != nil {
				t.Fatal(err)
			}
			want[fmt.Sprint(i, j)] = b
		}
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for k := range 6 {
				i, j := (g+k)%len(views), (g*k)%len(langs)
				b, err := Table(views[i], langs[j])
				if err != nil {
					t.Error(err)
					return
				}
				if !bytes.Equal(b, want[fmt.Sprint(i, j)]) {
					t.Errorf("goroutine %d: table %d in language %d differs", g, i, j)
				}
			}
		})
	}
	wg.Wait()
}

// TestImageSizes reports the PNG sizes and holds them to the 150 KB budget,
// the 5-player tables (the largest) included.
func TestImageSizes(t *testing.T) {
	l := DefaultLabels()
	c5 := cards5(t)
	_, c4 := cards4(t)
	res, m := finished3(t)
	_, over := dice5TwoLocks(t)
	cases := []struct {
		name string
		f    func() ([]byte, error)
	}{
		{"table 2 dice empty", func() ([]byte, error) { return Table(emptyDice2(t), l) }},
		{"table 4 dice", func() ([]byte, error) { return Table(dice4(t), l) }},
		{"table 5 dice", func() ([]byte, error) { return Table(dice5Locked(t), l) }},
		{"table 4 cards", func() ([]byte, error) { return Table(c4, l) }},
		{"table 5 cards", func() ([]byte, error) { return Table(c5, l) }},
		{"sheet", func() ([]byte, error) { return Sheet(c4, 0, l) }},
		{"hand", func() ([]byte, error) { return Hand(handWithJokers(t), l) }},
		{"results 3 + match", func() ([]byte, error) { return Results(res, m, l) }},
		{"results 5", func() ([]byte, error) { return Results(over, nil, l) }},
	}
	for _, c := range cases {
		b, err := c.f()
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		t.Logf("%-20s %4dx%-4d %7d bytes", c.name, cfg.Width, cfg.Height, len(b))
		if len(b) > 150<<10 {
			t.Errorf("%s: %d bytes, over the 150 KB budget", c.name, len(b))
		}
	}
}

// TestFitNameKeepsTheWords: a long name is shortened, not the words around
// it ("Zuletzt: Maximilian-Alexand…"), and a name that fits is whole.
func TestFitNameKeepsTheWords(t *testing.T) {
	if err := loadFonts(); err != nil {
		t.Fatal(err)
	}
	const w = 222
	if got := fitName(fLabel, "Last play: %s", "Ben", w); got != "Last play: Ben" {
		t.Errorf("short name: %q", got)
	}
	got := fitName(fLabel, "Dernier coup : %s", "Maximilian-Alexander von Hohenberg", w)
	if !strings.HasPrefix(got, "Dernier coup : Max") || !strings.HasSuffix(got, "…") || fLabel.width(got) > w {
		t.Errorf("long name: %q (%d px of %d)", got, fLabel.width(got), w)
	}
	// Issue: where the words left no room, the name went ("Zuletzt
	// ausgespielt: …"). The name is what matters: it stays.
	narrow := fLabel.width("Zuletzt ausgespielt: ") + fLabel.width("…")
	got = fitName(fLabel, "Zuletzt ausgespielt: %s", "Maximilian", narrow)
	if !strings.HasPrefix(got, "Max") || fLabel.width(got) > narrow {
		t.Errorf("narrow: %q (%d px of %d), want the name", got, fLabel.width(got), narrow)
	}
}

// TestSpritesPaintAsInPlace: dice, cards and piles copied from sprites
// painted once give the pixels and texts that painting them in place
// would, at every step of whole games: the dice game (D1, D7: every face,
// dice that left the game), the card games (C3 display, C5 draw pile, C6
// discard pile and the cards just played, jokers), on the table, a
// player's sheet and a hand.
func TestSpritesPaintAsInPlace(t *testing.T) {
	l := DefaultLabels()
	same := func(what string, draw func(alloc) (canvas, error)) {
		t.Helper()
		a, err := draw(func(w, h int) canvas { c := newPage(w, h); c.log = &textLog{}; return c })
		if err != nil {
			t.Fatal(err)
		}
		b, err := draw(func(w, h int) canvas { c := newPage(w, h); c.paintAll, c.log = true, &textLog{}; return c })
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.p.Pix, b.p.Pix) {
			t.Fatalf("%s: copied sprites differ from painting in place", what)
		}
		if !reflect.DeepEqual(a.log.texts, b.log.texts) {
			t.Fatalf("%s: texts %v, painted in place %v", what, a.log.texts, b.log.texts)
		}
	}
	faces, played := map[int]bool{}, 0
	for _, v := range []game.Variant{game.Dice, game.Cards, game.Jokers} {
		for seed := byte(1); seed <= 3; seed++ {
			g := newGame(t, v, seed, "Anna", "Ben", "Chloé")
			for step := 0; step < 400 && !g.Over(); step++ {
				pv := g.Public()
				for _, d := range pv.Dice {
					faces[d] = true
				}
				if pv.Table != nil && len(pv.Table.Played) > 0 {
					played++
				}
				what := fmt.Sprintf("%v seed %d step %d", v, seed, step)
				same(what+" table", func(a alloc) (canvas, error) { return table(pv, l, a) })
				if step%5 == 0 {
					same(what+" sheet", func(a alloc) (canvas, error) { return sheet(pv, 1, l, nil, a) })
					if v.CardGame() {
						priv := g.Private(0)
						same(what+" hand", func(a alloc) (canvas, error) { return hand(priv, l, a) })
					}
				}
				if err := g.Apply(choose(g, g.Waiting()[0], int(seed))); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if len(faces) < 7 || played < 10 {
		t.Errorf("dice faces seen %v, %d tables with cards just played: the games showed too little", faces, played)
	}
}
