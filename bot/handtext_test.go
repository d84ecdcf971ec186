package bot

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/game"
)

// placeholders lists the placeholders of the select menus in comps.
func placeholders(comps []discordgo.MessageComponent) []string {
	var out []string
	for _, row := range comps {
		if ar, ok := row.(discordgo.ActionsRow); ok {
			for _, c := range ar.Components {
				if s, ok := c.(discordgo.SelectMenu); ok && s.Placeholder != "" {
					out = append(out, s.Placeholder)
				}
			}
		}
	}
	return out
}

// checkAskedOnce fails when a select menu's placeholder is said again in
// the message's text.
func checkAskedOnce(t *testing.T, what string, d *discordgo.InteractionResponseData) {
	t.Helper()
	for _, p := range placeholders(d.Components) {
		if strings.Contains(d.Content, p) {
			t.Fatalf("%s: %q is both the menu's placeholder and in the text %q", what, p, d.Content)
		}
	}
}

// Issue 40: the card hand view said "Pick 1 to 3 cards of one colour to
// play." twice, as its text and as the menu's placeholder (and "Colour
// the jokers count as" twice once jokers alone were picked). Through
// whole joker games, every hand view of the play (RULES C6) asks each
// thing once, in its menu.
func TestC6HandViewAsksOnce(t *testing.T) {
	h := newHarness(t)
	eph := &discordgo.Message{ID: "eph", Flags: discordgo.MessageFlagsEphemeral}
	views, jokerViews := 0, 0
	playCardGameThroughBot(t, h, "jokers", func(steps int, tb *Table, _ int, user string, msg *discordgo.Message) {
		switch tb.Game.Phase() {
		case game.PhaseTake:
			takes := buttons(msg.Components, "Take")
			h.click(user, takes[steps%len(takes)], msg)
		case game.PhaseNumber:
			h.click(user, buttons(msg.Components, "Pass")[0], msg)
		case game.PhasePlay:
			hand := h.click(user, buttons(msg.Components, "My cards")[0], msg)
			checkAskedOnce(t, "hand view", hand.Data)
			if !strings.Contains(strings.Join(placeholders(hand.Data.Components), "|"), "Pick 1 to 3 cards") {
				t.Fatalf("the pick menu does not ask for the cards: %q", placeholders(hand.Data.Components))
			}
			views++
			pick := selectMenu(hand.Data.Components, "pick")
			// Jokers alone first, when the hand has one: the colour menu.
			val := pick.Options[0].Value
			for _, o := range pick.Options {
				if strings.HasPrefix(o.Value, "J") {
					val = o.Value
				}
			}
			up := h.click(user, pick.CustomID, eph, val)
			checkAskedOnce(t, "after the pick", up.Data)
			if as := selectMenu(up.Data.Components, "as"); as != nil {
				jokerViews++
				up = h.click(user, as.CustomID, eph, "blue")
				checkAskedOnce(t, "after the colour", up.Data)
			}
			if cross := selectMenu(up.Data.Components, "cross"); cross != nil {
				up = h.click(user, cross.CustomID, eph) // cross nothing: always allowed
			}
			play := buttons(up.Data.Components, "Play")
			if len(play) != 1 {
				t.Fatalf("no Play button: %q", up.Data.Content)
			}
			h.click(user, play[0], eph)
		default:
			t.Fatalf("phase %s", tb.Game.Phase())
		}
	})
	if views == 0 || jokerViews == 0 {
		t.Fatalf("%d hand views, %d with jokers alone: the test saw too little", views, jokerViews)
	}
	t.Logf("%d hand views, %d with jokers alone", views, jokerViews)
}
