package ai

import (
	"reflect"
	"slices"
	"testing"

	"github.com/qwixxbot/qwixxbot/game"
)

// fewDeals keeps the card review's tests quick: 24 deals per choice.
func fewDeals(int) int { return 24 }

// The class thresholds (Class): best up to 0.05 points or within twice
// the standard error, good up to 1, inaccuracy below 3, mistake below 6,
// blunder from 6.
func TestReviewClassThresholds(t *testing.T) {
	for _, c := range []struct {
		lost, se float64
		want     Class
	}{
		{0, 0, ClassBest}, {0.05, 0, ClassBest}, {0.06, 0, ClassGood}, {1, 0, ClassGood},
		{1.01, 0, ClassInaccuracy}, {2.99, 0, ClassInaccuracy}, {3, 0, ClassMistake},
		{5.99, 0, ClassMistake}, {6, 0, ClassBlunder}, {20, 0, ClassBlunder},
		// Within twice the standard error: not told apart from the noise.
		{1.5, 0.75, ClassBest}, {7, 3.6, ClassBest}, {7, 3.4, ClassBlunder}, {1.5, 0.7, ClassInaccuracy},
	} {
		if got := Classify(c.lost, c.se); got != c.want {
			t.Errorf("Classify(%v, %v) = %v, want %v", c.lost, c.se, got, c.want)
		}
	}
}

// C10: a card review is deterministic (the same record twice gives the
// same figures to the last bit), grades the decisions of every action
// (take, number, play), and its summary adds up: the class counts, the
// mistakes (inaccuracy or worse, so above 1 point and twice the standard
// error), the accuracy (share of best) and the costliest.
func TestC10CardReviewDeterministicAndConsistent(t *testing.T) {
	for _, v := range []game.Variant{game.Cards, game.Jokers} {
		rec := recordGame(t, v, []Level{Easy, Medium}, 7)
		a, err := review(rec, 0, fewDeals)
		if err != nil {
			t.Fatal(err)
		}
		b, err := review(rec, 0, fewDeals)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: two reviews of one record differ", v)
		}
		if !a.Estimate || a.Deals != 24 || a.Decisions != len(a.Graded) || a.Decisions < 10 {
			t.Fatalf("%s: %d decisions, %d graded, %d deals", v, a.Decisions, len(a.Graded), a.Deals)
		}
		var actions [4]int
		var counts [NumClasses]int
		var mistakes []Decision
		best, lost := 0, 0.0
		for _, d := range a.Graded {
			actions[d.Action]++
			counts[d.Class]++
			lost += d.Lost
			if d.Class != Classify(d.Lost, d.SE) || d.Lost < 0 || d.SE < 0 {
				t.Errorf("%s: %+v", v, d)
			}
			if (d.Chosen == d.Best) != (d.Lost == 0 && d.SE == 0) {
				t.Errorf("%s: chosen %v, best %v, lost %.3f ± %.3f", v, d.Chosen, d.Best, d.Lost, d.SE)
			}
			if d.Class >= ClassInaccuracy {
				if d.Lost <= GoodBelow || d.Lost <= Significance*d.SE {
					t.Errorf("%s: a mistake within the noise: %+v", v, d)
				}
				mistakes = append(mistakes, d)
			}
			if d.Class == ClassBest {
				best++
			}
			if d.Action == 2 && (d.Number < 2 || d.Number > 12) {
				t.Errorf("%s: action 2 without its number: %+v", v, d)
			}
		}
		if actions[1] == 0 || actions[2] == 0 || actions[3] == 0 {
			t.Errorf("%s: decisions by action %v", v, actions)
		}
		if counts != a.Classes || !slices.Equal(mistakes, a.Mistakes) || a.Lost < lost-1e-9 || a.Lost > lost+1e-9 {
			t.Errorf("%s: classes %v (counted %v), %d mistakes (counted %d), lost %.3f (summed %.3f)", v, a.Classes, counts, len(a.Mistakes), len(mistakes), a.Lost, lost)
		}
		if want := 100 * float64(best) / float64(a.Decisions); a.Accuracy != want {
			t.Errorf("%s: accuracy %.2f, want %.2f", v, a.Accuracy, want)
		}
		if len(a.Mistakes) == 0 {
			t.Errorf("%s: easy made no mistake", v)
		}
		for i := 1; i < len(a.Costliest); i++ {
			if a.Costliest[i].Lost > a.Costliest[i-1].Lost {
				t.Errorf("%s: costliest out of order", v)
			}
		}
	}
}

// C10: two records that differ only in cards the seat could not see (two
// cards of one number swapped between places hidden from it, the seat's
// views identical at every one of its decisions) get the same review.
// The swap is real: it changes the other player's hand.
func TestC10CardReviewFairness(t *testing.T) {
	tried := 0
	for _, v := range []game.Variant{game.Cards, game.Jokers} {
		rec := recordGame(t, v, []Level{Medium, Medium}, 11)
		// The record up to the seat's tenth move.
		seen, cut := 0, 0
		for i, m := range rec.Moves {
			if m.Player == rec.Players[0] {
				if seen++; seen == 10 {
					cut = i + 1
					break
				}
			}
		}
		prefix := *rec
		prefix.Moves = slices.Clone(rec.Moves[:cut])
		prefix.Reshuffles = nil
		want := views(t, &prefix, 0)
		if want == nil {
			t.Fatal("the prefix does not replay")
		}
		found := false
		for i := 8; i < len(rec.Deck) && !found; i++ {
			for j := i + 1; j < len(rec.Deck) && !found; j++ {
				if rec.Deck[i][1:] != rec.Deck[j][1:] || rec.Deck[i] == rec.Deck[j] {
					continue
				}
				twin := prefix
				twin.Deck = slices.Clone(rec.Deck)
				twin.Deck[i], twin.Deck[j] = twin.Deck[j], twin.Deck[i]
				got := views(t, &twin, 0)
				// Only a swap the seat never saw, that changes the other
				// player's hand.
				if got == nil || !reflect.DeepEqual(got, want) || reflect.DeepEqual(hands(t, &twin), hands(t, &prefix)) {
					continue
				}
				tried++
				found = true
				a, err := review(&prefix, 0, fewDeals)
				if err != nil {
					t.Fatal(err)
				}
				b, err := review(&twin, 0, fewDeals)
				if err != nil {
					t.Fatal(err)
				}
				if len(a.Graded) < 5 || !reflect.DeepEqual(a, b) {
					t.Errorf("%s: swapping %s and %s, which seat 0 never saw, changed its review:\n%+v\n%+v", v, rec.Deck[i], rec.Deck[j], a.Graded, b.Graded)
				}
			}
		}
		if !found {
			t.Errorf("%s: no pair of hidden cards to swap", v)
		}
	}
	if tried != 2 {
		t.Fatalf("%d twins tried", tried)
	}
}

// views replays rec and returns seat's private view before each of its
// moves (nil when rec does not replay).
func views(t *testing.T, rec *game.Record, seat int) []game.PrivateView {
	t.Helper()
	r, err := game.NewReplayer(rec)
	if err != nil {
		return nil
	}
	var out []game.PrivateView
	for i := 0; !r.Done(); i++ {
		if rec.Moves[i].Player == rec.Players[seat] {
			out = append(out, r.Game().Private(seat))
		}
		if r.Step() != nil {
			return nil
		}
	}
	return append(out, r.Game().Private(seat))
}

// hands are the hands of every seat at the end of rec.
func hands(t *testing.T, rec *game.Record) [][]game.Card {
	t.Helper()
	g, err := game.Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]game.Card
	for p := range g.NumPlayers() {
		out = append(out, g.Hand(p))
	}
	return out
}

// The card review of hard's own play flags few mistakes (at most 2 in a
// game; the calibration in NOTES.md finds about 0.5 per game), and fewer
// than in easy's play against hard on the same seed.
func TestCardReviewHardFlagsFewMistakes(t *testing.T) {
	if testing.Short() {
		t.Skip("hard's games take seconds")
	}
	variants := []game.Variant{game.Cards, game.Jokers}
	if raceEnabled {
		// Half a minute of hard's play-outs under the race detector, which
		// checks nothing here that the cards run does not: the joker game
		// is checked without it.
		variants = variants[:1]
	}
	for _, v := range variants {
		hard, easy := 0, 0
		for seed := range 1 {
			h, err := Review(recordGame(t, v, []Level{Hard, Hard}, 900+seed), 0)
			if err != nil {
				t.Fatal(err)
			}
			e, err := Review(recordGame(t, v, []Level{Easy, Hard}, 900+seed), 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(h.Mistakes) > 2 {
				t.Errorf("%s seed %d: hard's own game has %d mistakes: %+v", v, seed, len(h.Mistakes), h.Mistakes)
			}
			hard += len(h.Mistakes)
			easy += len(e.Mistakes)
		}
		if easy <= hard {
			t.Errorf("%s: easy made %d mistakes, hard %d", v, easy, hard)
		}
	}
}
