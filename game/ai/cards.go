package ai

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"math/rand/v2"

	"github.com/qwixxbot/qwixxbot/game"
)

// The hard card player's search: the candidates Medium rates highest are
// each played out to the end in the same deals of the unseen cards.
// Larger tables make longer play-outs, so they get fewer deals: 24 at two
// players, 16 at three, 12 at four, 9 at five, which keeps a decision
// under 50 ms at the 99th percentile on two cores.
const (
	cardCandidates = 8  // moves searched
	cardRollouts   = 48 // deals per move times players
	winBonus       = 20 // points a win is worth beyond the margin
)

// dealsFor is the number of deals per move at a table of n players.
func dealsFor(n int) int { return min(32, max(8, cardRollouts/n)) }

// hardCardsV1 values the moves of a card game by determinized rollouts:
// the cards v.Seat cannot see are dealt at random consistently with v
// (game.Determinize), each candidate move is made, and the game is played
// to its end by players of oscleePolicy (Medium as it was then); a move is worth its mean margin over the
// best other player, plus winBonus per win. The deals are seeded from v
// alone, so twin games that v cannot tell apart get the same choice
// (RULES C10), and every candidate meets the same deals and throws.
func hardCardsV1(v game.PrivateView, legal []game.Move) []float64 {
	med := oscleePolicy(v)
	vals := make([]float64, len(legal))
	for i, m := range legal {
		vals[i] = med(m)
	}
	if len(legal) == 1 {
		return vals
	}
	order := byValue(vals)
	cands := order[:min(cardCandidates, len(order))]
	out := make([]float64, len(legal))
	for i := range out {
		out[i] = math.Inf(-1)
	}
	seed := viewSeed(v)
	deals := dealsFor(len(v.Players))
	buf := make([]game.Move, 0, 64)
	for _, c := range cands {
		total := 0.0
		for d := range uint64(deals) {
			g, err := game.Determinize(v, rand.New(rand.NewPCG(seed, d)))
			if err != nil {
				return vals // a view no deal matches: oscleePolicy's values
			}
			if err := g.Apply(legal[c]); err != nil {
				return vals
			}
			total += playOut(g, v.Seat, &buf)
		}
		out[c] = total / float64(deals)
	}
	return out
}

// playOut plays g to its end with oscleePolicy in every seat and returns seat's
// margin over the best other player, plus winBonus for a win (shared
// wins as shares).
func playOut(g *game.Game, seat int, buf *[]game.Move) float64 {
	for steps := 0; !g.Over() && steps < 2000; steps++ {
		p := g.Waiting()[0]
		*buf = g.AppendLegalMoves((*buf)[:0], p)
		if err := g.Apply(chooseOsclee(g.Private(p), *buf)); err != nil {
			break
		}
	}
	mine := g.Sheet(seat).Score()
	best, tied := math.MinInt, 0
	for p := range g.NumPlayers() {
		if p == seat {
			continue
		}
		s := g.Sheet(p).Score()
		switch {
		case s > best:
			best, tied = s, 1
		case s == best:
			tied++
		}
	}
	v := float64(mine - best)
	switch {
	case mine > best:
		v += winBonus
	case mine == best:
		v += winBonus / float64(tied+1)
	}
	return v
}

// viewSeed hashes what v shows: the seat, turn, phase, sheets, hand sizes,
// the table's numbers and the seat's hand.
func viewSeed(v game.PrivateView) uint64 {
	h := fnv.New64a()
	var b []byte
	b = binary.AppendUvarint(b, uint64(v.Seat))
	b = binary.AppendUvarint(b, uint64(v.Turn))
	b = binary.AppendUvarint(b, uint64(v.Active))
	b = binary.AppendUvarint(b, uint64(v.Phase))
	for _, p := range v.Players {
		for _, r := range p.Sheet.Rows {
			b = binary.AppendUvarint(b, uint64(r))
		}
		b = binary.AppendUvarint(b, uint64(p.Sheet.Misthrows))
		b = binary.AppendUvarint(b, uint64(p.HandSize))
	}
	if t := v.Table; t != nil {
		for _, n := range t.Display {
			b = binary.AppendUvarint(b, uint64(n))
		}
		b = binary.AppendUvarint(b, uint64(t.DrawTop))
		b = binary.AppendUvarint(b, uint64(t.DrawSize))
		b = binary.AppendUvarint(b, uint64(t.DiscardSize))
	}
	for _, c := range v.Hand {
		b = binary.AppendUvarint(b, uint64(c.Number())<<3|uint64(c.Color()))
	}
	h.Write(b)
	return h.Sum64()
}

// chooseOsclee is the first of legal that oscleePolicy values highest (as
// Choose picks).
func chooseOsclee(v game.PrivateView, legal []game.Move) game.Move {
	value := oscleePolicy(v)
	best, bestVal := 0, math.Inf(-1)
	for i, m := range legal {
		if x := value(m); i == 0 || x > bestVal {
			best, bestVal = i, x
		}
	}
	return legal[best]
}
