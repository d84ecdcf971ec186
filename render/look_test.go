package render

import (
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	xdraw "golang.org/x/image/draw"
)

// TestLook writes every scenario to $RENDER_LOOK (full size and scaled to
// phoneWidth (400 px) wide, as a phone shows it) for people to look at.
func TestLook(t *testing.T) {
	dir := os.Getenv("RENDER_LOOK")
	if dir == "" {
		t.Skip("set RENDER_LOOK=dir to write the images for viewing")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, s := range scenarios(t) {
		img, err := s.draw()
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		write := func(name string, m image.Image) {
			f, err := os.Create(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := png.Encode(f, m); err != nil {
				t.Fatal(err)
			}
		}
		write(s.name+".png", img)
		b := img.Bounds()
		small := image.NewRGBA(image.Rect(0, 0, phoneWidth, b.Dy()*phoneWidth/b.Dx()))
		xdraw.CatmullRom.Scale(small, small.Rect, img, b, xdraw.Src, nil)
		write(s.name+"-phone.png", small)
	}
}
