package ai

import (
	"slices"

	"github.com/qwixxbot/qwixxbot/game"
)

// Advice is what the hard player would do in a seat's place, and why.
type Advice struct {
	// Move is the hard player's choice.
	Move game.Move
	// Gain is about how many points Move is worth more than passing (or,
	// where passing is not a choice, than the weakest choice), counting
	// the points still to come.
	Gain float64
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

// Hint advises seat v.Seat among legal (not empty), seeing only v.
func Hint(v game.PrivateView, legal []game.Move) Advice {
	vals := values(Hard, v, legal)
	best := 0
	for i := range legal {
		if vals[i] > vals[best] {
			best = i
		}
	}
	base := slices.Min(vals)
	for i, m := range legal {
		if m.Kind == game.Pass {
			base = vals[i]
		}
	}
	a := Advice{Move: legal[best], Gain: vals[best] - base}
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
