package ai

import (
	"math"

	"github.com/qwixxbot/qwixxbot/game"
)

// sheetState is the table state of seat's sheet: a row locked by
// anybody counts as locked (D7, D9).
func sheetState(v game.PrivateView, seat int) ([4]uint8, int) {
	sheet := v.Players[seat].Sheet
	var rows [4]uint8
	for i, c := range game.Colors {
		r := sheet.Rows[c]
		switch {
		case r.Locked() || v.Closed[c]:
			rows[i] = rowLocked
		case r.Last() < 0:
			rows[i] = rowEmpty
		default:
			rows[i] = rowIndex[r.Last()][r.Count()]
		}
	}
	return rows, sheet.Misthrows
}

// pointTable gives the points still to come from a sheet state.
type pointTable interface {
	at(rows [4]uint8, m int) float64
}

// diceTables are the hard dice player's tables: the points still to come
// after one's own turn (own), and after another player's turn (others),
// of which keep is the share that counts (the game may end by another's
// doing).
type diceTables struct {
	own, others pointTable
	keep        func(rows [4]uint8, m int) float64
	// rivalWeight weighs the leading other player's points still to come
	// against one's own: 0 plays for points alone.
	rivalWeight float64
	// ownMoments and othersMoments, where there are others, give the
	// expectation (own's and others' value) and the second moment of the
	// same points still to come, under the same play.
	ownMoments, othersMoments func(rows [4]uint8, m int) (float64, float64)
}

// diceState is what the hard dice player weighs a choice with: its sheet
// as a table state and the tables of points still to come; and the
// leading other player's sheet (rival), whose points still to come a
// choice takes away when it closes their rows or ends the game.
type diceState struct {
	t        diceTables
	rows     [4]uint8
	m        int
	hasRival bool // false alone (solo)
	rival    [4]uint8
	rivalM   int
	// judge makes a choice that ends the game worth its result (see
	// result); score is the seat's score now, othersLo the best other
	// score now and othersHi the best the others may have once the
	// action resolves (crossing the white sum at the same moment).
	judge              bool
	score, rivalScore  int
	othersLo, othersHi int
}

// endWorth is what a sure win (or, negated, a sure loss) is worth beyond
// its points: more than any difference of points, so a choice that ends
// the game as a win is taken and one that ends it as a loss is not,
// while another choice keeps the game going.
const endWorth = 1000

// Tuning of the win estimate (see worth): constants, so a measurement
// that tries others edits them here.
const (
	diceWinWeight = 0.0 // points a certain win is worth beyond the margin
	diceSpread0   = 4.0 // variance of the final margin at the end
	// diceRho is the correlation assumed between the seat's points still
	// to come and the rival's (the game ends for both at once).
	diceRho = 0.0
)

// winning reports whether worth weighs the chance to win.
func (d diceState) winning() bool { return d.judge && d.hasRival && diceWinWeight != 0 }

// worth is a choice's worth that scores pts and leaves the seat points
// still to come of expectation fut and variance futVar, and the rival
// rivalLoss's points, riv (variance rivVar): the expected margin, plus,
// when judging by the result (winning), diceWinWeight times the chance
// to win from a normal final margin.
func (d diceState) worth(pts, fut, riv, futVar, rivVar float64) float64 {
	v := pts + fut - riv
	if !d.winning() {
		return v
	}
	return v + diceWinWeight*d.winChance(v, futVar, rivVar)
}

// winChance is the chance that the final margin, normal with expectation
// the margin now plus v and variance from the seat's and the rival's
// variances of points still to come (correlated by diceRho), is positive.
func (d diceState) winChance(v, futVar, rivVar float64) float64 {
	mean := float64(d.score-d.rivalScore) + v
	sd := math.Sqrt(max(diceSpread0, diceSpread0+futVar+rivVar-2*diceRho*math.Sqrt(futVar*rivVar)))
	return normCDF(mean / sd)
}

// ownAfter is the expectation and the variance (when winning) of the
// points still to come after one's own turn at rows with m misthrows.
func (d diceState) ownAfter(rows [4]uint8, m int) (float64, float64) {
	if !d.winning() {
		return d.t.own.at(rows, m), 0
	}
	v, s := d.t.ownMoments(rows, m)
	return v, max(0, s-v*v)
}

// othersAfter is the expectation and the variance (when winning) of the
// points still to come after another player's turn that leaves rows with
// m misthrows: the game goes on with the chance keep.
func (d diceState) othersAfter(rows [4]uint8, m int) (float64, float64) {
	keep := d.t.keep(rows, m)
	if !d.winning() {
		return keep * d.t.others.at(rows, m), 0
	}
	v, s := d.t.othersMoments(rows, m)
	return keep * v, max(0, keep*s-keep*v*keep*v)
}

// ended reports whether the game is over at rows with m misthrows (D9).
func ended(rows [4]uint8, m int) bool { return m >= 4 || lockedRows(rows) >= 2 }

// result is the worth of ending the game having scored pts in this
// choice: a sure win; a loss, sure or if another player crosses the white
// sum at the same moment; or the points alone (a tie).
func (d diceState) result(pts float64) float64 {
	mine := float64(d.score) + pts
	switch {
	case !d.hasRival:
		return pts
	case mine > float64(d.othersHi):
		return endWorth + pts
	case mine < float64(d.othersLo):
		return -endWorth + pts
	case mine < float64(d.othersHi):
		// Lost if another player crosses the white sum too: at the end
		// of the game any cross is worth taking.
		return -endWorth/2 + pts
	case diceWinWeight > 0 && mine == float64(d.othersHi) && mine == float64(d.othersLo):
		return pts + diceWinWeight/2
	case diceWinWeight > 0:
		return pts + diceWinWeight*(mine-float64(d.othersLo))/float64(d.othersHi-d.othersLo+1)
	}
	return pts
}

// rivalLoss is what the rival still expects to score once rows are
// reached: nothing if the game is over, else their sheet with every row
// locked in rows closed (D7).
func (d diceState) rivalLoss(rows [4]uint8, m int) float64 {
	if !d.hasRival || d.t.rivalWeight == 0 {
		return 0
	}
	if m >= 4 || lockedRows(rows) >= 2 {
		return 0
	}
	r := d.rival
	for i := range r {
		if rows[i] == rowLocked {
			r[i] = rowLocked
		}
	}
	return d.t.rivalWeight * d.t.own.at(r, d.rivalM)
}

// rivalVar is the variance of the rival's points still to come once rows
// are reached (as rivalLoss), when winning.
func (d diceState) rivalVar(rows [4]uint8, m int) float64 {
	if !d.winning() || d.t.rivalWeight == 0 || ended(rows, m) {
		return 0
	}
	r := d.rival
	for i := range r {
		if rows[i] == rowLocked {
			r[i] = rowLocked
		}
	}
	v, s := d.t.ownMoments(r, d.rivalM)
	return d.t.rivalWeight * d.t.rivalWeight * max(0, s-v*v)
}

// cross is rows with number n crossed in row i, and the points scored.
func (d diceState) cross(rows [4]uint8, i, n int) ([4]uint8, float64, bool) {
	q := posOf(i, n)
	if q < 0 || q > lockPos {
		return rows, 0, false
	}
	next := rowNext[rows[i]][q]
	if next == noRow {
		return rows, 0, false
	}
	pts := float64(rowGain[rows[i]][q])
	rows[i] = next
	return rows, pts, true
}

// after is the worth of ending one's own turn at rows (scoring pts on
// the way) with m misthrows: the points scored plus the points still to
// come.
func (d diceState) after(rows [4]uint8, m int, pts float64) float64 {
	if d.judge && ended(rows, m) {
		return d.result(pts)
	}
	fut, futVar := d.ownAfter(rows, m)
	return d.worth(pts, fut, d.rivalLoss(rows, m), futVar, d.rivalVar(rows, m))
}

// newDiceState reads v.Seat's sheet and picks the rival: the other
// player with the most points scored and still to come. It is made once
// per decision and values each legal move (value).
func newDiceState(v game.PrivateView, t diceTables) diceState {
	rows, mis := sheetState(v, v.Seat)
	d := diceState{t: t, rows: rows, m: mis}
	best := negInf
	for p := range v.Players {
		if p == v.Seat {
			continue
		}
		r, rm := sheetState(v, p)
		if total := float64(v.Players[p].Sheet.Score()) + t.own.at(r, rm); total > best {
			best, d.rival, d.rivalM, d.hasRival = total, r, rm, true
			d.rivalScore = v.Players[p].Sheet.Score()
		}
	}
	d.score = v.Players[v.Seat].Sheet.Score()
	d.othersLo, d.othersHi = math.MinInt, math.MinInt
	ws := v.Dice[game.White1] + v.Dice[game.White2]
	for p, pv := range v.Players {
		if p == v.Seat {
			continue
		}
		now := pv.Sheet.Score()
		hi := now
		if v.Phase == game.PhaseWhite { // decided or not: the choice is hidden (D4)
			for _, c := range game.Colors {
				if !v.Closed[c] && pv.Sheet.CanCross(c, ws) {
					r := pv.Sheet.Rows[c]
					k := r.Count() + 1
					if game.Position(c, ws) == game.LastPos {
						k++
					}
					hi = max(hi, now+game.RowScore(k)-game.RowScore(r.Count()))
				}
			}
		}
		d.othersLo, d.othersHi = max(d.othersLo, now), max(d.othersHi, hi)
	}
	return d
}

// value is a dice move's worth: the points it scores plus the points
// still to come from the sheet it leaves, under best play, less what it
// takes from the rival. The active player weighs action 1 together with
// the best action 2 the dice then allow, as it sees all dice at once
// (D4, D5).
func (d diceState) value(v game.PrivateView, m game.Move) float64 {
	rows, mis := d.rows, d.m
	active := v.Seat == v.Active
	switch {
	case v.Phase == game.PhaseWhite && !active:
		r, pts := rows, 0.0
		if m.Kind != game.Pass {
			r, pts, _ = d.cross(rows, int(m.Color), v.Dice[game.White1]+v.Dice[game.White2])
			if d.judge && ended(r, mis) {
				return d.result(pts)
			}
		}
		fut, futVar := d.othersAfter(r, mis)
		return d.worth(pts, fut, d.rivalLoss(r, mis), futVar, d.rivalVar(r, mis))
	case v.Phase == game.PhaseWhite:
		r, pts := rows, 0.0
		crossed := false
		if m.Kind == game.White {
			r, pts, _ = d.cross(rows, int(m.Color), v.Dice[game.White1]+v.Dice[game.White2])
			crossed = true
			if lockedRows(r) >= 2 {
				return d.after(r, mis, pts) // the game ends: no action 2 (D9)
			}
		}
		return d.bestColour(v, r, pts, crossed)
	case v.Phase == game.PhaseColor:
		crossed := false
		for _, f := range v.Players[v.Seat].Fresh {
			crossed = crossed || f != 0
		}
		if m.Kind == game.Pass {
			return d.stop(rows, crossed)
		}
		r, pts, _ := d.cross(rows, int(m.Color), v.Dice[m.White-1]+v.Dice[game.DieOf(m.Color)])
		return d.after(r, mis, pts)
	}
	return 0
}

// stop is the worth of ending the turn at rows: a misthrow if nothing was
// crossed in it (D6).
func (d diceState) stop(rows [4]uint8, crossed bool) float64 {
	if crossed {
		return d.after(rows, d.m, 0)
	}
	return d.after(rows, d.m+1, -game.MisthrowPenalty)
}

// bestColour is the worth of the best action 2 (or none) from rows,
// having scored pts in action 1.
func (d diceState) bestColour(v game.PrivateView, rows [4]uint8, pts float64, crossed bool) float64 {
	best := d.stop(rows, crossed) + pts
	for i, c := range game.Colors {
		die := v.Dice[game.DieOf(c)]
		if die == 0 {
			continue
		}
		for _, w := range []int{v.Dice[game.White1], v.Dice[game.White2]} {
			if r, p, ok := d.cross(rows, i, w+die); ok {
				best = max(best, d.after(r, d.m, pts+p))
			}
		}
	}
	return best
}

var negInf = math.Inf(-1)

// diceDetail values legal as the hard dice player does (vals), and gives
// for each move the expected margin in points without the weight of
// results (points: differences between moves are points gained) and the
// estimated chance to win (a normal final margin whose variance is that
// of the seat's and the rival's points still to come now, from the
// tables; the result itself where the move ends the game).
func diceDetail(v game.PrivateView, legal []game.Move) (vals, points, win []float64) {
	d := newDiceState(v, tablesFor(len(v.Players), duoHard))
	d.judge = true
	plain := d
	plain.judge = false
	vals, points, win = make([]float64, len(legal)), make([]float64, len(legal)), make([]float64, len(legal))
	var futVar, rivVar float64
	if d.hasRival {
		v, s := d.t.ownMoments(d.rows, d.m)
		futVar = max(0, s-v*v)
		v, s = d.t.ownMoments(d.rival, d.rivalM)
		rivVar = max(0, s-v*v)
	}
	for i, m := range legal {
		vals[i] = d.value(v, m)
		points[i] = plain.value(v, m)
		switch {
		case !d.hasRival:
			win[i] = 1
		case vals[i] > endWorth/2:
			win[i] = 1
		case vals[i] < -endWorth/2:
			win[i] = 0
		default:
			win[i] = d.winChance(points[i], futVar, rivVar)
		}
	}
	return vals, points, win
}
