package arena

import (
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/game/ai"
)

// The percentiles are by nearest rank over the sorted times.
func TestSummarize(t *testing.T) {
	ms := make([]time.Duration, 100)
	for i := range ms {
		ms[len(ms)-1-i] = time.Duration(i+1) * time.Millisecond
	}
	if got := summarize(ms); *got != (Times{Decisions: 100, Mean: 50.5, P50: 50, P99: 99, Max: 100}) {
		t.Errorf("1–100 ms: %+v", got)
	}
	if got := summarize(nil); *got != (Times{}) {
		t.Errorf("no times: %+v", got)
	}
}

// P3: a shared first place is a share of a win, so the shares of a
// seating add up to one game per game; swapping plays each seed in every
// seat.
func TestRunSharesAddUp(t *testing.T) {
	res, err := Run(game.Dice, []ai.Level{ai.Medium, ai.Easy}, 20, 7, true, false)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, r := range res {
		if r.Games != 40 {
			t.Errorf("%s played %d games, want 40 (20 seeds × 2 seatings)", r.Player, r.Games)
		}
		sum += r.WinShare
	}
	if sum < 0.999 || sum > 1.001 {
		t.Errorf("win shares add up to %v", sum)
	}
	again, err := Run(game.Dice, []ai.Level{ai.Medium, ai.Easy}, 20, 7, true, false)
	if err != nil || again[0] != res[0] {
		t.Errorf("the same seeds gave %+v, then %+v (%v)", res[0], again[0], err)
	}
}
