package render

import (
	"image/png"
	"os"
	"testing"
)

func TestTmpDice(t *testing.T) {
	c := newCanvas(6*70+10, 6*70+10, cPaper)
	for i := range 6 {
		for d := 0; d <= 6; d++ {
			if d == 0 && i < 2 {
				continue
			}
			drawDie(c, i, d, 5+i*70, 5+(d%7)*60-0)
		}
	}
	f, _ := os.Create("/tmp/look/dice.png")
	png.Encode(f, c.p)
	f.Close()
}
