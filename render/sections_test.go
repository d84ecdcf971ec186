package render

import (
	"bytes"
	"image"
	"image/png"
	"reflect"
	"testing"

	"github.com/qwixxbot/qwixxbot/game"
)

// TestSectionsDrawAsWhole: the table and the sheet, encoded from sections
// kept under their inputs (sections.go), and the hand, in bands of its
// own, decode to the pixels of the same picture drawn whole (TableImage,
// SheetImage, HandImage), at every state of games of
// dice, cards and jokers with 2 to 5 players, in every language, with
// names in bidi scripts, shaped scripts and an empty name; and most
// sections of a picture come from the cache (a move changes few).
func TestSectionsDrawAsWhole(t *testing.T) {
	names := []string{"محمد (12) علي", "Anna", "שלום (דני) 12", "\u200b\u200e", "प्रिया शर्मा",
		"Nguyễn Thị Ánh", "สมชาย ใจดี", "Z̷̢̛a̵̗͝l̶̰͒g̸̱̈́o̴͇͊", "Benedikt-Maximilian von Hohenzollern"}
	langs := []Labels{DefaultLabels(), germanLabels(), frenchLabels()}
	resetEncodeCaches()
	hits0, misses0, _ := sectionBands.Stats()
	pictures := 0
	for vi, variant := range []game.Variant{game.Dice, game.Cards, game.Jokers} {
		counts := [][]int{{2, 4, 5}, {3, 5}, {2, 4}}[vi]
		if raceEnabled {
			counts = counts[len(counts)-1:] // the most players of each
		}
		for _, n := range counts {
			l := langs[(vi+n)%len(langs)]
			var ns []string
			for k := range n {
				ns = append(ns, names[(3*vi+n+k)%len(names)])
			}
			g := newGame(t, variant, byte(10*vi+n), ns...)
			for step := 0; step < 400 && !g.Over(); step++ {
				v := g.Public()
				// Under the race detector (one game a variant, above),
				// every tenth state is decoded and compared; all are
				// encoded, so the caches see the same sequence. This test
				// has one goroutine: TestSectionsConcurrent is the one
				// for the race detector.
				check := !raceEnabled || step%10 == 0
				if !check {
					if _, err := Table(v, l); err != nil {
						t.Fatal(err)
					}
					if err := g.Apply(choose(g, g.Waiting()[0], 1)); err != nil {
						t.Fatal(err)
					}
					continue
				}
				checkDecoded(t, "table", v, l, func() ([]byte, error) { return Table(v, l) }, func() (*image.Paletted, error) { return TableImage(v, l) })
				seat := v.Active
				var choices []Cell
				if variant == game.Dice && v.Phase != game.PhaseOver {
					for _, m := range g.LegalMoves(seat) {
						if m.Kind == game.White {
							choices = append(choices, Cell{m.Color, g.WhiteSum()})
						}
					}
				}
				checkDecoded(t, "sheet", v, l, func() ([]byte, error) { return Sheet(v, seat, l, choices...) },
					func() (*image.Paletted, error) { return SheetImage(v, seat, l, choices...) })
				pictures += 2
				if variant.CardGame() {
					pv := g.Private(seat)
					checkDecoded(t, "hand", v, l, func() ([]byte, error) { return Hand(pv, l) }, func() (*image.Paletted, error) { return HandImage(pv, l) })
				}
				if t.Failed() {
					t.Fatalf("%v, %d players, step %d", variant, n, step)
				}
				if err := g.Apply(choose(g, g.Waiting()[0], 1)); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	hits, misses, _ := sectionBands.Stats()
	hits, misses = hits-hits0, misses-misses0
	t.Logf("%d pictures: %d sections from the cache, %d drawn", pictures, hits, misses)
	if pictures < 600/(1+24*btoi(raceEnabled)) || hits < 2*misses {
		t.Fatalf("%d pictures: %d sections from the cache, %d drawn; want most from the cache", pictures, hits, misses)
	}
}

func checkDecoded(t *testing.T, what string, v game.PublicView, l Labels, encode func() ([]byte, error), whole func() (*image.Paletted, error)) {
	t.Helper()
	out, err := encode()
	if err != nil {
		t.Fatal(err)
	}
	checkZlib(t, what, out)
	got, err := png.Decode(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("%s: decode: %v", what, err)
	}
	want, err := whole()
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := got.(*image.Paletted); ok && p.Rect == want.Rect && p.Stride == want.Stride && bytes.Equal(p.Pix, want.Pix) {
		return
	}
	if d := diffPixels(got, want); d != "" {
		t.Errorf("%s, turn %d: %s", what, v.Turn, d)
	}
}

// TestOptsKeyCoversSheetOpts: the key of a section holds every field of
// sheetOpts but the choices (kept apart), so no option a panel is drawn
// with is left out of its key.
func TestOptsKeyCoversSheetOpts(t *testing.T) {
	o, k := reflect.TypeFor[sheetOpts](), reflect.TypeFor[optsKey]()
	if o.NumField() != k.NumField()+1 {
		t.Fatalf("sheetOpts has %d fields, optsKey %d: want one less (choices)", o.NumField(), k.NumField())
	}
	for i := range o.NumField() {
		f := o.Field(i)
		if f.Name == "choices" {
			continue
		}
		kf, ok := k.FieldByName(f.Name)
		if !ok || kf.Type != f.Type {
			t.Errorf("optsKey lacks sheetOpts.%s %v", f.Name, f.Type)
		}
	}
	// And keyOf copies them: every option set alone gives a key of its own.
	seen := map[optsKey]bool{keyOf(sheetOpts{}): true}
	for _, o := range []sheetOpts{{active: true}, {decided: true}, {cards: true}, {closed: [4]bool{2: true}}, {winner: true}, {noFresh: true}, {strip: true}} {
		if k := keyOf(o); seen[k] {
			t.Errorf("keyOf(%+v) = %+v, seen before", o, k)
		} else {
			seen[k] = true
		}
	}
}

// TestStaysInHeader: when staysInHeader holds for a name, the rows under
// the header are the same whatever the header shows (the first row's key
// leaves the header out then), for names in many scripts, with and
// without badges and a hand size, compact and full, in every language.
func TestStaysInHeader(t *testing.T) {
	if err := loadFonts(); err != nil {
		t.Fatal(err)
	}
	names := []string{"Anna", "gjpqy Quigley", "Nguyễn Thị Ánh", "Z̷̢̛a̵̗͝l̶̰͒g̸̱̈́o̴͇͊", "ḁ̢̛̖̗̘̙̜̝̞̟̠", "Ѭ̤̥ Жорж", "Γιώργος", "田中 太郎", "김민준",
		"محمد (12) علي", "שלום (דני) 12", "प्रिया शर्मा", "สมชาย ใจดี", "ལྷ་སྐྱིད", "Benedikt-Maximilian von Hohenzollern-Sigmaringen", "😀 Emoji"}
	inside := 0
	for _, l := range []Labels{DefaultLabels(), germanLabels(), frenchLabels()} {
		for _, full := range []bool{false, true} {
			h, rows := cHdrH, cRowY(1)
			if full {
				h, rows = hdrH, rowY(1)
			}
			draw := func(pv game.PlayerView, o sheetOpts) []byte {
				c := newCanvas(Width, rows, cPage)
				if full {
					drawSheet(c, staticsFor(l), l, pv, o, margin, 0)
				} else {
					drawCompact(c, l, pv, o, margin, 0)
				}
				return c.p.Pix[h*Width:]
			}
			plain := draw(game.PlayerView{Name: "A"}, sheetOpts{})
			for _, name := range names {
				if !staysInHeader(h, name, &l, labelsID(&l)) {
					continue
				}
				inside++
				for _, o := range []sheetOpts{{}, {active: true, decided: true, cards: true}} {
					pv := game.PlayerView{Name: name, HandSize: 7, Score: -12}
					if !bytes.Equal(draw(pv, o), plain) {
						t.Errorf("full %v, %q, %+v: the header reaches into the first row", full, name, o)
					}
				}
			}
		}
	}
	if inside < 30 {
		t.Fatalf("only %d names stay in the header: too little checked", inside)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestSectionsConcurrent: goroutines drawing the tables and sheets of the
// same game at once, in different orders (sharing sections, loading the
// same ones together), get the bytes drawn alone, the caches emptied.
func TestSectionsConcurrent(t *testing.T) {
	g := newGame(t, game.Cards, 4, "Anna", "Ben", "Chloé")
	l := germanLabels()
	var vs []game.PublicView
	playUntil(t, g, 1, func(g *game.Game) bool {
		vs = append(vs, g.Public())
		return len(vs) == 60
	})
	draw := func(i int) []byte {
		tb, err := Table(vs[i], l)
		if err != nil {
			t.Error(err)
		}
		sh, err := Sheet(vs[i], i%3, l)
		if err != nil {
			t.Error(err)
		}
		return append(tb, sh...)
	}
	resetEncodeCaches()
	want := make([][]byte, len(vs))
	for i := range vs {
		want[i] = draw(i)
	}
	resetEncodeCaches()
	done := make(chan struct{})
	for w := range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			for k := range vs {
				i := k
				if w%2 == 1 {
					i = len(vs) - 1 - k
				}
				if got := draw(i); !bytes.Equal(got, want[i]) {
					t.Errorf("worker %d, state %d: other bytes than drawn alone", w, i)
					return
				}
			}
		}()
	}
	for range 4 {
		<-done
	}
}
