package bot

import (
	"testing"
	"time"
)

// BenchmarkGameThroughClicks plays whole two-player dice games through the
// players' clicks (each move: open the sheet, click a choice), the bot
// drawing its real pictures (PictureCache over Images) and keeping its
// tables in the test store: time per click, the bot's own work without
// Discord or a disk. Compare two versions in one session:
//
//	go test ./bot -run '^$' -bench GameThroughClicks -cpu 1 -count 5
func BenchmarkGameThroughClicks(b *testing.B) {
	for _, variant := range []string{"dice"} {
		b.Run(variant, func(b *testing.B) {
			h := newHarness(b)
			h.pictures = NewPictureCache(Images{}, 16<<20)
			h.bot = h.newBot()
			clicks := 0
			for b.Loop() {
				h.startTwo(variant)
				clicks += 2 + h.playToEnd()
				h.clock.Advance(time.Minute)
				h.dc.forgetFiles()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(clicks), "ns/click")
			b.ReportMetric(float64(clicks)/float64(b.N), "clicks/game")
		})
	}
}
