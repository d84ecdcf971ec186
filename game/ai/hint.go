package ai

import (
	"math"
	"slices"

	"github.com/qwixxbot/qwixxbot/game"
)

// Advice is what the hard player would do in a seat's place, and why.
type Advice struct {
	// Move is the hard player's choice.
	Move game.Move
	// Gain is about how many points Move is worth more than passing (or,
	// where passing is not a choice, than the weakest choice), counting
	// the points still to come: expected points gained. PointsGained is
	// the same figure under a name that says its unit.
	Gain         float64
	PointsGained float64
	// WinChance is the estimated chance to win after Move (0–1), and
	// NearEnd says that the game is near its end, where the chance says
	// more than the points. EndsGame is set when Move ends the game (a
	// second lock, a fourth misthrow); then WinChance is its result: 1 a
	// win, 0 a loss, ½ a tie or undecided.
	WinChance float64
	NearEnd   bool
	EndsGame  bool
	// Fits says, for a card game's take, where each taken number fits: the
	// open row whose next free cell it comes nearest, and how many cells a
	// cross there would give up; Skips is -1 where no open row can take it.
	Fits []Fit
	// Color is the row Move crosses in; Crosses are the numbers it
	// crosses, Skipped the numbers it gives up on the way, Open the next
	// numbers the row stays open for (at most two), and Locks whether it
	// locks the row.
	Color   game.Color
	Crosses []int
	Skipped []int
	Open    []int
	Locks   bool
	// Misthrow is set when passing would cost a misthrow (D6, C7).
	Misthrow bool
}

// Fit is where a taken number fits (see Advice.Fits).
type Fit struct {
	Number int
	Color  game.Color
	Skips  int
}

// Hint advises seat v.Seat among legal (not empty), seeing only v.
func Hint(v game.PrivateView, legal []game.Move) Advice {
	var vals, points, win []float64
	var nearEnd bool
	if v.Variant.CardGame() {
		vals, points, win = hardSearch.detail(v, legal)
		e := newCardEval(&v)
		nearEnd = e.g <= 5
	} else {
		vals, points, win = diceDetail(v, legal)
		for c := range v.Closed {
			nearEnd = nearEnd || v.Closed[c]
		}
		for _, p := range v.Players {
			nearEnd = nearEnd || p.Sheet.Misthrows >= 3
			for _, r := range p.Sheet.Rows {
				nearEnd = nearEnd || (r.Count() >= 5 && r.Last() >= 7)
			}
		}
	}
	best := 0
	for i := range legal {
		if vals[i] > vals[best] {
			best = i
		}
	}
	// The points of the weakest choice the search weighed, or passing.
	base := math.Inf(1)
	for i := range legal {
		if !math.IsInf(vals[i], -1) {
			base = math.Min(base, points[i])
		}
	}
	for i, m := range legal {
		if m.Kind == game.Pass {
			base = points[i]
		}
	}
	a := Advice{Move: legal[best], Gain: points[best] - base, WinChance: win[best], NearEnd: nearEnd}
	a.PointsGained = a.Gain
	a.EndsGame = EndsGame(v, a.Move)
	if a.Move.Kind == game.Take {
		for _, n := range a.Move.TakeNumbers() {
			a.Fits = append(a.Fits, fitOf(v, n))
		}
	}
	for _, m := range legal {
		if m.Kind == game.Pass && misthrow(v, m) {
			a.Misthrow = true
		}
	}
	cs := crosses(v, a.Move)
	if len(cs) == 0 {
		return a
	}
	a.Color = cs[0].color
	row := v.Players[v.Seat].Sheet.Rows[a.Color]
	last := lastPos(cs)
	for _, x := range cs {
		a.Crosses = append(a.Crosses, x.n)
	}
	slices.SortFunc(a.Crosses, func(x, y int) int { return game.Position(a.Color, x) - game.Position(a.Color, y) })
	for pos := row.Last() + 1; pos < last; pos++ {
		if !crossesAt(cs, pos) {
			a.Skipped = append(a.Skipped, game.NumberAt(a.Color, pos))
		}
	}
	a.Locks = effectOf(v, cs).locks
	for pos := last + 1; pos <= game.LastPos && len(a.Open) < 2 && !a.Locks; pos++ {
		a.Open = append(a.Open, game.NumberAt(a.Color, pos))
	}
	return a
}

// fitOf is where display number n fits v.Seat's open rows best.
func fitOf(v game.PrivateView, n int) Fit {
	f := Fit{Number: n, Skips: -1}
	sheet := v.Players[v.Seat].Sheet
	for _, c := range game.Colors {
		row := sheet.Rows[c]
		pos := game.Position(c, n)
		if row.Locked() || v.Closed[c] || pos <= row.Last() {
			continue
		}
		if gap := pos - row.Last() - 1; f.Skips < 0 || gap < f.Skips {
			f.Color, f.Skips = c, gap
		}
	}
	return f
}

// EndsGame reports whether m ends the game by v.Seat's own choice: a
// second lock (D9, C9; in the dice game counting rows closed for
// everybody) or a fourth misthrow.
func EndsGame(v game.PrivateView, m game.Move) bool {
	s := v.Players[v.Seat].Sheet
	if misthrow(v, m) {
		return s.Misthrows+1 >= game.MaxMisthrows
	}
	cs := crosses(v, m)
	if len(cs) == 0 {
		return false
	}
	if !effectOf(v, cs).locks {
		return false
	}
	locks := s.Locks() + 1
	if v.Variant == game.Dice {
		locks = 1
		for c, closed := range v.Closed {
			if closed && game.Color(c) != cs[0].color {
				locks++
			}
		}
	}
	return locks >= 2
}
