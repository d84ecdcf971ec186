package ai

import (
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/qwixxbot/qwixxbot/game"
)

// recordGame plays a game of levels (one per seat) from seed and returns
// its record.
func recordGame(tb testing.TB, v game.Variant, levels []Level, seed int) *game.Record {
	tb.Helper()
	names := make([]string, len(levels))
	for i := range names {
		names[i] = fmt.Sprintf("p%d", i)
	}
	var s [32]byte
	s[0], s[1], s[2] = byte(len(levels)), byte(seed), byte(seed>>8)
	s[3] = 0x5e
	g, err := game.New(game.Config{Variant: v, Players: names, Seed: s})
	if err != nil {
		tb.Fatal(err)
	}
	for steps := 0; !g.Over(); steps++ {
		if steps > 5000 {
			tb.Fatal("the game did not end")
		}
		p := g.Waiting()[0]
		if err := g.Apply(Choose(levels[p], g.Private(p), g.LegalMoves(p))); err != nil {
			tb.Fatal(err)
		}
	}
	return g.Record()
}

// The hard player's own game loses nothing: the review grades with the
// very values hard chooses by (Hint's), so the tolerance is only float
// rounding (1e-9), solo (exact table) and at a table of 2 (estimate).
func TestReviewHardGameLosesNothing(t *testing.T) {
	for _, n := range []int{1, 2} {
		for seed := range 5 {
			levels := []Level{Hard, Hard}[:n]
			rec := recordGame(t, game.Dice, levels, seed)
			for seat := range n {
				rv, err := Review(rec, seat)
				if err != nil {
					t.Fatal(err)
				}
				if rv.Lost > 1e-9 || rv.Accuracy != 100 || len(rv.Mistakes) != 0 {
					t.Errorf("%dp seed %d seat %d: hard lost %.6f, accuracy %.1f, %d mistakes", n, seed, seat, rv.Lost, rv.Accuracy, len(rv.Mistakes))
				}
				if rv.Decisions < 10 {
					t.Errorf("%dp seed %d seat %d: only %d decisions graded", n, seed, seat, rv.Decisions)
				}
				if rv.Estimate != (n > 1) {
					t.Errorf("%dp: Estimate %v", n, rv.Estimate)
				}
			}
		}
	}
}

// meanLoss is level l's mean expected loss per game over games games,
// solo or in seat 0 against hard at a table of n.
func meanLoss(tb testing.TB, l Level, n, games int) (lost, accuracy, score float64) {
	for seed := range games {
		levels := []Level{l, Hard}[:n]
		rec := recordGame(tb, game.Dice, levels, seed)
		rv, err := Review(rec, 0)
		if err != nil {
			tb.Fatal(err)
		}
		g, err := game.Replay(rec)
		if err != nil {
			tb.Fatal(err)
		}
		lost += rv.Lost
		accuracy += rv.Accuracy
		score += float64(g.Sheet(0).Score())
	}
	k := float64(games)
	return lost / k, accuracy / k, score / k
}

// Over 200 games per level (seat 0, against hard at a table of 2): at a
// table easy loses more expected points per game than medium, and medium
// more than hard. Solo the review must agree with the scores instead: in
// the solo game the expected losses of a game add up, in expectation, to
// the optimum (the table's value of the empty sheet) less the score, so
// mean loss + mean score must come within sampling error (3 points) of
// the optimum for every level. Medium scores below easy solo (its
// tuning is for tables: about 57 against 66 points), and the review
// rightly shows medium losing more there. With -v it prints the figures.
func TestReviewEasyLosesMoreThanMedium(t *testing.T) {
	if testing.Short() {
		t.Skip("200 games per level")
	}
	const games = 200
	empty := [4]uint8{rowEmpty, rowEmpty, rowEmpty, rowEmpty}
	optimum := soloTable().at(empty, 0)
	for _, n := range []int{1, 2} {
		var loss [3]float64
		for i, l := range []Level{Easy, Medium, Hard} {
			var acc, score float64
			loss[i], acc, score = meanLoss(t, l, n, games)
			t.Logf("%dp %-6s mean loss %.2f points/game, accuracy %.1f%%, mean score %.1f (%d games)", n, l, loss[i], acc, score, games)
			if n == 1 && math.Abs(loss[i]+score-optimum) > 3 {
				t.Errorf("solo %s: loss %.2f + score %.2f, want the optimum %.2f", l, loss[i], score, optimum)
			}
		}
		if loss[2] >= loss[0] || loss[2] >= loss[1] {
			t.Errorf("%dp: hard loses %.2f, easy %.2f, medium %.2f", n, loss[2], loss[0], loss[1])
		}
		if n > 1 && loss[0] <= loss[1] {
			t.Errorf("%dp: mean losses easy %.2f, medium %.2f: want easy's larger", n, loss[0], loss[1])
		}
	}
}

// A hand-built solo record (testdata/review-solo-red8.json): turn 1 with
// dice 2 6 | 6 3 5 4, the player passes action 1 and crosses red 8 (white
// 2 + red 6) in action 2, giving up red 2–7. The expected figure is
// computed here straight from the solo table: each action-2 choice is
// worth its points plus the table's points still to come after it (a pass
// after a pass is a misthrow, D6).
func TestD5ReviewHandBuiltCostlyColour(t *testing.T) {
	data, err := os.ReadFile("testdata/review-solo-red8.json")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := game.ParseRecord(data)
	if err != nil {
		t.Fatal(err)
	}
	rv, err := Review(rec, 0)
	if err != nil {
		t.Fatal(err)
	}
	tb := soloTable()
	empty := [4]uint8{rowEmpty, rowEmpty, rowEmpty, rowEmpty}
	worth := func(c game.Color, sum int) float64 {
		rows := empty
		rows[c] = rowIndex[game.Position(c, sum)][1]
		return 1 + tb.at(rows, 0)
	}
	whites := []int{2, 6}
	colours := map[game.Color]int{game.Red: 6, game.Yellow: 3, game.Green: 5, game.Blue: 4}
	best := -game.MisthrowPenalty + tb.at(empty, 1) // pass: a misthrow
	for c, d := range colours {
		for _, w := range whites {
			if game.Position(c, w+d) >= lockPos {
				continue // the lock needs five crosses first (S3)
			}
			best = math.Max(best, worth(c, w+d))
		}
	}
	want := best - worth(game.Red, 8)
	if want < 1 {
		t.Fatalf("the scenario is not costly: %.3f", want)
	}
	var got *Decision
	for i, d := range rv.Mistakes {
		if d.Turn == 1 && d.Action == 2 {
			got = &rv.Mistakes[i]
		}
	}
	if got == nil {
		t.Fatalf("red 8 is not listed: %+v", rv)
	}
	if math.Abs(got.Lost-want) > 1e-6 {
		t.Errorf("red 8 lost %.4f, want %.4f", got.Lost, want)
	}
	if got.Chosen != game.ColoredMove(0, 1, game.Red) || got.Dice != [6]int{2, 6, 6, 3, 5, 4} {
		t.Errorf("decision %+v", got)
	}
	if got.Best == got.Chosen {
		t.Errorf("best equals the chosen move")
	}
	if rv.Costliest[0].Lost < got.Lost {
		t.Errorf("costliest %.3f below red 8's %.3f", rv.Costliest[0].Lost, got.Lost)
	}
	if rv.Lost < got.Lost-1e-9 || rv.Accuracy >= 100 {
		t.Errorf("summary lost %.3f accuracy %.1f", rv.Lost, rv.Accuracy)
	}
}

// Summary figures: Lost sums the graded decisions, Costliest is the three
// largest mistakes in falling order, Accuracy the share within the
// tolerance.
func TestReviewSummary(t *testing.T) {
	rec := recordGame(t, game.Dice, []Level{Easy}, 7)
	rv, err := Review(rec, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(rv.Mistakes) < 4 {
		t.Fatalf("easy made only %d mistakes", len(rv.Mistakes))
	}
	sum := 0.0
	for _, d := range rv.Mistakes {
		sum += d.Lost
		if d.Lost <= ReviewTolerance || d.Chosen == d.Best {
			t.Errorf("mistake %+v", d)
		}
	}
	if sum > rv.Lost+1e-9 || rv.Lost > sum+ReviewTolerance*float64(rv.Decisions) {
		t.Errorf("lost %.3f, mistakes sum %.3f", rv.Lost, sum)
	}
	if len(rv.Costliest) != 3 || rv.Costliest[0].Lost < rv.Costliest[1].Lost || rv.Costliest[1].Lost < rv.Costliest[2].Lost {
		t.Errorf("costliest %+v", rv.Costliest)
	}
	for _, d := range rv.Mistakes {
		if d.Lost > rv.Costliest[2].Lost+1e-12 && d != rv.Costliest[0] && d != rv.Costliest[1] && d != rv.Costliest[2] {
			t.Errorf("mistake %+v costs more than the third costliest", d)
		}
	}
	want := 100 * float64(rv.Decisions-len(rv.Mistakes)) / float64(rv.Decisions)
	if rv.Accuracy != want || rv.Accuracy <= 0 || rv.Accuracy >= 100 {
		t.Errorf("accuracy %.2f, want %.2f", rv.Accuracy, want)
	}
}

// Bad seats and records with an illegal step are errors.
func TestReviewRefusals(t *testing.T) {
	dice := recordGame(t, game.Dice, []Level{Medium, Medium}, 1)
	for _, seat := range []int{-1, 2} {
		if _, err := Review(dice, seat); err == nil {
			t.Errorf("seat %d accepted", seat)
		}
	}
	bad := *dice
	bad.Moves = append([]game.RecordMove{{Player: "p0", Action: "color", Row: "red", White: 1}}, dice.Moves...)
	var se *game.StepError
	if _, err := Review(&bad, 0); !errors.As(err, &se) {
		t.Errorf("illegal record: %v", err)
	}
}

// BenchmarkReview reviews a whole game: solo and one seat at a table of 2,
// beside replaying the same record alone as the baseline.
func BenchmarkReview(b *testing.B) {
	for _, n := range []int{1, 2} {
		rec := recordGame(b, game.Dice, []Level{Medium, Medium}[:n], 3)
		b.Run(fmt.Sprintf("%dp-replay-baseline", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := game.Replay(rec); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("%dp", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := Review(rec, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// C10, D4: the review sees only the seat's view, so whether the other
// player's hidden action-1 choice was recorded before or after the
// seat's own cannot change a figure.
func TestC10ReviewIgnoresOthersHiddenChoices(t *testing.T) {
	for seed := range 5 {
		rec := recordGame(t, game.Dice, []Level{Easy, Medium}, seed)
		r, err := game.NewReplayer(rec)
		if err != nil {
			t.Fatal(err)
		}
		// Mark each move made in action 1, then put p1's first in each turn.
		white := make([]bool, len(rec.Moves))
		for i := 0; !r.Done(); i++ {
			white[i] = r.Game().Phase() == game.PhaseWhite
			if err := r.Step(); err != nil {
				t.Fatal(err)
			}
		}
		moved := *rec
		moved.Moves = slices.Clone(rec.Moves)
		swaps := 0
		for i := 0; i+1 < len(moved.Moves); i++ {
			if white[i] && white[i+1] && moved.Moves[i].Player == "p0" && moved.Moves[i+1].Player == "p1" {
				moved.Moves[i], moved.Moves[i+1] = moved.Moves[i+1], moved.Moves[i]
				swaps++
				i++
			}
		}
		if swaps == 0 {
			t.Fatal("no action 1 to reorder")
		}
		a, err := Review(rec, 0)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Review(&moved, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("seed %d: the review changed with the order of hidden choices:\n%+v\n%+v", seed, a, b)
		}
	}
}

// BenchmarkCardReview reviews whole card and joker games of 2 and 4
// players (medium in every seat, which makes more decisions than hard),
// one op a game, cycling over three games; cpu-ns/op is the process's
// CPU time per game review.
//
//	GOMAXPROCS=1 go test ./game/ai -run '^$' -bench CardReview -benchmem
func BenchmarkCardReview(b *testing.B) {
	for _, v := range []game.Variant{game.Cards, game.Jokers} {
		for _, n := range []int{2, 4} {
			var recs []*game.Record
			for seed := range 3 {
				recs = append(recs, recordGame(b, v, slices.Repeat([]Level{Medium}, n), 100+seed))
			}
			b.Run(fmt.Sprintf("%s/%dp", v, n), func(b *testing.B) {
				b.ReportAllocs()
				i := 0
				cpu0 := cpuTime()
				for b.Loop() {
					if _, err := Review(recs[i%len(recs)], i%n); err != nil {
						b.Fatal(err)
					}
					i++
				}
				b.ReportMetric(float64(cpuTime()-cpu0)/float64(i), "cpu-ns/op")
			})
		}
	}
}
