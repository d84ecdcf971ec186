package bot

import (
	"strings"
	"testing"

	"github.com/qwixxbot/qwixxbot/game"
)

// RULES P2, D9: through the bot, one of three players (Ben) leaves with
// /qwixx leave when turn 2 begins; Anna and Cleo play the whole game on.
// By default a computer takes his seat and plays it; with "they pass from
// then on" chosen in the lobby his turns are passed and cost him no
// misthrow. Either way the game never waits for him, and it ends by the
// rules as those who stayed play them: never by his misthrows.
func TestP2D9LeaverAtTurn2ThroughTheBot(t *testing.T) {
	for _, mode := range []string{"computer", "passes"} {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t)
			h.bot.opt.LiveAnswers = true
			lobby := h.openTable("dice", "anna", "ben", "cleo")
			if mode == "passes" {
				lobby = h.click("anna", buttons(lobby.Data.Components, "If someone leaves: a computer plays for them")[0], nil)
			}
			h.click("anna", buttons(lobby.Data.Components, "Start")[0], nil)
			left, misthrows := false, 0
			for step := 0; h.table().Stage == StagePlaying; step++ {
				if step > 1000 {
					t.Fatal("the game did not end")
				}
				tb := h.table()
				if !left && tb.Game.Turn() == 2 {
					misthrows = tb.Game.Sheet(1).Misthrows
					want := map[string]string{"computer": "a computer player plays for them", "passes": "passes from now on, without misthrows"}[mode]
					if r := h.command("ben", "leave"); !strings.Contains(r.Data.Content, want) {
						t.Fatalf("leaving: %q, want %q", r.Data.Content, want)
					}
					left = true
					continue
				}
				p := tb.Game.Waiting()[0]
				if left && p == 1 {
					t.Fatal("the game waits for Ben, who left")
				}
				h.clickMove(tb, tb.Seats[p].UserID, goldenMove(tb.Game, p))
			}
			g := h.table().Game
			if !left || !g.Over() {
				t.Fatalf("left %v, over %v", left, g.Over())
			}
			if g.EndReason() == game.EndMisthrows && g.Sheet(1).Misthrows >= game.MaxMisthrows {
				t.Fatal("Ben's seat's misthrows ended the game")
			}
			switch mode {
			case "computer":
				if s := h.table().Seats[1]; !s.TakenOver() {
					t.Fatalf("Ben's seat %+v", s)
				}
			case "passes":
				if n := g.Sheet(1).Misthrows; n != misthrows {
					t.Fatalf("Ben took misthrows after leaving: %d, had %d", n, misthrows)
				}
			}
			t.Logf("%s: ended in turn %d by %v; misthrows %d %d %d", mode, g.Turn(), g.EndReason(), g.Sheet(0).Misthrows, g.Sheet(1).Misthrows, g.Sheet(2).Misthrows)
		})
	}
}
