package session

import (
	"fmt"
	"testing"

	"github.com/qwixxbot/qwixxbot/game"
)

// TestPositionAndTurnKeyAsBefore: Position and TurnKey, written without
// fmt, are the keys fmt.Sprintf wrote (tables store them: At, Shown.Turn),
// through a whole game and in the lobby.
func TestPositionAndTurnKeyAsBefore(t *testing.T) {
	g, err := game.New(game.Config{Variant: game.Dice, Players: []string{"a", "b"}, Seed: [32]byte{9}})
	if err != nil {
		t.Fatal(err)
	}
	tb := &Table{GameNo: 12, Stage: StageLobby}
	if got, want := tb.Position(), fmt.Sprintf("lobby.%d", tb.GameNo); got != want {
		t.Errorf("lobby: %q, want %q", got, want)
	}
	tb.Game, tb.Stage = g, StagePlaying
	for steps := 0; !g.Over(); steps++ {
		if got, want := tb.Position(), fmt.Sprintf("game.%d.%d.%d.%d", tb.GameNo, tb.Stage, g.Turn(), g.Phase()); got != want {
			t.Fatalf("Position %q, want %q", got, want)
		}
		if got, want := tb.TurnKey(), fmt.Sprintf("g%d.t%d", tb.GameNo, g.Turn()); got != want {
			t.Fatalf("TurnKey %q, want %q", got, want)
		}
		p := g.Waiting()[0]
		if err := g.Apply(g.LegalMoves(p)[steps%len(g.LegalMoves(p))]); err != nil {
			t.Fatal(err)
		}
	}
	tb.Stage = StageOver
	if got, want := tb.Position(), fmt.Sprintf("game.%d.%d.%d.%d", tb.GameNo, tb.Stage, g.Turn(), g.Phase()); got != want {
		t.Errorf("over: %q, want %q", got, want)
	}
}
