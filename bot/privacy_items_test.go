package bot

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/qwixxbot/qwixxbot/bot/customid"
)

// where is where an interaction comes from: a server's channel, or with
// guild "" a DM or group DM (its channel).
type where struct{ guild, channel string }

// Places of the privacy tests.
var (
	inServer  = where{"g1", testChannel}
	inServer2 = where{"g2", "c2"}
	inGroupDM = where{"", "gdm1"}
)

// dmOf is user's DM with the bot.
func dmOf(user string) where { return where{"", "dm-" + user} }

// at handles an interaction of user from w, as Discord sends it there
// (outside servers a user, not a member), and returns its answer.
func (h *harness) at(w where, user string, typ discordgo.InteractionType, data discordgo.InteractionData, msg *discordgo.Message) *discordgo.InteractionResponse {
	i := h.interaction(user, typ, data, msg)
	i.GuildID, i.ChannelID = w.guild, w.channel
	if w.guild == "" {
		i.User, i.Member = i.Member.User, nil
	}
	h.bot.Handle(i)
	h.bot.Idle()
	return h.response(i)
}

// commandAt runs /qwixx sub as user from w.
func (h *harness) commandAt(w where, user, sub string, opts ...*discordgo.ApplicationCommandInteractionDataOption) *discordgo.InteractionResponse {
	return h.at(w, user, discordgo.InteractionApplicationCommand, discordgo.ApplicationCommandInteractionData{
		Name: "qwixx", Options: []*discordgo.ApplicationCommandInteractionDataOption{{Name: sub, Type: discordgo.ApplicationCommandOptionSubCommand, Options: opts}},
	}, nil)
}

// clickAt presses the button customID as user from w.
func (h *harness) clickAt(w where, user, customID string, msg *discordgo.Message) *discordgo.InteractionResponse {
	if msg == nil {
		msg = &discordgo.Message{ID: "forged"}
	}
	return h.at(w, user, discordgo.InteractionMessageComponent, discordgo.MessageComponentInteractionData{CustomID: customID, ComponentType: discordgo.ButtonComponent}, msg)
}

// autocompleteAt is the answer to user typing typed into /qwixx record's
// game option from w.
func (h *harness) autocompleteAt(w where, user, typed string) []*discordgo.ApplicationCommandOptionChoice {
	resp := h.at(w, user, discordgo.InteractionApplicationCommandAutocomplete, discordgo.ApplicationCommandInteractionData{
		Name: "qwixx", Options: []*discordgo.ApplicationCommandInteractionDataOption{{Name: "record", Type: discordgo.ApplicationCommandOptionSubCommand,
			Options: []*discordgo.ApplicationCommandInteractionDataOption{{Name: "game", Type: discordgo.ApplicationCommandOptionString, Value: typed, Focused: true}}}},
	}, nil)
	if resp.Data == nil {
		return nil
	}
	return resp.Data.Choices
}

// recordFile is the JSON file a /qwixx record answer carries ("" none).
func (h *harness) recordFile(resp *discordgo.InteractionResponse) string {
	h.t.Helper()
	if resp.Data == nil || len(resp.Data.Files) != 1 || !strings.HasSuffix(resp.Data.Files[0].Name, ".json") {
		return ""
	}
	h.dc.mu.Lock()
	defer h.dc.mu.Unlock()
	return string(h.dc.files[h.lastID()+"/"+resp.Data.Files[0].Name])
}

// Issue 39, item 1: a private game's record is its player's alone. Anna
// plays her daily challenge and a private solo game to their ends in a
// server; Ben, in the same server, gets neither record through /qwixx
// record with or without a game, its autocomplete or a forged 📄 Record
// button, so he cannot read the day's dice before playing them himself.
func TestPrivateGamesRecordsHiddenFromTheServer(t *testing.T) {
	h, _ := newHistoryHarness(t)
	h.playPrivate("anna", h.command("anna", "daily"), cycle)
	daily, _ := h.bot.loadTable(context.Background(), privateKey(privateDaily, "anna"))
	h.playPrivate("anna", h.command("anna", "solo"), cycle)
	solo, _ := h.bot.loadTable(context.Background(), privateKey(privateSolo, "anna"))
	if daily == nil || solo == nil || !daily.Game.Over() || !solo.Game.Over() {
		t.Fatal("anna's private games did not end")
	}
	// Anna herself gets both.
	if got := h.recordFile(h.command("anna", "record", strOption("game", daily.GameID()))); !strings.Contains(got, `"rolls"`) {
		t.Fatalf("anna does not get her own daily's record: %q", got)
	}
	if got := h.recordFile(h.command("anna", "record")); !strings.Contains(got, `"rolls"`) {
		t.Fatalf("anna does not get her newest record: %q", got)
	}
	ids := []string{daily.GameID(), solo.GameID()}
	for _, id := range ids {
		if got := h.recordFile(h.command("ben", "record", strOption("game", id))); got != "" {
			t.Errorf("ben got anna's private game %s by its ID:\n%.200s", id, got)
		}
	}
	if got := h.recordFile(h.command("ben", "record")); got != "" {
		t.Errorf("ben got a private record with /qwixx record:\n%.200s", got)
	}
	for _, c := range h.autocompleteAt(inServer, "ben", "") {
		t.Errorf("ben is offered a private game: %q (%v)", c.Name, c.Value)
	}
	forged := customid.Action{Table: solo.ID, View: customid.ViewResults, Verb: "record", Arg: "1"}.Encode()
	if got := h.recordFile(h.click("ben", forged, nil)); got != "" {
		t.Errorf("ben got anna's solo record with a forged Record button:\n%.200s", got)
	}
	// So Ben's daily starts on dice he has not seen anywhere.
	h.command("ben", "daily")
	if tb, _ := h.bot.loadTable(context.Background(), privateKey(privateDaily, "ben")); tb == nil || tb.Game.Record().Rolls[0] != daily.Game.Record().Rolls[0] {
		t.Fatal("ben's daily is not on the day's dice")
	}
}

// Issue 39, item 2: every DM and group DM is a place of its own. Anna
// plays a private solo game in her DM with the bot; Dora, in hers, gets
// no record of it and no autocomplete choice naming it, nor does Gina in
// a group DM, and neither does Anna's game show in their statistics.
func TestDMsShareNoHistory(t *testing.T) {
	h, _ := newHistoryHarness(t)
	h.playPrivate("anna", h.commandAt(dmOf("anna"), "anna", "solo"), cycle)
	solo, _ := h.bot.loadTable(context.Background(), privateKey(privateSolo, "anna"))
	if solo == nil || !solo.Game.Over() {
		t.Fatal("anna's solo game did not end")
	}
	if got := h.recordFile(h.commandAt(dmOf("anna"), "anna", "record")); !strings.Contains(got, `"rolls"`) {
		t.Fatalf("anna does not get her own DM game's record: %q", got)
	}
	for _, w := range []struct {
		user string
		at   where
	}{{"dora", dmOf("dora")}, {"gina", inGroupDM}} {
		if got := h.recordFile(h.commandAt(w.at, w.user, "record")); got != "" {
			t.Errorf("%s got anna's DM game:\n%.200s", w.user, got)
		}
		if got := h.recordFile(h.commandAt(w.at, w.user, "record", strOption("game", solo.GameID()))); got != "" {
			t.Errorf("%s got anna's DM game by its ID:\n%.200s", w.user, got)
		}
		for _, c := range h.autocompleteAt(w.at, w.user, "") {
			t.Errorf("%s is offered anna's DM game: %q", w.user, c.Name)
		}
		if text := embedText(h.commandAt(w.at, w.user, "stats", userOpt("player", "anna"))); text != "" {
			t.Errorf("%s sees anna's statistics from the DMs: %q", w.user, text)
		}
	}
}

// Issue 39, item 3: the daily challenge is played once a day also after
// /qwixx forget-me: Anna plays the day's challenge, asks to be
// forgotten, and /qwixx daily the same day deals her nothing (the next
// day it does).
func TestDailyOnceADayAlsoAfterForgetMe(t *testing.T) {
	h, _ := newHistoryHarness(t)
	h.playPrivate("anna", h.command("anna", "daily"), cycle)
	first, _ := h.bot.loadTable(context.Background(), privateKey(privateDaily, "anna"))
	ask := h.command("anna", "forget-me")
	h.click("anna", buttons(ask.Data.Components, "Forget me")[0], ephemeralMsg)
	again := h.command("anna", "daily")
	if n := len(moveButtons(t, again.Data.Components)); n != 0 || !isEphemeral(again) {
		t.Errorf("after forget-me, /qwixx daily offers %d moves on the same day: %q", n, again.Data.Content)
	}
	if tb, _ := h.bot.loadTable(context.Background(), privateKey(privateDaily, "anna")); tb != nil && tb.Daily == first.Daily {
		t.Fatalf("after forget-me, the day's challenge was dealt again (%s)", tb.ID)
	}
	h.clock.Advance(24 * time.Hour)
	next := h.command("anna", "daily")
	if len(moveButtons(t, next.Data.Components)) == 0 {
		t.Fatalf("the next day's challenge is not dealt: %q", next.Data.Content)
	}
}

// playToEndAt plays the running game of the table in w's channel to its
// end as playToEnd does, every click from w.
func (h *harness) playToEndAt(w where) {
	h.t.Helper()
	for steps := 0; ; steps++ {
		if steps > 2000 {
			h.t.Fatal("game did not end")
		}
		tb, err := h.bot.loadTable(context.Background(), w.channel)
		if err != nil || tb == nil {
			h.t.Fatalf("table of %s: %v", w.channel, err)
		}
		if tb.Stage != StagePlaying {
			return
		}
		user := tb.Seats[tb.Game.Waiting()[0]].UserID
		msg := h.dc.lastTable(w.channel)
		if msg == nil {
			h.t.Fatalf("no table message in %s", w.channel)
		}
		sheet := h.clickAt(w, user, buttons(msg.Components, "My sheet")[0], msg)
		ids := buttons(sheet.Data.Components, "")
		if len(ids) == 0 {
			h.t.Fatalf("player %s may act but the sheet offers nothing", user)
		}
		h.clickAt(w, user, ids[steps%len(ids)], &discordgo.Message{ID: "eph", Flags: discordgo.MessageFlagsEphemeral})
	}
}
