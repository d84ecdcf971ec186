package render

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/qwixxbot/qwixxbot/game"
)

// scriptNames are names in many scripts and the awkward cases: each must
// be drawn legibly, or as the seat when nothing in it can be drawn.
var scriptNames = []string{
	"Đặng Thị Ngọc Hân", "Łukasz Żółć", "Ærøskøbing Åse", "Ελένη Ωμέγα",
	"Владимир", "Қазақ Әлия", "山田太郎", "王小明", "김민준", "さくら", "サクラ",
	"محمد علي", "שלום", "राम शर्मा", "สมชาย ใจดี", "ნინო", "Արամ", "ሰላም", "தமிழ்",
	"Zoë 🎲", "🎲🎲", "👨‍👩‍👧", "🇩🇪", "👍🏽", "1️⃣", "𝓙𝓸𝓱𝓷",
	"\u200b\u200d", "\u3164", "\u2800\u2800", "\ue000", "\x01\x02", "\u0378",
	"e\u0301\u0301\u0301\u0301\u0301", "  lots   of\tspace  ",
	strings.Repeat("山田Anna🎲", 30),
}

// TestNamesConcurrent draws names of every script from several goroutines
// at once, with the fallback fonts not yet loaded when it runs first (run
// with -race), and compares each table with one drawn alone afterwards.
func TestNamesConcurrent(t *testing.T) {
	l := DefaultLabels()
	views := make([]game.PublicView, 0, len(scriptNames)/2)
	for i := 0; i+1 < len(scriptNames); i += 2 {
		views = append(views, newGame(t, game.Dice, 1, scriptNames[i], scriptNames[i+1]).Public())
	}
	const workers = 4
	got := make([][]*image.Paletted, workers)
	var wg sync.WaitGroup
	for w := range workers {
		got[w] = make([]*image.Paletted, len(views))
		wg.Go(func() {
			for k := range views {
				i := (k + w*len(views)/workers) % len(views) // each starts elsewhere
				img, err := TableImage(views[i], l)
				if err != nil {
					t.Error(err)
					return
				}
				got[w][i] = img
			}
		})
	}
	wg.Wait()
	for i, v := range views {
		want, err := TableImage(v, l)
		if err != nil {
			t.Fatal(err)
		}
		for w := range workers {
			if got[w][i] == nil {
				continue
			}
			if d := diffPixels(got[w][i], want); d != "" {
				t.Errorf("goroutine %d, %q and %q: %s", w, v.Players[0].Name, v.Players[1].Name, d)
			}
		}
	}
}

// TestNamesNeverBlank: in every script the name in a sheet's header has
// ink, and every character the text path keeps has a glyph in a font of
// both weights (no .notdef box is drawn).
func TestNamesNeverBlank(t *testing.T) {
	l := DefaultLabels()
	for _, name := range scriptNames {
		v := newGame(t, game.Dice, 1, "Anna", name).Public()
		img, err := TableImage(v, l)
		if err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		// Seat 1 is neither active nor decided: the only ink in the left
		// half of its header is its name.
		y0 := sheetTop(v, 1)
		counts := map[uint8]int{}
		for y := y0 + 6; y < y0+hdrH-4; y++ {
			for x := margin + 8; x < margin+panelW/2; x++ {
				counts[at(img, x, y)]++
			}
		}
		bg, ink := uint8(0), 0
		for c, n := range counts {
			if n > counts[bg] {
				bg = c
			}
		}
		for c, n := range counts {
			if c != bg {
				ink += n
			}
		}
		if ink < 15 {
			t.Errorf("%q: the name area has %d ink pixels, want a legible name", name, ink)
		}
		drawn := playerName(name, 1, l)
		if drawn == "" {
			t.Errorf("%q: nothing to draw", name)
		}
		for _, r := range drawn {
			if !drawable(r) {
				t.Errorf("%q: draws %U, which no font has", name, r)
			}
			for _, f := range []*face{fName, fLabel, fLabelB, fSmall} {
				if f.ch.find(r) < 0 {
					t.Errorf("%q: %U has no glyph in a %v px face", name, r, f.size)
				}
			}
		}
	}
}

// TestCleanName: emoji sequences, invisible and control characters,
// combining marks and spaces are reduced to what can be drawn.
func TestCleanName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Anna", "Anna"},
		{"Zoë 🎲", "Zoë 🎲"},
		{"Zoe\u0308", "Zoë"},         // NFC
		{"👍🏽 Ben", "👍 Ben"},          // skin tone
		{"👨‍👩‍👧 Family", "👨 Family"}, // ZWJ sequence: its first emoji
		{"❤️ Lea", "❤ Lea"},          // variation selector
		{"1️⃣ Max", "1 Max"},         // keycap
		{"🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f", "🏴"}, // tag sequence
		{"\u200bAn\u200bna\u200e", "Anna"},                                     // zero-width and bidi marks
		{"\u3164", ""},                                                         // Hangul filler, an "invisible" name
		{"\u2800 \u200b", ""},                                                  // Braille blank
		{"  a \t\n b  ", "a b"},                                                // spaces collapsed and trimmed
		{"\x01Bob\x7f", "Bob"},                                                 // controls
		{"x\ue000y", "xy"},                                                     // private use
		{"a\u0301\u0302\u0303\u0304", "á\u0302\u0303"},                         // at most two marks
		{"\u0301Ana", "Ana"},                                                   // a mark with no letter
		{"𝓙𝓸𝓱𝓷", "John"},                                                       // mathematical letters, folded
		{"Ｙｕｋｉ！", "Yuki!"},                                                     // fullwidth ASCII, narrow
		{"محمد", "محمد"},                                                       // logical order, letters as typed: drawing shapes them
	} {
		if got := CleanName(c.in); got != c.want {
			t.Errorf("CleanName(%q) = %q %U, want %q %U", c.in, got, []rune(got), c.want, []rune(c.want))
		}
	}
	for _, name := range scriptNames {
		once := clean(name)
		if twice := clean(once); twice != once {
			t.Errorf("clean is not idempotent on %q: %q, then %q", name, once, twice)
		}
		for _, r := range once {
			if !drawable(r) {
				t.Errorf("clean(%q) keeps %U, which no font has", name, r)
			}
		}
	}
}

// TestFitMixedFonts: widths add up across fonts, and fit cuts a name of
// several fonts at a character with an ellipsis to the width it is given.
func TestFitMixedFonts(t *testing.T) {
	if err := loadFonts(); err != nil {
		t.Fatal(err)
	}
	parts := []string{"山田", "Anna", "🎲", "김민준", "שלום"}
	sum := 0
	for _, p := range parts {
		w := fName.width(p)
		if w <= 0 {
			t.Errorf("width(%q) = %d", p, w)
		}
		sum += w
	}
	if got := fName.width(strings.Join(parts, "")); got < sum-len(parts) || got > sum {
		t.Errorf("width of the joined parts %d, the parts add up to %d", got, sum)
	}
	long := strings.Repeat("山田Anna🎲 ", 20)
	for _, w := range []int{40, 100, 237, 500} {
		got := fit(fName, long, w)
		if fName.width(got) > w {
			t.Errorf("fit to %d: %q is %d wide", w, got, fName.width(got))
		}
		if !strings.HasSuffix(got, "…") || !strings.HasPrefix(clean(long), strings.TrimSuffix(got, "…")) {
			t.Errorf("fit to %d: %q is not a prefix with an ellipsis", w, got)
		}
		if wider := fit(fName, long, w+fName.width("山")+2); utf8.RuneCountInString(wider) <= utf8.RuneCountInString(got) {
			t.Errorf("fit to %d: %q; more room keeps no more: %q", w, got, wider)
		}
	}
	if got := fit(fName, "山田太郎", 1000); got != "山田太郎" {
		t.Errorf("a name that fits is cut: %q", got)
	}
	if got := fit(fName, "山田太郎", 2); got != "" {
		t.Errorf("fit into 2 px: %q, want nothing", got)
	}
	// A mark is never cut from its letter.
	if got := fit(fName, strings.Repeat("q\u0301\u0302", 40), 100); !strings.HasSuffix(got, "q\u0301\u0302…") {
		t.Errorf("fit cut the marks off the last letter: %q", got)
	}
}

// TestNoNotdef: a character no font has is neither drawn nor measured.
func TestNoNotdef(t *testing.T) {
	if err := loadFonts(); err != nil {
		t.Fatal(err)
	}
	if drawable('\ue000') || drawable(0x0378) {
		t.Fatal("a private-use or unassigned character counts as drawable")
	}
	for _, f := range []*face{fName, fLabel} {
		if g := f.glyph('\ue000'); g.m.w != 0 || g.adv != 0 {
			t.Errorf("%v px: the glyph of U+E000 has a %dx%d mask and advance %v", f.size, g.m.w, g.m.h, g.adv)
		}
	}
	a, b := newCanvas(300, 60, cPaper), newCanvas(300, 60, cPaper)
	a.text(fName, "A\ue000\u0378B", 10, 40, cInk)
	b.text(fName, "AB", 10, 40, cInk)
	if !bytes.Equal(a.p.Pix, b.p.Pix) {
		t.Error("A, U+E000, U+0378, B is drawn differently from AB")
	}
}

// TestBlankNameShowsSeat: a name with nothing drawable is shown as the
// seat in the labels' language, and the caller's view is not changed.
func TestBlankNameShowsSeat(t *testing.T) {
	v := newGame(t, game.Dice, 1, "Anna", "\u200b", "🎲").Public()
	before := slices.Clone(v.Players)
	got := withNames(v, germanLabels())
	if got.Players[1].Name != "Spieler 2" || got.Players[0].Name != "Anna" || got.Players[2].Name != "🎲" {
		t.Errorf("names %q, %q, %q", got.Players[0].Name, got.Players[1].Name, got.Players[2].Name)
	}
	if !slices.EqualFunc(v.Players, before, func(a, b game.PlayerView) bool { return a.Name == b.Name }) {
		t.Error("withNames changed the caller's view")
	}
	if n := playerName("\u3164", 3, DefaultLabels()); n != "Player 4" {
		t.Errorf("playerName of a Hangul filler: %q", n)
	}
}

// TestGoldenNames compares tables with CJK names and names with emoji
// with testdata/names-*.png by decoded pixels (go test ./render -update
// rewrites them).
func TestGoldenNames(t *testing.T) {
	for _, c := range []struct {
		file  string
		names []string
	}{
		{"names-cjk", []string{"山田太郎", "김민준", "さくら Sakura"}},
		{"names-emoji", []string{"Zoë 🎲", "👨‍👩‍👧 Family", "\u200b"}},
		{"names-rtl", []string{"محمد علي", "שלום (דני) 12", "राम สมชาย"}},
	} {
		t.Run(c.file, func(t *testing.T) {
			img, err := TableImage(newGame(t, game.Dice, 1, c.names...).Public(), DefaultLabels())
			if err != nil {
				t.Fatal(err)
			}
			golden(t, c.file, img)
		})
	}
}

// golden compares img with testdata/NAME.png, or writes it with -update.
func golden(t *testing.T, name string, img image.Image) {
	t.Helper()
	path := filepath.Join("testdata", name+".png")
	if *update {
		var b bytes.Buffer
		if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&b, img); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (run go test ./render -update to create it)", err)
	}
	defer f.Close()
	want, err := png.Decode(f)
	if err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
	if d := diffPixels(img, want); d != "" {
		t.Errorf("%s differs from the golden image: %s (go test ./render -update rewrites it after checking)", name, d)
	}
}
