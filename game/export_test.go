package game

import "testing"

// HiddenTwinFor gives the tests of other packages in this directory
// (package game_test) hiddenTwinFor: g replayed with the cards that seat
// cannot see traded for others of the same number, or nil.
func HiddenTwinFor(t *testing.T, g *Game, seat int) *Game { return hiddenTwinFor(t, g, seat) }
