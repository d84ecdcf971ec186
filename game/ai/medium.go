package ai

import (
	"math"

	"github.com/qwixxbot/qwixxbot/game"
)

// The constants of osclee/qwixx's "hard" bot, which Medium follows.
const (
	// remainingTurns is the rough number of turns left that a skipped
	// cell's chance to come up again is counted over.
	remainingTurns = 10
	// lockBonus is added to a lock's points: it takes the die away from
	// everybody and brings the end nearer.
	lockBonus = 5
)

// whiteHit is P(two dice show n): the white sum, and one white die with
// one coloured die.
func whiteHit(n int) float64 { return float64(ways(n)) / 36 }

// colourHit[n] is P(w1+c = n or w2+c = n) for one colour die c: the odds
// of a usable action 2 for n in one of one's own turns.
var colourHit = func() [13]float64 {
	var counts [13]int
	for w1 := 1; w1 <= 6; w1++ {
		for w2 := 1; w2 <= 6; w2++ {
			for c := 1; c <= 6; c++ {
				counts[w1+c]++
				if w2 != w1 {
					counts[w2+c]++
				}
			}
		}
	}
	var p [13]float64
	for n, k := range counts {
		p[n] = float64(k) / 216
	}
	return p
}()

// The card game's odds, by the same reasoning (an adaptation: osclee's
// bot plays only dice): the number for everyone is one of 11 numbers; a
// given card of one's own colour choice is in a hand of 5 from 44 cards.
const (
	numberHit = 1.0 / 11
	cardHit   = float64(game.HandSize) / 44
)

// mediumPolicy is Medium's valuation: oscleePolicy, and in the card
// games, which that bot does not play, a play that brings a misthrow (the
// active player crossed nothing in action 2 and the play crosses nothing,
// C7) is worth the misthrow's points, −5. So Medium, like Easy, crosses
// rather than take a misthrow unless every cross costs more than 5 points
// by its reckoning; reckoned as a pass, worth nothing, it took misthrows
// that cost more than any cross at hand (a fourth one ending the game).
func mediumPolicy(v game.PrivateView) func(game.Move) float64 {
	value := oscleePolicy(v)
	if !v.Variant.CardGame() {
		return value
	}
	return func(m game.Move) float64 {
		if misthrow(v, m) {
			return -game.MisthrowPenalty
		}
		return value(m)
	}
}

// oscleePolicy values moves the way osclee/qwixx's hard bot does: a cross
// is worth its points (plus lockBonus for a lock) less, for every cell it
// gives up, the points a cross there would score (one more than the
// crosses in the row) times the chance the cell's number comes up within
// the remaining turns. Passing is worth nothing, so a cross that costs
// more than it gains is declined, as that bot does, even when the pass
// brings a misthrow. Takes are valued by how well the numbers fit the
// open rows. It is Medium in the dice game; in the card games the old
// search (hardCardsV1) and the golden decisions of the card search play
// with it as it is.
func oscleePolicy(v game.PrivateView) func(game.Move) float64 {
	seats := len(v.Players)
	own := max(1, int(math.Round(float64(remainingTurns)/float64(seats))))
	return func(m game.Move) float64 {
		var hit func(int) float64
		chances := remainingTurns
		switch m.Kind {
		case game.Take:
			val := 0.0
			for _, n := range m.TakeNumbers() {
				val += fit(v, n)
			}
			return val
		case game.White:
			hit = whiteHit
		case game.Colored:
			hit, chances = func(n int) float64 { return colourHit[n] }, own
		case game.Number:
			hit = func(int) float64 { return numberHit }
		case game.Play:
			hit, chances = func(int) float64 { return cardHit }, own
		default:
			return -1e-9 // a tie goes to the cross, as in that bot
		}
		cs := crosses(v, m)
		if len(cs) == 0 {
			return -1e-9
		}
		c := cs[0].color
		row := v.Players[v.Seat].Sheet.Rows[c]
		before := row.Count()
		e := effectOf(v, cs)
		score := float64(game.RowScore(before+e.added) - game.RowScore(before))
		if e.locks {
			score += lockBonus
		}
		for pos := row.Last() + 1; pos < lastPos(cs); pos++ {
			if crossesAt(cs, pos) {
				continue
			}
			p := hit(game.NumberAt(c, pos))
			score -= (1 - math.Pow(1-p, float64(chances))) * float64(before+1)
		}
		return score
	}
}
