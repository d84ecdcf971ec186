package ai

import "github.com/qwixxbot/qwixxbot/game"

// The GA level is a port of the genetic-algorithm champion of
// vibelyova/qwixxer, the most thorough public multi-player Qwixx AI, as
// published with its solo mean of 71.0 points (docs/EXPERIMENTS.md,
// "Solo benchmarks"; src/bot.rs and champion.txt at commit 3f5389d): it
// values the sheet a choice leaves by four features weighted with the
// champion's weights, and always takes a choice that locks a row. The
// active player picks its two actions together among every white,
// coloured and double choice and the misthrow, as qwixxer does; here the
// white part is played in action 1 and action 2 is chosen again in action
// 2 (the same choice unless another player's lock changed the sheet).
// Differences from qwixxer's own engine: there the active player moves
// first and the others see its locks before choosing; here action 1 is
// simultaneous (D4), as in the rules. Kept as an arena baseline that
// nobody here tuned.
var gaWeights = [4]float64{
	0.5600566015156107,   // weighted probability: Σ over open rows of P(white sum = next free number)·(crosses+1)
	-0.8257713586323889,  // strikes: misthrows
	0.021340219325591617, // concentration: Σ over rows of crosses squared
	-0.0631099152300065,  // blanks: cells given up in open rows
}

// gaRow is a row as qwixxer keeps it: its crosses (a lock counts as a
// cross) and its next free cell's position, -1 when the row is closed.
type gaRow struct{ total, free int }

type gaState struct {
	rows    [4]gaRow
	strikes int
}

func gaStateOf(v game.PrivateView) gaState {
	var s gaState
	sheet := v.Players[v.Seat].Sheet
	s.strikes = sheet.Misthrows
	for i, c := range game.Colors {
		r := sheet.Rows[c]
		s.rows[i] = gaRow{total: r.Count(), free: r.Last() + 1}
		if r.Locked() || v.Closed[c] {
			s.rows[i].free = -1
		}
	}
	return s
}

// canMark: n in row i, right of the last cross, the last number only
// after five crosses.
func (s gaState) canMark(i, n int) bool {
	r := s.rows[i]
	pos := game.Position(game.Colors[i], n)
	if r.free < 0 || pos < r.free {
		return false
	}
	return pos != game.LastPos || r.total >= 5
}

func (s gaState) mark(i, n int) gaState {
	pos := game.Position(game.Colors[i], n)
	s.rows[i].total++
	s.rows[i].free = pos + 1
	if pos == game.LastPos {
		s.rows[i].total++
		s.rows[i].free = -1
	}
	return s
}

func (s gaState) locked() int {
	k := 0
	for _, r := range s.rows {
		if r.free < 0 {
			k++
		}
	}
	return k
}

// instinct is the champion's value of a sheet.
func (s gaState) instinct() float64 {
	var prob, conc, blanks float64
	for i, r := range s.rows {
		conc += float64(r.total * r.total)
		if r.free < 0 {
			continue
		}
		blanks += float64(r.free - r.total)
		n := game.NumberAt(game.Colors[i], r.free)
		prob += float64(ways(n)) / 36 * float64(r.total+1)
	}
	f := [4]float64{prob, float64(s.strikes), conc, blanks}
	v := 0.0
	for i, w := range gaWeights {
		v += w * f[i]
	}
	return v
}

// gaPlan is one of the active player's choices: a white cross (row or -1)
// and a coloured one (row, white die, or -1), or the misthrow.
type gaPlan struct {
	white      int
	color, die int
	strike     bool
}

// gaValues values legal for the GA level: 1 for its choice, 0 otherwise.
func gaValues(v game.PrivateView, legal []game.Move) []float64 {
	vals := make([]float64, len(legal))
	want := gaChoice(v)
	for i, m := range legal {
		if m == want {
			vals[i] = 1
			return vals
		}
	}
	return vals // not reached: the choice is legal
}

func gaChoice(v game.PrivateView) game.Move {
	s := gaStateOf(v)
	seat := v.Seat
	ws := v.Dice[game.White1] + v.Dice[game.White2]
	if v.Seat != v.Active {
		// qwixxer's opponents_move: lock if possible, else the best sheet,
		// the pass last (a tie goes to it).
		for i := range 4 {
			if s.canMark(i, ws) && s.mark(i, ws).locked() > s.locked() {
				return game.WhiteMove(seat, game.Colors[i])
			}
		}
		best, bv := game.PassMove(seat), negInf
		for i := range 4 {
			if s.canMark(i, ws) {
				if x := s.mark(i, ws).instinct(); x > bv {
					best, bv = game.WhiteMove(seat, game.Colors[i]), x
				}
			}
		}
		if s.instinct() >= bv {
			best = game.PassMove(seat)
		}
		return best
	}
	crossed := false
	for _, r := range v.Players[seat].Fresh {
		crossed = crossed || r != 0
	}
	var plans []gaPlan
	whites := []int{-1}
	if v.Phase == game.PhaseWhite {
		whites = whites[:0]
		for i := range 4 {
			if s.canMark(i, ws) {
				whites = append(whites, i)
			}
		}
		// qwixxer's order: white singles, coloured singles, doubles.
		for _, i := range whites {
			plans = append(plans, gaPlan{white: i, color: -1})
		}
		whites = append([]int{-1}, whites...)
	}
	for _, wi := range whites {
		after := s
		if wi >= 0 {
			after = s.mark(wi, ws)
		}
		for i := range 4 {
			die := v.Dice[game.DieOf(game.Colors[i])]
			if die == 0 {
				continue
			}
			for w := 1; w <= 2; w++ {
				n := v.Dice[w-1] + die
				if w == 2 && v.Dice[0] == v.Dice[1] {
					continue // the same number as with white 1
				}
				if after.canMark(i, n) {
					plans = append(plans, gaPlan{white: wi, color: i, die: w})
				}
			}
		}
	}
	apply := func(p gaPlan) gaState {
		t := s
		if p.strike {
			t.strikes++
			return t
		}
		if p.white >= 0 {
			t = t.mark(p.white, ws)
		}
		if p.color >= 0 {
			t = t.mark(p.color, v.Dice[p.die-1]+v.Dice[game.DieOf(game.Colors[p.color])])
		}
		return t
	}
	var choice gaPlan
	found := false
	for _, p := range plans { // always lock if possible
		if apply(p).locked() > s.locked() {
			choice, found = p, true
			break
		}
	}
	if !found {
		if crossed {
			plans = append(plans, gaPlan{white: -1, color: -1}) // action 2 passed, no misthrow
		} else {
			plans = append(plans, gaPlan{white: -1, color: -1, strike: true})
		}
		bv := negInf
		for _, p := range plans {
			if x := apply(p).instinct(); x >= bv { // a tie goes to the later, as Rust's max_by
				choice, bv = p, x
			}
		}
	}
	if v.Phase == game.PhaseWhite {
		if choice.white >= 0 {
			return game.WhiteMove(seat, game.Colors[choice.white])
		}
		return game.PassMove(seat)
	}
	if choice.color >= 0 {
		return game.ColoredMove(seat, choice.die, game.Colors[choice.color])
	}
	return game.PassMove(seat)
}
