package bot

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/game/ai"
)

// One person and a hard computer play a dice game. The 💡 Hint button of
// the private sheet updates that view with the hard player's choice for
// the clicker's seat and its reason, the button of exactly that move
// turned green; the hint itself changes nothing.
func TestHintShowsTheHardPlayersChoice(t *testing.T) {
	h := newHarness(t)
	h.bot.opt.LiveAnswers = true
	lobby := h.command("anna", "new", strOpt("variant", "dice"))
	lobby = h.click("anna", buttons(lobby.Data.Components, "🤖 Add computer (hard)")[0], nil)
	if seats := lobby.Data.Embeds[0].Fields[0].Value; !strings.Contains(seats, "(hard)") {
		t.Fatalf("lobby seats: %q", seats)
	}
	h.click("anna", buttons(lobby.Data.Components, "Start")[0], nil)
	hinted := 0
	for step := 0; step < 400 && h.table().Stage == StagePlaying; step++ {
		tb := h.table()
		if !tb.g.MayAct(0) {
			t.Fatalf("the game waits for the computer: %v", tb.g.Waiting())
		}
		sheet := h.command("anna", "sheet")
		hb := buttons(sheet.Data.Components, "💡 Hint")
		if len(hb) != 1 {
			t.Fatalf("sheet view without one hint button: %+v", sheet.Data.Components)
		}
		before := len(tb.g.Moves())
		r := h.click("anna", hb[0], ephemeralMsg)
		if r.Type != discordgo.InteractionResponseUpdateMessage || !strings.HasPrefix(r.Data.Content, "💡 ") {
			t.Fatalf("hint answer: %+v", r.Data)
		}
		tb = h.table()
		if len(tb.g.Moves()) != before {
			t.Fatal("a hint made a move")
		}
		want := ai.Hint(tb.g.Private(0), tb.g.LegalMoves(0)).Move
		var do []string
		for _, row := range r.Data.Components {
			for _, c := range row.(discordgo.ActionsRow).Components {
				if b, ok := c.(discordgo.Button); ok && b.Style == discordgo.SuccessButton {
					do = append(do, b.CustomID)
				}
			}
		}
		if len(do) != 1 || do[0] != moveAction(tb, want) {
			t.Fatalf("hint marks %v, the hard player chooses %+v", do, want)
		}
		if want.Kind != game.Pass && !strings.Contains(r.Data.Content, "Cross ") {
			t.Fatalf("hint text for a cross: %q", r.Data.Content)
		}
		hinted++
		h.click("anna", do[0], ephemeralMsg)
	}
	if h.table().Stage == StagePlaying || hinted < 10 {
		t.Fatalf("the game did not end through hints (%d hints)", hinted)
	}
}

// The host turns hints off in the lobby: the sheet view has no hint
// button, and an old hint button is answered politely, changing nothing.
// Guests may not turn them off; the card games offer neither hints nor a
// hard computer yet, and a forged "add hard computer" is refused.
func TestHostTurnsHintsOff(t *testing.T) {
	h := newHarness(t)
	lobby := h.openTable("dice", "anna", "ben")
	if r := h.click("ben", buttons(lobby.Data.Components, "💡 Hints: on")[0], nil); !strings.Contains(r.Data.Content, "host") {
		t.Fatalf("a guest turned hints off: %q", r.Data.Content)
	}
	lobby = h.click("anna", buttons(lobby.Data.Components, "💡 Hints: on")[0], nil)
	if len(buttons(lobby.Data.Components, "💡 Hints: off")) != 1 || !h.table().NoHints {
		t.Fatal("hints still on")
	}
	h.click("anna", buttons(lobby.Data.Components, "Start")[0], nil)
	sheet := h.command("anna", "sheet")
	if len(buttons(sheet.Data.Components, "💡")) != 0 {
		t.Fatal("a hint button with hints off")
	}
	forged := h.table().action(ViewSheet, "hint", "")
	if r := h.click("anna", forged, ephemeralMsg); !strings.Contains(r.Data.Content, "turned off") {
		t.Fatalf("hint with hints off: %q", r.Data.Content)
	}

	c := newHarness(t)
	lobby = c.command("anna", "new", strOpt("variant", "cards"))
	if len(buttons(lobby.Data.Components, "🤖 Add computer (hard)")) != 0 || len(buttons(lobby.Data.Components, "💡")) != 0 {
		t.Fatal("the card game offers a hard computer or hints")
	}
	if r := c.click("anna", c.table().action(ViewLobby, "bot", "hard"), nil); !strings.Contains(r.Data.Content, "not one of mine") || len(c.table().Seats) != 1 {
		t.Fatalf("forged hard computer at a card table: %q, seats %d", r.Data.Content, len(c.table().Seats))
	}
}
