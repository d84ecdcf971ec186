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

// nextOp is a pure function of the stored table: what the channel should
// be sent next, whatever happened before (a crash, a failed request).
func TestNextOpFromStoredState(t *testing.T) {
	h := newHarness(t)
	resp := h.openTable("dice", "anna", "ben")
	h.click("anna", buttons(resp.Data.Components, "Start")[0], nil)
	base := h.table()
	_, _, _, rev, pic := liveView(base)
	now := h.now
	for _, tc := range []struct {
		name string
		edit func(t *Table)
		want opKind
	}{
		{"shown as it is", func(t *Table) {}, opNone},
		{"nothing posted yet", func(t *Table) { t.Shown = Shown{} }, opPost},
		{"post sent, outcome unknown", func(t *Table) { t.Shown = Shown{Posting: t.turnKey()} }, opLookup},
		{"post of an earlier turn unknown", func(t *Table) { t.Shown = Shown{Posting: "g1.t0"} }, opPost},
		{"text outdated", func(t *Table) { t.Shown.Rev = "old" }, opEdit},
		{"picture outdated", func(t *Table) { t.Shown.Pic = "old" }, opEdit},
		{"a finished turn to shrink first", func(t *Table) { t.Shown.Past = []PastTurn{{Msg: "m0", Line: "Turn 0"}}; t.Shown.Rev = "old" }, opShrink},
		{"a reminder of an ended action", func(t *Table) { t.Shown.Reminder, t.Shown.RemindAt = "r1", t.stamp()-1 }, opDeleteRemind},
		{"a reminder due", func(t *Table) { t.Reminded = true }, opPostReminder},
		{"a reminder shown", func(t *Table) { t.Reminded = true; t.Shown.Reminder, t.Shown.RemindAt = "r1", t.stamp() }, opNone},
		{"live message nearly an hour old", func(t *Table) { t.Shown.At = now.Add(-liveMaxAge) }, opRepost},
		{"game over, results not posted", func(t *Table) { t.Stage = StageOver }, opPostResults},
		{"game over, results posted", func(t *Table) { t.Stage = StageOver; t.Shown.Results = t.GameNo }, opNone},
		{"results post unknown", func(t *Table) { t.Stage = StageOver; t.Shown.Posting = t.resultsKey() }, opLookup},
	} {
		tb := h.table()
		tb.Shown.Rev, tb.Shown.Pic, tb.Shown.At = rev, pic, now
		tc.edit(tb)
		if got := nextOp(tb, rev, pic, now); got != tc.want {
			t.Errorf("%s: nextOp = %d, want %d", tc.name, got, tc.want)
		}
	}
	// settle turns a live message of a finished turn into a past turn
	// with its log line, without any request.
	tb := h.table()
	tb.Shown.Turn = "g1.t0"
	if !tb.settle() || tb.Shown.Msg != "" || len(tb.Shown.Past) != 1 || !strings.HasPrefix(tb.Shown.Past[0].Line, "Turn 0") {
		t.Fatalf("settle: %+v", tb.Shown)
	}
}
