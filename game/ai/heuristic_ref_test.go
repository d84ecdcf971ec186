package ai

import (
	"math"

	"github.com/qwixxbot/qwixxbot/game"
)

// The card heuristic's evaluator as it was before its caches (commit
// 021d1e7), kept to prove that the cached one values every move exactly
// as this one did: refEval recomputes every row and card for every move.

// refEval is cardEval before its caches.
type refEval struct {
	v        *game.PrivateView
	p        *heurParams
	seat     int
	g        float64 // turns the game is expected to last still
	k        float64 // crosses per row per turn
	q        float64 // the chance a free cell is crossed by the end
	rival    float64 // the best other player's projected final score
	rivalNow int
	sigma    float64 // spread of the final margin
	crossed  bool    // the active player has crossed this turn
}

// newRefEval reads the view once, with tuning hp.
func newRefEval(v *game.PrivateView, hp *heurParams) refEval {
	n := len(v.Players)
	e := refEval{v: v, p: hp, seat: v.Seat, k: (0.45 + 1.3/float64(n)) / 4}
	// Expected length: about 16 + 2.2 turns per player in all, less as the
	// leaders get close to a second lock or a fourth misthrow.
	g := math.Max(1.5, hp.length*(16+2.2*float64(n))-float64(v.Turn))
	for _, p := range v.Players {
		locks, ready := 0, 0
		for _, r := range p.Sheet.Rows {
			switch {
			case r.Locked():
				locks++
			case r.Count() >= 5 && r.Last() >= 7:
				ready++
			}
		}
		switch {
		case locks >= 1 && ready >= 1:
			g = math.Min(g, 2.5)
		case locks >= 1 || ready >= 2:
			g = math.Min(g, 5)
		}
		if p.Sheet.Misthrows >= 3 {
			g = math.Min(g, 4)
		}
	}
	e.g = g
	e.q = 1 - math.Exp(-hp.rate*e.k*g/11)
	e.sigma = 3 + 2.2*math.Sqrt(g)
	e.rival, e.rivalNow = math.Inf(-1), math.MinInt
	for p, pv := range v.Players {
		if p == v.Seat {
			continue
		}
		e.rival = math.Max(e.rival, e.project(pv.Sheet))
		e.rivalNow = max(e.rivalNow, pv.Sheet.Score())
	}
	for _, r := range v.Players[v.Active].Fresh {
		e.crossed = e.crossed || r != 0
	}
	return e
}

// rowValue is what a row is expected to score by the end.
func (e *refEval) rowValue(r game.Row) float64 {
	c := float64(r.Count())
	if r.Locked() {
		return c*(c+1)/2 + e.p.lockBonus
	}
	a := float64(game.LastPos - r.Last())
	x := c + a*e.q
	v := x * (x + 1) / 2
	if r.Count() >= 5 && r.Last() >= 8 {
		v += e.p.lockExtra * (x + 1)
	}
	return v
}

// project is a sheet's expected final score.
func (e *refEval) project(s game.Sheet) float64 {
	t := -float64(game.MisthrowPenalty * s.Misthrows)
	for _, r := range s.Rows {
		t += e.rowValue(r)
	}
	return t
}

// handWorth is the worth of the seat's hand without the cards in drop
// (a play's cards), with the numbers in add (a take's, colours unknown).
func (e *refEval) handWorth(s game.Sheet, drop []game.Card, add []int8) float64 {
	t := 0.0
	for _, c := range e.v.Hand {
		played := false
		for _, d := range drop {
			played = played || d == c
		}
		if !played {
			t += e.p.cardWorth(s, c.Color(), c.Number(), c.Joker())
		}
	}
	for _, n := range add {
		avg := 0.0
		for _, col := range game.Colors {
			avg += e.p.cardWorth(s, col, int(n), false)
		}
		t += avg / game.NumColors
	}
	return t
}

// live reports whether some card of the seat's hand (less drop) can still
// cross on sheet s.
func (e *refEval) live(s game.Sheet, drop []game.Card) bool {
	for _, c := range e.v.Hand {
		played := false
		for _, d := range drop {
			played = played || d == c
		}
		if !played && e.p.cardWorth(s, c.Color(), c.Number(), c.Joker()) > e.p.deadCard {
			return true
		}
	}
	return false
}

// final is the outcome of a game that ends with the seat at mine points.
func (e *refEval) final(mine int) (points, win float64) {
	switch {
	case mine > e.rivalNow:
		win = 1
	case mine == e.rivalNow:
		win = 0.5
	}
	return float64(mine), win
}

// value is move m's worth to the seat.
func (e *refEval) value(m game.Move) float64 {
	p, w := e.parts(m)
	return p + e.p.winBonus*w
}

// parts are the seat's projected final score after m and its chance to
// win.
func (e *refEval) parts(m game.Move) (points, win float64) {
	v := e.v
	s := v.Players[e.seat].Sheet
	var drop []game.Card
	var add []int8
	crossedNow := false
	switch m.Kind {
	case game.Take:
		add = m.Take[:min(int(m.N), len(m.Take))]
	case game.Number:
		n := v.Table.DrawTop
		crossCell(&s, m.Color, n)
		crossedNow = true
	case game.Play:
		drop = m.Cards[:min(int(m.N), len(m.Cards))]
		for pos := 0; pos <= game.LastPos; pos++ {
			if n := game.NumberAt(m.Color, pos); m.Cross&(1<<n) != 0 {
				crossCell(&s, m.Color, n)
				crossedNow = true
			}
		}
		if !crossedNow && !e.crossed {
			s.Misthrows++
		}
	}
	if s.Locks() >= 2 || s.Misthrows >= game.MaxMisthrows {
		return e.final(s.Score())
	}
	proj := e.project(s) + e.handWorth(s, drop, add)
	if m.Kind == game.Play && !crossedNow && !e.crossed {
		proj -= e.p.misthrowGo
	}
	if v.Phase == game.PhaseNumber && e.seat == v.Active && !crossedNow && !e.crossed && !e.live(s, nil) {
		proj -= game.MisthrowPenalty + e.p.misthrowGo // action 3 will cross nothing
	}
	return proj, normCDF((proj - e.rival) / e.sigma)
}

// refChoice is heuristicChoiceP with refEval.
func refChoice(v *game.PrivateView, legal []game.Move, hp *heurParams) game.Move {
	e := newRefEval(v, hp)
	best, bv := 0, math.Inf(-1)
	for i, m := range legal {
		if x := e.value(m); x > bv {
			best, bv = i, x
		}
	}
	return legal[best]
}
