package ai

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"math/rand/v2"

	"github.com/qwixxbot/qwixxbot/game"
)

// The card game's review grades every legal alternative of a decision,
// not only the search's candidates, by determinized play-outs with the
// hard player's machinery (hardSearch: the heuristic in every seat, three
// turns played out, five near the end, then the heuristic's judgement of
// each player's final score). What makes its figures trustworthy:
//
//   - Common random numbers: every alternative is played out on the same
//     deals of the unseen cards (game.Dealer) with the same reshuffles, so
//     the differences between alternatives carry little of the deals'
//     noise, and the loss's standard error is that of the paired
//     differences over the deals.
//   - Determinism: the deals are seeded from the seat's view at the
//     decision and the decision's index in the seat's game (no clock, no
//     map order, no shared random source), so a review gives the same
//     figures every time and on every machine.
//   - Information fairness (RULES C10): the deals are made from the seat's
//     private view at that moment, never from the record's later-revealed
//     cards; two records the seat could not tell apart at a decision get
//     the same grade there.
//
// An alternative's value is its mean margin over the deals: the seat's
// (projected) final score less the best other player's, in points. The
// reviewer's best choice is the alternative of the highest value; a
// choice's loss is the best's value less its own, with the standard error
// of the paired differences. The seeds differ from those the hard player
// decides with, so its own games are graded on deals it did not see.

// reviewSalt separates the review's deals from the hard player's.
const reviewSalt = 0x7e71e3

// reviewDeals is the number of deals per alternative the card review
// uses at a table of n players: 160 at two players, fewer at larger
// tables, whose play-outs take longer, so that a whole game's review
// stays within about 1.5 s of one core (BenchmarkCardReview; NOTES.md
// has the timings).
func reviewDeals(n int) int {
	switch {
	case n <= 2:
		return 160
	case n == 3:
		return 112
	case n == 4:
		return 80
	}
	return 64
}

// reviewSeed is the seed of the deals of a decision: the view's hash
// (viewSeed) with the decision's index among the seat's decisions.
func reviewSeed(v game.PrivateView, index int) uint64 {
	h := fnv.New64a()
	var b []byte
	b = binary.AppendUvarint(b, viewSeed(v))
	b = binary.AppendUvarint(b, uint64(index))
	b = binary.AppendUvarint(b, reviewSalt)
	h.Write(b)
	return h.Sum64()
}

// gradeCards grades the card game's decisions in points (see above) with
// deals deals per alternative.
func gradeCards(points []reviewPoint, deals int) {
	s := &searcher{moves: make([]game.Move, 0, 128), vals: make([]float64, 0, 128), cs: &hardSearch}
	var vals [][]float64
	var g, h *game.Game
	for i := range points {
		p := &points[i]
		if !p.choice {
			continue
		}
		v := p.view
		// The seat's own pending choice (P4) is what is graded: the deal
		// leaves it undecided.
		v.Players = append([]game.PlayerView(nil), v.Players...)
		v.Players[v.Seat].Decided = false
		for len(vals) < len(p.legal) {
			vals = append(vals, nil)
		}
		for a := range p.legal {
			vals[a] = vals[a][:0]
		}
		ok := true
		dealer, err := game.NewDealer(v)
		if err != nil {
			ok = false
		}
		s.horizon = hardSearch.horizon
		if e := newCardEvalP(&v, &hardSearch.heur, nil); e.g <= hardSearch.endG {
			s.horizon = hardSearch.endCap
		}
		seed := reviewSeed(v, i)
		pcg := rand.NewPCG(seed, 0)
		r := rand.New(pcg)
		for d := range uint64(deals) {
			if !ok {
				break
			}
			pcg.Seed(seed, d)
			if g, err = dealer.Deal(r, g); err != nil {
				ok = false
				break
			}
			for a, m := range p.legal {
				h = g.CloneInto(h)
				if err := h.Apply(m); err != nil {
					ok = false
					break
				}
				vals[a] = append(vals[a], s.playOut(h, v.Seat).margin)
			}
		}
		if !ok {
			// A view no deal matches (a damaged record): the decision
			// counts as the best, with no loss.
			continue
		}
		best, chosen := 0, 0
		means := make([]float64, len(p.legal))
		for a, m := range p.legal {
			means[a] = meanOf(vals[a])
			if means[a] > means[best] {
				best = a
			}
			if m == p.d.Chosen {
				chosen = a
			}
		}
		if means[chosen] == means[best] {
			best = chosen // a tie is no loss
		}
		p.d.Best = p.legal[best]
		if best != chosen {
			p.d.Lost, p.d.SE = pairedLoss(vals[best], vals[chosen])
		}
	}
}

// meanOf is the mean of xs (0 for none).
func meanOf(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// pairedLoss is the mean of best[d] − chosen[d] over the deals d, never
// below 0, and its standard error.
func pairedLoss(best, chosen []float64) (loss, se float64) {
	n := len(best)
	if n == 0 {
		return 0, 0
	}
	m := 0.0
	for d := range best {
		m += best[d] - chosen[d]
	}
	m /= float64(n)
	if n > 1 {
		ss := 0.0
		for d := range best {
			x := best[d] - chosen[d] - m
			ss += x * x
		}
		se = math.Sqrt(ss / float64(n-1) / float64(n))
	}
	return max(0, m), se
}
