package bot

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"
	"github.com/qwixxbot/qwixxbot/bot/view"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/game"
)

func strOpt(name, v string) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionString, Value: v}
}

// openTable opens a lobby by host and seats the others.
func (h *harness) openTable(variant string, host string, others ...string) *discordgo.InteractionResponse {
	h.t.Helper()
	resp := h.command(host, "new", strOpt("variant", variant))
	if resp.Type != discordgo.InteractionResponseChannelMessageWithSource || resp.Data.Flags&discordgo.MessageFlagsEphemeral != 0 {
		h.t.Fatalf("lobby must be a public message, got %+v", resp)
	}
	join := buttons(resp.Data.Components, "Join")
	if len(join) != 1 {
		h.t.Fatalf("lobby has no Join button")
	}
	for _, u := range others {
		resp = h.click(u, join[0], nil)
		if resp.Type != discordgo.InteractionResponseUpdateMessage {
			h.t.Fatalf("join answered %+v", resp)
		}
	}
	return resp
}

func TestLobbyToStart(t *testing.T) {
	h := newHarness(t)
	resp := h.openTable("dice", "anna", "ben", "cleo")
	if got := resp.Data.Embeds[0].Fields[0].Name; got != "Players (3/5)" {
		t.Fatalf("seats field %q", got)
	}
	// Only the host may start.
	start := buttons(resp.Data.Components, "Start")[0]
	if r := h.click("ben", start, nil); r.Data.Flags&discordgo.MessageFlagsEphemeral == 0 || !strings.Contains(r.Data.Content, "Only the host") {
		t.Fatalf("non-host start: %+v", r.Data)
	}
	// Joining twice is refused, privately.
	if r := h.click("ben", buttons(resp.Data.Components, "Join")[0], nil); !strings.Contains(r.Data.Content, "already seated") {
		t.Fatalf("double join: %q", r.Data.Content)
	}
	r := h.click("anna", start, nil)
	if r.Type != discordgo.InteractionResponseUpdateMessage || len(r.Data.Components) != 0 {
		t.Fatalf("start must update the lobby and remove its buttons: %+v", r)
	}
	tb := h.table()
	if tb.Stage != StagePlaying || tb.Game == nil || tb.Game.NumPlayers() != 3 {
		t.Fatalf("table after start: %+v", tb)
	}
	msg := h.dc.lastTable(testChannel)
	if msg == nil || len(msg.Attachments) != 1 || !strings.Contains(msg.Content, "Action 1") {
		t.Fatalf("table message: %+v", msg)
	}
	if tb.Shown.Msg != msg.ID {
		t.Fatalf("table message id not stored")
	}
	// A second table in the same channel is refused while this one runs.
	if r := h.command("dan", "new"); !strings.Contains(r.Data.Content, "already has a table") {
		t.Fatalf("second table: %q", r.Data.Content)
	}
}

func TestStaleAndForgedClicks(t *testing.T) {
	h := newHarness(t)
	resp := h.openTable("dice", "anna", "ben")
	h.click("anna", buttons(resp.Data.Components, "Start")[0], nil)
	msg := h.dc.lastTable(testChannel)
	pass := buttons(msg.Components, "Pass")[0]
	before := h.table().Game.Moves()
	for _, id := range []string{"nonsense", "q1:zzz:1:pass", strings.Replace(pass, ":pass", ":white:purple", 1)} {
		r := h.click("anna", id, msg)
		if r.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
			t.Fatalf("%q: answer must be ephemeral", id)
		}
	}
	// A stranger's click is refused politely.
	if r := h.click("mallory", pass, msg); !strings.Contains(r.Data.Content, "not playing") {
		t.Fatalf("stranger: %q", r.Data.Content)
	}
	// An old lobby button after the start is stale.
	if r := h.click("cleo", buttons(resp.Data.Components, "Join")[0], nil); !strings.Contains(r.Data.Content, "earlier state") {
		t.Fatalf("old lobby button: %q", r.Data.Content)
	}
	if got := h.table().Game.Moves(); len(got) != len(before) {
		t.Fatalf("refused clicks changed the game: %v", got)
	}
	// After both passed action 1, the action-1 buttons are stale.
	h.click("anna", pass, msg)
	h.click("ben", pass, msg)
	if r := h.click("anna", pass, msg); !strings.Contains(r.Data.Content, "earlier state") && !strings.Contains(r.Data.Content, "passed") {
		t.Fatalf("click after the action moved on: %q", r.Data.Content)
	}
}

func TestIllegalClickExplained(t *testing.T) {
	h := newHarness(t)
	h.startTable("dice", "anna", "ben")
	tb := h.table()
	active := tb.Seats[tb.Game.Active()].UserID
	other := tb.Seats[1-tb.Game.Active()].UserID
	msg := h.dc.lastTable(testChannel)
	h.click(active, buttons(msg.Components, "Pass")[0], msg)
	h.click(other, buttons(msg.Components, "Pass")[0], msg)
	msg = h.dc.lastTable(testChannel)
	if !strings.Contains(msg.Content, "Action 2") {
		t.Fatalf("expected action 2, got %q", msg.Content)
	}
	// The non-active player may not act in action 2.
	r := h.click(other, buttons(msg.Components, "Pass")[0], msg)
	if !strings.Contains(r.Data.Content, "not your turn") {
		t.Fatalf("got %q", r.Data.Content)
	}
}

// A whole dice game played through the bot, always choosing the first
// legal personal button, ends with results that match the engine.
func TestWholeDiceGameThroughSheetButtons(t *testing.T) {
	h := newHarness(t)
	h.startTable("dice", "anna", "ben", "cleo")
	h.untilOver(func(tb *Table, p, step int) {
		if r := h.sheetChoice(tb.Seats[p].UserID, step); r.Type != discordgo.InteractionResponseUpdateMessage {
			t.Fatalf("personal choice answered %+v", r)
		}
	})
}

// Simultaneous clicks lose nothing and apply nothing twice.
func TestSimultaneousClicks(t *testing.T) {
	h := newHarness(t)
	h.startTable("dice", "anna", "ben", "cleo", "dan", "emma")
	msg := h.dc.lastTable(testChannel)
	pass := buttons(msg.Components, "Pass")[0]
	// Everybody clicks Pass three times at once.
	var wg sync.WaitGroup
	var ids sync.Map
	var mu sync.Mutex
	for _, u := range []string{"anna", "ben", "cleo", "dan", "emma"} {
		for k := range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				mu.Lock()
				i := h.interaction(u, discordgo.InteractionMessageComponent, discordgo.MessageComponentInteractionData{CustomID: pass, ComponentType: discordgo.ButtonComponent}, msg)
				mu.Unlock()
				ids.Store(i.ID, k)
				h.bot.Handle(i)
			}()
		}
	}
	wg.Wait()
	h.bot.Idle()
	g := h.table().Game
	if g.Phase() != game.PhaseColor {
		t.Fatalf("after everybody passed, phase %s", g.Phase())
	}
	if n := len(g.Moves()); n != 5 {
		t.Fatalf("%d moves recorded, want exactly 5", n)
	}
	answered := 0
	ids.Range(func(k, _ any) bool {
		h.dc.mu.Lock()
		if h.dc.responses[k.(string)] != nil {
			answered++
		}
		h.dc.mu.Unlock()
		return true
	})
	if answered != 15 {
		t.Fatalf("%d of 15 clicks answered", answered)
	}
}

func TestTimerPassesAndSurvivesRestart(t *testing.T) {
	h := newHarness(t)
	h.startTable("dice", "anna", "ben")
	msg := h.dc.lastTable(testChannel)
	tb := h.table()
	h.click(tb.Seats[0].UserID, buttons(msg.Components, "Pass")[0], msg)
	// Restart: a new bot on the same store picks the timer up.
	h.bot = h.newBot()
	if err := h.bot.Start(); err != nil {
		t.Fatal(err)
	}
	h.clock.Advance(50 * time.Second)
	h.bot.Tick()
	h.bot.Idle()
	var reminder bool
	for _, m := range h.dc.channel[testChannel] {
		if strings.Contains(m.Content, "⏰") && strings.Contains(m.Content, "<@"+tb.Seats[1].UserID+">") && !strings.Contains(m.Content, "<@"+tb.Seats[0].UserID+">") {
			reminder = true
		}
	}
	if !reminder {
		t.Fatal("no reminder mentioning only the undecided player")
	}
	h.clock.Advance(11 * time.Second)
	h.bot.Tick()
	h.bot.Idle()
	g := h.table().Game
	if g.Phase() != game.PhaseColor {
		t.Fatalf("timer did not pass for the undecided player: phase %s", g.Phase())
	}
	if g.Sheet(1).Crosses() != 0 {
		t.Fatal("a timeout crossed something")
	}
}

func TestDMAndPermissions(t *testing.T) {
	h := newHarness(t)
	dm := func(sub string) *discordgo.InteractionResponse {
		i := h.interaction("anna", discordgo.InteractionApplicationCommand, discordgo.ApplicationCommandInteractionData{
			Name: "qwixx", Options: []*discordgo.ApplicationCommandInteractionDataOption{{Name: sub, Type: discordgo.ApplicationCommandOptionSubCommand}},
		}, nil)
		i.GuildID, i.Member, i.User, i.ChannelID = "", nil, &discordgo.User{ID: "anna"}, "dm1"
		h.bot.Handle(i)
		h.bot.Idle()
		return h.response(i)
	}
	// A server's settings need the bot in the server; a table lives on
	// its players' interactions where the bot is no member (issue 25).
	if r := dm("settings"); !strings.Contains(r.Data.Content, "settings need me") {
		t.Fatalf("DM settings: %q", r.Data.Content)
	}
	if r := dm("new"); r.Type != discordgo.InteractionResponseChannelMessageWithSource || len(r.Data.Embeds) != 1 || !strings.Contains(r.Data.Embeds[0].Description, "not a member here") {
		t.Fatalf("DM table: %+v", r.Data)
	}
	if tb, err := h.bot.loadTable(context.Background(), "dm1"); err != nil || tb == nil || !tb.Interactions {
		t.Fatalf("the DM's table: %+v, %v; want one living on interactions", tb, err)
	}
	h.perm = RequiredPermissions &^ (permAttach | permSend | permThreads)
	r := h.command("anna", "new")
	if !strings.Contains(r.Data.Content, "Attach Files") || !strings.Contains(r.Data.Content, "Send Messages") || h.table() != nil {
		t.Fatalf("missing permissions: %q", r.Data.Content)
	}
}

func TestGermanTable(t *testing.T) {
	h := newHarness(t)
	i := h.interaction("anna", discordgo.InteractionApplicationCommand, discordgo.ApplicationCommandInteractionData{
		Name: "qwixx", Options: []*discordgo.ApplicationCommandInteractionDataOption{{Name: "new", Type: discordgo.ApplicationCommandOptionSubCommand}},
	}, nil)
	de := discordgo.Locale("de")
	i.GuildLocale = &de
	h.bot.Handle(i)
	if r := h.response(i); !strings.Contains(r.Data.Embeds[0].Title, "Würfelspiel") {
		t.Fatalf("German lobby: %q", r.Data.Embeds[0].Title)
	}
}

// RULES P2, D9: with passes chosen for leavers, a removed player's turns
// are passed, crossing nothing and costing no misthrow, and the game never
// waits for them; it ends by the others' misthrows.
func TestP2RemovedPlayerIsPassedFor(t *testing.T) {
	h := newHarness(t)
	resp := h.openTable("dice", "anna", "ben", "cleo")
	resp = h.click("anna", buttons(resp.Data.Components, "If someone leaves: a computer plays for them")[0], nil)
	h.click("anna", buttons(resp.Data.Components, "Start")[0], nil)
	user := &discordgo.ApplicationCommandInteractionDataOption{Name: "player", Type: discordgo.ApplicationCommandOptionUser, Value: "cleo"}
	if r := h.command("ben", "remove", user); !strings.Contains(r.Data.Content, "Only the host") {
		t.Fatalf("non-host remove: %q", r.Data.Content)
	}
	if r := h.command("anna", "remove", user); !strings.Contains(r.Data.Content, "has left the game") {
		t.Fatalf("remove: %q", r.Data.Content)
	}
	g := h.table().Game
	if !g.Decided(2) {
		t.Fatal("the removed player's action-1 decision must be passed at once")
	}
	// Play on with the two others until the game ends: it never waits for cleo.
	for steps := 0; h.table().Stage == StagePlaying; steps++ {
		if steps > 3000 {
			t.Fatal("game stalled with a removed player")
		}
		tb := h.table()
		w := tb.Game.Waiting()
		if tb.Seats[w[0]].UserID == "cleo" {
			t.Fatal("the game waits for a removed player")
		}
		msg := h.dc.lastTable(testChannel)
		h.click(tb.Seats[w[0]].UserID, buttons(msg.Components, "Pass")[0], msg)
	}
	if h.table().Game.Sheet(2).Crosses() != 0 {
		t.Fatal("passes for a removed player crossed something")
	}
	if g := h.table().Game; g.Sheet(2).Misthrows != 0 || g.EndReason() != game.EndMisthrows || max(g.Sheet(0).Misthrows, g.Sheet(1).Misthrows) != game.MaxMisthrows {
		t.Fatalf("misthrows %d %d %d, end %v: want the others' to end it", g.Sheet(0).Misthrows, g.Sheet(1).Misthrows, g.Sheet(2).Misthrows, g.EndReason())
	}
}

// Turn timers are configurable per server, by members who manage it.
func TestSettingsTurnTimerPerServer(t *testing.T) {
	h := newHarness(t)
	secs := &discordgo.ApplicationCommandInteractionDataOption{Name: "timeout", Type: discordgo.ApplicationCommandOptionInteger, Value: float64(30)}
	if r := h.command("anna", "settings", secs); !strings.Contains(r.Data.Content, "manage the server") {
		t.Fatalf("without Manage Server: %q", r.Data.Content)
	}
	// harness members have no permissions; grant Manage Server for this call
	i := h.interaction("anna", discordgo.InteractionApplicationCommand, discordgo.ApplicationCommandInteractionData{
		Name: "qwixx", Options: []*discordgo.ApplicationCommandInteractionDataOption{{Name: "settings", Type: discordgo.ApplicationCommandOptionSubCommand, Options: []*discordgo.ApplicationCommandInteractionDataOption{secs}}},
	}, nil)
	i.Member.Permissions = discordgo.PermissionManageGuild
	h.bot.Handle(i)
	if r := h.response(i); !strings.Contains(r.Data.Content, "Time per action on this server: 30 seconds.") {
		t.Fatalf("settings: %q", r.Data.Content)
	}
	h.startTable("dice", "anna", "ben")
	if got := h.table().Deadline.Sub(h.clock.Now()); got != 30*time.Second {
		t.Fatalf("turn timer %v, want the server's 30s", got)
	}
}

// Transport errors carry the request's address, and interaction routes
// hold the interaction token: withoutURL keeps the cause and drops the rest.
func TestWithoutURLKeepsTokensOutOfLogs(t *testing.T) {
	err := &url.Error{Op: "Patch", URL: "https://discord.com/api/v9/webhooks/1/SECRET-TOKEN/messages/@original", Err: errors.New("connection reset")}
	got := withoutURL(fmt.Errorf("edit: %w", err)).Error()
	if strings.Contains(got, "SECRET-TOKEN") || !strings.Contains(got, "connection reset") {
		t.Fatalf("withoutURL gave %q", got)
	}
	plain := errors.New("HTTP 404 Not Found")
	if withoutURL(plain) != plain {
		t.Fatal("an error without an address must pass unchanged")
	}
}

// reminders counts the reminder posts in the test channel.
func (h *harness) reminders() int {
	h.dc.mu.Lock()
	defer h.dc.mu.Unlock()
	n := 0
	for _, m := range h.dc.channel[testChannel] {
		if strings.Contains(m.Content, "⏰") {
			n++
		}
	}
	return n
}

// Issue (RULES P1): with a server timer of 15 s and the default reminder
// lead of 20 s the reminder went off as each action started. The lead is
// at most a third of the timer: with 15 s, the reminder comes at 10 s.
func TestP1ReminderLeadBoundedByServerTimer(t *testing.T) {
	h := newHarness(t)
	h.bot.opt.ReminderBefore = 20 * time.Second
	i := h.interaction("cleo", discordgo.InteractionApplicationCommand, discordgo.ApplicationCommandInteractionData{
		Name: "qwixx", Options: []*discordgo.ApplicationCommandInteractionDataOption{{Name: "settings", Type: discordgo.ApplicationCommandOptionSubCommand,
			Options: []*discordgo.ApplicationCommandInteractionDataOption{{Name: "timeout", Type: discordgo.ApplicationCommandOptionInteger, Value: float64(15)}}}},
	}, nil)
	i.Member.Permissions = discordgo.PermissionManageGuild
	h.bot.Handle(i)
	if r := h.response(i); !strings.Contains(r.Data.Content, "15 seconds") {
		t.Fatalf("settings: %q", r.Data.Content)
	}
	h.startTwo("dice")
	for _, step := range []struct {
		advance time.Duration
		want    int
	}{{time.Second, 0}, {8 * time.Second, 0}, {time.Second, 1}} {
		h.clock.Advance(step.advance)
		h.bot.Tick()
		h.bot.Idle()
		if got := h.reminders(); got != step.want {
			t.Fatalf("%d reminders %v into the action, want %d", got, step.advance, step.want)
		}
	}
}

// Issue: the public row offered moves nobody could take (turn 1, white sum
// 2: "Green 2" and "Blue 2", which can only be crossed after five crosses
// in the row), and each wrong tap added a private refusal. It offers only
// the rows somebody still deciding may cross (D4, S3).
func TestD4PublicRowOffersOnlyLegalRows(t *testing.T) {
	rec, err := game.ParseRecord([]byte(`{"format": "qwixx-record", "version": 1, "variant": "dice", "players": ["Anna", "Ben"],
		"first": "Anna", "rolls": [[1, 1, 3, 4, 5, 6]], "moves": []}`))
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	tb := &Table{ID: "t1", Seats: []Seat{{UserID: "anna", Name: "Anna"}, {UserID: "ben", Name: "Ben"}}, Variant: game.Dice, Stage: StagePlaying, Game: g}
	var labels []string
	for _, row := range view.TableControls(tb, LangFor("en")) {
		for _, c := range row.(discordgo.ActionsRow).Components {
			labels = append(labels, c.(discordgo.Button).Label)
		}
	}
	if want := []string{"Red 2", "Yellow 2", "Pass", "My sheet"}; !slices.Equal(labels, want) {
		t.Fatalf("turn 1, white sum 2: buttons %v, want %v", labels, want)
	}
}

// Issue: one click committed (the white-sum buttons look alike, and a
// wrong tap was final: "You have already decided"). A choice may be
// changed until the action resolves (P4): the answer says what changed,
// the sheet view keeps its buttons with the standing choice in green, and
// the last choice is the one crossed.
func TestP4ChoiceChangedFromTheTable(t *testing.T) {
	rowsOf := func(m *discordgo.Message) []string {
		var rows []string
		for _, row := range []string{"Red", "Yellow", "Green", "Blue"} {
			if b := buttons(m.Components, row); len(b) == 1 {
				rows = append(rows, b[0])
			}
		}
		return rows
	}
	t.Run("table", func(t *testing.T) {
		h := newHarness(t)
		h.startTwo("dice")
		tbl := h.dc.lastTable(testChannel)
		rows := rowsOf(tbl)
		if len(rows) < 2 {
			t.Fatalf("fewer than two rows to choose from: %+v", tbl.Components)
		}
		first := h.click("anna", rows[0], tbl)
		if !strings.Contains(first.Data.Content, "You chose") || !strings.Contains(first.Data.Content, "you can still change it") {
			t.Fatalf("first choice: %q", first.Data.Content)
		}
		second := h.click("anna", rows[1], tbl)
		if !strings.Contains(second.Data.Content, "Changed (was: ") || !strings.Contains(second.Data.Content, "You chose") {
			t.Fatalf("changed choice: %q", second.Data.Content)
		}
		if again := h.click("anna", rows[1], tbl); !strings.Contains(again.Data.Content, "already") {
			t.Fatalf("the same choice again: %q", again.Data.Content)
		}
		h.click("ben", buttons(tbl.Components, "Pass")[0], tbl)
		tb := h.table()
		if tb.Game.Phase() == game.PhaseWhite {
			t.Fatal("the action did not resolve when everybody had decided")
		}
		a, _ := customid.Decode(rows[1])
		c, _ := game.ParseColor(a.Arg)
		if sh := tb.Game.Sheet(0); sh.Crosses() != 1 || sh.Rows[c] == 0 {
			t.Fatalf("Anna's sheet %+v: want one cross, in her last choice's row (%v)", sh.Rows, c)
		}
	})
	t.Run("sheet", func(t *testing.T) {
		h := newHarness(t)
		h.startTwo("dice")
		tbl := h.dc.lastTable(testChannel)
		sheet := h.click("ben", buttons(tbl.Components, "My sheet")[0], tbl)
		r := h.click("ben", buttons(sheet.Data.Components, "Pass")[0], ephemeralMsg)
		var green []string
		for _, row := range r.Data.Components {
			for _, c := range row.(discordgo.ActionsRow).Components {
				if b, ok := c.(discordgo.Button); ok && b.Style == discordgo.SuccessButton {
					green = append(green, b.Label)
				}
			}
		}
		if len(green) != 1 || !strings.HasPrefix(green[0], "Pass") {
			t.Fatalf("the sheet view after passing marks %v (components %d), want its Pass", green, len(r.Data.Components))
		}
		rows := rowsOf(&discordgo.Message{Components: r.Data.Components})
		if len(rows) == 0 {
			t.Fatal("no row to change to in the sheet view")
		}
		changed := h.click("ben", rows[0], ephemeralMsg)
		if !strings.Contains(changed.Data.Content, "Changed (was: Pass") {
			t.Fatalf("the change: %q", changed.Data.Content)
		}
		h.click("anna", buttons(tbl.Components, "Pass")[0], tbl)
		if sh := h.table().Game.Sheet(1); sh.Crosses() != 1 {
			t.Fatalf("Ben has %d crosses, want the row he changed to", sh.Crosses())
		}
	})
}

// Shutdown reaches a channel update waiting out its backoff: it stops
// there, trying nothing more (the channel is left for the sweep or the
// next process), instead of sleeping through the wait and trying again
// (issue 24: shutdown reaches every wait).
func TestShutdownEndsReconcilerBackoff(t *testing.T) {
	h := newHarness(t)
	h.dc.mu.Lock()
	h.dc.failPosts = true
	h.dc.mu.Unlock()
	resp := h.openTable("dice", "anna", "ben")
	i := h.interaction("anna", discordgo.InteractionMessageComponent, discordgo.MessageComponentInteractionData{CustomID: buttons(resp.Data.Components, "Start")[0], ComponentType: discordgo.ButtonComponent}, &discordgo.Message{ID: "lobby"})
	h.bot.Handle(i) // the table's first post fails, and is retried after a backoff
	waitUntil(t, `the log line "channel update failed"`, func() bool { return strings.Contains(h.logs.String(), "channel update failed") })
	if err := h.bot.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	h.dc.mu.Lock()
	tried := h.dc.posts
	h.dc.mu.Unlock()
	h.bot.Idle()
	h.dc.mu.Lock()
	after := h.dc.posts
	h.dc.mu.Unlock()
	if after != tried {
		t.Fatalf("the reconciler tried %d more posts after Shutdown", after-tried)
	}
	if _, ok := h.bot.unsettled.Load(testChannel); !ok {
		t.Fatal("the channel was not left for the sweep")
	}
}

// Shutdown ends the workers' context: a channel update asked for after it
// reads nothing and posts nothing, and says so quietly (no error line;
// the next process brings the channel up to date); a click already in
// flight has its interaction's own context and is saved (issue 24: the
// context reaches the store).
func TestShutdownEndsTheWorkersContextNotTheClicks(t *testing.T) {
	h := newHarness(t)
	h.openTable("dice", "anna", "ben")
	ctx := context.Background()
	r := h.bot.newRequest(h.interaction("anna", discordgo.InteractionApplicationCommand, discordgo.ApplicationCommandInteractionData{Name: "qwixx"}, nil))
	defer r.cancel()
	if err := h.bot.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if h.bot.life.Err() == nil {
		t.Fatal("the bot's life goes on after Shutdown")
	}
	if _, err := h.bot.loadTable(h.bot.life, testChannel); !errors.Is(err, context.Canceled) {
		t.Errorf("a worker's read after Shutdown: %v", err)
	}
	h.dc.mu.Lock()
	posts := h.dc.posts
	h.dc.mu.Unlock()
	h.bot.reconcile(h.bot.log, testChannel)
	h.dc.mu.Lock()
	after := h.dc.posts
	h.dc.mu.Unlock()
	if after != posts {
		t.Errorf("%d posts after Shutdown", after-posts)
	}
	if strings.Contains(h.logs.String(), `"level":"error"`) {
		t.Errorf("an error was logged for the shutdown:\n%s", h.logs.String())
	}
	// The click in flight: its context is the interaction's.
	unlock, err := r.withTable(func(t *Table) (*Table, error) {
		t.Seats[1].Name = "Bea"
		return t, nil
	})
	unlock()
	if err != nil || h.table().Seats[1].Name != "Bea" {
		t.Errorf("a click in flight at Shutdown was not saved: %v", err)
	}
}

// D1 (2 to 5 players) with a smaller seat limit (game.max_players = 3):
// a join beyond it is refused with the table's own limit, not a fixed
// "5 players", and the lobby's footer names it too, in every language.
func TestJoinFullTableNamesItsSeatLimitD1(t *testing.T) {
	h := newHarness(t)
	h.bot.opt.MaxPlayers = 3
	resp := h.openTable("dice", "anna", "ben", "cleo")
	if got := resp.Data.Embeds[0].Fields[0].Name; got != "Players (3/3)" {
		t.Fatalf("seats field %q", got)
	}
	if got := resp.Data.Embeds[0].Footer.Text; !strings.Contains(got, "2 to 3 players") {
		t.Fatalf("lobby footer with a 3-seat limit: %q", got)
	}
	// The Join button is disabled; a click on it anyway (a stale client)
	// is refused, privately, naming the limit.
	join := view.ActionID(h.table(), customid.ViewLobby, "join", "")
	r := h.click("dan", join, nil)
	if r.Data.Flags&discordgo.MessageFlagsEphemeral == 0 || r.Data.Content != "The table is full (3 players)." {
		t.Fatalf("join of a full 3-seat table: %q", r.Data.Content)
	}
	if n := len(h.table().Seats); n != 3 {
		t.Fatalf("%d seats after the refused join", n)
	}
	for _, tc := range []struct {
		lang  string
		limit int
		want  string
	}{
		{"en", 3, "The table is full (3 players)."},
		{"en", 2, "The table is full (2 players)."},
		{"de", 3, "Der Tisch ist voll (3 Spieler)."},
		{"fr", 3, "La table est complète (3 joueurs)."},
		{"fr", 4, "La table est complète (4 joueurs)."},
	} {
		if got := LangFor(tc.lang).T(msg.ErrFull, tc.limit); got != tc.want {
			t.Errorf("%s err.full with a %d-seat limit: %q, want %q", tc.lang, tc.limit, got, tc.want)
		}
	}
	for _, lang := range []string{"en", "de", "fr"} {
		if got := LangFor(lang).T(msg.LobbyHint, 3); !strings.Contains(got, "2") || !strings.Contains(got, "3") || strings.Contains(got, "5") {
			t.Errorf("%s lobby footer with a 3-seat limit: %q", lang, got)
		}
	}
}
