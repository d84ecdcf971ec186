package bot

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/bot/view"
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
	h.startTwo("dice")
	tbl := h.dc.lastTable(testChannel)
	h.click("anna", buttons(tbl.Components, "Pass")[0], tbl)
	h.click("ben", buttons(tbl.Components, "Pass")[0], tbl)
	tb := h.table()
	if tb.Game.Phase() != game.PhaseColor {
		t.Fatalf("phase %v", tb.Game.Phase())
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
		a, _ := customid.Decode(id)
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
	h.startTwo("dice")
	first := h.dc.lastTable(testChannel)
	h.clock.Advance(liveMaxAge + time.Minute)
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
	h.click("anna", buttons(again.Components, "Pass")[0], again)
	if !h.table().Game.Decided(0) {
		t.Fatal("pass on the fresh message not taken")
	}
}

// A turn that ends while its live message is gone (deleted to be posted
// afresh after liveMaxAge, or by a moderator) still gets its log line: it
// is posted as a message of its own, before the next turn's message.
func TestTurnEndedWithoutItsMessageKeepsItsLogLine(t *testing.T) {
	h := newHarness(t)
	h.startTwo("dice")
	live := h.dc.lastTable(testChannel)
	h.st.Update(context.Background(), testChannel, func(blob []byte, _ bool) ([]byte, bool, error) {
		tb, err := session.Decode(blob)
		if err != nil {
			return nil, false, err
		}
		tb.Shown.Msg, tb.Shown.Rev, tb.Shown.Pic, tb.Shown.Att = "", "", "", "" // deleted for a repost
		for tb.Game.Turn() == 1 {
			p := tb.Game.Waiting()[0]
			if err := tb.Game.Apply(tb.Game.LegalMoves(p)[len(tb.Game.LegalMoves(p))-1]); err != nil {
				return nil, false, err
			}
		}
		out, err := tb.Encode()
		return out, false, err
	})
	h.dc.mu.Lock()
	delete(h.dc.byID, live.ID)
	before := len(h.dc.channel[testChannel])
	h.dc.mu.Unlock()
	h.bot.refresh.kick(h.bot, testChannel)
	h.bot.Idle()
	h.dc.mu.Lock()
	posted := slices.Clone(h.dc.channel[testChannel][before:])
	h.dc.mu.Unlock()
	if len(posted) != 2 || !strings.HasPrefix(posted[0].Content, "Turn 1 · ") || len(posted[0].Components) != 0 ||
		!strings.Contains(posted[1].Content, "**Turn 2**") {
		var got []string
		for _, m := range posted {
			got = append(got, m.Content)
		}
		t.Fatalf("after the turn ended without its message the channel got %q", got)
	}
	if s := h.table().Shown; s.Msg != posted[1].ID || len(s.Past) != 0 || s.Turn != h.table().TurnKey() {
		t.Fatalf("shown: %+v", s)
	}
}

// A picture is uploaded only when it changed: an edit of the text alone
// (who has decided) keeps the message's picture (an edit without
// attachments keeps its files), also when the picture came with a click's
// answer and its attachment ID is not known.
func TestTextOnlyEditKeepsThePicture(t *testing.T) {
	h := newHarness(t)
	h.startTwo("dice")
	tbl := h.dc.lastTable(testChannel)
	h.dc.mu.Lock()
	uploads, atts := h.dc.uploads, len(h.dc.byID[tbl.ID].Attachments)
	h.dc.mu.Unlock()
	h.st.Update(context.Background(), testChannel, func(blob []byte, _ bool) ([]byte, bool, error) {
		tb, err := session.Decode(blob)
		if err != nil {
			return nil, false, err
		}
		tb.Shown.Att, tb.Shown.Rev, tb.Shown.Edited = "", "old", time.Time{} // as after a click's answer
		out, err := tb.Encode()
		return out, false, err
	})
	h.bot.refresh.kick(h.bot, testChannel)
	h.bot.Idle()
	h.dc.mu.Lock()
	defer h.dc.mu.Unlock()
	m := h.dc.byID[tbl.ID]
	if h.table().Shown.Rev == "old" || h.dc.edited == 0 {
		t.Fatal("the text was not edited")
	}
	if h.dc.uploads != uploads || len(m.Attachments) != atts || atts == 0 {
		t.Fatalf("the text-only edit uploaded %d pictures; attachments %d, were %d", h.dc.uploads-uploads, len(m.Attachments), atts)
	}
}

// nextOp is a pure function of the stored table: what the channel should
// be sent next, whatever happened before (a crash, a failed request).
func TestNextOpFromStoredState(t *testing.T) {
	h := newHarness(t)
	h.startTwo("dice")
	base := h.table()
	_, _, _, rev, pic := liveView(base)
	now := h.clock.Now()
	seen := map[opKind]bool{}
	for _, tc := range []struct {
		name string
		edit func(t *Table)
		want opKind
	}{
		{"shown as it is", func(t *Table) {}, opNone},
		{"nothing posted yet", func(t *Table) { t.Shown = Shown{} }, opPost},
		{"post sent, outcome unknown", func(t *Table) { t.Shown = Shown{Posting: t.TurnKey()} }, opLookup},
		{"post of an earlier turn unknown", func(t *Table) { t.Shown = Shown{Posting: "g1.t0"} }, opPost},
		{"who has decided outdated, just changed", func(t *Table) { t.Shown.Rev = "old" }, opLater},
		{"who has decided outdated, changed a while ago", func(t *Table) { t.Shown.Rev = "old"; t.Shown.Edited = now.Add(-coalesceEdits) }, opEdit},
		{"text outdated in a new action", func(t *Table) { t.Shown.Rev = "old"; t.Shown.Stamp-- }, opEdit},
		{"text outdated, never edited", func(t *Table) { t.Shown.Rev = "" }, opEdit},
		{"picture outdated", func(t *Table) { t.Shown.Pic = "old" }, opEdit},
		{"a finished turn to shrink first", func(t *Table) { t.Shown.Past = []PastTurn{{Msg: "m0", Line: "Turn 0"}}; t.Shown.Rev = "old" }, opShrink},
		{"a reminder of an ended action", func(t *Table) { t.Shown.Reminder, t.Shown.RemindAt = "r1", t.Stamp()-1 }, opDeleteRemind},
		{"a reminder due", func(t *Table) { t.Reminded = true }, opPostReminder},
		{"a reminder shown", func(t *Table) { t.Reminded = true; t.Shown.Reminder, t.Shown.RemindAt = "r1", t.Stamp() }, opNone},
		{"live message nearly an hour old", func(t *Table) { t.Shown.At = now.Add(-liveMaxAge) }, opRepost},
		{"game over, results not posted", func(t *Table) { t.Stage = StageOver }, opPostResults},
		{"game over, results posted", func(t *Table) { t.Stage = StageOver; t.Shown.Results = t.GameNo }, opNone},
		{"results post unknown", func(t *Table) { t.Stage = StageOver; t.Shown.Posting = t.ResultsKey() }, opLookup},
		// Play again came before the results' post was recorded: they are
		// looked for, so that their Play again can go.
		{"results post unknown, the table a lobby again", func(t *Table) {
			t.Shown.Posting = t.ResultsKey()
			t.Stage, t.Game = StageLobby, nil
		}, opLookup},
		// The lobby Play again opened went out as that click's answer
		// only (a crash may have lost it).
		{"a lobby not known shown", func(t *Table) { t.Stage, t.Game, t.Shown.LobbyPending = StageLobby, nil, true }, opLobby},
		{"a lobby shown", func(t *Table) { t.Stage, t.Game = StageLobby, nil }, opNone},
		{"results live, the table a lobby again", func(t *Table) {
			t.Stage, t.Game, t.Shown.LobbyPending = StageLobby, nil, true
			t.Shown.ResultsMsg, t.Shown.ResultsLive = "res", true
		}, opRetireResults},
		// A table on interactions alone cannot read the channel, posts
		// no reminder of its own and has no message an hour old (its
		// token edits it).
		{"post sent, outcome unknown, interactions alone", func(t *Table) {
			t.Interactions = true
			t.Shown = Shown{Posting: t.TurnKey()}
		}, opPost},
		{"results post unknown, interactions alone", func(t *Table) {
			t.Interactions = true
			t.Stage = StageOver
			t.Shown.Posting = t.ResultsKey()
		}, opPostResults},
		{"a reminder due, interactions alone", func(t *Table) { t.Interactions, t.Reminded = true, true }, opNone},
		{"live message nearly an hour old, interactions alone", func(t *Table) { t.Interactions, t.Shown.At = true, now.Add(-liveMaxAge) }, opNone},
	} {
		tb := h.table()
		tb.Shown.Rev, tb.Shown.Pic, tb.Shown.At = rev, pic, now
		tb.Shown.Stamp, tb.Shown.Edited = tb.Stamp(), now
		tc.edit(tb)
		if got := nextOp(tb, rev, pic, now, coalesceEdits); got != tc.want {
			t.Errorf("%s: nextOp = %v, want %v", tc.name, got, tc.want)
		}
		seen[tc.want] = true
	}
	// Every operation is listed with a state that makes it due.
	for k := opNone; k < numOps; k++ {
		if !seen[k] || opNames[k] == "" {
			t.Errorf("operation %d (%q) has no case here, or no name", int(k), k)
		}
	}
	// settle turns a live message of a finished turn into a past turn
	// with its log line, without any request.
	tb := h.table()
	tb.Shown.Turn = "g1.t0"
	if !settle(tb) || tb.Shown.Msg != "" || len(tb.Shown.Past) != 1 || !strings.HasPrefix(tb.Shown.Past[0].Line, "Turn 0") {
		t.Fatalf("settle: %+v", tb.Shown)
	}
}

// A click on the live message is answered by updating that message (an
// interaction answer, not counted against the bot's global rate limit):
// no channel edit is needed, also when the click ends the turn and the
// message shrinks to its log line; only the next turn's post is a channel
// request.
func TestClickOnLiveMessageUpdatesItThroughTheAnswer(t *testing.T) {
	h := newHarness(t)
	h.bot.opt.LiveAnswers = true
	h.startTwo("dice")
	tbl := h.dc.lastTable(testChannel)
	edits := h.dc.edited
	r := h.click("anna", buttons(tbl.Components, "Pass")[0], tbl)
	if r.Type != discordgo.InteractionResponseUpdateMessage || !strings.Contains(r.Data.Content, "Waiting for: <@ben>") {
		t.Fatalf("answer to a click on the live message: %+v", r)
	}
	h.click("ben", buttons(tbl.Components, "Pass")[0], tbl)
	act := h.table().Seats[h.table().Game.Active()].UserID
	tbl = h.dc.lastTable(testChannel)
	r = h.click(act, buttons(tbl.Components, "Pass")[0], tbl)
	if r.Type != discordgo.InteractionResponseUpdateMessage || !strings.HasPrefix(r.Data.Content, "Turn 1 · ") || len(r.Data.Components) != 0 {
		t.Fatalf("the turn-ending click's answer is not the log line: %+v", r.Data)
	}
	if h.dc.edited != edits {
		t.Fatalf("%d channel edits for clicks answered through the interaction", h.dc.edited-edits)
	}
	if next := h.dc.lastTable(testChannel); next.ID == tbl.ID || !strings.Contains(next.Content, "**Turn 2**") {
		t.Fatalf("turn 2 not posted: %q", next.Content)
	}
	if s := h.table().Shown; len(s.Past) != 1 || !s.Past[0].Sent || !s.Unsure {
		// The shrink sent as an answer is kept, unsure, until a restart
		// makes sure of it.
		t.Fatalf("shown after the turn: %+v", s)
	}
	// After a restart a channel last changed through an answer is edited
	// once, in case that answer was lost.
	h.click("anna", buttons(h.dc.lastTable(testChannel).Components, "Pass")[0], h.dc.lastTable(testChannel))
	if !h.table().Shown.Unsure {
		t.Fatal("an answer's update is not marked unsure")
	}
	h.bot = h.newBot()
	h.bot.opt.LiveAnswers = true
	edits = h.dc.edited
	if err := h.bot.Start(); err != nil {
		t.Fatal(err)
	}
	h.bot.Idle()
	if s := h.table().Shown; h.dc.edited != edits+2 || s.Unsure || len(s.Past) != 0 {
		t.Fatalf("after a restart: %d edits, shown %+v; want 2 (the live message, the last shrink) and settled", h.dc.edited-edits, s)
	}
}

// The reconciler converges in a few requests from any mix of pending
// work: shrinks (one of them already sent as an answer), a reminder to
// delete, a live message to post.
func TestReconcileConvergesFromPendingWork(t *testing.T) {
	h := newHarness(t)
	h.startTwo("dice")
	old := h.dc.lastTable(testChannel)
	h.st.Update(context.Background(), testChannel, func(blob []byte, _ bool) ([]byte, bool, error) {
		tb, err := session.Decode(blob)
		if err != nil {
			return nil, false, err
		}
		tb.Shown = Shown{Past: []PastTurn{{Msg: old.ID, Line: "Turn 0 · sent", Sent: true}, {Msg: old.ID, Line: "Turn 0 · again"}},
			Reminder: "gone", RemindAt: tb.Stamp() - 1}
		out, err := tb.Encode()
		return out, false, err
	})
	before := len(h.dc.channel[testChannel])
	h.bot.refresh.kick(h.bot, testChannel)
	h.bot.Idle()
	s := h.table().Shown
	if len(s.Past) != 1 || !s.Past[0].Sent || s.Reminder != "" || s.Msg == "" {
		t.Fatalf("not converged: %+v\nlog: %s", s, h.logs.String())
	}
	if got := len(h.dc.channel[testChannel]); got != before+1 {
		t.Fatalf("%d messages posted, want 1", got-before)
	}
	if strings.Contains(h.logs.String(), "not converged") {
		t.Fatal(h.logs.String())
	}
}

// Decisions made close together in the private sheets share one edit of
// the live message: an edit that only changes who has decided waits until
// coalesceEdits has passed since the message last changed (the sweep in
// Tick sends it); a new action is shown at once.
func TestDecisionsCloseTogetherShareOneEdit(t *testing.T) {
	h := newHarness(t)
	h.startTable("dice", "anna", "ben", "chloe")
	tbl := h.dc.lastTable(testChannel)
	edits := h.dc.edited
	for _, u := range []string{"anna", "ben"} {
		sheet := h.click(u, buttons(tbl.Components, "My sheet")[0], tbl)
		h.click(u, buttons(sheet.Data.Components, "Pass")[0], &discordgo.Message{ID: "sheet-" + u, Flags: discordgo.MessageFlagsEphemeral})
	}
	if h.dc.edited != edits {
		t.Fatalf("%d edits within %v of the post, want them coalesced", h.dc.edited-edits, coalesceEdits)
	}
	h.clock.Advance(coalesceEdits)
	h.bot.Tick()
	h.bot.Idle()
	if h.dc.edited != edits+1 {
		t.Fatalf("%d edits after the coalescing window, want 1", h.dc.edited-edits)
	}
	tbl = h.dc.lastTable(testChannel)
	if !strings.Contains(tbl.Content, "Waiting for: <@chloe>") {
		t.Fatalf("the edit does not show both decisions: %q", tbl.Content)
	}
	// The last decision ends the action: shown at once.
	sheet := h.click("chloe", buttons(tbl.Components, "My sheet")[0], tbl)
	h.click("chloe", buttons(sheet.Data.Components, "Pass")[0], &discordgo.Message{ID: "sheet-chloe", Flags: discordgo.MessageFlagsEphemeral})
	if tbl = h.dc.lastTable(testChannel); !strings.Contains(tbl.Content, "Action 2") || h.dc.edited != edits+2 {
		t.Fatalf("the new action was not shown at once (%d edits): %q", h.dc.edited-edits, tbl.Content)
	}
}

// A choice on the table that the clicker may not make (RULES S3: the last
// number of a row needs five crosses) is refused with the reason and the
// clicker's own choices as buttons, private and without a picture; one of
// them makes the move.
func TestS3IllegalTableChoiceAnsweredWithOwnChoices(t *testing.T) {
	var h *harness
	for seed := 0; ; seed++ {
		if seed > 500 {
			t.Fatal("no game opens with a white sum of 2 or 12")
		}
		h = newHarness(t)
		h.games = seed
		h.startTwo("dice")
		if s := h.table().Game.WhiteSum(); s == 2 || s == 12 {
			break
		}
	}
	tb := h.table()
	bad := game.Red // 12 ends the rising rows
	if tb.Game.WhiteSum() == 2 {
		bad = game.Green // 2 ends the falling rows
	}
	tbl := h.dc.lastTable(testChannel)
	r := h.click("anna", view.ActionID(tb, customid.ViewTable, "white", bad.String()), tbl)
	if r.Type != discordgo.InteractionResponseChannelMessageWithSource || r.Data.Flags&discordgo.MessageFlagsEphemeral == 0 || len(r.Data.Files) != 0 {
		t.Fatalf("refusal is not a private text answer: %+v", r)
	}
	want := view.PersonalControls(tb, 0, LangFor("en"), customid.ViewSheet)
	if !strings.Contains(r.Data.Content, "Your choices:") || fingerprint(r.Data.Components) != fingerprint(want) {
		t.Fatalf("refusal without the player's own choices: %q %+v", r.Data.Content, r.Data.Components)
	}
	if h.table().Game.Decided(0) {
		t.Fatal("the refused choice was taken")
	}
	ids := buttons(r.Data.Components, "")
	if len(ids) < 2 {
		t.Fatalf("choices %v: want a row and Pass", ids)
	}
	priv := &discordgo.Message{ID: "refusal", Flags: discordgo.MessageFlagsEphemeral}
	if u := h.click("anna", ids[0], priv); u.Type != discordgo.InteractionResponseUpdateMessage || !strings.Contains(u.Data.Content, "You chose") {
		t.Fatalf("a choice from the refusal: %+v", u.Data)
	}
	if !h.table().Game.Decided(0) {
		t.Fatal("the choice from the refusal was not taken")
	}
}

// After a click on the live message was answered by updating it, the bot
// edits that message through the click's token (an interaction request,
// not counted against the global rate limit) while the token is young,
// and with the channel's own request after that.
func TestLiveMessageEditedThroughTheLastClicksToken(t *testing.T) {
	h := newHarness(t)
	h.bot.opt.LiveAnswers = true
	h.startTable("dice", "anna", "ben", "chloe")
	tbl := h.dc.lastTable(testChannel)
	if r := h.click("anna", buttons(tbl.Components, "Pass")[0], tbl); r.Type != discordgo.InteractionResponseUpdateMessage {
		t.Fatalf("a click on the live message: %+v", r)
	}
	sheetPass := func(u string) {
		t.Helper()
		sheet := h.click(u, buttons(tbl.Components, "My sheet")[0], tbl)
		h.click(u, buttons(sheet.Data.Components, "Pass")[0], &discordgo.Message{ID: "sheet-" + u, Flags: discordgo.MessageFlagsEphemeral})
	}
	edits, hooks := h.dc.edited, h.dc.hookEdited
	sheetPass("ben")
	h.clock.Advance(coalesceEdits)
	h.bot.Tick()
	h.bot.Idle()
	if h.dc.hookEdited != hooks+1 || h.dc.edited != edits {
		t.Fatalf("Ben's decision: %d edits through the token, %d channel edits; want 1 and 0", h.dc.hookEdited-hooks, h.dc.edited-edits)
	}
	if tbl = h.dc.lastTable(testChannel); !strings.Contains(tbl.Content, "Waiting for: <@chloe>") {
		t.Fatalf("the edit through the token does not show Ben's decision: %q", tbl.Content)
	}
	h.clock.Advance(liveTokenLife)
	sheetPass("chloe") // ends action 1: shown at once, the token too old
	if h.dc.hookEdited != hooks+1 || h.dc.edited != edits+1 {
		t.Fatalf("after 14 minutes: %d edits through the token, %d channel edits; want 1 and 1", h.dc.hookEdited-hooks, h.dc.edited-edits)
	}
	if tbl = h.dc.lastTable(testChannel); !strings.Contains(tbl.Content, "Action 2") {
		t.Fatalf("action 2 not shown: %q", tbl.Content)
	}
}

// Issue 25, interaction-first: with FollowupPosts each turn's new message
// is a follow-up of the click that led to it (an interaction request, not
// counted by the global rate limit), and its later edits go through that
// click's token; a move made in a private sheet view changes the live
// message through it too. Once the token is too old, the channel's own
// post takes over.
func TestTurnMessagesAreFollowupsOfTheClicks(t *testing.T) {
	h := newHarness(t)
	h.bot.opt.LiveAnswers, h.bot.opt.FollowupPosts = true, true
	h.startTwo("dice")
	posts, edits := h.dc.posts, h.dc.edited
	if h.dc.followups != 1 || posts != 0 {
		t.Fatalf("the first turn: %d follow-ups, %d channel posts; want it a follow-up of the Start click", h.dc.followups, posts)
	}
	first := h.table().Game.Turn()
	for round := 0; h.table().Game.Turn() < first+4; round++ {
		if round > 40 {
			t.Fatal("four turns did not end")
		}
		turn := h.table().Game.Turn() - first
		tbl := h.dc.lastTable(testChannel)
		if tbl.WebhookID == "" {
			t.Fatalf("turn %d's message %s is a channel post", turn, tbl.ID)
		}
		for _, u := range h.table().Game.Waiting() {
			user := h.table().Seats[u].UserID
			if user == "anna" && turn%2 == 1 {
				// Through the private sheet: the live message changes by
				// an edit, through the follow-up's token.
				hooked := h.dc.hookEdited
				sheet := h.click(user, buttons(tbl.Components, "My sheet")[0], tbl)
				h.click(user, buttons(sheet.Data.Components, "Pass")[0], &discordgo.Message{ID: "sheet", Flags: discordgo.MessageFlagsEphemeral})
				h.clock.Advance(h.bot.opt.CoalesceEdits) // the coalesced edit is due
				h.bot.Tick()
				h.bot.Idle()
				if h.table().Game.Turn() == first+turn && h.dc.hookEdited == hooked {
					t.Fatalf("turn %d: the move in the sheet view changed the live message by no edit through a token", turn)
				}
				continue
			}
			h.click(user, buttons(tbl.Components, "Pass")[0], tbl)
		}
	}
	if h.dc.posts != posts || h.dc.edited != edits {
		t.Fatalf("%d channel posts and %d channel edits in four turns; want none", h.dc.posts-posts, h.dc.edited-edits)
	}
	if h.dc.followups < 5 {
		t.Fatalf("%d follow-ups for five turns", h.dc.followups)
	}
	// What is kept for the tokens stays small: the live message's and the
	// channel's newest, each without the interaction's message.
	kept := 0
	for _, m := range []*sync.Map{&h.bot.liveTokens, &h.bot.postTokens} {
		m.Range(func(_, v any) bool {
			kept++
			if it := v.(liveToken).it; it.Message != nil || it.Data != nil || it.Token == "" {
				t.Errorf("a kept interaction holds more than its token: %+v", it)
			}
			return true
		})
	}
	if kept > 3 {
		t.Errorf("%d interactions kept for their tokens after four turns, want at most 3", kept)
	}
	// Fourteen minutes on, nobody clicked: the tokens are too old, and
	// the next turn (a timer ends it) is the channel's own post.
	turn := h.table().Game.Turn()
	h.clock.Advance(liveTokenLife)
	for h.table().Game.Turn() == turn {
		h.bot.Tick()
		h.bot.Idle()
		h.clock.Advance(h.bot.opt.TurnTimeout)
	}
	if h.dc.posts != posts+1 {
		t.Fatalf("%d channel posts after the tokens' life, want 1 (follow-ups %d)", h.dc.posts-posts, h.dc.followups)
	}
}
