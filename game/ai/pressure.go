package ai

import "github.com/qwixxbot/qwixxbot/game"

// An experiment of issue 28 (NOTES.md, "## Dice"), not adopted: every
// knob here is off, so hard plays as without it. The duo tables assume
// that the others end the game with a chance that depends on one's own
// sheet only; the real chance depends on the other sheet (its misthrows,
// its rows that may be locked, the rows already locked). With the knobs
// (set by pressure_hook.go, built with -tags pressurehook) hard reads its
// tables between hazard levels (tables built with the hazard scaled),
// choosing the level for its own future from the other sheet and for the
// rival's from its own; or ends the other's next turn with a hazard read
// from the other sheet (firstHazard) or from the dice thrown
// (activeMayEnd); and a few more (threats, the margin, misthrow
// penalties, the rival's weight). Two-player games only.

// A hazLevel is a table built with min(0.4, scale × hazard).
type hazLevel struct {
	scale float64
	tab   func() *valueTable
}

// hazLevels are the levels hard reads between, by growing scale.
var hazLevels []hazLevel

// Knobs of the pressure (see levelScale).
var (
	pressureAlpha            = 1.0
	pressureMin, pressureMax = 1.0, 2.0
	pressureBase             = 1.25
	// pressureFirst, when set, makes the other's next turn end the game
	// with the pressured hazard itself (up to 0.95), not capped by the
	// levels.
	pressureFirst = false
)

// endChance is the chance, measured in hard's two-player self-play (5,000
// games, 116,411 turns), that the game ends in the turn of a player whose
// sheet is at rows with m misthrows: by its misthrows, its rows that may
// be locked (five crosses or more) and whether a row is locked.
func endChance(rows [4]uint8, m int) float64 {
	if m >= 3 {
		return 0.76
	}
	lockable := 0
	for _, r := range rows {
		if r != rowLocked && r != rowEmpty && rowCount[r] >= 5 {
			lockable++
		}
	}
	lockable = min(lockable, 3)
	if lockedRows(rows) > 0 {
		return [4]float64{0.028, 0.084, 0.118, 0.144}[lockable]
	}
	return [4]float64{0, 0.007, 0.021, 0.036}[lockable]
}

// typicalEnd is the chance, measured as endChance, that the game ends in
// the other player's turn, by the fill of the waiting player's sheet
// (interpolated between buckets of 4 crosses).
func typicalEnd(x int) float64 {
	pts := [...]float64{0, 0, 0.002, 0.011, 0.030, 0.072, 0.149, 0.241, 0.39}
	f := (float64(x) - 2) / 4
	if f <= 0 {
		return 0
	}
	i := int(f)
	if i >= len(pts)-1 {
		return pts[len(pts)-1]
	}
	w := f - float64(i)
	return (1-w)*pts[i] + w*pts[i+1]
}

// fillMix, when > 0, makes levelScale read the hazard at a fill between
// one's own (0) and the other's (1) instead.
var fillMix = 0.0

// levelScale is the hazard scale for the future of a sheet at rows (m
// misthrows) while the other sheet is at other (om misthrows): the base
// hazard plus how much likelier the other is to end the game than is
// typical at this fill, relative to hazard.
func levelScale(rows [4]uint8, m int, other [4]uint8, om int) float64 {
	h := float64(hazard(rows, m))
	if fillMix > 0 {
		x := (1-fillMix)*float64(fill(rows)) + fillMix*float64(fill(other))
		return min(pressureMax, max(pressureMin, pressureBase*min(0.4, 0.06+0.004*x)/h))
	}
	s := (pressureBase*h + pressureAlpha*(endChance(other, om)-typicalEnd(fill(rows)))) / h
	return min(pressureMax, max(pressureMin, s))
}

// firstHazard is the pressured hazard of the other's next turn.
func firstHazard(rows [4]uint8, m int, other [4]uint8, om int) float64 {
	if firstPure > 0 {
		return min(0.95, firstPure*endChance(other, om))
	}
	h := float64(hazard(rows, m))
	return min(0.95, max(0, pressureBase*h+pressureAlpha*(endChance(other, om)-typicalEnd(fill(rows)))))
}

// levelTable reads the levels at a scale, interpolating between the two
// around it.
type levelTable struct {
	lo, hi *valueTable
	w      float64 // hi's weight
	scale  float64
	first  float64 // when > 0, the hazard of the next turn of the other
}

// levelAt is the levels' table at scale (hazLevels must be set).
func levelAt(scale float64) levelTable {
	ls := hazLevels
	if scale <= ls[0].scale {
		return levelTable{lo: ls[0].tab(), hi: ls[0].tab(), scale: ls[0].scale}
	}
	for i := 1; i < len(ls); i++ {
		if scale <= ls[i].scale {
			w := (scale - ls[i-1].scale) / (ls[i].scale - ls[i-1].scale)
			return levelTable{lo: ls[i-1].tab(), hi: ls[i].tab(), w: w, scale: scale}
		}
	}
	l := ls[len(ls)-1]
	return levelTable{lo: l.tab(), hi: l.tab(), scale: l.scale}
}

// at interpolates the points still to come between the two levels.
func (t levelTable) at(rows [4]uint8, m int) float64 {
	a := t.lo.at(rows, m)
	if t.w == 0 {
		return a
	}
	return (1-t.w)*a + t.w*t.hi.at(rows, m)
}

// hazard is the chance that the other ends the game in its turn: first,
// else the level's scaled hazard.
func (t levelTable) hazard(rows [4]uint8, m int) float32 {
	if t.first > 0 {
		return float32(t.first)
	}
	return min(0.4, float32(t.scale)*hazard(rows, m))
}

// levelAfter is levelTable's points still to come after one's own turn,
// as afterOwn.
type levelAfter levelTable

// at is the points still to come after one's own turn.
func (t levelAfter) at(rows [4]uint8, m int) float64 {
	if m >= 4 || lockedRows(rows) >= 2 {
		return 0
	}
	lt := levelTable(t)
	own := func(r [4]uint8, m int) (float32, float32) { return float32(lt.at(r, m)), 0 }
	v, _ := whiteOnly(rows, m, 1-lt.hazard(rows, m), own)
	return float64(v)
}

// pressureTables are hard's tables for a two-player decision of a seat
// at rows (m misthrows) against a rival at rival (rm misthrows).
func pressureTables(rows [4]uint8, m int, rival [4]uint8, rm int, margin float64) diceTables {
	me := levelAt(levelScale(rows, m, rival, rm))
	them := levelAt(levelScale(rival, rm, rows, m))
	if marginGamma != 0 {
		me = levelAt(min(marginMax, max(marginMin, pressureBase+marginGamma*margin)))
		them = levelAt(min(marginMax, max(marginMin, pressureBase-marginGamma*margin)))
		if !marginRival {
			them = levelAt(pressureBase)
		}
	}
	if pressureFirst {
		me.first = max(0.001, firstHazard(rows, m, rival, rm))
		them.first = max(0.001, firstHazard(rival, rm, rows, m))
	}
	var own, others pointTable = levelAfter(me), me
	if q, ok := threats(rival); ok {
		own, others = threatTable{own, q}, threatTable{others, q}
	}
	return diceTables{own: own, others: others, rivalWeight: 1,
		keep:  func(rows [4]uint8, m int) float64 { return 1 - float64(me.hazard(rows, m)) },
		rival: levelAfter(them)}
}

// Threat knobs: the chance that the other locks a row of theirs with
// five crosses or more (threat5), or four (threat4), before one's own
// crosses there count.
var threat5, threat4 = 0.0, 0.0

// threatTable is a table's points still to come where the other may lock
// some rows first: with chance q[i] row i counts as locked.
type threatTable struct {
	base pointTable
	q    [4]float64
}

// at is base's value less, for each threatened row, q times what losing
// the row to the other costs.
func (t threatTable) at(rows [4]uint8, m int) float64 {
	v := t.base.at(rows, m)
	x := v
	for i, q := range t.q {
		if q == 0 || rows[i] == rowLocked {
			continue
		}
		r := rows
		r[i] = rowLocked
		x -= q * (v - t.base.at(r, m))
	}
	return x
}

// threats is the chance that each row is locked first by the player at
// other.
func threats(other [4]uint8) (q [4]float64, any bool) {
	for i, r := range other {
		if r == rowLocked || r == rowEmpty {
			continue
		}
		switch c := rowCount[r]; {
		case c >= 5:
			q[i] = threat5
		case c == 4:
			q[i] = threat4
		}
		any = any || q[i] > 0
	}
	return q, any
}

// Margin knobs: the level from the expected margin.
var (
	marginGamma          = 0.0
	marginMin, marginMax = 1.0, 2.0
	marginRival          = false
)

// endNowP is the chance taken that the active player ends the game in
// this turn where the dice let it (activeMayEnd); 0: off.
var endNowP = 0.0

// activeMayEnd reports whether the dice thrown let the active player end
// the game in this turn: lock a second row (with the white sum or a white
// and a colour die), or, at three misthrows, cross nothing at all.
func activeMayEnd(v game.PrivateView) bool {
	a := v.Players[v.Active].Sheet
	locked := 0
	for _, c := range game.Colors {
		if v.Closed[c] {
			locked++
		}
	}
	ws := v.Dice[game.White1] + v.Dice[game.White2]
	any, locks := false, 0
	for _, c := range game.Colors {
		if v.Closed[c] {
			continue
		}
		canLock := false
		sums := []int{ws}
		if d := v.Dice[game.DieOf(c)]; d != 0 {
			sums = append(sums, v.Dice[game.White1]+d, v.Dice[game.White2]+d)
		}
		for _, n := range sums {
			if a.CanCross(c, n) {
				any = true
				canLock = canLock || game.Position(c, n) == game.LastPos
			}
		}
		if canLock {
			locks++
		}
	}
	return locked+locks >= 2 || (a.Misthrows >= 3 && !any)
}

// firstPure, when > 0, makes the next turn's hazard the measured chance
// alone, times firstPure.
var firstPure = 0.0

// rivalW, when ≥ 0, replaces hard's rival weight (1).
var rivalW = -1.0

// lockNowP is the chance taken that the active player locks a row in
// this turn where the dice let it (activeLocks); 0: off.
var lockNowP = 0.0

// activeLocks gives p for each row that the dice thrown let the active
// player lock in this turn (the white sum, or a white and a colour die),
// while no row is locked yet.
func activeLocks(v game.PrivateView, p float64) (q [4]float64) {
	a := v.Players[v.Active].Sheet
	for _, c := range game.Colors {
		if v.Closed[c] {
			return q
		}
	}
	ws := v.Dice[game.White1] + v.Dice[game.White2]
	for i, c := range game.Colors {
		sums := []int{ws}
		if d := v.Dice[game.DieOf(c)]; d != 0 {
			sums = append(sums, v.Dice[game.White1]+d, v.Dice[game.White2]+d)
		}
		for _, n := range sums {
			if a.CanCross(c, n) && game.Position(c, n) == game.LastPos {
				q[i] = p
			}
		}
	}
	return q
}
