package ai

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/qwixxbot/qwixxbot/game"
)

// The hard card player's search: the candidates the heuristic rates
// highest are each played out to the end in the same deals of the unseen
// cards, with the heuristic in every seat; a move is worth its share of
// wins in those play-outs plus a little for the margin, so it plays for
// the win.
var (
	hardCardCandidates = 6    // moves searched
	hardCardRollouts   = 80   // play-outs per move times players
	hardMarginWeight   = 0.05 // worth of a point of margin, against 1 for a win
	hardHorizon        = 3.0  // turns played out before the heuristic judges (0: to the end)
)

// hardDeals is the number of deals per move at a table of n players.
func hardDeals(n int) int { return max(6, hardCardRollouts/n) }

// searcher holds the buffers one card decision's play-outs reuse.
type searcher struct {
	game  *game.Game // the play-out under way
	view  game.PrivateView
	moves []game.Move
	vals  []float64
}

// hardCards values the moves of a card game by determinized play-outs
// (see above). The deals are seeded from v alone, so twin games that v
// cannot tell apart get the same choice (RULES C10), and every candidate
// meets the same deals and the same reshuffles.
func hardCards(v game.PrivateView, legal []game.Move) []float64 {
	vals := make([]float64, len(legal))
	heuristicValues(&v, legal, vals)
	if len(legal) == 1 {
		return vals
	}
	order := make([]int, len(legal))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case vals[a] > vals[b]:
			return -1
		case vals[a] < vals[b]:
			return 1
		}
		return 0
	})
	cands := order[:min(hardCardCandidates, len(order))]
	totals := make([]float64, len(cands))
	seed := viewSeed(v)
	deals := hardDeals(len(v.Players))
	s := &searcher{moves: make([]game.Move, 0, 128), vals: make([]float64, 0, 128)}
	for d := range uint64(deals) {
		g, err := game.Determinize(v, rand.New(rand.NewPCG(seed, d)))
		if err != nil {
			return vals // a view no deal matches: the heuristic's values
		}
		for i, c := range cands {
			h := g
			if i < len(cands)-1 {
				s.game = g.CloneInto(s.game)
				h = s.game
			}
			if err := h.Apply(legal[c]); err != nil {
				return vals
			}
			totals[i] += s.playOut(h, v.Seat)
		}
	}
	out := make([]float64, len(legal))
	for i := range out {
		out[i] = math.Inf(-1)
	}
	for i, c := range cands {
		out[c] = totals[i] / float64(deals)
	}
	return out
}

// playOut plays g to its end with the heuristic in every seat and
// returns seat's share of the win plus hardMarginWeight per point of
// margin over the best other player.
func (s *searcher) playOut(g *game.Game, seat int) float64 {
	stop := g.Turn() + int(hardHorizon)
	for steps := 0; !g.Over() && steps < 2000; steps++ {
		if hardHorizon > 0 && g.Turn() >= stop && g.Phase() == game.PhaseTake {
			return s.judge(g, seat)
		}
		var p int
		if g.Phase().Simultaneous() {
			for q := range g.NumPlayers() {
				if !g.Decided(q) {
					p = q
					break
				}
			}
		} else {
			p = g.Active()
		}
		s.moves = g.AppendLegalMoves(s.moves[:0], p)
		g.PrivateInto(&s.view, p)
		if err := g.Apply(heuristicChoice(&s.view, s.moves)); err != nil {
			break
		}
	}
	mine := g.Sheet(seat).Score()
	best, tied := math.MinInt, 0
	for p := range g.NumPlayers() {
		if p == seat {
			continue
		}
		sc := g.Sheet(p).Score()
		switch {
		case sc > best:
			best, tied = sc, 1
		case sc == best:
			tied++
		}
	}
	v := hardMarginWeight * float64(mine-best)
	switch {
	case mine > best:
		v++
	case mine == best:
		v += 1 / float64(tied+1)
	}
	return v
}

// hardHands weighs the cards in hand when judging a play-out cut short.
var hardHands = 1.0

// judge is the heuristic's estimate of seat's outcome of g, a game cut
// short: each player's projected final score (sheet and hand), and the
// chance that seat's beats the best other.
func (s *searcher) judge(g *game.Game, seat int) float64 {
	mine, rival := 0.0, math.Inf(-1)
	var sigma float64
	for p := range g.NumPlayers() {
		g.PrivateInto(&s.view, p)
		e := newCardEval(&s.view)
		sh := s.view.Players[p].Sheet
		x := e.project(sh) + hardHands*e.handWorth(sh, nil, nil)
		if p == seat {
			mine, sigma = x, e.sigma
		} else {
			rival = math.Max(rival, x)
		}
	}
	return normCDF((mine-rival)/sigma) + hardMarginWeight*(mine-rival)
}
