// Package ai holds computer players for Qwixx: the dice game, the card game
// and jokers. A player chooses among the legal moves of its seat from what
// that seat may know (RULES C10): the public view and its own hand, given
// as a game.PrivateView, and nothing else. Choices are deterministic: the
// same view and moves give the same choice.
package ai

import (
	"fmt"

	"github.com/qwixxbot/qwixxbot/game"
)

// Level is a computer player's strength.
type Level int

// The levels.
const (
	// Easy plays like a beginner: it crosses the next free cell of a row
	// or one further, passes otherwise, takes the leftmost display cards
	// and avoids misthrows while a cheap cross is at hand.
	Easy Level = iota + 1
	// Medium plays like the best-known online opponent (osclee/qwixx's
	// "hard" bot): one move of lookahead with exact dice odds, weighing the
	// points a cross gains against the cells it gives up, each by how
	// likely it would come up in about ten remaining turns, plus 5 for a
	// lock; it passes when every cross costs more than it gains. In the
	// card games a misthrow counts its 5 points against the crosses.
	Medium
	// Hard, in the dice game, values every choice as the points it scores
	// plus the points still to come from the sheet it leaves under best
	// play, read from tables computed by backward induction over all
	// sheet states (cmd/qwixxtables), less the points the leading other
	// player still expects where the choice closes their rows or ends the
	// game. In the card games it plays candidate moves out to the end over
	// deals of the cards it cannot see (see cardSearch).
	Hard
	// Heuristic is a baseline for measuring (not offered at a table): in
	// the card games the one-move heuristic that Hard also plays its
	// play-outs with (see heuristic.go); in the dice game it plays as
	// Medium.
	Heuristic
	// HardV1 is a baseline for measuring: the hard player as it was
	// before the card search used the heuristic and a win objective, and
	// before dice endings were judged by the result.
	HardV1
	// GA is a baseline for measuring, in the dice game: a port of the
	// genetic-algorithm champion of vibelyova/qwixxer (see qwixxer.go). In
	// the card games it plays as Medium.
	GA
)

// Levels lists the levels offered at a table, weakest first.
var Levels = []Level{Easy, Medium, Hard}

// Baselines lists the levels kept for measuring strength in the arena.
var Baselines = []Level{Heuristic, HardV1, GA}

// ParseLevel reads a level's name ("easy", "medium", "hard").
func ParseLevel(s string) (Level, error) {
	for _, l := range Levels {
		if l.String() == s {
			return l, nil
		}
	}
	return 0, fmt.Errorf("ai: unknown level %q (easy, medium or hard)", s)
}

// ParseAnyLevel reads a level's name, the baselines' included.
func ParseAnyLevel(s string) (Level, error) {
	for _, l := range Baselines {
		if l.String() == s {
			return l, nil
		}
	}
	l, err := ParseLevel(s)
	if err != nil {
		return 0, fmt.Errorf("ai: unknown level %q (easy, medium, hard, heuristic, hard-v1 or ga)", s)
	}
	return l, nil
}

// String names the level.
func (l Level) String() string {
	switch l {
	case Easy:
		return "easy"
	case Medium:
		return "medium"
	case Hard:
		return "hard"
	case Heuristic:
		return "heuristic"
	case HardV1:
		return "hard-v1"
	case GA:
		return "ga"
	}
	return "unknown"
}

// Choose picks one of legal, the legal moves of seat v.Seat now, seeing
// only v. legal must not be empty.
func Choose(l Level, v game.PrivateView, legal []game.Move) game.Move {
	vals := values(l, v, legal)
	best := 0
	for i := range legal {
		if vals[i] > vals[best] {
			best = i
		}
	}
	return legal[best]
}

// values weighs each of legal for level l; the first of the highest is
// the level's choice.
func values(l Level, v game.PrivateView, legal []game.Move) []float64 {
	var value func(game.Move) float64
	switch {
	case l == Easy:
		value = func(m game.Move) float64 { return easyValue(v, m) }
	case (l == Hard || l == HardV1) && v.Variant == game.Dice:
		duo := duoHard
		if l == HardV1 {
			duo = duoV1
		}
		d := newDiceState(v, tablesFor(len(v.Players), duo))
		d.judge = l == Hard
		value = func(m game.Move) float64 { return d.value(v, m) }
	case l == GA && v.Variant == game.Dice:
		return gaValues(v, legal)
	case l == HardV1:
		return hardCardsV1(v, legal)
	case l == Hard:
		return hardSearch.values(v, legal)
	case l == Heuristic && v.Variant.CardGame():
		vals := make([]float64, len(legal))
		heuristicValues(&v, legal, vals)
		return vals
	default:
		value = mediumPolicy(v)
	}
	vals := make([]float64, len(legal))
	for i, m := range legal {
		vals[i] = value(m)
	}
	return vals
}

// cross is one number a move crosses.
type cross struct {
	color game.Color
	n     int
}

// crosses lists what m crosses on v.Seat's sheet.
func crosses(v game.PrivateView, m game.Move) []cross {
	switch m.Kind {
	case game.White:
		return []cross{{m.Color, v.Dice[game.White1] + v.Dice[game.White2]}}
	case game.Number:
		return []cross{{m.Color, v.Table.DrawTop}}
	case game.Colored:
		return []cross{{m.Color, v.Dice[m.White-1] + v.Dice[game.DieOf(m.Color)]}}
	case game.Play:
		var out []cross
		for n := 2; n <= 12; n++ {
			if m.Cross&(1<<n) != 0 {
				out = append(out, cross{m.Color, n})
			}
		}
		return out
	}
	return nil
}

// misthrow reports whether m makes v.Seat cross a misthrow (D6, C7): the
// active player's last chance in the turn, nothing crossed in it yet, and
// m crosses nothing.
func misthrow(v game.PrivateView, m game.Move) bool {
	last := v.Phase == game.PhaseColor || v.Phase == game.PhasePlay
	if !last || v.Seat != v.Active || len(crosses(v, m)) > 0 || m.Kind == game.Take {
		return false
	}
	for _, r := range v.Players[v.Seat].Fresh {
		if r != 0 {
			return false
		}
	}
	return true
}

// effect is what a crossing move does to its row: cells given up to the
// left of its crosses, crosses added (the lock included) and whether it
// locks.
type effect struct {
	skipped, added int
	locks          bool
	color          game.Color
}

func effectOf(v game.PrivateView, cs []cross) effect {
	if len(cs) == 0 {
		return effect{}
	}
	c := cs[0].color
	row := v.Players[v.Seat].Sheet.Rows[c]
	maxPos := -1
	for _, x := range cs {
		maxPos = max(maxPos, game.Position(c, x.n))
	}
	e := effect{color: c, added: len(cs), skipped: maxPos - row.Last() - len(cs)}
	if maxPos == game.LastPos {
		e.locks, e.added = true, e.added+1
	}
	return e
}

// easyValue: cross where it skips at most one cell, the nearer the better;
// pass otherwise; no misthrow while some cross skips at most three.
func easyValue(v game.PrivateView, m game.Move) float64 {
	if m.Kind == game.Take {
		return 0 // the first legal take: the leftmost cards
	}
	cs := crosses(v, m)
	if len(cs) == 0 {
		if misthrow(v, m) {
			return -3.5
		}
		return -1.5
	}
	e := effectOf(v, cs)
	return float64(len(cs)) - float64(e.skipped)
}

// ways is in how many of the 36 throws two dice show n: 1 for 2 and 12,
// 6 for 7.
func ways(n int) int { return 6 - abs(7-n) }

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// lastPos is the rightmost position crossed by cs (one row).
func lastPos(cs []cross) int {
	p := -1
	for _, x := range cs {
		p = max(p, game.Position(x.color, x.n))
	}
	return p
}

// crossesAt reports whether cs crosses position pos.
func crossesAt(cs []cross, pos int) bool {
	for _, x := range cs {
		if game.Position(x.color, x.n) == pos {
			return true
		}
	}
	return false
}

// fit is how well a display number suits v.Seat's open rows: 0 for the
// next free cell of some row, less the more cells it would give up, -6
// where no open row can take it.
func fit(v game.PrivateView, n int) float64 {
	sheet := v.Players[v.Seat].Sheet
	best := -6.0
	for _, c := range game.Colors {
		row := sheet.Rows[c]
		if row.Locked() || v.Closed[c] {
			continue
		}
		pos := game.Position(c, n)
		if pos <= row.Last() {
			continue
		}
		best = max(best, -float64(pos-row.Last()-1))
	}
	return best
}
