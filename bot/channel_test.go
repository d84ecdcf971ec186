package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/game"
)

// buttonLabel finds the button with custom_id id.
func buttonLabel(comps []discordgo.MessageComponent, id string) (discordgo.Button, bool) {
	for _, row := range comps {
		if ar, ok := row.(discordgo.ActionsRow); ok {
			for _, c := range ar.Components {
				if b, ok := c.(discordgo.Button); ok && b.CustomID == id {
					return b, true
				}
			}
		}
	}
	return discordgo.Button{}, false
}

// RULES D6: the active player who crossed nothing in action 1 takes a
// misthrow by passing action 2; the Pass button says so, in red, and the
// colour buttons come grouped by colour with Pass last.
func TestD6PassButtonSaysMisthrow(t *testing.T) {
	h := newHarness(t)
	resp := h.openTable("dice", "anna", "ben")
	h.click("anna", buttons(resp.Data.Components, "Start")[0], nil)
	tbl := h.dc.lastTable(testChannel)
	h.click("anna", buttons(tbl.Components, "Pass")[0], tbl)
	h.click("ben", buttons(tbl.Components, "Pass")[0], tbl)
	tb := h.table()
	if tb.g.Phase() != game.PhaseColor {
		t.Fatalf("phase %v", tb.g.Phase())
	}
	tbl = h.dc.lastTable(testChannel)
	pass := buttons(tbl.Components, "Pass")
	if len(pass) != 1 {
		t.Fatalf("no pass button: %+v", tbl.Components)
	}
	b, _ := buttonLabel(tbl.Components, pass[0])
	if b.Label != "Pass: misthrow −5" || b.Style != discordgo.DangerButton {
		t.Fatalf("pass button %q style %d", b.Label, b.Style)
	}
	ids := buttons(tbl.Components, "")
	if !strings.Contains(ids[len(ids)-2], ":pass") {
		t.Fatalf("Pass is not the last move button: %v", ids)
	}
	last, seen := game.Red, false
	for _, id := range ids {
		a, _ := DecodeAction(id)
		if a.Verb != "color" {
			continue
		}
		c, _ := game.ParseColor(a.Arg[2:])
		if seen && c < last {
			t.Fatalf("colour buttons not grouped by colour: %v", ids)
		}
		last, seen = c, true
	}
}

// Discord limits edits of messages older than an hour: a turn that lasts
// longer than liveMaxAge gets a fresh message (the old one deleted), so
// its later edits and its final shrink to a log line stay possible.
func TestLongTurnPostedAfresh(t *testing.T) {
	h := newHarness(t)
	h.bot.opt.TurnTimeout = 3 * time.Hour
	resp := h.openTable("dice", "anna", "ben")
	h.click("anna", buttons(resp.Data.Components, "Start")[0], nil)
	first := h.dc.lastTable(testChannel)
	h.now = h.now.Add(liveMaxAge + time.Minute)
	h.bot.Tick()
	h.bot.Idle()
	again := h.dc.lastTable(testChannel)
	if again.ID == first.ID {
		t.Fatal("the hour-old live message was not replaced")
	}
	h.dc.mu.Lock()
	_, still := h.dc.byID[first.ID]
	h.dc.mu.Unlock()
	if still {
		t.Fatal("the old live message was not deleted")
	}
	if !strings.Contains(again.Content, "**Turn 1**") || h.table().Shown.Msg != again.ID {
		t.Fatalf("the fresh message does not show turn 1: %q", again.Content)
	}
	if r := h.click("anna", buttons(again.Components, "Pass")[0], again); !strings.Contains(r.Data.Content, "passed") {
		t.Fatalf("pass on the fresh message: %q", r.Data.Content)
	}
}
