package ai

import (
	"math"
	"math/bits"

	"github.com/qwixxbot/qwixxbot/game"
)

// The card heuristic (level Heuristic, and the roll-out policy of Hard in
// the card games) looks one move ahead. It values a sheet by what its rows
// are expected to score by the end: a row of c crosses with a cells still
// free to the right of its last cross expects e = a·(1−exp(−k·G/a)) more
// crosses, G being the turns the game is expected to last and k the
// crosses a row gets per turn. So a cell given up costs much while the
// game is young and little near its end. A misthrow costs its 5 points
// (and a fourth ends the game). The cards kept in hand are worth by how
// playable they still are: a card that fits the next free cell of its
// row is worth most, one that would skip cells less, a dead one little.
// Moves that end the game (a second own lock, a fourth misthrow) are
// judged by the result; the others add a win bonus weighted by an
// estimate of the chance to win from the projected scores.
type heurParams struct {
	winBonus   float64 // points a win is worth beyond the points
	cardVal    float64 // a live card at the next free cell, per point of that cross
	deadCard   float64 // a card that crosses nothing: fodder for a forced play
	lockExtra  float64 // a row ready to lock gets its lock cross too
	misthrowGo float64 // beyond its 5 points, a misthrow brings the end nearer
	rate       float64 // scales the crosses a row gets per turn
	lockBonus  float64 // a locked row's worth beyond its points
	length     float64 // scales the expected length of the game
}

// heurBase is the heuristic's tuning (level Heuristic, and hardSearch's
// play-outs and judgement). Nothing changes it.
var heurBase = heurParams{
	winBonus:   12,
	cardVal:    0.55,
	deadCard:   0,
	lockExtra:  0,
	misthrowGo: 2,
	rate:       1.4,
	lockBonus:  0,
	length:     1,
}

// cardEval is what the heuristic weighs the moves of one decision with.
// Each move changes one row of the seat's sheet at most, so the rows'
// expected scores and the hand cards' worths on the sheet as it is are
// computed once (mine, rows, worth, jokerWorth, takeWorth) and only the
// changed row's are computed again for a move: the same operations in
// the same order as recomputing them all, so the same values to the bit.
type cardEval struct {
	v        *game.PrivateView
	p        *heurParams
	seat     int
	g        float64 // turns the game is expected to last still
	k        float64 // crosses per row per turn
	q        float64 // the chance a free cell is crossed by the end
	rival    float64 // the best other player's projected final score
	rivalNow int     // the best other player's score now
	sigma    float64 // spread of the final margin
	crossed  bool    // the active player has crossed this turn

	mine       game.Sheet                             // the seat's sheet now
	rows       [game.NumColors]float64                // rowValue of each of mine's rows
	cached     bool                                   // worth and jokerWorth hold the hand (at most HandSize cards)
	worth      [game.HandSize]float64                 // cardWorth of each hand card on mine
	jokerWorth [game.HandSize][game.NumColors]float64 // a joker's cardWorth as each colour on mine
	takeWorth  [13]float64                            // a taken number's worth on mine (handWorth's add term)
	takeKnown  uint16                                 // bit n: takeWorth[n] is computed
}

// gapWorth is how much of a card's worth is left when playing it would
// give up gap cells.
var gapWorth = [...]float64{1, 0.6, 0.35, 0.2, 0.1, 0.05}

// newCardEval reads the view once, with the heuristic's tuning.
func newCardEval(v *game.PrivateView) cardEval { return newCardEvalP(v, &heurBase, nil) }

// evalMemo remembers the last results of math.Exp and math.Sqrt that
// newCardEvalP computed: a play-out's views share the expected length
// for a turn and more. The same argument gives the same result.
type evalMemo struct {
	e, s lastResult
}

// lastResult is a function's last argument and result.
type lastResult struct {
	in, out float64
	ok      bool
}

// of is f(x), from memory when x was the last argument.
func (r *lastResult) of(x float64, f func(float64) float64) float64 {
	if !r.ok || r.in != x {
		r.in, r.out, r.ok = x, f(x), true
	}
	return r.out
}

func (m *evalMemo) exp(x float64) float64 {
	if m == nil {
		return math.Exp(x)
	}
	return m.e.of(x, math.Exp)
}

func (m *evalMemo) sqrt(g float64) float64 {
	if m == nil {
		return math.Sqrt(g)
	}
	return m.s.of(g, math.Sqrt)
}

// newCardEvalP reads the view once, with tuning hp (memo may be nil).
func newCardEvalP(v *game.PrivateView, hp *heurParams, memo *evalMemo) cardEval {
	n := len(v.Players)
	e := cardEval{v: v, p: hp, seat: v.Seat, k: (0.45 + 1.3/float64(n)) / 4}
	// Expected length: about 16 + 2.2 turns per player in all, less as the
	// leaders get close to a second lock or a fourth misthrow.
	g := max(1.5, hp.length*(16+2.2*float64(n))-float64(v.Turn))
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
			g = min(g, 2.5)
		case locks >= 1 || ready >= 2:
			g = min(g, 5)
		}
		if p.Sheet.Misthrows >= 3 {
			g = min(g, 4)
		}
	}
	e.g = g
	e.q = 1 - memo.exp(-hp.rate*e.k*g/11)
	e.sigma = 3 + 2.2*memo.sqrt(g)
	e.rival, e.rivalNow = math.Inf(-1), math.MinInt
	for p, pv := range v.Players {
		if p == v.Seat {
			continue
		}
		e.rival = max(e.rival, e.project(pv.Sheet))
		e.rivalNow = max(e.rivalNow, pv.Sheet.Score())
	}
	for _, r := range v.Players[v.Active].Fresh {
		e.crossed = e.crossed || r != 0
	}
	e.mine = v.Players[v.Seat].Sheet
	for c, r := range e.mine.Rows {
		e.rows[c] = e.rowValue(r)
	}
	if e.cached = len(v.Hand) <= game.HandSize; e.cached {
		for i, c := range v.Hand {
			if !c.Joker() {
				e.worth[i] = hp.cardWorth(e.mine, c.Color(), c.Number(), false)
				continue
			}
			w := hp.deadCard // as cardWorth values a joker
			for _, col := range game.Colors {
				x := hp.cardWorth(e.mine, col, c.Number(), false)
				e.jokerWorth[i][col] = x
				w = max(w, x)
			}
			e.worth[i] = w
		}
	}
	return e
}

// rowValue is what a row is expected to score by the end.
func (e *cardEval) rowValue(r game.Row) float64 {
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
func (e *cardEval) project(s game.Sheet) float64 {
	t := -float64(game.MisthrowPenalty * s.Misthrows)
	for _, r := range s.Rows {
		t += e.rowValue(r)
	}
	return t
}

// cardWorth is what card (colour c, number n; a joker with joker set)
// in hand is worth to sheet s.
func (hp *heurParams) cardWorth(s game.Sheet, c game.Color, n int, joker bool) float64 {
	if joker {
		best := hp.deadCard
		for _, col := range game.Colors {
			best = max(best, hp.cardWorth(s, col, n, false))
		}
		return best
	}
	r := s.Rows[c]
	pos := game.Position(c, n)
	if r.Locked() || pos <= r.Last() {
		return hp.deadCard
	}
	gap := pos - r.Last() - 1
	if pos == game.LastPos && r.Count() < 5 {
		gap += 5 - r.Count()
	}
	if gap >= len(gapWorth) {
		return hp.deadCard
	}
	return max(hp.deadCard, hp.cardVal*float64(r.Count()+1)*gapWorth[gap])
}

// handWorth is the worth of the seat's hand without the cards in drop
// (a play's cards), with the numbers in add (a take's, colours unknown).
func (e *cardEval) handWorth(s game.Sheet, drop []game.Card, add []int8) float64 {
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
func (e *cardEval) live(s game.Sheet, drop []game.Card) bool {
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
func (e *cardEval) final(mine int) (points, win float64) {
	switch {
	case mine > e.rivalNow:
		win = 1
	case mine == e.rivalNow:
		win = 0.5
	}
	return float64(mine), win
}

// value is move m's worth to the seat.
func (e *cardEval) value(m game.Move) float64 {
	p, w := e.parts(m)
	return p + e.p.winBonus*w
}

// parts are the seat's projected final score after m and its chance to
// win.
func (e *cardEval) parts(m game.Move) (points, win float64) {
	points, ended, win := e.points(m)
	if !ended {
		win = e.winChance(points)
	}
	return points, win
}

// winChance is the chance to win with a projected final score of proj:
// at most 1 (math.Erfc is at most 2).
func (e *cardEval) winChance(proj float64) float64 { return normCDF((proj - e.rival) / e.sigma) }

// points is the seat's projected final score after m and, when m ends the
// game (ended), its share of the win; parts without the chance to win of
// a game that goes on.
func (e *cardEval) points(m game.Move) (points float64, ended bool, win float64) {
	v := e.v
	s := e.mine
	changed := -1 // the row m crosses in
	var drop []game.Card
	var add []int8
	crossedNow := false
	switch m.Kind {
	case game.Take:
		add = m.Take[:min(int(m.N), len(m.Take))]
	case game.Number:
		n := v.Table.DrawTop
		crossCell(&s, m.Color, n)
		crossedNow, changed = true, int(m.Color)
	case game.Play:
		drop = m.Cards[:min(int(m.N), len(m.Cards))]
		if cross := m.Cross & rowNumbers; cross != 0 {
			for ; cross != 0; cross &= cross - 1 {
				crossCell(&s, m.Color, bits.TrailingZeros16(cross))
			}
			crossedNow, changed = true, int(m.Color)
		}
		if !crossedNow && !e.crossed {
			s.Misthrows++
		}
	}
	if s.Locks() >= 2 || s.Misthrows >= game.MaxMisthrows {
		points, win = e.final(s.Score())
		return points, true, win
	}
	hand, live := e.handAfter(&s, changed, drop, add)
	proj := e.projectAfter(&s, changed) + hand
	if m.Kind == game.Play && !crossedNow && !e.crossed {
		proj -= e.p.misthrowGo
	}
	if v.Phase == game.PhaseNumber && e.seat == v.Active && !crossedNow && !e.crossed {
		if drop != nil { // not a move of action 2: the whole hand counts
			live = e.live(s, nil)
		}
		if !live {
			proj -= game.MisthrowPenalty + e.p.misthrowGo // action 3 will cross nothing
		}
	}
	return proj, false, 0
}

// rowNumbers has bit n set for each number 2–12 of a row.
const rowNumbers = 0x1ffc

// projectAfter is project(s) for a sheet s that differs from mine in row
// changed alone (or in none: changed < 0) and perhaps its misthrows.
func (e *cardEval) projectAfter(s *game.Sheet, changed int) float64 {
	t := -float64(game.MisthrowPenalty * s.Misthrows)
	for c, x := range e.rows {
		if c == changed {
			x = e.rowValue(s.Rows[c])
		}
		t += x
	}
	return t
}

// handAfter is handWorth(s, drop, add) for a sheet s that differs from
// mine in row changed alone (or in none: changed < 0), and whether a card
// of the hand less drop is live (see live).
func (e *cardEval) handAfter(s *game.Sheet, changed int, drop []game.Card, add []int8) (t float64, live bool) {
	if !e.cached || (changed >= 0 && len(add) > 0) {
		return e.handWorth(*s, drop, add), e.live(*s, drop)
	}
	hp := e.p
	var dropped uint64 // bit c: card c is played
	for _, d := range drop {
		dropped |= 1 << d
	}
	for i, c := range e.v.Hand {
		if dropped&(1<<c) != 0 {
			continue
		}
		w := e.worth[i]
		if changed >= 0 {
			switch {
			case c.Joker():
				w = hp.deadCard
				for _, col := range game.Colors {
					x := e.jokerWorth[i][col]
					if int(col) == changed {
						x = hp.cardWorth(*s, col, c.Number(), false)
					}
					w = max(w, x)
				}
			case int(c.Color()) == changed:
				w = hp.cardWorth(*s, c.Color(), c.Number(), false)
			}
		}
		t += w
		live = live || w > hp.deadCard
	}
	for _, n := range add {
		if n < 2 || n > 12 {
			t += e.handWorth(*s, nil, []int8{n})
			continue
		}
		if e.takeKnown&(1<<n) == 0 {
			avg := 0.0
			for _, col := range game.Colors {
				avg += hp.cardWorth(*s, col, int(n), false)
			}
			e.takeWorth[n] = avg / game.NumColors
			e.takeKnown |= 1 << n
		}
		t += e.takeWorth[n]
	}
	return t, live
}

// outlook is the seat's projected final score after m (sheet and hand)
// and its estimated chance to win, which value weighs together.
func (e *cardEval) outlook(m game.Move) (points, win float64) {
	return e.parts(m)
}

// crossCell crosses n in row c of s (the move is legal), with the lock.
func crossCell(s *game.Sheet, c game.Color, n int) {
	pos := game.Position(c, n)
	s.Rows[c] |= 1 << pos
	if pos == game.LastPos {
		s.Rows[c] |= 1 << game.LockPos
	}
}

// heuristicValues values legal for v.Seat into out (len(legal)).
func heuristicValues(v *game.PrivateView, legal []game.Move, out []float64) {
	heuristicValuesP(v, legal, out, &heurBase)
}

// heuristicValuesP is heuristicValues with tuning hp.
func heuristicValuesP(v *game.PrivateView, legal []game.Move, out []float64, hp *heurParams) {
	e := newCardEvalP(v, hp, nil)
	for i, m := range legal {
		out[i] = e.value(m)
	}
}

// heuristicChoiceP is the heuristic's choice among legal with tuning hp.
func heuristicChoiceP(v *game.PrivateView, legal []game.Move, hp *heurParams) game.Move {
	e := newCardEvalP(v, hp, nil)
	return legal[e.choice(legal)]
}

// choice is the index of the first of legal's highest values. It computes
// the chance to win (math.Erfc, the costly part) of few moves: a move that
// goes on is worth its projection x plus winBonus·Φ(x), Φ growing with x,
// so a move whose projection is below the highest one (top) is worth
// less than top, by at least the difference of the projections, as long
// as that is more than Φ's rounding error (math.Erfc's is below 1e-15;
// the margin below allows 1e-9). Those are not valued; the choice is the
// same as valuing every move.
func (e *cardEval) choice(legal []game.Move) int {
	wb := e.p.winBonus
	var buf [128]float64
	var ends [128]bool
	if len(legal) > len(buf) || !(wb >= 0) {
		best, bv := 0, math.Inf(-1)
		for i, m := range legal {
			if x := e.value(m); x > bv {
				best, bv = i, x
			}
		}
		return best
	}
	top := -1 // the first move that goes on with the highest projection
	for i, m := range legal {
		p, ended, w := e.points(m)
		if ended {
			p += wb * w
		} else if top < 0 || p > buf[top] {
			top = i
		}
		buf[i], ends[i] = p, ended
	}
	var topValue, bound float64
	if top >= 0 {
		phi := e.winChance(buf[top])
		topValue, bound = buf[top]+wb*phi, wb*(phi+1e-9)+1e-9
	}
	best, bv := 0, math.Inf(-1)
	for i, x := range buf[:len(legal)] {
		switch {
		case ends[i]:
		case i == top:
			x = topValue
		case x+bound < topValue:
			continue // worth less than top
		default:
			x += wb * e.winChance(x)
		}
		if x > bv {
			best, bv = i, x
		}
	}
	return best
}

// normCDF is the standard normal distribution function.
func normCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }
