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
// Guests may not turn them off. The card game's lobby offers the hard
// computer and the hints setting too.
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
	if len(buttons(lobby.Data.Components, "🤖 Add computer (hard)")) != 1 || len(buttons(lobby.Data.Components, "💡 Hints: on")) != 1 {
		t.Fatal("the card game lobby lacks the hard computer or the hints setting")
	}
}

// In the card game the hand view has the 💡 Hint button in the holder's
// take and play: the view is updated with the hard player's choice.
func TestHintInTheHandView(t *testing.T) {
	h := newHarness(t)
	h.bot.opt.LiveAnswers = true
	lobby := h.command("anna", "new", strOpt("variant", "cards"))
	lobby = h.click("anna", buttons(lobby.Data.Components, "🤖 Add computer (hard)")[0], nil)
	h.click("anna", buttons(lobby.Data.Components, "Start")[0], nil)
	seen := map[game.Phase]bool{}
	for step := 0; step < 300 && h.table().Stage == StagePlaying && !(seen[game.PhaseTake] && seen[game.PhasePlay]); step++ {
		tb := h.table()
		hand := h.command("anna", "hand")
		hb := buttons(hand.Data.Components, "💡 Hint")
		if acts := handActs(tb, 0); acts != (len(hb) == 1) {
			t.Fatalf("hand view in %v (acts %v) with %d hint buttons", tb.g.Phase(), acts, len(hb))
		}
		if len(hb) == 1 {
			before := len(tb.g.Moves())
			r := h.click("anna", hb[0], ephemeralMsg)
			if r.Type != discordgo.InteractionResponseUpdateMessage || !strings.HasPrefix(r.Data.Content, "💡 ") {
				t.Fatalf("hand hint: %+v", r.Data)
			}
			if len(h.table().g.Moves()) != before {
				t.Fatal("a hint made a move")
			}
			want := map[game.Phase]string{game.PhaseTake: "💡 Take ", game.PhasePlay: "💡 Play "}[tb.g.Phase()]
			if !strings.HasPrefix(r.Data.Content, want) {
				t.Fatalf("hint in %v: %q", tb.g.Phase(), r.Data.Content)
			}
			seen[tb.g.Phase()] = true
		}
		h.clickMove(tb, "anna", goldenMove(tb.g, 0))
	}
	if !seen[game.PhaseTake] || !seen[game.PhasePlay] {
		t.Fatalf("hints seen in %v", seen)
	}
}
