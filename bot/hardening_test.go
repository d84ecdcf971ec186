package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/view"
	"github.com/qwixxbot/qwixxbot/game"
)

var ephemeralMsg = &discordgo.Message{ID: "eph", Flags: discordgo.MessageFlagsEphemeral}

func isEphemeral(r *discordgo.InteractionResponse) bool {
	return r.Type == discordgo.InteractionResponseChannelMessageWithSource && r.Data != nil && r.Data.Flags&discordgo.MessageFlagsEphemeral != 0
}

// storedBlob is the table exactly as stored.
func (h *harness) storedBlob() []byte {
	b, _, _ := h.st.Get(context.Background(), testChannel)
	return b
}

// storedParts decodes the stored table's JSON and its game's snapshot
// (stored after it, session.Table.Encode).
func (h *harness) storedParts() (tb, snap map[string]any) {
	h.t.Helper()
	head, game, ok := bytes.Cut(h.storedBlob(), []byte("\n"))
	if !ok {
		h.t.Fatal("the stored table has no game after it")
	}
	if err := json.Unmarshal(head, &tb); err != nil {
		h.t.Fatal(err)
	}
	if err := json.Unmarshal(game, &snap); err != nil {
		h.t.Fatal(err)
	}
	return tb, snap
}

// joinParts is what storedParts reads, stored.
func joinParts(tb, snap map[string]any) []byte {
	head, _ := json.Marshal(tb)
	game, _ := json.Marshal(snap)
	return append(append(head, '\n'), game...)
}

// Issue: a private sheet button of the previous game ("Blue 5") was
// accepted in the next game, whose stamp started again from 0 (RULES D4:
// a cross is for the sum rolled now). A stamp only grows for the life of
// the table.
func TestD4OldSheetButtonRefusedAfterPlayAgain(t *testing.T) {
	h := newHarness(t)
	h.startTwo("dice")
	first := h.table().Stamp()
	tbl := h.dc.lastTable(testChannel)
	sheet := h.click("anna", buttons(tbl.Components, "My sheet")[0], tbl)
	var old []string
	for _, row := range []string{"Blue", "Green", "Yellow", "Red"} {
		if old = buttons(sheet.Data.Components, row); len(old) == 1 {
			break
		}
	}
	if len(old) != 1 {
		t.Fatalf("sheet view offers no row button: %+v", sheet.Data.Components)
	}
	// Both leave: their turns are passed until the misthrows end the game.
	h.command("anna", "leave")
	h.command("ben", "leave")
	if h.table().Stage != StageOver {
		t.Fatal("the game did not end")
	}
	res := h.dc.lastTable(testChannel)
	again := buttons(res.Components, "Play again")
	if len(again) != 1 {
		t.Fatalf("results have no Play again: %+v", res.Components)
	}
	// Both left: Play again seats only Anna, who clicked it; Ben joins.
	lobby := h.click("anna", again[0], res)
	if seats := h.table().Seats; len(seats) != 1 || seats[0].UserID != "anna" {
		t.Fatalf("Play again seated %+v, want only Anna", seats)
	}
	lobby = h.click("ben", buttons(lobby.Data.Components, "Join")[0], nil)
	h.click("anna", buttons(lobby.Data.Components, "Start")[0], nil)
	tb := h.table()
	if tb.Stage != StagePlaying || tb.Game.Turn() != 1 || tb.Game.Phase() != game.PhaseWhite {
		t.Fatalf("second game not at turn 1, action 1: %v %d %v", tb.Stage, tb.Game.Turn(), tb.Game.Phase())
	}
	if tb.Stamp() <= first {
		t.Fatalf("stamp went from %d to %d over a new game", first, tb.Stamp())
	}
	before := h.storedBlob()
	r := h.click("anna", old[0], ephemeralMsg)
	if !strings.Contains(r.Data.Content, "earlier state") {
		t.Fatalf("old sheet button in the new game: %+v", r.Data)
	}
	if !bytes.Equal(before, h.storedBlob()) {
		t.Fatal("the old button changed the stored table")
	}
	// The Play again button is gone for good too.
	if r := h.click("ben", again[0], res); !strings.Contains(r.Data.Content, "earlier state") {
		t.Fatalf("second Play again: %q", r.Data.Content)
	}
}

// The stamp survives a restart: buttons made before it keep working, and
// only for their state.
func TestStampStoredAcrossRestart(t *testing.T) {
	h := newHarness(t)
	h.startTwo("dice")
	tbl := h.dc.lastTable(testChannel)
	stamp := h.table().Stamp()
	h.bot = h.newBot() // restart on the same store
	if got := h.table().Stamp(); got != stamp {
		t.Fatalf("stamp %d after restart, was %d", got, stamp)
	}
	h.click("anna", buttons(tbl.Components, "Pass")[0], tbl)
	if !h.table().Game.Decided(0) {
		t.Fatal("pass after restart not taken")
	}
}

// Issue (RULES C10): a select with the card picker's custom_id sent on the
// public table message by the active player turned the public message into
// their hand. Private views are answered only from ephemeral messages; the
// decision rests on the message's flags and the custom_id's view, not on
// attachments (which Discord may omit).
func TestC10ForgedBuilderOnPublicMessageRefused(t *testing.T) {
	h := newHarness(t)
	h.startTwo("cards")
	tb := h.table()
	active := tb.Seats[tb.Game.Active()].UserID
	pub := h.dc.lastTable(testChannel)
	for _, verb := range []string{"pick", "hand", "take"} {
		arg := ""
		if verb == "take" {
			ms := tb.Game.LegalMoves(tb.Game.Active())
			arg = customid.JoinInts(ms[0].TakeNumbers(), "-")
		}
		id := view.ActionID(tb, customid.ViewHand, verb, arg)
		var values []string
		if verb == "pick" {
			values = []string{tb.Game.Hand(tb.Game.Active())[0].String()}
		}
		before := h.storedBlob()
		r := h.click(active, id, pub, values...)
		if !isEphemeral(r) || len(r.Data.Files) > 0 || !strings.Contains(r.Data.Content, "not one of mine") {
			t.Fatalf("%s from the hand view on the public message: %+v", verb, r)
		}
		if !bytes.Equal(before, h.storedBlob()) {
			t.Fatalf("%s: the forged click changed the table", verb)
		}
	}
	// A public table button sent from an ephemeral message is refused too.
	if r := h.click(active, buttons(pub.Components, "My cards")[0], ephemeralMsg); !strings.Contains(r.Data.Content, "not one of mine") {
		t.Fatalf("table button on an ephemeral message: %q", r.Data.Content)
	}
	// The real hand view works without attachments in the message.
	hv := h.click(active, buttons(pub.Components, "My cards")[0], pub)
	if !isEphemeral(hv) {
		t.Fatalf("My cards: %+v", hv)
	}
	refresh := buttons(hv.Data.Components, "🔄")
	r := h.click(active, refresh[0], &discordgo.Message{ID: "hv", Flags: discordgo.MessageFlagsEphemeral})
	if r.Type != discordgo.InteractionResponseUpdateMessage || len(r.Data.Files) != 1 || r.Data.Files[0].Name != view.HandFile {
		t.Fatalf("refresh in the hand view without attachments: %+v", r)
	}
}

// Issue: every interaction gets an answer, and anything that is not exactly
// what the bot made is refused politely, changing nothing.
func TestEveryMalformedInteractionAnsweredAndRefused(t *testing.T) {
	h := newHarness(t)
	h.startTwo("dice")
	tbl := h.dc.lastTable(testChannel)
	white := buttons(tbl.Components, "Red")[0]
	before := h.storedBlob()

	opt := func(name string, typ discordgo.ApplicationCommandOptionType, v any) *discordgo.ApplicationCommandInteractionDataOption {
		return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: typ, Value: v}
	}
	for _, tc := range []struct {
		name string
		sub  string
		opts []*discordgo.ApplicationCommandInteractionDataOption
	}{
		{"remove without its option", "remove", nil},
		{"remove with a string", "remove", []*discordgo.ApplicationCommandInteractionDataOption{opt("player", discordgo.ApplicationCommandOptionString, "ben")}},
		{"remove with a number", "remove", []*discordgo.ApplicationCommandInteractionDataOption{opt("player", discordgo.ApplicationCommandOptionUser, 12.0)}},
		{"games as a string", "new", []*discordgo.ApplicationCommandInteractionDataOption{opt("games", discordgo.ApplicationCommandOptionString, "3")}},
		{"games typed integer holding a string", "new", []*discordgo.ApplicationCommandInteractionDataOption{opt("games", discordgo.ApplicationCommandOptionInteger, "3")}},
		{"games 2.5", "new", []*discordgo.ApplicationCommandInteractionDataOption{opt("games", discordgo.ApplicationCommandOptionInteger, 2.5)}},
		{"games 99", "new", []*discordgo.ApplicationCommandInteractionDataOption{opt("games", discordgo.ApplicationCommandOptionInteger, 99.0)}},
		{"unknown variant", "new", []*discordgo.ApplicationCommandInteractionDataOption{opt("variant", discordgo.ApplicationCommandOptionString, "chess")}},
		{"nil value", "settings", []*discordgo.ApplicationCommandInteractionDataOption{opt("timeout", discordgo.ApplicationCommandOptionInteger, nil)}},
		{"unknown option", "sheet", []*discordgo.ApplicationCommandInteractionDataOption{opt("x", discordgo.ApplicationCommandOptionString, "y")}},
		{"unknown subcommand", "fly", nil},
	} {
		r := h.command("ben", tc.sub, tc.opts...)
		if !isEphemeral(r) || !strings.Contains(r.Data.Content, "could not read that command") {
			t.Errorf("%s: %+v", tc.name, r.Data)
		}
	}
	// Commands of another shape: no subcommand, another name.
	for _, data := range []discordgo.ApplicationCommandInteractionData{
		{Name: "qwixx"},
		{Name: "other", Options: []*discordgo.ApplicationCommandInteractionDataOption{{Name: "new", Type: discordgo.ApplicationCommandOptionSubCommand}}},
		{Name: "qwixx", Options: []*discordgo.ApplicationCommandInteractionDataOption{{Name: "new", Type: discordgo.ApplicationCommandOptionString}}},
	} {
		i := h.interaction("ben", discordgo.InteractionApplicationCommand, data, nil)
		h.bot.Handle(i)
		if r := h.response(i); !isEphemeral(r) {
			t.Errorf("command %+v: %+v", data, r)
		}
	}
	// Truncated and altered custom_ids.
	for n := len(white) - 1; n > 0; n-- {
		r := h.click("anna", white[:n], tbl)
		if !isEphemeral(r) || !strings.Contains(r.Data.Content, "not one of mine") {
			t.Fatalf("truncated %q: %+v", white[:n], r.Data)
		}
	}
	// Autocomplete and modal submits, which the bot never asks for.
	ac := h.interaction("ben", discordgo.InteractionApplicationCommandAutocomplete, discordgo.ApplicationCommandInteractionData{Name: "qwixx"}, nil)
	h.bot.Handle(ac)
	if r := h.response(ac); r.Type != discordgo.InteractionApplicationCommandAutocompleteResult {
		t.Errorf("autocomplete answered %+v", r)
	}
	ms := h.interaction("ben", discordgo.InteractionModalSubmit, discordgo.ModalSubmitInteractionData{CustomID: white}, nil)
	h.bot.Handle(ms)
	if r := h.response(ms); !isEphemeral(r) {
		t.Errorf("modal submit answered %+v", r)
	}
	if !bytes.Equal(before, h.storedBlob()) {
		t.Fatal("refused interactions changed the table")
	}
}

// Issue: when the answer to /qwixx new was lost, nobody saw the lobby and
// the channel was blocked; /qwixx new shows the open lobby again, and its
// buttons work.
func TestNewShowsTheOpenLobbyAgain(t *testing.T) {
	h := newHarness(t)
	first := h.command("anna", "new", strOpt("variant", "cards"))
	id := h.table().ID
	again := h.command("ben", "new")
	if again.Type != discordgo.InteractionResponseChannelMessageWithSource || again.Data.Flags&discordgo.MessageFlagsEphemeral != 0 {
		t.Fatalf("lobby shown again must be public: %+v", again)
	}
	join := buttons(again.Data.Components, "Join")
	if len(join) != 1 || join[0] != buttons(first.Data.Components, "Join")[0] {
		t.Fatalf("the lobby shown again is another lobby: %v", join)
	}
	if h.table().ID != id || h.table().Variant != game.Cards {
		t.Fatal("the open lobby was replaced")
	}
	if r := h.click("ben", join[0], nil); r.Type != discordgo.InteractionResponseUpdateMessage || len(h.table().Seats) != 2 {
		t.Fatalf("join from the lobby shown again: %+v", r)
	}
}

// commandAs runs /qwixx sub as user with the given member permissions.
func (h *harness) commandAs(user string, perms int64, sub string) *discordgo.InteractionResponse {
	i := h.interaction(user, discordgo.InteractionApplicationCommand, discordgo.ApplicationCommandInteractionData{
		Name: "qwixx", Options: []*discordgo.ApplicationCommandInteractionDataOption{{Name: sub, Type: discordgo.ApplicationCommandOptionSubCommand}},
	}, nil)
	i.Member.Permissions = perms
	h.bot.Handle(i)
	h.bot.Idle()
	return h.response(i)
}

// Issue: an unreadable stored table (a failed checksum) blocked its channel
// forever, /qwixx end included. It is never played on; everybody is told
// why; a member who may manage messages clears it, its bytes kept aside;
// it is logged once.
func TestUnreadableTableClearedByModerator(t *testing.T) {
	h := newHarness(t)
	h.startTwo("dice")
	tbl := h.dc.lastTable(testChannel)
	raw := h.storedBlob()
	h.st.mu.Lock()
	h.st.corrupt = map[string]bool{testChannel: true}
	h.st.mu.Unlock()
	h.bot = h.newBot()
	if err := h.bot.Start(); err != nil {
		t.Fatalf("Start with an unreadable table: %v", err)
	}
	for _, r := range []*discordgo.InteractionResponse{
		h.click("anna", buttons(tbl.Components, "Pass")[0], tbl),
		h.command("ben", "sheet"),
		h.command("ben", "new"),
		h.command("ben", "end"),
		h.command("anna", "end"), // the host, but the damaged bytes cannot say so
		h.command("ben", "leave"),
	} {
		if !isEphemeral(r) || !strings.Contains(r.Data.Content, "could not be read") {
			t.Fatalf("answer on an unreadable table: %+v", r.Data)
		}
	}
	h.clock.Advance(time.Hour)
	h.bot.Tick() // a timer due on it must not act either
	if n := strings.Count(h.logs.String(), "stored table unreadable"); n != 1 {
		t.Fatalf("the unreadable table was logged %d times, want once:\n%s", n, h.logs.String())
	}
	r := h.commandAs("cleo", discordgo.PermissionManageMessages, "end")
	if r.Type != discordgo.InteractionResponseChannelMessageWithSource || r.Data.Flags&discordgo.MessageFlagsEphemeral != 0 || !strings.Contains(r.Data.Content, "cleared") {
		t.Fatalf("moderator's /qwixx end: %+v", r.Data)
	}
	if q := h.st.quarantined[testChannel]; len(q) != 1 || !bytes.Equal(q[0], raw) {
		t.Fatal("the unreadable bytes were not kept aside as they were")
	}
	if r := h.command("ben", "new"); len(buttons(r.Data.Components, "Join")) != 1 {
		t.Fatalf("/qwixx new after clearing: %+v", r.Data)
	}
}

// A table that fails to decode (here: a game breaking the rules'
// invariants) is unreadable too; its host, still legible in the bytes, can
// clear it by opening a new table.
func TestUnreadableTableClearedByHostWithNew(t *testing.T) {
	h := newHarness(t)
	h.startTwo("dice")
	tb, _ := h.storedParts()
	bad := joinParts(tb, map[string]any{"v": 1, "garbage": true})
	h.st.Update(context.Background(), testChannel, func([]byte, bool) ([]byte, bool, error) { return bad, false, nil })
	if r := h.command("ben", "new"); !strings.Contains(r.Data.Content, "could not be read") {
		t.Fatalf("non-host /qwixx new: %q", r.Data.Content)
	}
	r := h.command("anna", "new")
	if len(buttons(r.Data.Components, "Join")) != 1 || isEphemeral(r) {
		t.Fatalf("host's /qwixx new on an unreadable table: %+v", r.Data)
	}
	if q := h.st.quarantined[testChannel]; len(q) != 1 || !bytes.Equal(q[0], bad) {
		t.Fatal("the unreadable bytes were not kept aside")
	}
	if tb := h.table(); tb == nil || tb.Stage != StageLobby {
		t.Fatal("no new lobby")
	}
}

// Issue: a stored game with a valid checksum whose state contradicts its
// own move log (a cross nobody made) was loaded and played. Such a table
// is unreadable: never played on, and its host clears it.
func TestGameContradictingItsLogIsNotPlayed(t *testing.T) {
	h := newHarness(t)
	h.startTwo("dice")
	tbl := h.dc.lastTable(testChannel)
	tb, snap := h.storedParts()
	sheet := snap["state"].(map[string]any)["sheets"].([]any)[1].(map[string]any)
	sheet["rows"].([]any)[0] = 1 // red 2 crossed, which no move did
	bad := joinParts(tb, snap)
	h.st.Update(context.Background(), testChannel, func([]byte, bool) ([]byte, bool, error) { return bad, false, nil })
	h.bot = h.newBot() // a restart: nothing of the game in memory
	if err := h.bot.Start(); err != nil {
		t.Fatal(err)
	}
	for _, r := range []*discordgo.InteractionResponse{
		h.click("ben", buttons(tbl.Components, "Pass")[0], tbl),
		h.command("ben", "sheet"),
	} {
		if !isEphemeral(r) || !strings.Contains(r.Data.Content, "could not be read") {
			t.Fatalf("answer on a game that contradicts its log: %+v", r.Data)
		}
	}
	if !strings.Contains(h.logs.String(), "not where its move log leads") {
		t.Fatalf("the reason is not logged:\n%s", h.logs.String())
	}
	r := h.command("anna", "new")
	if len(buttons(r.Data.Components, "Join")) != 1 || isEphemeral(r) {
		t.Fatalf("host's /qwixx new on the table: %+v", r.Data)
	}
	if q := h.st.quarantined[testChannel]; len(q) != 1 || !bytes.Equal(q[0], bad) {
		t.Fatal("the contradicting bytes were not kept aside")
	}
}

// Issue: a table stored under another channel's key silently blocked that
// channel (in another guild, /qwixx new answered "This button is not one
// of mine"): the stored table's channel was never compared with its key.
// Such a table is put aside (its bytes in the quarantine), at start and on
// load, and the channel works.
func TestTableUnderAnotherChannelsKeyPutAside(t *testing.T) {
	for _, restart := range []bool{false, true} {
		t.Run(fmt.Sprintf("restart=%v", restart), func(t *testing.T) {
			h := newHarness(t)
			h.startTwo("dice")
			blob := h.storedBlob()
			const other = "chan-elsewhere"
			h.st.Update(context.Background(), other, func([]byte, bool) ([]byte, bool, error) { return blob, false, nil })
			if restart {
				h.bot = h.newBot()
				if err := h.bot.Start(); err != nil {
					t.Fatal(err)
				}
			}
			r := h.commandIn(other, "guild-elsewhere", "ben", "new")
			if isEphemeral(r) || len(buttons(r.Data.Components, "Join")) != 1 {
				t.Fatalf("/qwixx new in the channel whose key held another's table: %+v", r.Data)
			}
			if q := h.st.quarantined[other]; len(q) != 1 || !bytes.Equal(q[0], blob) {
				t.Fatal("the misfiled table was not kept aside as it was")
			}
			if tb := h.table(); tb == nil || tb.Stage != StagePlaying {
				t.Fatal("the table in its own channel was touched")
			}
		})
	}
}

// Issue: "Play again" re-seated players who had left, started at once and
// waited on them; and a bot killed during Play again left the old results
// with a Play again button that no longer worked. Now Play again opens a
// lobby with the players still there (the clicker hosts it; who left is
// neither seated nor pinged), and the results lose their Play again button
// through the reconciler, from the stored table: after a restart too.
func TestPlayAgainSeatsOnlyWhoStayedAndNeverOutlivesItsUse(t *testing.T) {
	h := newHarness(t)
	h.startTable("dice", "anna", "ben", "cleo")
	h.command("anna", "leave")
	h.command("ben", "leave")
	for h.table().Stage == StagePlaying { // Cleo passes until the misthrows end it
		tbl := h.dc.lastTable(testChannel)
		if pass := buttons(tbl.Components, "Pass"); len(pass) > 0 {
			h.click("cleo", pass[0], tbl)
		}
		h.clock.Advance(2 * time.Minute)
		h.bot.Tick()
		h.bot.Idle()
	}
	res := h.dc.lastTable(testChannel)
	again := buttons(res.Components, "Play again")
	if len(again) != 1 {
		t.Fatalf("results without Play again: %+v", res.Components)
	}
	resIDs := len(messageCustomIDs(res))
	// The bot "dies" after saving the lobby: the results are not edited.
	h.dc.refuseEdits = true
	lobby := h.click("ben", again[0], res)
	tb := h.table()
	if tb.Stage != StageLobby || tb.Host != "ben" || len(tb.Seats) != 2 || tb.SeatOf("anna") >= 0 || tb.SeatOf("ben") < 0 || tb.SeatOf("cleo") < 0 {
		t.Fatalf("Play again made stage %v host %s seats %+v; want a lobby hosted by Ben with Ben and Cleo", tb.Stage, tb.Host, tb.Seats)
	}
	if lobby.Type != discordgo.InteractionResponseChannelMessageWithSource || isEphemeral(lobby) ||
		!strings.Contains(lobby.Data.Content, "<@ben> wants to play again") || strings.Contains(lobby.Data.Content, "anna") ||
		lobby.Data.AllowedMentions == nil || !slices.Equal(lobby.Data.AllowedMentions.Users, []string{"cleo"}) {
		t.Fatalf("the lobby of Play again: %q, mentions %+v", lobby.Data.Content, lobby.Data.AllowedMentions)
	}
	if len(buttons(h.dc.byID[res.ID].Components, "Play again")) != 1 {
		t.Fatal("precondition: the results were not to be edited")
	}
	// Restart: the results lose Play again and keep their Record button.
	h.dc.refuseEdits = false
	h.bot = h.newBot()
	if err := h.bot.Start(); err != nil {
		t.Fatal(err)
	}
	h.bot.Idle()
	if msg := h.dc.byID[res.ID]; len(buttons(msg.Components, "Play again")) != 0 || len(messageCustomIDs(msg)) != resIDs-1 {
		t.Fatalf("after the restart the results offer %v", messageCustomIDs(msg))
	}
	if r := h.click("anna", again[0], res); !isEphemeral(r) || !strings.Contains(r.Data.Content, "earlier state") {
		t.Fatalf("the old Play again: %+v", r.Data)
	}
}

// Issue: game 2 of a match started as plain "Turn 1", and /qwixx new
// between the games silently dropped the match and left a stale "Next
// game" button. The turn header names the game of the match; /qwixx new
// says the match ended, and the results lose their Next game button.
func TestD11MatchKeepsItsContext(t *testing.T) {
	h := newHarness(t)
	resp := h.command("anna", "new", strOpt("variant", "dice"), &discordgo.ApplicationCommandInteractionDataOption{Name: "games", Type: discordgo.ApplicationCommandOptionInteger, Value: float64(3)})
	resp = h.click("ben", buttons(resp.Data.Components, "Join")[0], nil)
	h.click("anna", buttons(resp.Data.Components, "Start")[0], nil)
	if tbl := h.dc.lastTable(testChannel); !strings.Contains(tbl.Content, "**Game 1 of 3** · **Turn 1**") {
		t.Fatalf("game 1's header: %q", tbl.Content)
	}
	h.command("anna", "leave")
	h.command("ben", "leave")
	res := h.dc.lastTable(testChannel)
	next := buttons(res.Components, "Next game")
	if h.table().Stage != StageOver || len(next) != 1 {
		t.Fatalf("game 1 not over with a Next game button: %+v", res.Components)
	}
	lobby := h.command("ben", "new")
	if isEphemeral(lobby) || !strings.Contains(lobby.Data.Content, "The match was ended after game 1 of 3") {
		t.Fatalf("/qwixx new between the match's games: %q", lobby.Data.Content)
	}
	if got := buttons(h.dc.byID[res.ID].Components, "Next game"); len(got) != 0 {
		t.Fatal("the results keep their Next game button")
	}
}

// Issue 39: forged and stale interactions over every command and button
// that reads the history reach no private game and no other place's: a
// record option of another type, too long, naming a private game, a
// prefix of one, or another place's game; the autocompletion typed with
// a private game's ID or player; the 📄 Record and 🔍 Review buttons
// forged for private games with any stamp and game number, in the
// results, solo and daily views; the statistics' Show button forged for
// another user (and for oneself: a post in the channel shows no private
// game); and the private views' buttons forged by another user. Every
// answer is given, none carries a record, a review or a private score,
// and nothing stored changes.
func TestForgedHistoryInteractionsRevealNoPrivateGame(t *testing.T) {
	h, st := newHistoryHarness(t)
	games := playPrivacyGames(t, h, st)
	byName := map[string]*privacyGame{}
	for _, g := range games {
		byName[g.name] = g
	}
	pia, dan, gdm := byName["solo private"], byName["daily"], byName["table in a group DM"]
	before := func() map[string][]byte {
		h.st.mu.Lock()
		defer h.st.mu.Unlock()
		out := map[string][]byte{}
		for k, v := range h.st.m {
			out[k] = slices.Clone(v)
		}
		return out
	}()
	sent := h.seq
	privateScores := []string{
		fmt.Sprintf("best %d", pia.table.Game.Scores()[0]),
		fmt.Sprintf("best %d", dan.table.Game.Scores()[0]),
	}
	clean := func(what string, r *discordgo.InteractionResponse) {
		t.Helper()
		if r == nil || r.Data == nil {
			t.Fatalf("%s: no answer", what)
		}
		for _, f := range r.Data.Files {
			if strings.HasSuffix(f.Name, ".json") || f.Name == "review.png" {
				t.Errorf("%s: got %s", what, f.Name)
			}
		}
		text := r.Data.Content + embedText(r)
		for _, s := range append(privateScores, "Review of your game", `"rolls"`, dan.share) {
			if s != "" && strings.Contains(text, s) {
				t.Errorf("%s: answer shows %q: %q", what, s, text)
			}
		}
	}
	opt := func(typ discordgo.ApplicationCommandOptionType, v any) *discordgo.ApplicationCommandInteractionDataOption {
		return &discordgo.ApplicationCommandInteractionDataOption{Name: "game", Type: typ, Value: v}
	}
	for _, w := range []where{inServer, inServer2, dmOf("dora"), inGroupDM} {
		for _, o := range []*discordgo.ApplicationCommandInteractionDataOption{
			opt(discordgo.ApplicationCommandOptionString, pia.id),
			opt(discordgo.ApplicationCommandOptionString, dan.id),
			opt(discordgo.ApplicationCommandOptionString, strings.TrimSuffix(dan.id, dan.table.ID)),
			opt(discordgo.ApplicationCommandOptionString, pia.table.ID),
			opt(discordgo.ApplicationCommandOptionString, strings.Repeat(pia.id, 40)),
			opt(discordgo.ApplicationCommandOptionString, "../"+pia.id),
			opt(discordgo.ApplicationCommandOptionInteger, 1.0),
		} {
			clean(fmt.Sprintf("record %v from %v", o.Value, w), h.commandAt(w, "carl", "record", o))
		}
		// An empty option is the newest record carl may see: a table
		// game's, never a private one.
		newest := h.recordFile(h.commandAt(w, "carl", "record", opt(discordgo.ApplicationCommandOptionString, "")))
		for _, name := range []string{"pia", "dan"} {
			if strings.Contains(newest, `"first": "`+name+`"`) {
				t.Errorf("the newest record from %v is %s's private game", w, name)
			}
		}
		if w != inGroupDM {
			r := h.commandAt(w, "carl", "record", opt(discordgo.ApplicationCommandOptionString, gdm.id))
			clean("the group DM's game from "+w.channel, r)
		}
		for _, typed := range []string{pia.id, dan.id, "daily", "pia", "dan", strings.Repeat("x", 200)} {
			for _, c := range h.autocompleteAt(w, "carl", typed) {
				if c.Value == pia.id || c.Value == dan.id || strings.Contains(c.Name, "pia") || strings.Contains(c.Name, "dan") {
					t.Errorf("autocomplete %q from %v offers %q", typed, w, c.Name)
				}
			}
		}
		for _, g := range []*privacyGame{pia, dan} {
			for _, stamp := range []int{0, 1, 7} {
				for _, arg := range []string{"1", "2"} {
					for _, a := range []customid.Action{
						{Table: g.table.ID, Stamp: stamp, View: customid.ViewResults, Verb: "record", Arg: arg},
						{Table: g.table.ID, Stamp: stamp, View: customid.ViewResults, Verb: "review", Arg: arg},
						{Table: g.table.ID, Stamp: stamp, View: customid.ViewSolo, Verb: "review", Arg: arg},
						{Table: g.table.ID, Stamp: stamp, View: customid.ViewDaily, Verb: "review", Arg: arg},
					} {
						clean(fmt.Sprintf("forged %+v from %v", a, w), h.clickAt(w, "carl", a.Encode(), ephemeralMsg))
					}
				}
			}
			for _, verb := range []string{"pass", "hint"} {
				a := customid.Action{Table: g.table.ID, Stamp: g.table.Seq, View: view.PrivateView(g.table.Private), Verb: verb}
				clean(fmt.Sprintf("forged %s of %s's game", verb, g.player), h.clickAt(w, "carl", a.Encode(), ephemeralMsg))
			}
			for _, u := range []string{"carl", g.player} {
				show := customid.Action{Table: g.player, View: customid.ViewPeople, Verb: "show"}.Encode()
				clean(fmt.Sprintf("%s shows %s's statistics from %v", u, g.player, w), h.clickAt(w, u, show, ephemeralMsg))
			}
			clean(fmt.Sprintf("stats of %s from %v", g.player, w), h.commandAt(w, "carl", "stats", userOpt("player", g.player)))
		}
		clean(fmt.Sprintf("leaderboard from %v", w), h.commandAt(w, "carl", "leaderboard"))
	}
	after := func() map[string][]byte {
		h.st.mu.Lock()
		defer h.st.mu.Unlock()
		return maps.Clone(h.st.m)
	}()
	if !maps.EqualFunc(before, after, bytes.Equal) {
		t.Error("forged interactions changed what is stored")
	}
	t.Logf("%d forged interactions, each answered, none revealing a private game", h.seq-sent)
}
