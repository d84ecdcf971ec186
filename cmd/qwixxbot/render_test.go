package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRenderCommand(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"render", "../../game/testdata/records/dice-short.json", "--step", "3", "-o", dir}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "after 3 of 9 moves: turn 2") {
		t.Fatalf("output %q", out.String())
	}
	f, err := os.Open(filepath.Join(dir, "table.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil || img.Bounds().Dx() < 400 {
		t.Fatalf("table.png: %v %v", err, img)
	}
	if code := run(context.Background(), []string{"render", "../../game/testdata/records/cards-gap.json", "-o", dir}, &out, &errb); code != 1 {
		t.Fatalf("a record with an illegal step must exit 1, got %d", code)
	}
}

var updateReadme = flag.Bool("update-readme", false, "rewrite the README's pictures in testdata/readme/ from their records")

// TestReadmePicturesAreRendered keeps the README's two pictures what
// `qwixxbot render` draws from the records beside them today: a dice table
// (testdata/readme/dice.json) and a hand of the card game (cards.json, the
// second player's). After a change to the pictures, rewrite them with
// go test ./cmd/qwixxbot -run TestReadmePicturesAreRendered -update-readme
// and look at them.
func TestReadmePicturesAreRendered(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ record, drawn, shown string }{
		{"dice.json", "table.png", "table.png"},
		{"cards.json", "hand-2-Ben.png", "hand.png"},
	} {
		shown := filepath.Join("testdata", "readme", c.shown)
		if !bytes.Contains(readme, []byte("cmd/qwixxbot/"+filepath.ToSlash(shown))) {
			t.Errorf("README.md does not show %s", shown)
		}
		dir := t.TempDir()
		var out, errb bytes.Buffer
		if code := run(context.Background(), []string{"render", filepath.Join("testdata", "readme", c.record), "-o", dir}, &out, &errb); code != 0 {
			t.Fatalf("render %s: exit %d: %s", c.record, code, errb.String())
		}
		drawn, err := os.ReadFile(filepath.Join(dir, c.drawn))
		if err != nil {
			t.Fatalf("render %s: %v (it wrote %s)", c.record, err, out.String())
		}
		if *updateReadme {
			if err := os.WriteFile(shown, drawn, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(shown)
		if err != nil {
			t.Fatal(err)
		}
		if d := pixelDiff(t, drawn, want); d != "" {
			t.Errorf("%s is not what render draws from %s today: %s (-update-readme rewrites it)", shown, c.record, d)
		}
	}
}

// pixelDiff decodes two PNGs and says where they differ ("" if nowhere), so
// that a change of compression alone is no difference.
func pixelDiff(t *testing.T, a, b []byte) string {
	t.Helper()
	ia, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	ib, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	if ia.Bounds() != ib.Bounds() {
		return fmt.Sprintf("size %v, want %v", ia.Bounds().Size(), ib.Bounds().Size())
	}
	r := ia.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, a1 := ia.At(x, y).RGBA()
			r2, g2, b2, a2 := ib.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				return fmt.Sprintf("first different pixel at (%d, %d)", x, y)
			}
		}
	}
	return ""
}
