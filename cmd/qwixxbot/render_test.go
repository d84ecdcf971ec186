package main

import (
	"bytes"
	"context"
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
