package render

import (
	"image"
	"testing"

	"golang.org/x/image/math/fixed"

	"github.com/qwixxbot/qwixxbot/game"
)

// drawRunes draws the characters of s one by one from left to right, each
// with its own glyph.
func drawRunes(f *face, s string, x, y int) canvas {
	c := newCanvas(420, 60, cPaper)
	dot := fixed.I(x)
	for _, r := range s {
		g := f.glyph(r)
		if g.m.w > 0 {
			c.draw(&g.m, dot.Round(), y, cInk)
		}
		dot += g.adv
	}
	return c
}

// visualText is s as drawn from left to right: the first character of each
// glyph's cluster, or a bracket's mirror where the mirrored glyph is drawn.
func visualText(t *testing.T, f *face, s string) string {
	t.Helper()
	rs := []rune(clean(s))
	mirrors := map[rune]rune{'(': ')', ')': '(', '[': ']', ']': '['}
	var out []rune
	last := -1
	for _, g := range f.shape(clean(s)).gs {
		if g.at == last {
			continue
		}
		last = g.at
		r := rs[g.at]
		if m, ok := mirrors[r]; ok {
			sf, err := f.ch.srcs[g.src].font()
			if err != nil {
				t.Fatal(err)
			}
			if gm, _ := sf.GlyphIndex(nil, m); gm == g.gid {
				r = m
			}
		}
		out = append(out, r)
	}
	return string(out)
}

// TestBidiBracketsAndNumbers: right-to-left text is put in the order of
// Unicode's bidi algorithm: numbers with their separators and terminators
// (rules W4–W6) stay together and in order, bracket pairs take the
// direction of their content and surroundings (rule N0) and are mirrored
// in right-to-left runs. The old hand-written reordering drew
// "אבג 12.5%" as "%5.12 גבא" and "ابج book(s)" as "(book(s جبا". (This
// test reads the shaped glyphs, which the old code did not have;
// TestBidiLeftEndPixels shows the same in pixels and fails there.)
func TestBidiBracketsAndNumbers(t *testing.T) {
	if err := loadFonts(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ logical, visual string }{
		{"אבג 12.5%", "12.5% גבא"},
		{"אבג book(s)", "book(s) גבא"},
		{"ابج book(s)", "book(s) جبا"},
		{"שלום (דני) 12", "12 (ינד) םולש"},
		{"Anna (דני) 1,5", "Anna (ינד) 1,5"},
		{"דני -12", "12- ינד"}, // W5/W6: a minus before a number after a space is a neutral
		{"Anna 12 שלום", "Anna 12 םולש"},
		{"שלום Anna", "Anna םולש"},
		{"محمد (12) علي", "يلع (12) دمحم"},
	} {
		if got := visualText(t, fLabel, c.logical); got != c.visual {
			t.Errorf("%q is drawn as %q, want %q", c.logical, got, c.visual)
		}
	}
}

// TestBidiLeftEndPixels: the same defects seen in the pixels, with
// functions the old code had too (it fails there): a right-to-left text
// whose visual order begins with a left-to-right piece draws exactly that
// piece, alone, at its left end.
func TestBidiLeftEndPixels(t *testing.T) {
	if err := loadFonts(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ logical, left string }{
		{"אבג 12.5%", "12.5%"},     // old: "%5.12 גבא"
		{"אבג book(s)", "book(s)"}, // old: "(book(s גבא"
		{"שלום (דני) 12", "12 "},
		{"אבג 1,000", "1,000"},
	} {
		whole, piece := newCanvas(420, 60, cPaper), newCanvas(420, 60, cPaper)
		whole.text(fLabel, c.logical, 10, 40, cInk)
		end := piece.text(fLabel, c.left, 10, 40, cInk)
		r := image.Rect(0, 0, end-1, 60)
		if d := diffPixels(whole.p.SubImage(r), piece.p.SubImage(r)); d != "" {
			t.Errorf("%q does not begin with %q at its left: %s", c.logical, c.left, d)
		}
	}
}

// TestShapingIndic: a Devanagari vowel sign i is drawn before (left of)
// the consonant it follows in the text, and a conjunct is one glyph with
// no visible virama; the old renderer drew the characters in text order.
func TestShapingIndic(t *testing.T) {
	if err := loadFonts(); err != nil {
		t.Fatal(err)
	}
	ka := fLabel.ch.find('क')
	sf, err := fLabel.ch.srcs[ka].font()
	if err != nil {
		t.Fatal(err)
	}
	gKa, _ := sf.GlyphIndex(nil, 'क')
	l := fLabel.shape("कि")
	if len(l.gs) != 2 || l.gs[1].gid != gKa || l.gs[0].gid == gKa || l.gs[0].x >= l.gs[1].x {
		t.Errorf("कि: glyphs %+v, want the vowel sign left of क (glyph %d)", l.gs, gKa)
	}
	logical := drawRunes(fLabel, "कि", 10, 40)
	got := newCanvas(420, 60, cPaper)
	got.text(fLabel, "कि", 10, 40, cInk)
	if diffPixels(got.p, logical.p) == "" {
		t.Error("कि is drawn in text order, the vowel sign after the consonant")
	}
	// क्ष: ka, virama, ssa make the conjunct kssa, one glyph.
	if l := fLabel.shape("क्ष"); len(l.gs) != 1 {
		t.Errorf("क्ष: %d glyphs, want the conjunct", len(l.gs))
	}
}

// TestShapingPixels: with functions the old code had too (it fails
// there), Devanagari and Thai are not drawn as their characters one after
// the other in text order, which is what the old renderer did: the vowel
// sign i goes before its consonant, a conjunct replaces consonant, virama,
// consonant, and a tone mark over an upper vowel is raised above it.
func TestShapingPixels(t *testing.T) {
	if err := loadFonts(); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"कि", "क्ष", "ที่", "प्रिया"} {
		got := newCanvas(420, 60, cPaper)
		got.text(fLabel, s, 10, 40, cInk)
		if diffPixels(got.p, drawRunes(fLabel, s, 10, 40).p) == "" {
			t.Errorf("%q is drawn character by character in text order", s)
		}
	}
}

// TestShapingArabic: Arabic letters take their joining forms from the
// font's layout tables, lam-alef is one ligature, and text on both sides
// of a name keeps its place.
func TestShapingArabic(t *testing.T) {
	if err := loadFonts(); err != nil {
		t.Fatal(err)
	}
	i := fLabel.ch.find('م')
	sf, err := fLabel.ch.srcs[i].font()
	if err != nil {
		t.Fatal(err)
	}
	isolated, _ := sf.GlyphIndex(nil, 'م')
	l := fLabel.shape("محمد")
	if len(l.gs) != 4 {
		t.Fatalf("محمد: %d glyphs", len(l.gs))
	}
	// Visual order: the first letter (initial mīm) is drawn rightmost.
	if last := l.gs[3]; last.at != 0 || last.gid == isolated {
		t.Errorf("محمد: rightmost glyph %+v, want the initial form of م (isolated is %d)", last, isolated)
	}
	if l := fLabel.shape("لا"); len(l.gs) != 1 {
		t.Errorf("لا: %d glyphs, want the lam-alef ligature", len(l.gs))
	}
	// "ابج book(s)": the Latin word with its brackets to the left.
	l = fLabel.shape("ابج book(s)")
	var order []int
	for _, g := range l.gs {
		order = append(order, g.at)
	}
	want := []int{4, 5, 6, 7, 8, 9, 10, 3, 2, 1, 0}
	if len(order) != len(want) {
		t.Fatalf("ابج book(s): clusters %v, want %v", order, want)
	}
	for k := range want {
		if order[k] != want[k] {
			t.Fatalf("ابج book(s): clusters %v, want %v", order, want)
		}
	}
}

// TestShapingThai: a Thai tone mark over an upper vowel is raised above
// it (mark-to-mark positioning), not drawn on top of it.
func TestShapingThai(t *testing.T) {
	if err := loadFonts(); err != nil {
		t.Fatal(err)
	}
	plain := fLabel.shape("ท่") // tone mark alone on the consonant
	over := fLabel.shape("ที่") // over the vowel ii
	if len(plain.gs) != 2 || len(over.gs) != 3 {
		t.Fatalf("glyphs %+v and %+v", plain.gs, over.gs)
	}
	toneAlone, toneOver := plain.gs[1], over.gs[2]
	rasterAlone := fLabel.glyphByIndex(toneAlone.src, toneAlone.gid)
	rasterOver := fLabel.glyphByIndex(toneOver.src, toneOver.gid)
	if top, topAlone := toneOver.y.Round()+rasterOver.oy, toneAlone.y.Round()+rasterAlone.oy; top >= topAlone {
		t.Errorf("the tone mark over ี starts at y %d, alone at %d: not raised", top, topAlone)
	}
}

// TestFitShaped: a shaped name cut to fit keeps its vowel signs with their
// consonant and fits.
func TestFitShaped(t *testing.T) {
	if err := loadFonts(); err != nil {
		t.Fatal(err)
	}
	name := "प्रियंका चोपड़ा जोनास"
	for _, w := range []int{60, 120, 180} {
		got := fit(fName, name, w)
		if fName.width(got) > w {
			t.Errorf("fit to %d: %q is %d wide", w, got, fName.width(got))
		}
		if got == "" || got == "…" {
			t.Errorf("fit to %d: nothing kept", w)
		}
		rs := []rune(got)
		if len(rs) > 1 && isMark(rs[0]) {
			t.Errorf("fit to %d: %q starts with a mark", w, got)
		}
	}
}

// TestGoldenShapedNames compares a table with Hebrew, Arabic (with numbers
// and brackets), Devanagari and Thai names with testdata/names-shaped.png.
func TestGoldenShapedNames(t *testing.T) {
	img, err := TableImage(newGame(t, game.Dice, 1, "דני (12.5%)", "محمد (12) علي", "प्रिया शर्मा", "สมชาย ใจดี").Public(), DefaultLabels())
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "names-shaped", img)
}
