package ai

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/qwixxbot/qwixxbot/game"
)

// ReviewTolerance is the expected loss, in points, below which a dice
// decision counts as accurate (see GameReview.Accuracy) and is not listed
// as a mistake.
const ReviewTolerance = 0.1

// Class names a graded decision by the points it lost (Decision.Lost),
// the same thresholds in both games and every language:
//
//   - ClassBest: lost at most BestBelow (0.05) points, or, in a card game,
//     no more than twice its standard error (not told apart from the
//     noise of the estimate);
//   - ClassGood: lost at most GoodBelow (1) point;
//   - ClassInaccuracy: lost less than InaccuracyBelow (3) points;
//   - ClassMistake: lost less than MistakeBelow (6) points;
//   - ClassBlunder: lost 6 points or more.
//
// So a card game's decision is an inaccuracy or worse only when its loss
// is above 1 point and above twice its standard error.
type Class uint8

// The classes, from the best to the worst (see Class).
const (
	ClassBest Class = iota
	ClassGood
	ClassInaccuracy
	ClassMistake
	ClassBlunder
	NumClasses = 5
)

// The thresholds of the classes, in points lost (see Class).
const (
	BestBelow       = 0.05
	GoodBelow       = 1.0
	InaccuracyBelow = 3.0
	MistakeBelow    = 6.0
	// Significance is how many standard errors a card game's loss must
	// exceed to be told apart from the noise.
	Significance = 2.0
)

// String is the class's name in English, as the code knows it.
func (c Class) String() string {
	switch c {
	case ClassBest:
		return "best"
	case ClassGood:
		return "good"
	case ClassInaccuracy:
		return "inaccuracy"
	case ClassMistake:
		return "mistake"
	case ClassBlunder:
		return "blunder"
	}
	return fmt.Sprintf("class(%d)", uint8(c))
}

// Classify classes a loss of lost points with standard error se (0 for an
// exact or noise-free figure) by the rule of Class.
func Classify(lost, se float64) Class {
	switch {
	case lost <= BestBelow || lost <= Significance*se:
		return ClassBest
	case lost <= GoodBelow:
		return ClassGood
	case lost < InaccuracyBelow:
		return ClassInaccuracy
	case lost < MistakeBelow:
		return ClassMistake
	}
	return ClassBlunder
}

// Decision is one graded choice of the reviewed seat.
type Decision struct {
	// Turn is the game's turn (1-based). Action is, in the dice game, 1
	// (white sum, D4, every player) or 2 (white + colour die, D5, the
	// active player only); in a card game 1 (take, C4), 2 (the number for
	// everyone, C5) or 3 (play, C6).
	Turn   int
	Action int
	// Dice are the turn's dice: white 1, white 2, red, yellow, green,
	// blue (0 for a die that left the game); zero in a card game.
	Dice [6]int
	// Number is the number for everyone of a card game's action 2 (the
	// draw pile's top, C5); 0 otherwise.
	Number int
	// Chosen is the seat's move, Best the reviewer's choice; both may be
	// passes.
	Chosen game.Move
	Best   game.Move
	// Lost is how many points Best expected more than Chosen, counting the
	// points still to come (never negative); SE is its standard error (0
	// in the dice game, whose figures are not sampled).
	Lost float64
	SE   float64
	// Class names the decision by Lost and SE (see Class).
	Class Class
}

// GameReview is what a seat's choices in one game cost.
type GameReview struct {
	// Seat is the reviewed seat, Variant the game's.
	Seat    int
	Variant game.Variant
	// Estimate is set at a table of 2–5 players: the figures come from the
	// multi-player evaluator, which estimates the rivals' play, or in a
	// card game from play-outs; in a solo game they are exact expectations
	// from the solo table.
	Estimate bool
	// Deals is how many deals of the unseen cards graded each choice of a
	// card game (0 in the dice game).
	Deals int
	// Decisions counts the seat's decisions that had a choice (two legal
	// moves or more); forced moves are neither graded nor counted.
	Decisions int
	// Graded are those decisions, in game order.
	Graded []Decision
	// Classes counts Graded by class.
	Classes [NumClasses]int
	// Mistakes are the decisions that cost points, in game order: in the
	// dice game those that lost more than ReviewTolerance, in a card game
	// those classed inaccuracy or worse (above 1 point and above twice
	// their standard error).
	Mistakes []Decision
	// Lost is the total expected points lost over all decisions, LostSE
	// its standard error (the decisions' errors combined as independent).
	Lost   float64
	LostSE float64
	// Accuracy is the share of Decisions, in percent, that were accurate
	// (like chess.com's share of best moves): in the dice game those that
	// lost at most ReviewTolerance points, in a card game those classed
	// best; 100 for a game without decisions.
	Accuracy float64
	// Costliest are the (at most) three Mistakes that lost most, costliest
	// first.
	Costliest []Decision
}

// reviewPoint is one decision of the reviewed seat as the replay met it.
type reviewPoint struct {
	d      Decision
	view   game.PrivateView
	legal  []game.Move
	choice bool // two legal moves or more
}

// Review replays rec and grades every decision of seat, passes included:
// in the dice game each white-sum choice of action 1 and the active
// player's colour choice of action 2, with the evaluator of Hint; in a
// card game each take, number for everyone and play, by play-outs (see
// reviewCards). Each decision is weighed on the seat's own private view
// at that moment (game.Game.Private), so it sees only what the seat could
// see then (RULES C10): the dice, sheets and public cards and its own
// hand, not the other players' hidden cards nor their undisclosed choices
// in a simultaneous action, and never the cards the record reveals later.
// A seat that changed its mind in an action (P4) is graded on its last
// choice.
func Review(rec *game.Record, seat int) (GameReview, error) {
	return review(rec, seat, reviewDeals)
}

// review is Review with deals(n) deals per choice at a card table of n.
func review(rec *game.Record, seat int, deals func(n int) int) (GameReview, error) {
	if rec == nil {
		return GameReview{}, errors.New("review: no record")
	}
	v, err := game.ParseVariant(rec.Variant)
	if err != nil {
		return GameReview{}, fmt.Errorf("review: %w", err)
	}
	if seat < 0 || seat >= len(rec.Players) {
		return GameReview{}, fmt.Errorf("review: seat %d of %d players", seat, len(rec.Players))
	}
	points, err := reviewPoints(rec, seat)
	if err != nil {
		return GameReview{}, err
	}
	rv := GameReview{Seat: seat, Variant: v, Estimate: len(rec.Players) != game.SoloPlayers}
	if v.CardGame() {
		rv.Deals = deals(len(rec.Players))
		gradeCards(points, rv.Deals)
	} else {
		for i := range points {
			if p := &points[i]; p.choice {
				p.d.Best, p.d.Lost = judge(p.view, p.legal, p.d.Chosen)
			}
		}
	}
	good := 0
	var variance float64
	for _, p := range points {
		if !p.choice {
			continue
		}
		d := p.d
		d.Class = Classify(d.Lost, d.SE)
		rv.Graded = append(rv.Graded, d)
		rv.Classes[d.Class]++
		rv.Decisions++
		rv.Lost += d.Lost
		variance += d.SE * d.SE
		mistake := d.Lost > ReviewTolerance
		if v.CardGame() {
			mistake = d.Class >= ClassInaccuracy
		}
		if mistake {
			rv.Mistakes = append(rv.Mistakes, d)
		}
		if v.CardGame() && d.Class == ClassBest || !v.CardGame() && d.Lost <= ReviewTolerance {
			good++
		}
	}
	rv.LostSE = math.Sqrt(variance)
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

// reviewPoints replays rec and lists seat's decisions with the view and
// legal moves each was made from, the last choice of an action only (P4).
func reviewPoints(rec *game.Record, seat int) ([]reviewPoint, error) {
	r, err := game.NewReplayer(rec)
	if err != nil {
		return nil, fmt.Errorf("review: %w", err)
	}
	var all []reviewPoint
	for i := 0; !r.Done(); i++ {
		g := r.Game()
		rm := rec.Moves[i]
		if rm.Player == rec.Players[seat] {
			m, err := g.RecordedMove(rm)
			if err != nil {
				return nil, fmt.Errorf("review: step %d: %w", i+1, err)
			}
			legal := g.LegalMoves(seat)
			if g.Phase().Simultaneous() && g.Decided(seat) {
				legal = g.Choices(seat)
			}
			if len(legal) > 0 && slices.Contains(legal, m) {
				d := Decision{Turn: g.Turn(), Action: actionOf(g.Phase()), Chosen: m, Best: m}
				if !g.Variant().CardGame() {
					d.Dice = g.Dice()
				} else if g.Phase() == game.PhaseNumber {
					d.Number = g.TopNumber()
				}
				p := reviewPoint{d: d, legal: legal, choice: len(legal) > 1}
				if p.choice {
					p.view = g.Private(seat)
				}
				n := len(all)
				if n > 0 && all[n-1].d.Turn == d.Turn && all[n-1].d.Action == d.Action {
					all[n-1] = p // P4: the last choice counts
				} else {
					all = append(all, p)
				}
			}
		}
		if err := r.Step(); err != nil {
			return nil, fmt.Errorf("review: %w", err)
		}
	}
	return all, nil
}

// actionOf is the number of the action a phase is (see Decision.Action).
func actionOf(p game.Phase) int {
	switch p {
	case game.PhaseColor, game.PhaseNumber:
		return 2
	case game.PhasePlay:
		return 3
	}
	return 1
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
