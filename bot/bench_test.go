package bot

import (
	"runtime"
	"testing"
	"time"
)

// BenchmarkGameThroughClicks plays whole two-player dice games through the
// players' clicks (each move: open the sheet, click a choice), the bot
// drawing its real pictures (PictureCache over Images) and keeping its
// tables in the test store: time per click, the bot's own work without
// Discord or a disk, and its garbage per click (B/click, allocs/click; the
// B/op and allocs/op are per game). "tiny" draws stand-in pictures of a
// few bytes: the click path's garbage without the pictures'. Compare two
// versions in one session:
//
//	go test ./bot -run '^$' -bench GameThroughClicks -cpu 1 -count 5
func BenchmarkGameThroughClicks(b *testing.B) {
	for _, variant := range []string{"dice"} {
		for _, pictures := range []string{"real", "tiny"} {
			name := variant
			if pictures == "tiny" {
				name += "/tiny"
			}
			b.Run(name, func(b *testing.B) {
				h := newHarness(b)
				if pictures == "real" {
					h.pictures = NewPictureCache(Images{}, 16<<20)
				}
				h.bot = h.newBot()
				b.ReportAllocs()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				clicks := 0
				for b.Loop() {
					h.startTwo(variant)
					clicks += 2 + h.playToEnd()
					h.clock.Advance(time.Minute)
					h.dc.forgetFiles()
				}
				runtime.ReadMemStats(&after)
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(clicks), "ns/click")
				b.ReportMetric(float64(clicks)/float64(b.N), "clicks/game")
				b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(clicks), "B/click")
				b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(clicks), "allocs/click")
			})
		}
	}
}
