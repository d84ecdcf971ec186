package game

import (
	"errors"
	"fmt"
)

// ContinueDice returns a dice game (D1–D10) that goes on from what v
// shows: the sheets, open rows, dice, turn, active seat and phase as in v,
// and the dice still to come from seed. It reads only v, never the real
// game, so computer players may play it on to weigh their choices (C10).
//
// The dice game hides nothing but the choices made and not yet revealed
// in action 1 (D4): they are not in v, and in the returned game nobody
// has decided yet. The active player's crossing this turn (D6) follows
// from their fresh crosses, as action 1's crosses are made when it
// resolves. The returned game has no history: Moves and the rolls start
// empty.
func ContinueDice(v PrivateView, seed [32]byte) (*Game, error) {
	if v.Variant != Dice {
		return nil, fmt.Errorf("game: continue dice: a %s game", v.Variant)
	}
	n := len(v.Players)
	names := make([]string, n)
	for p, pv := range v.Players {
		names[p] = pv.Name
	}
	if err := checkPlayers(v.Variant, names); err != nil {
		return nil, fmt.Errorf("game: continue dice: %w", err)
	}
	if v.Turn < 1 || v.Active < 0 || v.Active >= n || v.Seat < 0 || v.Seat >= n {
		return nil, errors.New("game: continue dice: turn, active seat or seat out of range")
	}
	if v.Phase != PhaseWhite && v.Phase != PhaseColor {
		return nil, fmt.Errorf("game: continue dice: phase %s", v.Phase)
	}
	g := newGame(v.Variant, names, seed)
	s := &g.st
	for p, pv := range v.Players {
		s.Sheets[p] = pv.Sheet
		s.Fresh[p] = pv.Fresh
		s.Pending[p] = PassMove(p)
	}
	s.Turn = v.Turn
	s.Active = v.Active
	s.First = ((v.Active-(v.Turn-1))%n + n) % n
	s.Phase = v.Phase
	s.Dice = v.Dice
	s.Closed = v.Closed
	s.Crossed = v.Players[v.Active].Fresh != [NumColors]Row{}
	if err := g.Validate(); err != nil {
		return nil, fmt.Errorf("game: continue dice: %w", err)
	}
	return g, nil
}
