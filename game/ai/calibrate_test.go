package ai

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/qwixxbot/qwixxbot/game"
)

// TestCardReviewCalibration is the card review's calibration (NOTES.md):
// two-player games of easy, medium and hard each against hard, the first
// seat reviewed, in both card variants; it prints a table of the mean
// loss per game, the accuracy and the mistakes per game, each with its
// standard error over the games, every 25 games and at the end. It runs
// only when QWIXX_CALIBRATE gives the number of games per row:
//
//	QWIXX_CALIBRATE=300 GOMAXPROCS=1 nice -n 19 go test ./game/ai -run CardReviewCalibration -v -timeout 0
//
// It checks that the review ranks the levels in both variants: easy's
// loss per game above medium's above hard's, and the accuracy the other
// way round, each by more than the review's Significance (two standard
// errors of the difference).
func TestCardReviewCalibration(t *testing.T) {
	games, _ := strconv.Atoi(os.Getenv("QWIXX_CALIBRATE"))
	if games <= 0 {
		t.Skip("QWIXX_CALIBRATE=<games> runs the calibration")
	}
	type row struct {
		v                                        game.Variant
		level                                    Level
		lost, acc, mistakes, blunders, decisions stat
	}
	var rows []*row
	for _, v := range []game.Variant{game.Cards, game.Jokers} {
		for _, l := range []Level{Easy, Medium, Hard} {
			rows = append(rows, &row{v: v, level: l})
		}
	}
	print := func(n int) {
		var b strings.Builder
		fmt.Fprintf(&b, "after %d games per row:\n", n)
		fmt.Fprintln(&b, "| variant | reviewed (vs hard) | games | points lost per game | accuracy | mistakes per game (inaccuracy or worse) | blunders per game | decisions per game |")
		fmt.Fprintln(&b, "|---|---|---|---|---|---|---|---|")
		for _, r := range rows {
			fmt.Fprintf(&b, "| %s | %s | %d | %s | %s %% | %s | %s | %.1f |\n", r.v, r.level, r.lost.n, r.lost, r.acc, r.mistakes, r.blunders, r.decisions.mean())
		}
		t.Log(b.String())
	}
	for i := range games {
		for _, r := range rows {
			rec := recordGame(t, r.v, []Level{r.level, Hard}, 20000+i)
			rv, err := Review(rec, 0)
			if err != nil {
				t.Fatal(err)
			}
			r.lost.add(rv.Lost)
			r.acc.add(rv.Accuracy)
			r.mistakes.add(float64(len(rv.Mistakes)))
			r.blunders.add(float64(rv.Classes[ClassBlunder]))
			r.decisions.add(float64(rv.Decisions))
		}
		if (i+1)%25 == 0 && i+1 < games {
			print(i + 1)
		}
	}
	print(games)
	for k := 0; k < len(rows); k += 3 {
		for _, pair := range [][2]*row{{rows[k], rows[k+1]}, {rows[k+1], rows[k+2]}} {
			worse, better := pair[0], pair[1]
			dl, sl := worse.lost.mean()-better.lost.mean(), math.Hypot(worse.lost.se(), better.lost.se())
			da, sa := better.acc.mean()-worse.acc.mean(), math.Hypot(worse.acc.se(), better.acc.se())
			t.Logf("%s: %s − %s: loss %+.2f ± %.2f, accuracy %+.2f ± %.2f", worse.v, worse.level, better.level, dl, sl, -da, sa)
			if dl <= Significance*sl || da <= Significance*sa {
				t.Errorf("%s: the review does not tell %s from %s by %g standard errors", worse.v, worse.level, better.level, Significance)
			}
		}
	}
}

// stat gathers a mean and its standard error.
type stat struct {
	n       int
	sum, sq float64
}

func (s *stat) add(x float64) { s.n++; s.sum += x; s.sq += x * x }

func (s *stat) mean() float64 {
	if s.n == 0 {
		return 0
	}
	return s.sum / float64(s.n)
}

// se is the standard error of the mean.
func (s *stat) se() float64 {
	if s.n < 2 {
		return 0
	}
	m := s.mean()
	return math.Sqrt(max(0, s.sq/float64(s.n)-m*m) * float64(s.n) / float64(s.n-1) / float64(s.n))
}

func (s stat) String() string { return fmt.Sprintf("%.2f ± %.2f", s.mean(), s.se()) }
