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
// the win. NOTES.md has the figures behind hardSearch's values.

// cardSearch is the tuning of the card search. Hard plays with
// hardSearch; tests and the experiments (lab.go) build their own.
type cardSearch struct {
	candidates   int     // moves searched
	rollouts     int     // play-outs per move times players
	rollouts2    int     // rollouts at two players, where the time per decision has room
	marginWeight float64 // worth of a point of margin, against 1 for a win
	horizon      float64 // turns played out before the heuristic judges (0: to the end)
	sigmaScale   float64 // scales the judge's spread of the margin
	opp          int     // the other seats' play-out policy: 0 heuristic, 1 medium, 2 medium in odd deals
	tempo        float64 // points the judge gives the player about to move
	sigmaA       float64 // if > 0, the judge's spread is sigmaA + sigmaB·√(turns left)
	sigmaB       float64
	endG         float64    // when the game is expected to last at most this many turns more, …
	endCap       float64    // … play-outs run this many turns instead of horizon (0: to the end)
	hands        float64    // weight of the cards in hand when judging a play-out cut short
	heur         heurParams // the heuristic of the play-outs and the judge
}

// hardSearch is the card search Hard plays (and hints) with: 224 deals
// at two players, 106 at three, 80 at four, 64 at five; the six
// candidates the heuristic rates highest; play-outs of 3 turns judged by
// the heuristic, or of 5 when the game is expected to end within 5 turns.
// Nothing changes it.
var hardSearch = cardSearch{
	candidates:   6,
	rollouts:     320,
	rollouts2:    448,
	marginWeight: 0.02,
	horizon:      3,
	sigmaScale:   0.6,
	endG:         5,
	endCap:       5,
	hands:        1,
	heur:         heurBase,
}

// deals is the number of deals per move at a table of n players.
func (cs *cardSearch) deals(n int) int {
	if n == 2 {
		return max(6, cs.rollouts2/n)
	}
	return max(6, cs.rollouts/n)
}

// searcher holds the buffers one card decision's play-outs reuse.
type searcher struct {
	game    *game.Game // the play-out under way
	view    game.PrivateView
	moves   []game.Move
	vals    []float64
	cs      *cardSearch
	opp     bool    // the other seats play like medium
	horizon float64 // turns played out before judging (0: to the end)
	memo    evalMemo
}

// values values the moves of a card game by determinized play-outs
// (see above). The deals are seeded from v alone, so twin games that v
// cannot tell apart get the same choice (RULES C10), and every candidate
// meets the same deals and the same reshuffles.
func (cs *cardSearch) values(v game.PrivateView, legal []game.Move) []float64 {
	vals, _, _ := cs.detail(v, legal)
	return vals
}

// detail is values with, for each move, the seat's expected
// final score (points) and chance to win (win) as the play-outs found
// them: the heuristic's projection for moves not played out, and for all
// moves when only one is legal.
func (cs *cardSearch) detail(v game.PrivateView, legal []game.Move) (vals, points, win []float64) {
	vals = make([]float64, len(legal))
	points, win = make([]float64, len(legal)), make([]float64, len(legal))
	heuristicValuesP(&v, legal, vals, &cs.heur)
	e := newCardEvalP(&v, &cs.heur, nil)
	for i, m := range legal {
		points[i], win[i] = e.outlook(m)
	}
	if len(legal) == 1 {
		return vals, points, win
	}
	order := byValue(vals)
	cands := order[:min(cs.candidates, len(order))]
	totals, pts, wins := make([]float64, len(cands)), make([]float64, len(cands)), make([]float64, len(cands))
	seed := viewSeed(v)
	deals := cs.deals(len(v.Players))
	s := &searcher{moves: make([]game.Move, 0, 128), vals: make([]float64, 0, 128), cs: cs, horizon: cs.horizon}
	if e.g <= cs.endG {
		s.horizon = cs.endCap
	}
	dealer, err := game.NewDealer(v)
	if err != nil {
		return vals, points, win // a view no deal matches: the heuristic's values
	}
	pcg := rand.NewPCG(seed, 0)
	r := rand.New(pcg)
	var g *game.Game // the deal, in the same memory every time
	for d := range uint64(deals) {
		pcg.Seed(seed, d)
		if g, err = dealer.Deal(r, g); err != nil {
			return vals, points, win
		}
		for i, c := range cands {
			h := g
			if i < len(cands)-1 {
				s.game = g.CloneInto(s.game)
				h = s.game
			}
			if err := h.Apply(legal[c]); err != nil {
				return vals, points, win
			}
			s.opp = cs.opp == 1 || cs.opp == 2 && d%2 == 1
			o := s.playOut(h, v.Seat)
			totals[i] += o.win + cs.marginWeight*o.margin
			pts[i] += o.points
			wins[i] += o.win
		}
	}
	out := make([]float64, len(legal))
	for i := range out {
		out[i] = math.Inf(-1)
	}
	for i, c := range cands {
		out[c] = totals[i] / float64(deals)
		points[c], win[c] = pts[i]/float64(deals), wins[i]/float64(deals)
	}
	return out, points, win
}

// outcome is one play-out's result for the seat: its share of the win
// (or the chance of it, judged), its margin over the best other player
// and its final score (or the projection of it).
type outcome struct{ win, margin, points float64 }

// playOut plays g on with the heuristic in every seat, to its end or for
// s.horizon turns (then judged by the heuristic), and returns seat's
// outcome.
func (s *searcher) playOut(g *game.Game, seat int) outcome {
	stop := g.Turn() + int(s.horizon)
	for steps := 0; !g.Over() && steps < 2000; steps++ {
		if s.horizon > 0 && g.Turn() >= stop && g.Phase() == game.PhaseTake {
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
		m := s.moves[0] // every policy makes the only move
		if len(s.moves) > 1 {
			g.PrivateInto(&s.view, p)
			if s.opp && p != seat {
				m = Choose(Medium, s.view, s.moves)
			} else {
				e := newCardEvalP(&s.view, &s.cs.heur, &s.memo)
				m = s.moves[e.choice(s.moves)]
			}
		}
		if err := g.Apply(m); err != nil {
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
	o := outcome{margin: float64(mine - best), points: float64(mine)}
	switch {
	case mine > best:
		o.win = 1
	case mine == best:
		o.win = 1 / float64(tied+1)
	}
	return o
}

// judge is the heuristic's estimate of seat's outcome of g, a game cut
// short: each player's projected final score (sheet and hand), and the
// chance that seat's beats the best other.
func (s *searcher) judge(g *game.Game, seat int) outcome {
	mine, rival := 0.0, math.Inf(-1)
	var sigma float64
	for p := range g.NumPlayers() {
		g.PrivateInto(&s.view, p)
		e := newCardEvalP(&s.view, &s.cs.heur, &s.memo)
		hand, _ := e.handAfter(&e.mine, -1, nil, nil)      // handWorth(sheet, nil, nil), cached
		x := e.projectAfter(&e.mine, -1) + s.cs.hands*hand // project(sheet) + …
		if p == g.Active() {
			x += s.cs.tempo
		}
		if p == seat {
			mine, sigma = x, e.sigma*s.cs.sigmaScale
			if s.cs.sigmaA > 0 {
				sigma = s.cs.sigmaA + s.cs.sigmaB*math.Sqrt(e.g)
			}
		} else {
			rival = max(rival, x)
		}
	}
	return outcome{win: normCDF((mine - rival) / sigma), margin: mine - rival, points: mine}
}

// byValue is the indices of vals, the highest value first (ties in their
// order): the candidates of a search.
func byValue(vals []float64) []int {
	order := make([]int, len(vals))
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
	return order
}
