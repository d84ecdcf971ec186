package render

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"flag"
	"hash/adler32"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/")

// germanLabels and frenchLabels are what the bot's translations look like.
func germanLabels() Labels {
	return Labels{
		Total: "Gesamt", Misthrows: "Fehlwürfe", Crosses: "Kreuze", Points: "Punkte",
		Turn: "Zug %d", Active: "Am Zug", Decided: "Entschieden", Display: "Auslage",
		DrawPile: "Nachziehstapel", Discard: "Ablage", Hand: "Hand", PlayedBy: "Zuletzt ausgespielt: %s",
		Joker: "JOKER", JokerMark: "J", GameOver: "Spielende", EndLocks: "Zwei Reihen geschlossen",
		EndMisses: "Vierter Fehlwurf", Winner: "Sieger", Winners: "Sieger (geteilt)",
		Player: "Spieler", Game: "Spiel %d", GameNofM: "Spiel %d von %d",
		ChartTitle: "Punktestand nach jedem Zug", TurnAxis: "Zug",
	}
}

func frenchLabels() Labels {
	return Labels{
		Total: "Total", Misthrows: "Coups manqués", Crosses: "Croix", Points: "Points",
		Turn: "Tour %d", Active: "À jouer", Decided: "A décidé", Display: "Étalage",
		DrawPile: "Pioche", Discard: "Défausse", Hand: "Main", PlayedBy: "Dernier coup : %s",
		Joker: "JOKER", JokerMark: "J", GameOver: "Fin de la partie", EndLocks: "Deux rangées fermées",
		EndMisses: "Quatrième coup manqué", Winner: "Gagnant", Winners: "Gagnants ex æquo",
		Player: "Joueur", Game: "Partie %d", GameNofM: "Partie %d sur %d",
		ChartTitle: "Total après chaque tour", TurnAxis: "Tour",
	}
}

type scenario struct {
	name   string
	golden bool
	draw   func() (*image.Paletted, error)
}

func scenarios(t testing.TB) []scenario {
	en := DefaultLabels()
	_, c4 := cards4(t)
	g5, over5 := dice5TwoLocks(t)
	_ = g5
	res, match := finished3(t)
	hand := handWithJokers(t)
	empty := emptyDice2(t)
	mid5 := dice5Locked(t)
	d4 := dice4(t)
	c3 := cards3(t)
	cv, cseat, cells := withChoices(t)
	de, fr := germanLabels(), frenchLabels()
	d2, k2, k5 := dice2(t), cards2(t), cards5(t)
	chart2, chart5, chart3, chart1 := chartDice2(t), chartCards5(t), chartStopped3(t), chartTurn1(t)
	return []scenario{
		{"table2-dice-de", true, func() (*image.Paletted, error) { return TableImage(d2, de) }},
		{"table2-cards-fr", true, func() (*image.Paletted, error) { return TableImage(k2, fr) }},
		{"table4-dice-fr", true, func() (*image.Paletted, error) { return TableImage(d4, fr) }},
		{"table4-cards-de", true, func() (*image.Paletted, error) { return TableImage(c4, de) }},
		{"table5-dice-de", true, func() (*image.Paletted, error) { return TableImage(mid5, de) }},
		{"table5-cards-fr", true, func() (*image.Paletted, error) { return TableImage(k5, fr) }},
		{"sheet-cards-de", false, func() (*image.Paletted, error) { return SheetImage(c4, 1, de) }},
		{"sheet-cards-fr", false, func() (*image.Paletted, error) { return SheetImage(c4, 2, fr) }},
		{"dice2-empty", true, func() (*image.Paletted, error) { return TableImage(empty, en) }},
		{"dice5-locked", true, func() (*image.Paletted, error) { return TableImage(mid5, en) }},
		{"dice5-twolocks", false, func() (*image.Paletted, error) { return TableImage(over5, en) }},
		{"dice4", false, func() (*image.Paletted, error) { return TableImage(d4, en) }},
		{"cards4", true, func() (*image.Paletted, error) { return TableImage(c4, en) }},
		{"hand-jokers", true, func() (*image.Paletted, error) { return HandImage(hand, en) }},
		{"results-match", true, func() (*image.Paletted, error) { return ResultsImage(res, match, en) }},
		{"results-tie", false, func() (*image.Paletted, error) { return ResultsImage(tiedGame(t), nil, en) }},
		{"results-nomatch", false, func() (*image.Paletted, error) { return ResultsImage(over5, nil, en) }},
		{"sheet-dice", false, func() (*image.Paletted, error) { return SheetImage(mid5, 2, en) }},
		{"sheet-choices", true, func() (*image.Paletted, error) { return SheetImage(cv, cseat, en, cells...) }},
		{"table-en", true, func() (*image.Paletted, error) { return TableImage(c3, en) }},
		{"table-de", true, func() (*image.Paletted, error) { return TableImage(c3, germanLabels()) }},
		{"table-fr", true, func() (*image.Paletted, error) { return TableImage(c3, frenchLabels()) }},
		{"chart2-dice", true, func() (*image.Paletted, error) { return chartOf(chart2, en) }},
		{"chart5-cards-de", true, func() (*image.Paletted, error) { return chartOf(chart5, de) }},
		{"chart3-turn1", true, func() (*image.Paletted, error) { return chartOf(chart1, en) }},
		{"chart3-stopped-fr", false, func() (*image.Paletted, error) { return chartOf(chart3, fr) }},
	}
}

// TestGolden compares each image with testdata/NAME.png by decoded pixels;
// go test ./render -update rewrites them.
func TestGolden(t *testing.T) {
	for _, s := range scenarios(t) {
		if !s.golden {
			continue
		}
		t.Run(s.name, func(t *testing.T) {
			got, err := s.draw()
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", s.name+".png")
			if *update {
				var b bytes.Buffer
				// Golden files are committed: store them compressed hard.
				if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&b, got); err != nil {
					t.Fatal(err)
				}
				if err := os.MkdirAll("testdata", 0o755); err != nil {
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
			if d := diffPixels(got, want); d != "" {
				t.Errorf("%s differs from the golden image: %s (go test ./render -update rewrites it after checking)", s.name, d)
			}
		})
	}
}

// diffPixels describes how two images differ, "" if they have the same
// size and the same colour at every pixel.
func diffPixels(got, want image.Image) string {
	if got.Bounds() != want.Bounds() {
		return "bounds " + got.Bounds().String() + ", want " + want.Bounds().String()
	}
	b := got.Bounds()
	n, first := 0, image.Point{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r1, g1, b1, a1 := got.At(x, y).RGBA()
			r2, g2, b2, a2 := want.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				if n == 0 {
					first = image.Pt(x, y)
				}
				n++
			}
		}
	}
	if n == 0 {
		return ""
	}
	return itoa(n) + " pixels differ, the first at " + first.String()
}

func itoa(n int) string { return string(appendInt(nil, n)) }

func appendInt(b []byte, n int) []byte {
	if n >= 10 {
		b = appendInt(b, n/10)
	}
	return append(b, byte('0'+n%10))
}

// TestEncodePNGRoundTrip decodes what the fast encoder writes with
// image/png and compares the pixels, for every scenario and for noise.
func TestEncodePNGRoundTrip(t *testing.T) {
	imgs := map[string]*image.Paletted{}
	for _, s := range scenarios(t) {
		img, err := s.draw()
		if err != nil {
			t.Fatal(err)
		}
		imgs[s.name] = img
	}
	// Noise, odd sizes, and long runs and repeated rows.
	noise := image.NewPaletted(image.Rect(0, 0, 37, 23), palette)
	x := uint32(1)
	for i := range noise.Pix {
		x = x*1664525 + 1013904223
		noise.Pix[i] = uint8(x>>24) % uint8(len(palette))
	}
	imgs["noise"] = noise
	flat := image.NewPaletted(image.Rect(0, 0, 1000, 300), palette)
	for i := range flat.Pix {
		flat.Pix[i] = uint8(i / 777 % 5)
	}
	imgs["flat"] = flat
	imgs["sub"] = flat.SubImage(image.Rect(3, 5, 200, 90)).(*image.Paletted)
	imgs["onepixel"] = image.NewPaletted(image.Rect(0, 0, 1, 1), palette)
	// A changed pixel in one band of an image whose other bands are
	// cached: the new picture reuses them and shows the change.
	changed := image.NewPaletted(flat.Rect, palette)
	copy(changed.Pix, flat.Pix)
	changed.Pix[1000*150+500] = 7
	imgs["flat, one pixel changed"] = changed
	for name, img := range imgs {
		var b bytes.Buffer
		if err := encodePNG(&b, img); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var again bytes.Buffer
		encodePNG(&again, img)
		if !bytes.Equal(b.Bytes(), again.Bytes()) {
			t.Errorf("%s: encoded twice (the second time from cached bands), the bytes differ", name)
		}
		checkZlib(t, name, b.Bytes())
		got, err := png.Decode(&b)
		if err != nil {
			t.Fatalf("%s: decode: %v", name, err)
		}
		want := image.NewPaletted(image.Rectangle{Max: img.Bounds().Size()}, img.Palette)
		for y := range want.Rect.Dy() {
			for x := range want.Rect.Dx() {
				want.SetColorIndex(x, y, img.ColorIndexAt(x+img.Rect.Min.X, y+img.Rect.Min.Y))
			}
		}
		if d := diffPixels(got, want); d != "" {
			t.Errorf("%s: %s", name, d)
		}
	}
}

// checkZlib inflates the IDAT stream of a PNG with compress/zlib to its
// end, which verifies the Adler-32 checksum image/png does not read.
func checkZlib(t *testing.T, name string, b []byte) {
	t.Helper()
	var idat []byte
	for p := 8; p+8 <= len(b); {
		n := int(binary.BigEndian.Uint32(b[p:]))
		if string(b[p+4:p+8]) == "IDAT" {
			idat = append(idat, b[p+8:p+8+n]...)
		}
		p += 12 + n
	}
	zr, err := zlib.NewReader(bytes.NewReader(idat))
	if err == nil {
		_, err = io.ReadAll(zr)
	}
	if err != nil {
		t.Errorf("%s: the zlib stream: %v", name, err)
	}
}

// adler32Combine agrees with Adler-32 over the joined bytes, for splits
// of every kind (empty parts, parts longer than the modulus).
func TestAdler32Combine(t *testing.T) {
	data := make([]byte, 200000)
	x := uint32(7)
	for i := range data {
		x = x*1664525 + 1013904223
		data[i] = byte(x >> 24)
	}
	for _, cut := range []int{0, 1, 100, 65520, 65521, 65522, 131042, 199999, 200000} {
		a, b := data[:cut], data[cut:]
		got := adler32Combine(adler32.Checksum(a), adler32.Checksum(b), len(b))
		if want := adler32.Checksum(data); got != want {
			t.Errorf("split at %d: %08x, want %08x", cut, got, want)
		}
	}
}
