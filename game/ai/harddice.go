package ai

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/qwixxbot/qwixxbot/game"
)

// The hard dice player's search: where the tables find the best choices
// close, each of them is played out on the same dice to the end (or for
// hardDiceHorizon turns, then judged), with the tables' player in every
// seat, and the one with the best share of wins (plus a little for the
// margin) is taken.
var (
	hardDiceSearch  = false // off: it did not win more (NOTES.md)
	hardDiceClose   = 1.0   // points from the best within which a choice is searched
	hardDiceCands   = 3     // choices searched at most
	hardDiceDeals   = 64    // play-outs per choice
	hardDiceHorizon = 0     // turns played out before judging (0: to the end)
	hardDiceMargin  = 0.05  // worth of a point of margin, against 1 for a win
	hardDiceNearEnd = true  // search only where the game may end soon
)

// hardDice values the moves of the dice game: the tables' values, and
// where the best ones are close, their play-outs (see above). The dice to
// come are seeded from v alone.
func hardDice(v game.PrivateView, legal []game.Move) []float64 {
	d := newDiceState(v, tablesFor(len(v.Players)))
	d.judge = true
	vals := make([]float64, len(legal))
	for i, m := range legal {
		vals[i] = d.value(v, m)
	}
	if !hardDiceSearch || !d.hasRival || len(legal) < 2 || (hardDiceNearEnd && !diceNearEnd(v)) {
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
	best := vals[order[0]]
	if math.Abs(best) > endWorth/2 {
		return vals // the result of an ending decides
	}
	cands := order[:0:0]
	for _, i := range order[:min(hardDiceCands, len(order))] {
		if vals[i] >= best-hardDiceClose {
			cands = append(cands, i)
		}
	}
	if len(cands) < 2 {
		return vals
	}
	seed := viewSeed(v)
	for _, x := range v.Dice {
		seed = seed*31 + uint64(x)
	}
	totals := make([]float64, len(cands))
	s := &diceSearcher{searcher: searcher{moves: make([]game.Move, 0, 16)}, t: tablesFor(len(v.Players))}
	s.t.own = newMemo(s.t.own)
	var g0 *game.Game
	for k := range uint64(hardDiceDeals) {
		var sd [32]byte
		binary.LittleEndian.PutUint64(sd[:], seed)
		binary.LittleEndian.PutUint64(sd[8:], k)
		var err error
		g0, err = game.ContinueDice(v, sd)
		if err != nil {
			return vals
		}
		for j, c := range cands {
			h := g0
			if j < len(cands)-1 {
				s.game = g0.CloneInto(s.game)
				h = s.game
			}
			if err := h.Apply(legal[c]); err != nil {
				return vals
			}
			o := s.playOutDice(h, v.Seat)
			totals[j] += o.win + hardDiceMargin*o.margin
		}
	}
	out := slices.Clone(vals)
	for j, c := range cands {
		out[c] = best + 10 + totals[j]/float64(hardDiceDeals)
	}
	return out
}

// diceSearcher holds the buffers and the tables of one dice search.
type diceSearcher struct {
	searcher
	t diceTables
}

// playOutDice plays the dice game g on with the tables' player in every
// seat, to its end or for hardDiceHorizon turns (then judged), and
// returns seat's outcome.
func (s *diceSearcher) playOutDice(g *game.Game, seat int) outcome {
	t := s.t
	stop := g.Turn() + hardDiceHorizon
	for steps := 0; !g.Over() && steps < 2000; steps++ {
		if hardDiceHorizon > 0 && g.Turn() >= stop && g.Phase() == game.PhaseWhite && noneDecided(g) {
			return s.judgeDice(g, seat, t)
		}
		p := g.Active()
		if g.Phase() == game.PhaseWhite {
			for q := range g.NumPlayers() {
				if !g.Decided(q) {
					p = q
					break
				}
			}
		}
		s.moves = g.AppendLegalMoves(s.moves[:0], p)
		g.PrivateInto(&s.view, p)
		d := newDiceState(s.view, t)
		d.judge = true
		m, bv := s.moves[0], math.Inf(-1)
		for _, mv := range s.moves {
			if x := d.value(s.view, mv); x > bv {
				m, bv = mv, x
			}
		}
		if err := g.Apply(m); err != nil {
			break
		}
	}
	return finalOutcome(g, seat)
}

func noneDecided(g *game.Game) bool {
	for q := range g.NumPlayers() {
		if g.Decided(q) {
			return false
		}
	}
	return true
}

// judgeDice estimates seat's outcome of a dice game cut short: each
// player's score plus the points still to come, and the chance that
// seat's beats the best other's.
func (s *diceSearcher) judgeDice(g *game.Game, seat int, t diceTables) outcome {
	g.PrivateInto(&s.view, seat)
	mine, rival, futs := 0.0, math.Inf(-1), 0.0
	var rivalFut float64
	for p := range g.NumPlayers() {
		rows, m := sheetState(s.view, p)
		fut := t.own.at(rows, m)
		x := float64(g.Sheet(p).Score()) + fut
		if p == seat {
			mine, futs = x, fut
		} else if x > rival {
			rival, rivalFut = x, fut
		}
	}
	sd := math.Sqrt(diceSpread0 + diceSpread*(futs+rivalFut))
	return outcome{win: normCDF((mine - rival) / sd), margin: mine - rival, points: mine}
}

// finalOutcome is seat's outcome of the game g as it stands: its share of
// the win, its margin over the best other and its score.
func finalOutcome(g *game.Game, seat int) outcome {
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
	o := outcome{margin: float64(mine - best), points: float64(mine)}
	switch {
	case mine > best:
		o.win = 1
	case mine == best:
		o.win = 1 / float64(tied+1)
	}
	return o
}

// memo keeps the latest values of a point table by state, for the many
// lookups of one search (the table after one's own turn sums a whole
// throw of the white dice for each).
type memo struct {
	t    pointTable
	keys []uint32 // state index plus 1 (0: empty)
	vals []float64
}

const memoSize = 1 << 13

func newMemo(t pointTable) *memo {
	return &memo{t: t, keys: make([]uint32, memoSize), vals: make([]float64, memoSize)}
}

func (m *memo) at(rows [4]uint8, mis int) float64 {
	if mis >= 4 {
		return m.t.at(rows, mis)
	}
	k := uint32(stateIndex(rows, mis)) + 1
	i := (k * 2654435761) >> (32 - 13)
	if m.keys[i] == k {
		return m.vals[i]
	}
	x := m.t.at(rows, mis)
	m.keys[i], m.vals[i] = k, x
	return x
}
