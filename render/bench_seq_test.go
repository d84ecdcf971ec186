package render

import (
	"fmt"
	"syscall"
	"testing"

	"github.com/qwixxbot/qwixxbot/game"
)

// The pictures of whole games in order, as the bot draws them: each state
// one move after the previous, the encoder's caches emptied when a game
// starts (resetEncodeCaches), so ns/op is the cost of a picture when most
// of the previous one can be reused. bytes/image is the mean PNG size.

// gameSheets are the "My sheet" pictures of a 4-player dice game: after
// every move, the sheet of the player whose turn it is.
func gameSheets(b testing.TB) (vs []game.PublicView, seats []int) {
	g := newGame(b, game.Dice, 1, "Anna", "Ben", "Chloé", "Dörte")
	playUntil(b, g, 1, func(g *game.Game) bool {
		vs = append(vs, g.Public())
		seats = append(seats, g.Active())
		return false
	})
	return vs, seats
}

// gameHands are the hands of a 4-player jokers game: every hand a player
// holds, in the order they come to hold it (the bot draws a hand's
// picture once, bot.PictureCache).
func gameHands(b testing.TB) []game.PrivateView {
	g := newGame(b, game.Jokers, 1, "Anna", "Ben", "Chloé", "Dörte")
	var vs []game.PrivateView
	last := map[int]string{}
	playUntil(b, g, 1, func(g *game.Game) bool {
		for seat := range 4 {
			v := g.Private(seat)
			if k := fmt.Sprint(v.Hand); k != last[seat] {
				last[seat] = k
				vs = append(vs, v)
			}
		}
		return false
	})
	return vs
}

// benchSeq encodes pictures 0…n-1 of a sequence in order, the caches
// emptied at its start. cpu-ns/op is the process's CPU time (user and
// system, garbage collection included) a picture, which a busy machine
// disturbs less than the time a picture takes.
func benchSeq(b *testing.B, n int, draw func(i int) ([]byte, error)) {
	b.ReportAllocs()
	cpu0 := cpuTime()
	defer func() { b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op") }()
	var size, count int
	i := 0
	for b.Loop() {
		if i%n == 0 {
			resetEncodeCaches()
		}
		out, err := draw(i % n)
		if err != nil {
			b.Fatal(err)
		}
		size += len(out)
		count++
		i++
	}
	b.ReportMetric(float64(size)/float64(count), "bytes/image")
}

// BenchmarkGameSheets: the "My sheet" picture over a whole dice game.
func BenchmarkGameSheets(b *testing.B) {
	vs, seats := gameSheets(b)
	l := DefaultLabels()
	benchSeq(b, len(vs), func(i int) ([]byte, error) { return Sheet(vs[i], seats[i], l) })
}

// BenchmarkGameHands: the hand picture over a whole jokers game.
func BenchmarkGameHands(b *testing.B) {
	vs := gameHands(b)
	l := DefaultLabels()
	benchSeq(b, len(vs), func(i int) ([]byte, error) { return Hand(vs[i], l) })
}

// BenchmarkGameCardTables: the table over a whole 4-player jokers game.
func BenchmarkGameCardTables(b *testing.B) {
	g := newGame(b, game.Jokers, 1, "Anna", "Ben", "Chloé", "Dörte")
	var vs []game.PublicView
	playUntil(b, g, 1, func(g *game.Game) bool {
		vs = append(vs, g.Public())
		return false
	})
	l := DefaultLabels()
	benchSeq(b, len(vs), func(i int) ([]byte, error) { return Table(vs[i], l) })
}

// cpuTime is the CPU time the process has used.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
