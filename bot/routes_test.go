package bot

import (
	"slices"
	"testing"

	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/game/ai"
)

// Every route of the route table has a handler, and every handler a route:
// each click the custom_ids allow is answered.
func TestEveryRouteHasAHandler(t *testing.T) {
	routes := map[customid.Route]bool{}
	for _, e := range customid.Table() {
		routes[e.Route] = true
		if clickHandlers[e.Route] == nil {
			t.Errorf("route %q has no handler", e.Route)
		}
		for _, v := range e.Verbs {
			if handlerOf(e.View, v) == nil {
				t.Errorf("view %c verb %q has no handler", e.View, v)
			}
		}
	}
	for rt := range clickHandlers {
		if !routes[rt] {
			t.Errorf("handler of route %q, which the table does not list", rt)
		}
	}
	if handlerOf(customid.ViewLobby, "white") != nil {
		t.Fatal("a move routed in the lobby")
	}
}

// The levels a lobby's bot button may carry are the computer players'
// levels offered at a table.
func TestCustomIDLevelsAreTheAILevels(t *testing.T) {
	var names []string
	for _, l := range ai.Levels {
		names = append(names, l.String())
	}
	if !slices.Equal(names, customid.Levels) {
		t.Fatalf("customid.Levels %v, ai.Levels %v", customid.Levels, names)
	}
}

// The play builder's selection as custom_ids carry it: customid accepts
// exactly what session.DecodePlay reads and Encode writes again unchanged (the
// codec checks the grammar with the standard library only).
func TestCustomIDPlayArgIsThePlayCodec(t *testing.T) {
	args := []string{"", ".", "..", "...", "R4.r.4", "R4-J7.r.4-7", "J7..", "R4-R5-J7.r.4-5-7", "R4-R5-R6-R7.r.",
		"r4.r.4", "R4.red.4", "R4.R.4", "R04.r.4", "R4.r.04", "R4.r", "R4.r.4-5-6-7", "R4.r.1", "R4.r.13", "X4..", "R..",
		"J12.b.12", "J2.y.2-2-2", "R+4..", "R 4..", "-R4..", "R4-..", ".r.", "..4", "B12-G2.g.", "R4.x.", "R4.rr."}
	for _, c := range game.FullDeck(true) {
		args = append(args, c.String()+"..", c.String()+".y.3")
	}
	for _, arg := range args {
		p, err := session.DecodePlay(arg)
		want := err == nil && p.Encode() == arg
		if _, got := customid.CanonicalArg("play", arg); got != want {
			t.Errorf("play arg %q: customid accepts %v, decodePlay and encode %v", arg, got, want)
		}
	}
}
