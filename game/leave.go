package game

import (
	"errors"
	"fmt"
	"slices"
)

// Departure is a seat whose player left the game and that nobody plays
// from then on (RULES P2): Player's seat, after Moves moves of the log.
type Departure struct {
	Player int `json:"player"`
	Moves  int `json:"moves"`
}

// ErrLeft is returned by Leave for a seat that already left.
var ErrLeft = errors.New("game: the player already left")

// Leave records that player p left the game and that nobody plays the
// seat from now on: its moves are the timeout moves (P1) made for it, and
// while anybody else still plays, a turn in which it crosses nothing costs
// it no misthrow (P2), so that its passes never end the game (D9, C9) for
// those who stay. Once every seat has left, misthrows count as ever, and
// the game ends as D9 and C9 say. A seat a computer player takes over has
// not left: the computer plays it by the rules.
//
// A departure is part of the game's record (Record.Left): a replay
// reproduces it.
func (g *Game) Leave(p int) error {
	s := &g.st
	switch {
	case p < 0 || p >= len(s.Players):
		return fmt.Errorf("game: leave: no player %d", p)
	case s.Phase == PhaseOver:
		return errors.New("game: leave: the game is over")
	case g.HasLeft(p):
		return ErrLeft
	}
	s.Log.Left = append(s.Log.Left, Departure{Player: p, Moves: len(s.Log.Moves)})
	return nil
}

// HasLeft reports whether player p left the game (Leave).
func (g *Game) HasLeft(p int) bool {
	return slices.ContainsFunc(g.st.Log.Left, func(d Departure) bool { return d.Player == p })
}

// Departures lists the seats that left, in the order they left.
func (g *Game) Departures() []Departure { return slices.Clone(g.st.Log.Left) }

// unplayed reports whether p's seat is one nobody plays while others
// still do: its passes cost no misthrow (P2).
func (g *Game) unplayed(p int) bool {
	return g.HasLeft(p) && len(g.st.Log.Left) < len(g.st.Players)
}

// validateLeft checks the departures: known seats, each once, in the
// order of the log.
func (g *Game) validateLeft() error {
	s := &g.st
	prev := 0
	for i, d := range s.Log.Left {
		if d.Player < 0 || d.Player >= len(s.Players) || d.Moves < prev || d.Moves > len(s.Log.Moves) {
			return fmt.Errorf("departure %d (%+v) is off the game", i+1, d)
		}
		if slices.ContainsFunc(s.Log.Left[:i], func(e Departure) bool { return e.Player == d.Player }) {
			return fmt.Errorf("player %d left twice", d.Player)
		}
		prev = d.Moves
	}
	return nil
}
