package bot

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// When Discord refuses the edit of a live message through the token of
// the last click on it (404 Unknown Message: that click's own answer has
// not landed yet, or the message is no longer its @original), the bot
// edits the message with the channel's own request instead, so the table
// still shows the decision; and it stops using that token for the message.
func TestLiveMessageEditFallsBackToTheChannelWhenTheTokenEditIsRefused(t *testing.T) {
	h := newHarness(t)
	h.bot.opt.LiveAnswers = true
	h.startTable("dice", "anna", "ben", "chloe")
	tbl := h.dc.lastTable(testChannel)
	h.click("anna", buttons(tbl.Components, "Pass")[0], tbl)
	sheetPass := func(u string) {
		t.Helper()
		sheet := h.click(u, buttons(tbl.Components, "My sheet")[0], tbl)
		h.click(u, buttons(sheet.Data.Components, "Pass")[0], &discordgo.Message{ID: "sheet-" + u, Flags: discordgo.MessageFlagsEphemeral})
	}
	h.dc.refuseTokenEdits = true
	edits, hooks, tried := h.dc.edited, h.dc.hookEdited, len(h.dc.edits)
	sheetPass("ben")
	h.clock.Advance(coalesceEdits)
	h.bot.Tick()
	h.bot.Idle()
	if len(h.dc.edits) != tried+1 {
		t.Fatalf("%d edits through the token tried, want 1 (the token was young)", len(h.dc.edits)-tried)
	}
	if h.dc.hookEdited != hooks || h.dc.edited != edits+1 {
		t.Fatalf("token edit refused: %d edits through the token applied, %d channel edits; want 0 and 1", h.dc.hookEdited-hooks, h.dc.edited-edits)
	}
	if tbl = h.dc.lastTable(testChannel); !strings.Contains(tbl.Content, "Waiting for: <@chloe>") {
		t.Fatalf("the channel edit does not show Ben's decision: %q", tbl.Content)
	}
	// The refused token is forgotten: the next edit goes to the channel
	// at once, without trying it again.
	h.dc.refuseTokenEdits = false
	tried = len(h.dc.edits)
	sheetPass("chloe")
	h.clock.Advance(coalesceEdits)
	h.bot.Tick()
	h.bot.Idle()
	if len(h.dc.edits) != tried || h.dc.edited != edits+2 {
		t.Fatalf("after the refusal: %d token edits tried, %d channel edits; want 0 and 2", len(h.dc.edits)-tried, h.dc.edited-edits)
	}
	if tbl = h.dc.lastTable(testChannel); !strings.Contains(tbl.Content, "Action 2") {
		t.Fatalf("action 2 not shown: %q", tbl.Content)
	}
}
