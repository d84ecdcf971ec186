package game

import "fmt"

// roll rolls every die still in play (D3): the two white dice and the dice
// of rows not yet locked. Dice that left the game show 0.
func (g *Game) roll() {
	s := &g.st
	var d [6]int
	if g.st.Script != nil && g.st.Script.NextRoll < len(g.st.Script.Rolls) {
		d = g.st.Script.Rolls[g.st.Script.NextRoll]
		g.st.Script.NextRoll++
		for _, c := range Colors {
			if !s.Closed[c] && d[DieOf(c)] == 0 {
				g.st.Script.err = fmt.Errorf("roll %d: the %s die is in play but shows 0", g.st.Script.NextRoll, c)
				d[DieOf(c)] = 1 + g.rnd.IntN(6)
			}
		}
	} else {
		for i := range d {
			d[i] = 1 + g.rnd.IntN(6)
		}
	}
	for _, c := range Colors {
		if s.Closed[c] {
			d[DieOf(c)] = 0
		}
	}
	s.Dice = d
	s.Log.Rolls = append(s.Log.Rolls, d)
}

// coloredSum is white die w (1 or 2) plus the die of colour c.
func (g *Game) coloredSum(w uint8, c Color) int {
	return g.st.Dice[w-1] + g.st.Dice[DieOf(c)]
}

// checkColored checks an action-2 move against the active player's sheet as
// it is after their own action-1 cross (D5) and the dice still in play (D8).
func (g *Game) checkColored(m Move) MoveError {
	if m.White != 1 && m.White != 2 {
		return MoveError{Reason: ReasonBadWhiteDie}
	}
	if !m.Color.Valid() {
		return MoveError{Reason: ReasonBadColor, Color: m.Color}
	}
	if g.st.Closed[m.Color] {
		return MoveError{Reason: ReasonDieGone, Color: m.Color}
	}
	return g.checkRow(m.Player, m.Color, g.coloredSum(m.White, m.Color))
}

// applyColored plays action 2 (a checked Colored move or a pass) and ends the
// turn.
func (g *Game) applyColored(m Move) {
	if m.Kind == Colored {
		if g.crossFor(m.Player, m.Color, g.coloredSum(m.White, m.Color)) {
			g.closeRow(m.Color)
		}
		g.st.Crossed = true
	}
	g.endTurn()
}

func (g *Game) appendDiceMoves(dst []Move, p int) []Move {
	s := &g.st
	dst = append(dst, PassMove(p))
	switch s.Phase {
	case PhaseWhite:
		n := g.WhiteSum()
		for _, c := range Colors {
			if g.canCross(p, c, n) {
				dst = append(dst, WhiteMove(p, c))
			}
		}
	case PhaseColor:
		for w := 1; w <= 2; w++ {
			if w == 2 && s.Dice[White1] == s.Dice[White2] {
				break // the same sums as white die 1
			}
			for _, c := range Colors {
				if g.canCross(p, c, g.coloredSum(uint8(w), c)) {
					dst = append(dst, ColoredMove(p, w, c))
				}
			}
		}
	}
	return dst
}
