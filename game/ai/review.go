package ai

import (
	"errors"
	"fmt"
	"slices"

	"github.com/qwixxbot/qwixxbot/game"
)

// ErrReviewDiceOnly is returned by Review for a card game. The review
// covers dice games only: there the hint's evaluator is exact (solo) or a
// cheap, stable estimate (tables), while the card game's hard player
// weighs moves by random play-outs whose figures change from run to run
// by more than many of the differences a review would report; a review
// that grades a choice differently each time it is asked would mislead.
var ErrReviewDiceOnly = errors.New("the game review covers dice games only")

// ReviewTolerance is the expected loss, in points, below which a decision
// counts as accurate (see GameReview.Accuracy) and is not listed as a mistake.
const ReviewTolerance = 0.1

// Decision is one choice of the reviewed seat in which the hint's choice
// expected more points than the seat's.
type Decision struct {
	// Turn is the game's turn (1-based); Action is 1 (white sum, D4, every
	// player) or 2 (white + colour die, D5, the active player only).
	Turn   int
	Action int
	// Dice are the turn's dice: white 1, white 2, red, yellow, green,
	// blue (0 for a die that left the game).
	Dice [6]int
	// Chosen is the seat's move, Best the hint's choice (what the hard
	// player would have done); both may be passes.
	Chosen game.Move
	Best   game.Move
	// Lost is how many points Best expected more than Chosen, counting the
	// points still to come (never negative).
	Lost float64
}

// GameReview is what a seat's choices in one dice game cost.
type GameReview struct {
	// Seat is the reviewed seat.
	Seat int
	// Estimate is set at a table of 2–5 players: the figures come from the
	// multi-player evaluator, which estimates the rivals' play; in a solo
	// game they are exact expectations from the solo table.
	Estimate bool
	// Decisions counts the seat's decisions that had a choice (two legal
	// moves or more); forced moves are neither graded nor counted.
	Decisions int
	// Mistakes are the decisions that lost more than ReviewTolerance, in
	// game order.
	Mistakes []Decision
	// Lost is the total expected points lost over all decisions.
	Lost float64
	// Accuracy is the share of Decisions, in percent, that lost at most
	// ReviewTolerance points (like chess.com's share of best moves); 100
	// for a game without decisions.
	Accuracy float64
	// Costliest are the (at most) three Mistakes that lost most, costliest
	// first.
	Costliest []Decision
}

// Review replays rec and grades every decision of seat (a white-sum choice
// in each action 1, the active player's colour choice in action 2, passes
// included) with the evaluator of Hint: each decision is weighed on the
// seat's own private view at that moment (game.Game.Private), so it sees
// only what the seat could see then (RULES C10): the dice and sheets, not
// the other players' undisclosed choices in the same action 1. A seat that
// changed its mind in an action (P4) is graded on its last choice.
// A card game gives ErrReviewDiceOnly.
func Review(rec *game.Record, seat int) (GameReview, error) {
	if rec == nil {
		return GameReview{}, errors.New("review: no record")
	}
	v, err := game.ParseVariant(rec.Variant)
	if err != nil {
		return GameReview{}, fmt.Errorf("review: %w", err)
	}
	if v != game.Dice {
		return GameReview{}, ErrReviewDiceOnly
	}
	if seat < 0 || seat >= len(rec.Players) {
		return GameReview{}, fmt.Errorf("review: seat %d of %d players", seat, len(rec.Players))
	}
	r, err := game.NewReplayer(rec)
	if err != nil {
		return GameReview{}, fmt.Errorf("review: %w", err)
	}
	rv := GameReview{Seat: seat, Estimate: len(rec.Players) != game.SoloPlayers}
	type graded struct {
		d      Decision
		choice bool
	}
	var all []graded
	for i := 0; !r.Done(); i++ {
		g := r.Game()
		rm := rec.Moves[i]
		if rm.Player == rec.Players[seat] {
			m, err := g.RecordedMove(rm)
			if err != nil {
				return GameReview{}, fmt.Errorf("review: step %d: %w", i+1, err)
			}
			legal := g.LegalMoves(seat)
			if g.Phase().Simultaneous() && g.Decided(seat) {
				legal = g.Choices(seat)
			}
			if len(legal) > 0 && slices.Contains(legal, m) {
				d := Decision{Turn: g.Turn(), Action: 1, Dice: g.Dice(), Chosen: m, Best: m}
				if g.Phase() == game.PhaseColor {
					d.Action = 2
				}
				if len(legal) > 1 {
					d.Best, d.Lost = judge(g.Private(seat), legal, m)
				}
				n := len(all)
				if n > 0 && all[n-1].d.Turn == d.Turn && all[n-1].d.Action == d.Action {
					all[n-1] = graded{d, len(legal) > 1} // P4: the last choice counts
				} else {
					all = append(all, graded{d, len(legal) > 1})
				}
			}
		}
		if err := r.Step(); err != nil {
			return GameReview{}, fmt.Errorf("review: %w", err)
		}
	}
	good := 0
	for _, x := range all {
		if !x.choice {
			continue
		}
		rv.Decisions++
		rv.Lost += x.d.Lost
		if x.d.Lost > ReviewTolerance {
			rv.Mistakes = append(rv.Mistakes, x.d)
		} else {
			good++
		}
	}
	rv.Accuracy = 100
	if rv.Decisions > 0 {
		rv.Accuracy = 100 * float64(good) / float64(rv.Decisions)
	}
	rv.Costliest = slices.Clone(rv.Mistakes)
	slices.SortStableFunc(rv.Costliest, func(a, b Decision) int {
		switch {
		case a.Lost > b.Lost:
			return -1
		case a.Lost < b.Lost:
			return 1
		}
		return 0
	})
	if len(rv.Costliest) > 3 {
		rv.Costliest = rv.Costliest[:3]
	}
	return rv, nil
}

// judge is the hint's choice among legal (the hard player's, by the same
// values Hint uses) and how many expected points chosen lost against it.
func judge(v game.PrivateView, legal []game.Move, chosen game.Move) (game.Move, float64) {
	vals, points, _ := diceDetail(v, legal)
	best, c := 0, 0
	for i := range legal {
		if vals[i] > vals[best] {
			best = i
		}
		if legal[i] == chosen {
			c = i
		}
	}
	return legal[best], max(0, points[best]-points[c])
}
