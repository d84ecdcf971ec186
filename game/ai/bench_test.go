package ai

import (
	"fmt"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/game"
)

// go test ./game/ai -run '^$' -bench . -benchmem
//
// How long a computer player takes to decide, over the decisions of whole
// games of 2 and of 5 players (one person and four computers is the
// largest table) that the level itself plays in every seat (the easy,
// medium and heuristic levels; the hard ones over medium's games, which
// are much cheaper to make, and over their own with -bench Own): each op
// is one decision; p99-ns is the 99th percentile of the decisions timed
// in the run; cpu-ns/op the process's CPU time per decision.
func benchmarkChoose(b *testing.B, v game.Variant, l Level, n int) {
	player := l
	if l == Hard || l == HardV1 {
		player = Medium
	}
	benchmarkDecisions(b, v, l, player, n, 2000)
}

// benchmarkDecisions times level l over the decisions of games that level
// player plays, at least count of them.
func benchmarkDecisions(b *testing.B, v game.Variant, l, player Level, n, count int) {
	type decision struct {
		view  game.PrivateView
		legal []game.Move
	}
	var ds []decision
	for seed := byte(0); len(ds) < count; seed++ {
		var s [32]byte
		s[0] = seed
		g, err := game.New(game.Config{Variant: v, Players: []string{"a", "b", "c", "d", "e"}[:n], Seed: s})
		if err != nil {
			b.Fatal(err)
		}
		for !g.Over() {
			p := g.Waiting()[0]
			d := decision{g.Private(p), g.LegalMoves(p)}
			ds = append(ds, d)
			if err := g.Apply(Choose(player, d.view, d.legal)); err != nil {
				b.Fatal(err)
			}
		}
	}
	Choose(l, ds[0].view, ds[0].legal) // the tables are read once, before timing
	b.ReportAllocs()
	var took []time.Duration
	i := 0
	cpu0 := cpuTime()
	for b.Loop() {
		d := ds[i%len(ds)]
		start := time.Now()
		Choose(l, d.view, d.legal)
		took = append(took, time.Since(start))
		i++
	}
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(len(took)), "cpu-ns/op")
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)*99/100]), "p99-ns")
}

// cpuTime is the process's CPU time (user and system) so far: on a busy
// machine it varies less than the wall clock that ns/op counts.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkChoose(b *testing.B) {
	for _, v := range []game.Variant{game.Dice, game.Cards, game.Jokers} {
		for _, l := range append(slices.Clone(Levels), Baselines...) {
			for _, n := range []int{2, 5} {
				b.Run(fmt.Sprintf("%s/%s/%dp", v, l, n), func(b *testing.B) { benchmarkChoose(b, v, l, n) })
			}
		}
	}
}

// BenchmarkOwn times the hard player over the decisions of its own games
// (800 decisions: the hard player makes them first, which takes a while).
func BenchmarkOwn(b *testing.B) {
	for _, v := range []game.Variant{game.Cards, game.Jokers} {
		for _, n := range []int{2, 5} {
			b.Run(fmt.Sprintf("%s/hard/%dp", v, n), func(b *testing.B) { benchmarkDecisions(b, v, Hard, Hard, n, 800) })
		}
	}
}
