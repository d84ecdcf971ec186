package bot

import (
	"slices"
	"testing"

	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/render"
)

// crossedBy lists the number cells that seat's legal moves now would cross,
// found by making each on a copy of the game. Plays are left out: they are
// built in the hand view, not chosen on the sheet.
func crossedBy(t *testing.T, tb *Table, seat int) []render.Cell {
	t.Helper()
	if tb.Stage != StagePlaying || !tb.Game.MayAct(seat) {
		return nil
	}
	var cells []render.Cell
	before := tb.Game.Sheet(seat)
	for _, m := range tb.Game.LegalMoves(seat) {
		if m.Kind == game.Play {
			continue
		}
		g := tb.Game.Clone()
		if err := g.Apply(m); err != nil {
			t.Fatalf("legal move %v: %v", m, err)
		}
		// A decision in a simultaneous action counts when the action
		// resolves: the others pass.
		for range game.MaxPlayers {
			w := g.Waiting()
			if g.Sheet(seat) != before || len(w) == 0 || g.Apply(game.PassMove(w[0])) != nil {
				break
			}
		}
		after := g.Sheet(seat)
		for _, c := range game.Colors {
			for pos := 0; pos < game.LockPos; pos++ {
				cell := render.Cell{Color: c, Number: game.NumberAt(c, pos)}
				if after.Rows[c].Crossed(pos) && !before.Rows[c].Crossed(pos) && !slices.Contains(cells, cell) {
					cells = append(cells, cell)
				}
			}
		}
	}
	return cells
}

// The private sheet view ("My sheet", /qwixx sheet) is drawn with exactly
// the cells the player's current choices would cross, each once, and none
// for a player who may not act now (RULES C10: only their own, only in
// their private view; the public table's Renderer call has no choices).
func TestSheetViewMarksChoices(t *testing.T) {
	for _, variant := range []string{"dice", "cards"} {
		h := newHarness(t)
		h.bot.opt.LiveAnswers = true
		h.startTwo(variant)
		users := []string{"anna", "ben"}
		marked, empty := 0, 0
		for step := 0; step < 80 && h.table().Stage == StagePlaying; step++ {
			tb := h.table()
			for seat, u := range users {
				h.rd.mu.Lock()
				n := len(h.rd.sheets)
				h.rd.mu.Unlock()
				h.command(u, "sheet")
				h.rd.mu.Lock()
				got := slices.Clone(h.rd.sheets[n:])
				h.rd.mu.Unlock()
				if len(got) != 1 || got[0].seat != seat {
					t.Fatalf("%s step %d: %s's sheet view drew %+v", variant, step, u, got)
				}
				want := crossedBy(t, tb, seat)
				less := func(a, b render.Cell) int { return int(a.Color)*100 + a.Number - int(b.Color)*100 - b.Number }
				have := slices.Clone(got[0].choices)
				slices.SortFunc(have, less)
				slices.SortFunc(want, less)
				if !slices.Equal(have, want) {
					t.Fatalf("%s step %d (%v): %s's sheet marks %v, their moves cross %v", variant, step, tb.Game.Phase(), u, have, want)
				}
				if len(want) > 0 {
					marked++
				} else {
					empty++
				}
			}
			p := tb.Game.Waiting()[0]
			moves := tb.Game.LegalMoves(p)
			m := moves[0]
			if i := slices.IndexFunc(moves, func(m game.Move) bool { return m.Kind != game.Pass }); i >= 0 && step%3 != 2 {
				m = moves[i]
			}
			h.clickMove(tb, users[p], m)
		}
		t.Logf("%s: %d sheet views with marks, %d without", variant, marked, empty)
		if marked < 5 || empty < 5 {
			t.Errorf("%s: %d sheet views with marks, %d without: the game did not try both", variant, marked, empty)
		}
	}
}
