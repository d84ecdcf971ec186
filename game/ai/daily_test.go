package ai

import (
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/game"
)

func TestDailySeed(t *testing.T) {
	secret := []byte("0123456789abcdef0123456789abcdef")
	day := time.Date(2026, 11, 25, 0, 0, 1, 0, time.UTC)
	late := time.Date(2026, 11, 25, 23, 59, 59, 0, time.UTC)
	// Same UTC day in another zone (Nov 26 01:00 in UTC+2 is Nov 25 23:00 UTC).
	zoned := time.Date(2026, 11, 26, 1, 0, 0, 0, time.FixedZone("EET", 2*3600))
	if DailySeed(secret, day) != DailySeed(secret, late) || DailySeed(secret, day) != DailySeed(secret, zoned) {
		t.Error("the same UTC day gives different seeds")
	}
	if DailySeed(secret, day) == DailySeed(secret, day.AddDate(0, 0, 1)) {
		t.Error("two days give the same seed")
	}
	if DailySeed(secret, day) == DailySeed([]byte("another secret"), day) {
		t.Error("the seed does not depend on the secret")
	}
	var zero [32]byte
	if DailySeed(nil, day) == zero {
		t.Error("zero seed")
	}
}

func TestDailyNumber(t *testing.T) {
	for _, c := range []struct {
		t    time.Time
		want int
	}{
		{DailyEpoch, 1},
		{DailyEpoch.Add(23*time.Hour + 59*time.Minute), 1},
		{DailyEpoch.AddDate(0, 0, 1), 2},
		{time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC), 329},
		{time.Date(2026, 3, 29, 12, 0, 0, 0, time.UTC), 88}, // across DST elsewhere
		{time.Date(2026, 11, 26, 1, 0, 0, 0, time.FixedZone("EET", 2*3600)), 329},
	} {
		if got := DailyNumber(c.t); got != c.want {
			t.Errorf("DailyNumber(%v) = %d, want %d", c.t, got, c.want)
		}
	}
}

// The dice of a daily game depend on the seed only, not the player's name.
func TestDailyGameSameDice(t *testing.T) {
	seed := DailySeed([]byte("s"), DailyEpoch)
	a, err := DailyGame(seed, "Anna")
	if err != nil {
		t.Fatal(err)
	}
	b, err := DailyGame(seed, "Bert")
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		if a.Dice() != b.Dice() {
			t.Fatalf("dice %v and %v", a.Dice(), b.Dice())
		}
		for _, g := range []*game.Game{a, b} {
			if err := g.Apply(game.PassMove(0)); err != nil {
				t.Fatal(err)
			}
		}
		if a.Over() {
			break
		}
	}
}

// Par is the hard player's score on the day's dice, deterministic, and
// equals replaying hard on the same seed step by step.
func TestDailyPar(t *testing.T) {
	seed := DailySeed([]byte("secret"), time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC))
	par, g, err := Par(seed)
	if err != nil {
		t.Fatal(err)
	}
	again, _, err := Par(seed)
	if err != nil || again != par {
		t.Fatalf("par %d then %d (%v)", par, again, err)
	}
	h, err := DailyGame(seed, "Anna")
	if err != nil {
		t.Fatal(err)
	}
	for !h.Over() {
		if err := h.Apply(Choose(Hard, h.Private(0), h.LegalMoves(0))); err != nil {
			t.Fatal(err)
		}
	}
	if h.Sheet(0).Score() != par || g.Sheet(0).Score() != par {
		t.Errorf("par %d, hard on the same dice %d", par, h.Sheet(0).Score())
	}
	if par < 40 {
		t.Errorf("par %d is implausibly low for the hard player", par)
	}
	rv, err := Review(g.Record(), 0)
	if err != nil || rv.Lost > 1e-9 {
		t.Errorf("par game review: lost %.6f, %v", rv.Lost, err)
	}
	other, _, _ := Par(DailySeed([]byte("secret"), time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)))
	_ = other // another day may score the same; its dice differ (TestDailySeed)
}
