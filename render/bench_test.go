package render

import (
	"bytes"
	"image/png"
	"testing"

	"github.com/qwixxbot/qwixxbot/game"
)

// go test ./render -run '^$' -bench . -benchmem
//
// The images are drawn into a paletted image and PNG-encoded; EncodeOnly
// encodes the same finished pixels alone, the floor of a whole render.

func BenchmarkTable4Dice(b *testing.B) {
	v, l := dice4(b), DefaultLabels()
	benchImage(b, func() ([]byte, error) { return Table(v, l) })
}

// BenchmarkTable4Scripts is a table with Arabic, Hebrew, Devanagari and
// Thai names, which are shaped.
func BenchmarkTable4Scripts(b *testing.B) {
	v, l := newGame(b, game.Dice, 1, "محمد (12) علي", "שלום (דני) 12", "प्रिया शर्मा", "สมชาย ใจดี").Public(), DefaultLabels()
	benchImage(b, func() ([]byte, error) { return Table(v, l) })
}

func BenchmarkTable4Cards(b *testing.B) {
	_, v := cards4(b)
	l := DefaultLabels()
	benchImage(b, func() ([]byte, error) { return Table(v, l) })
}

func BenchmarkHand(b *testing.B) {
	v, l := handWithJokers(b), DefaultLabels()
	benchImage(b, func() ([]byte, error) { return Hand(v, l) })
}

func BenchmarkResults(b *testing.B) {
	v, m := finished3(b)
	l := DefaultLabels()
	benchImage(b, func() ([]byte, error) { return Results(v, m, l) })
}

func BenchmarkTable4DiceParallel(b *testing.B) {
	v, l := dice4(b), DefaultLabels()
	if _, err := Table(v, l); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := Table(v, l); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkEncodeOnly PNG-encodes the finished 4-player dice table, the
// way the renderer does, without drawing it.
func BenchmarkEncodeOnly(b *testing.B) {
	img, err := TableImage(dice4(b), DefaultLabels())
	if err != nil {
		b.Fatal(err)
	}
	var n int
	b.ReportAllocs()
	for b.Loop() {
		out, err := appendPNG(make([]byte, 0, 128<<10), img)
		if err != nil {
			b.Fatal(err)
		}
		n = len(out)
	}
	b.ReportMetric(float64(n), "bytes/image")
}

// BenchmarkDrawOnly draws the 4-player dice table without encoding it.
func BenchmarkDrawOnly(b *testing.B) {
	v, l := dice4(b), DefaultLabels()
	b.ReportAllocs()
	for b.Loop() {
		c, err := table(v, l, pooledPage)
		if err != nil {
			b.Fatal(err)
		}
		pix := c.p.Pix
		pixPool.Put(&pix)
	}
}

// BenchmarkStdlibEncode encodes the same pixels with image/png at
// BestSpeed, for comparison with the renderer's own encoder.
func BenchmarkStdlibEncode(b *testing.B) {
	img, err := TableImage(dice4(b), DefaultLabels())
	if err != nil {
		b.Fatal(err)
	}
	var n int
	for b.Loop() {
		var buf bytes.Buffer
		if err := encoder.Encode(&buf, img); err != nil {
			b.Fatal(err)
		}
		n = buf.Len()
	}
	b.ReportMetric(float64(n), "bytes/image")
}

func benchImage(b *testing.B, render func() ([]byte, error)) {
	b.Helper()
	out, err := render() // warm the caches
	if err != nil {
		b.Fatal(err)
	}
	if _, err := png.DecodeConfig(bytes.NewReader(out)); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if out, err = render(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(out)), "bytes/image")
}

// BenchmarkShapeUncached lays out a name that needs shaping without the
// line cache: bidi, items, HarfBuzz (the cost of a name's first drawing).
func BenchmarkShapeUncached(b *testing.B) {
	if err := loadFonts(); err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"محمد (12) علي", "प्रिया शर्मा", "สมชาย ใจดี"} {
		b.Run(name, func(b *testing.B) {
			s := clean(name)
			fName.layout(s) // fonts loaded
			b.ReportAllocs()
			for b.Loop() {
				fName.layout(s)
			}
		})
	}
}

// gameTables are the 4-player dice table after every move of a game, one
// move apart as the bot draws them (a move changes a few rows).
func gameTables(b *testing.B) []game.PublicView {
	g := newGame(b, game.Dice, 1, "Anna", "Ben", "Chloé", "Dörte")
	var vs []game.PublicView
	playUntil(b, g, 1, func(g *game.Game) bool {
		vs = append(vs, g.Public())
		return false
	})
	return vs
}

// BenchmarkGameTables draws and encodes the tables of a whole game in
// order, the band cache emptied first: the cost of a table picture as the
// bot pays it (most bands of the previous state found, the changed ones
// compressed). ns/op is per picture.
func BenchmarkGameTables(b *testing.B) {
	vs, l := gameTables(b), DefaultLabels()
	benchSeq(b, len(vs), func(i int) ([]byte, error) { return Table(vs[i], l) })
}

// BenchmarkSheet draws and encodes one player's sheet with their choices
// marked (the "My sheet" view).
func BenchmarkSheet(b *testing.B) {
	v, seat, choices := withChoices(b)
	l := DefaultLabels()
	benchImage(b, func() ([]byte, error) { return Sheet(v, seat, l, choices...) })
}
