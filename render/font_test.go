package render

import (
	"io/fs"
	"slices"
	"testing"

	"golang.org/x/image/font/sfnt"
)

// TestFontPages: every fallback font has its pages in fontPages, and it
// has no character off them, so skipping a font by its pages never
// changes which font draws a character (fonts/pages.py rewrites the
// table).
func TestFontPages(t *testing.T) {
	names, err := fs.Glob(fontFiles, "fonts/*.gz")
	if err != nil || len(names) == 0 {
		t.Fatalf("no fonts: %v", err)
	}
	if len(names) != len(fontPages) {
		t.Errorf("%d fonts, fontPages lists %d", len(names), len(fontPages))
	}
	var buf sfnt.Buffer
	for _, n := range names {
		n = n[len("fonts/"):]
		s := &source{name: n}
		f, err := s.font()
		if err != nil {
			t.Fatal(err)
		}
		pages := fontPages[n]
		if len(pages) == 0 {
			t.Errorf("%s: no pages", n)
		}
		for _, p := range pages {
			if !s.mayHave(rune(p) << 8) {
				t.Errorf("%s: page %#x listed but skipped", n, p)
			}
		}
		for r := rune(0); r < 0x20000; r++ {
			if _, listed := slices.BinarySearch(pages, uint16(r>>8)); listed {
				r |= 0xff // the next page
				continue
			}
			if g, err := f.GlyphIndex(&buf, r); err != nil || g != 0 {
				t.Errorf("%s has %U (glyph %d, %v), off its pages", n, r, g, err)
				break
			}
		}
	}
}
