package main

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rs/zerolog"

	"github.com/qwixxbot/qwixxbot/bot"
	"github.com/qwixxbot/qwixxbot/bot/clock"
	"github.com/qwixxbot/qwixxbot/bot/discordtest"
	"github.com/qwixxbot/qwixxbot/bot/logbuf"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/config"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/players"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/serve"
	"github.com/qwixxbot/qwixxbot/game"
)

// e2e runs the real bot (serve, as in production) against a fake Discord,
// and can restart it on the same database.
type e2e struct {
	t *testing.T
	// botClock gives the bot the fake clock too (timer tests); otherwise
	// only Discord's clock moves (token ages) and the bot's timers keep
	// real time.
	botClock bool
	srv      *discordtest.Server
	clock    *clock.Fake
	db       string
	stop     func()
	// script, if set, gives every game its chance: the dice (Rolls), the
	// deck's top (Deck) and the seed for the rest (RULES scenarios).
	script *game.Record
	// config, if set, adjusts the bot's configuration.
	config func(*config.Config)
	// logs receives the bot's log lines at info level and above (at
	// logLevel, if set).
	logs     *logbuf.Buffer
	logLevel *zerolog.Level
	bot      *bot.Bot // the running bot
	// session is the running bot's discordgo session.
	session *discordgo.Session
	// coalesce is how long the bot coalesces edits of who has decided:
	// short, so the tests' drivers need not wait; 0 is the bot's default.
	coalesce time.Duration
	// public follows the default channel's public messages.
	public *players.ChannelView
	// holdNewGame, if set, holds every game's start (with script) until
	// it is closed: a slow bot.
	holdNewGame chan struct{}
	// endpoint is the bot's interactions endpoint (host:port) when the
	// fake POSTs the interactions there (ingressEnv), empty when it sends
	// them on the gateway.
	endpoint string
}

// wallClock is the real time.
type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

func newE2E(t *testing.T) *e2e { return newE2EClock(t, false) }

// newE2EGateway is newE2E with the interactions on the gateway whatever
// ingressEnv says: for tests of the callback route itself (its server
// errors), which the HTTP mode does not take.
func newE2EGateway(t *testing.T) *e2e { return newE2EOn(t, false, "gateway") }

// newE2EHTTP is newE2E with the interactions POSTed to the bot's
// interactions endpoint whatever ingressEnv says.
func newE2EHTTP(t *testing.T) *e2e { return newE2EOn(t, false, "http") }

func newE2EClock(t *testing.T, botClock bool) *e2e { return newE2EOn(t, botClock, "") }

// newE2EOn starts the bot with ingress "http" or "gateway" (empty: as
// ingressEnv says).
func newE2EOn(t *testing.T, botClock bool, ingress string) *e2e {
	clock := clock.NewFake(time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC))
	// Discord's rate limits, as Discord enforces them (their windows in
	// real time: the bot waits out 429s in real time).
	srv, err := discordtest.NewServer(discordtest.Options{Token: "e2e-token", Clock: clock,
		RateLimits: discordtest.RateLimitOptions{Enabled: true, Clock: wallClock{}}})
	if err != nil {
		t.Fatal(err)
	}
	e := &e2e{t: t, botClock: botClock, coalesce: 100 * time.Millisecond, srv: srv, clock: clock, db: filepath.Join(t.TempDir(), "e2e.db"), logs: &logbuf.Buffer{},
		public: players.NewChannelView(srv, srv.DefaultChannel())}
	var env []string
	if ingress != "" {
		env = []string{ingressEnv + "=" + ingress}
	}
	if ingressHTTP(env) {
		e.endpoint = freeAddr(t)
		srv.SetInteractionsEndpoint("http://" + e.endpoint + "/interactions")
	}
	t.Cleanup(func() {
		if e.stop != nil {
			e.stop()
		}
		srv.Close()
		if e.endpoint != "" {
			// Every interaction went to the endpoint, and every response
			// passed the callback route's checks.
			st := srv.EndpointStats()
			if st.BadCallbacks > 0 || (st.Posted > 0 && st.Answered == 0) || (ingress == "http" && st.Posted == 0) {
				t.Errorf("interactions endpoint: %+v", st)
			}
			t.Logf("interactions endpoint: %+v", st)
		}
	})
	e.start()
	return e
}

// start runs a bot process on the database.
func (e *e2e) start() {
	cfg := config.Default()
	cfg.Discord.Token = config.NewSecret(e.srv.Token())
	cfg.Store.Path = e.db
	so := serve.Options{Transport: e.srv.Transport(), Tick: 20 * time.Millisecond, Coalesce: e.coalesce,
		Session: func(s *discordgo.Session) { e.session = s }}
	if e.botClock {
		so.Now = e.clock.Now
	}
	if e.endpoint != "" {
		cfg.Discord.InteractionsAddr, cfg.Discord.PublicKey = e.endpoint, e.srv.InteractionsPublicKey()
	}
	if e.config != nil {
		e.config(&cfg)
	}
	if e.script != nil {
		so.NewGame = func(v game.Variant, players []string) (*game.Game, error) {
			rec := *e.script
			rec.Format, rec.Version, rec.Variant, rec.Players, rec.First = game.RecordFormat, game.RecordVersion, v.String(), players, players[0]
			return game.Replay(&rec)
		}
		if hold := e.holdNewGame; hold != nil {
			replay := so.NewGame
			so.NewGame = func(v game.Variant, players []string) (*game.Game, error) {
				<-hold
				return replay(v, players)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		so.Ready = func(b *bot.Bot) { e.bot = b; close(ready) }
		level := zerolog.InfoLevel
		if e.logLevel != nil {
			level = *e.logLevel
		}
		done <- serve.Run(ctx, cfg, zerolog.New(e.logs).Level(level), so)
	}()
	select {
	case <-ready:
	case err := <-done:
		e.t.Fatalf("bot stopped: %v", err)
	case <-time.After(20 * time.Second):
		e.t.Fatal("bot did not get ready")
	}
	if e.endpoint != "" {
		vctx, vcancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer vcancel()
		if err := e.srv.VerifyEndpoint(vctx, "http://"+e.endpoint+"/interactions"); err != nil {
			cancel()
			e.t.Fatalf("interactions endpoint: %v", err)
		}
	}
	e.stop = func() {
		cancel()
		if err := <-done; err != nil {
			e.t.Errorf("bot stopped with %v", err)
		}
		e.stop = nil
	}
}

// restart stops the bot (graceful shutdown) and starts a new one on the
// same database, as after a deploy.
func (e *e2e) restart() {
	e.stop()
	e.start()
}

func (e *e2e) answer(it *discordtest.Interaction, err error) *discordtest.Message {
	e.t.Helper()
	m, err := players.AwaitAnswer(context.Background(), it, err)
	if err != nil {
		e.t.Fatal(err)
	}
	return m
}

// until waits at most d for cond to hold (checked whenever Discord's state
// changes).
func (e *e2e) until(d time.Duration, cond func() bool) error {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	return e.srv.Wait(ctx, cond)
}

// logLine waits for a finished turn's log line (a public message of the
// bot without buttons, not the results) that contains want.
func (e *e2e) logLine(want string) *discordtest.Message {
	e.t.Helper()
	var found *discordtest.Message
	err := e.until(10*time.Second, func() bool {
		for _, m := range e.public.Messages() {
			if m.AuthorID == e.srv.BotUserID() && len(m.CustomIDs()) == 0 && len(m.Attachments) == 0 && strings.Contains(m.Content, want) {
				found = m
				return true
			}
		}
		return false
	})
	if err != nil {
		var sb strings.Builder
		ms := e.public.Messages()
		for _, m := range ms[max(0, len(ms)-4):] {
			fmt.Fprintf(&sb, "%s v%d %q %v\n", m.ID, m.Version, m.Content, m.CustomIDs())
		}
		e.t.Fatalf("no turn's log line with %q; the channel ends with:\n%s\nbot log:\n%s", want, sb.String(), e.logs.String())
	}
	return found
}

// table waits for the newest public message with a "My sheet" button whose
// content contains want (public: what u, like every member, sees).
func (e *e2e) table(u *discordtest.User, want string) *discordtest.Message {
	e.t.Helper()
	var found *discordtest.Message
	err := e.until(10*time.Second, func() bool {
		var ms []*discordtest.Message
		if e.public != nil {
			ms = e.public.Messages()
		} else { // an e2e not made by newE2E: read the whole channel
			ms = u.Messages(e.srv.DefaultChannel())
		}
		for i := len(ms) - 1; i >= 0; i-- {
			if !ms[i].Ephemeral() && players.IDWith(ms[i], "sheet") != "" {
				found = ms[i]
				return strings.Contains(found.Content, want)
			}
		}
		return false
	})
	if err != nil {
		e.t.Fatalf("no table message with %q (last: %v)", want, found)
	}
	return found
}

// startTable opens a dice table as host, seats the others and starts.
func (e *e2e) startTable(host *discordtest.User, others ...*discordtest.User) {
	e.t.Helper()
	ch := e.srv.DefaultChannel()
	lobby := e.answer(host.Command(ch, "qwixx", "new", nil))
	for _, u := range others {
		lobby = e.answer(u.Click(lobby, players.IDWith(lobby, "join")))
	}
	e.answer(host.Click(lobby, players.IDWith(lobby, "start")))
}

// whiteTurns plays scripted dice turns: in each, a crosses the white sum in
// rowA and b in rowB; then the active player passes action 2, except after
// the last turn. It returns the last table message seen.
func (e *e2e) whiteTurns(a, b *discordtest.User, rowA, rowB string, sums []int) *discordtest.Message {
	e.t.Helper()
	var next *discordtest.Message
	for i, sum := range sums {
		tbl := e.table(a, fmt.Sprintf("white dice, **%d**", sum))
		e.answer(a.Click(tbl, players.IDWith(tbl, "white:"+rowA)))
		e.answer(b.Click(tbl, players.IDWith(tbl, "white:"+rowB)))
		if i == len(sums)-1 {
			return tbl
		}
		next = e.table(a, "Action 2")
		active := b // action 2 mentions only the active player
		if strings.Contains(next.Content, "<@"+a.ID+">") {
			active = a
		}
		e.answer(active.Click(next, players.IDWith(next, "pass")))
	}
	return next
}

func TestE2ERestartMidLobbyAndMidGameAndOldTokens(t *testing.T) {
	t.Parallel()
	e2eRestartMidLobbyAndMidGameAndOldTokens(t, "")
}

// TestE2ERestartMidLobbyAndMidGameAndOldTokensHTTP is TestE2ERestartMidLobbyAndMidGameAndOldTokens with the interactions POSTed to the bot's
// interactions endpoint and answered in its HTTP responses.
func TestE2ERestartMidLobbyAndMidGameAndOldTokensHTTP(t *testing.T) {
	t.Parallel()
	e2eRestartMidLobbyAndMidGameAndOldTokens(t, "http")
}

// e2eRestartMidLobbyAndMidGameAndOldTokens runs the test with ingress "http" or "gateway" (empty: as
// ingressEnv says).
func e2eRestartMidLobbyAndMidGameAndOldTokens(t *testing.T, ingress string) {
	e := newE2EOn(t, false, ingress)
	anna, ben := e.srv.AddUser("Anna", "en-US"), e.srv.AddUser("Ben", "de")
	ch := e.srv.DefaultChannel()
	lobby := e.answer(anna.Command(ch, "qwixx", "new", map[string]any{"variant": "dice"}))
	e.clock.Advance(16 * time.Minute) // the lobby's token has expired
	lobby = e.answer(ben.Click(lobby, players.IDWith(lobby, "join")))
	if !strings.Contains(lobby.Embeds[0].Fields[0].Name, "(2/5)") {
		t.Fatalf("join after 16 minutes: %q", lobby.Embeds[0].Fields[0].Name)
	}
	e.restart() // mid-lobby
	e.answer(anna.Click(lobby, players.IDWith(lobby, "start")))
	tbl := e.table(anna, "Action 1")
	e.answer(anna.Click(tbl, players.IDWith(tbl, "pass")))
	e.restart() // mid-game, in action 1 with Anna decided
	e.clock.Advance(40 * time.Minute)
	it, err := ben.Click(tbl, players.IDWith(tbl, "pass"))
	r := e.answer(it, err)
	if !acked(it, r) {
		t.Fatalf("Ben's pass after the restart was not confirmed: %q", r.Content)
	}
	// His private answers are in his language.
	r = e.answer(ben.Click(r, players.IDWith(r, "sheet")))
	if !r.Ephemeral() || !strings.Contains(r.Content, "Dein Zettel") {
		t.Fatalf("Ben's sheet after the restart, in his language: %q", r.Content)
	}
	next := e.table(anna, "Action 2")
	if next.ID != tbl.ID {
		t.Fatalf("one message per turn: action 2 is a new message, not the turn's message edited: %q", next.Content)
	}
	for _, u := range e.srv.TokenUses() {
		if u.Rejected || u.Age > 15*time.Minute {
			t.Fatalf("the bot used a token %v old (%s %s)", u.Age, u.Method, u.Route)
		}
	}
}

func TestE2EStaleForgedOutOfTurnAndSimultaneousClicks(t *testing.T) {
	t.Parallel()
	e2eStaleForgedOutOfTurnAndSimultaneousClicks(t, "")
}

// TestE2EStaleForgedOutOfTurnAndSimultaneousClicksHTTP is TestE2EStaleForgedOutOfTurnAndSimultaneousClicks with the interactions POSTed to the bot's
// interactions endpoint and answered in its HTTP responses.
func TestE2EStaleForgedOutOfTurnAndSimultaneousClicksHTTP(t *testing.T) {
	t.Parallel()
	e2eStaleForgedOutOfTurnAndSimultaneousClicks(t, "http")
}

// reorderWindow is how long the fake holds the endpoint's responses to
// clicks on one message to apply them newest first (SetEndpointReorder):
// longer than the gaps between the answers to a burst of clicks, well
// inside the interactions' 3 s.
const reorderWindow = 400 * time.Millisecond

// e2eStaleForgedOutOfTurnAndSimultaneousClicks runs the test with ingress "http" or "gateway" (empty: as
// ingressEnv says).
func e2eStaleForgedOutOfTurnAndSimultaneousClicks(t *testing.T, ingress string) {
	e := newE2EOn(t, false, ingress)
	ch := e.srv.DefaultChannel()
	var users []*discordtest.User
	for _, n := range []string{"Anna", "Ben", "Chloé", "Dörte", "Émile"} {
		users = append(users, e.srv.AddUser(n, "en-US"))
	}
	mallory := e.srv.AddUser("Mallory", "fr")
	lobby := e.answer(users[0].Command(ch, "qwixx", "new", nil))
	for _, u := range users[1:] {
		lobby = e.answer(u.Click(lobby, players.IDWith(lobby, "join")))
	}
	e.answer(users[0].Click(lobby, players.IDWith(lobby, "start")))
	tbl := e.table(users[0], "Action 1")
	pass := players.IDWith(tbl, "pass")

	// Forged and foreign clicks get a polite private answer, never a failure.
	for _, tc := range []struct {
		user *discordtest.User
		id   string
		want string
	}{
		{mallory, pass, "ne joues pas"},
		{users[1], "hello", "not one of mine"},
		{users[1], "q1:nosuchtable:1:pass", "earlier state"},
		{users[1], strings.Replace(pass, ":pass", ":white:purple", 1), "not one of mine"},
	} {
		m := e.answer(tc.user.ForgeClick(ch, tbl.ID, tc.id))
		if !m.Ephemeral() || !strings.Contains(m.Content, tc.want) {
			t.Errorf("%s clicking %q: %q (ephemeral %v), want %q", tc.user.Name, tc.id, m.Content, m.Ephemeral(), tc.want)
		}
	}

	// Everybody clicks Pass three times at once: exactly one decision each.
	// Through the interactions endpoint, the responses to these clicks
	// take effect newest first (as Discord may apply responses that come
	// within milliseconds): the table message must still end at the
	// newest state.
	e.srv.SetEndpointReorder(reorderWindow)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var its []*discordtest.Interaction
	for _, u := range users {
		for range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				it, err := u.ForgeClick(ch, tbl.ID, pass)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				its = append(its, it)
				mu.Unlock()
			}()
		}
	}
	wg.Wait()
	passed := 0
	for _, it := range its {
		m, err := players.AwaitAnswer(context.Background(), it, nil)
		if err != nil {
			t.Fatalf("a simultaneous click was not answered: %v", err)
		}
		if acked(it, m) {
			passed++
		}
	}
	if passed != 5 {
		t.Fatalf("%d clicks accepted, want exactly 5 (one per player)", passed)
	}
	e.srv.SetEndpointReorder(0)
	next := e.table(users[0], "Action 2")
	// Out of turn: only the active player may act in action 2.
	var active, other *discordtest.User
	for _, u := range users {
		if strings.Contains(next.Content, "active player: <@"+u.ID+">") {
			active = u
		} else if other == nil {
			other = u
		}
	}
	if active == nil {
		t.Fatalf("no active player in %q", next.Content)
	}
	if m := e.answer(other.Click(next, players.IDWith(next, "pass"))); !strings.Contains(m.Content, "not your turn") {
		t.Fatalf("out of turn: %q", m.Content)
	}
	// The turn's message now carries action 2's buttons only; a click on
	// an action-1 button (an old client's copy) is stale.
	if err := e.until(10*time.Second, func() bool {
		cur, _ := e.srv.Message(tbl.ID)
		return !slices.Contains(cur.CustomIDs(), pass)
	}); err != nil {
		cur, _ := e.srv.Message(tbl.ID)
		t.Fatalf("the turn's message kept action 1's buttons: %v", cur.CustomIDs())
	}
	if m := e.answer(users[1].ForgeClick(ch, tbl.ID, pass)); !strings.Contains(m.Content, "earlier state") {
		t.Fatalf("stale click: %q", m.Content)
	}
	if v := e.srv.SchemaViolations(); len(v) != 0 {
		t.Fatalf("schema violations: %+v", v)
	}
}

// Where the bot cannot work it says so plainly: in a DM, and in a channel
// where it lacks a permission it needs (naming it); a thread is a table of
// its own.
func TestE2EDMPermissionsAndThreads(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	anna := e.srv.AddUser("Anna", "en-US")
	// In the DM with the bot the help answers, a table lives on its
	// players' clicks (issue 25), and a server's settings are refused
	// with a word on where they work.
	m := e.answer(anna.Command(e.srv.DMChannel(anna.ID), "qwixx", "help", nil))
	if !strings.Contains(m.Content, "Qwixx bot") {
		t.Fatalf("DM help: %q", m.Content)
	}
	m = e.answer(anna.Command(e.srv.DMChannel(anna.ID), "qwixx", "new", nil))
	if m.Ephemeral() || len(m.Embeds) == 0 || !strings.Contains(m.Embeds[0].Description, "not a member here") {
		t.Fatalf("DM table: %+v", m)
	}
	m = e.answer(anna.Command(e.srv.DMChannel(anna.ID), "qwixx", "settings", nil))
	if !m.Ephemeral() || !strings.Contains(m.Content, "settings need me") || !strings.Contains(m.Content, "/qwixx solo") {
		t.Fatalf("DM settings: %q", m.Content)
	}
	ch := e.srv.AddChannel(e.srv.DefaultGuild(), "no-files")
	e.srv.RevokeBotPermissions(ch, discordgoAttachFiles)
	m = e.answer(anna.Command(ch, "qwixx", "new", nil))
	if !m.Ephemeral() || !strings.Contains(m.Content, "Attach Files") {
		t.Fatalf("missing permission: %q", m.Content)
	}
	// A table in the main channel does not block one in a thread.
	e.answer(anna.Command(e.srv.DefaultChannel(), "qwixx", "new", nil))
	thread := e.srv.AddThread(e.srv.DefaultChannel(), "second table")
	m = e.answer(anna.Command(thread, "qwixx", "new", nil))
	if m.Ephemeral() || len(m.Embeds) == 0 {
		t.Fatalf("a thread must get its own lobby: %q", m.Content)
	}
}

const discordgoAttachFiles = 1 << 15

// RULES P1 through Discord: the undecided are reminded shortly before the
// timer runs out (by mention, only them), then passed for; the timer
// survives a restart.
func TestE2ETurnTimerRemindsThenPasses(t *testing.T) {
	t.Parallel()
	e := newE2EClock(t, true)
	anna, ben := e.srv.AddUser("Anna", "en-US"), e.srv.AddUser("Ben", "en-US")
	ch := e.srv.DefaultChannel()
	lobby := e.answer(anna.Command(ch, "qwixx", "new", nil))
	lobby = e.answer(ben.Click(lobby, players.IDWith(lobby, "join")))
	e.answer(anna.Click(lobby, players.IDWith(lobby, "start")))
	tbl := e.table(anna, "Action 1")
	e.answer(anna.Click(tbl, players.IDWith(tbl, "pass")))
	e.restart()
	e.clock.Advance(2*time.Minute - 10*time.Second) // default timeout 2m, reminder 20s before
	var reminder *discordtest.Message
	err := e.until(10*time.Second, func() bool {
		for _, m := range anna.Messages(ch) {
			if strings.Contains(m.Content, "⏰") {
				reminder = m
				return true
			}
		}
		return false
	})
	if err != nil {
		t.Fatal("no reminder before the timer ran out")
	}
	if !strings.Contains(reminder.Content, "<@"+ben.ID+">") || strings.Contains(reminder.Content, "<@"+anna.ID+">") {
		t.Fatalf("the reminder must mention only the undecided player: %q", reminder.Content)
	}
	e.clock.Advance(15 * time.Second)
	next := e.table(anna, "Action 2")
	if !strings.Contains(next.Content, "Time ran out for Ben") {
		t.Fatalf("the timeout must be announced: %q", next.Content)
	}
}

// The public table speaks the guild's language; private answers speak each
// user's own.
func TestE2EGermanAndFrenchTables(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		locale, action1, action2, misthrow, pass string
	}{
		{"de", "Aktion 1", "Aktion 2", "Fehlwurf", "Passen"},
		{"fr", "Action 1 :", "Action 2 :", "coup manqué", "Passer"},
	} {
		t.Run(tc.locale, func(t *testing.T) {
			t.Parallel()
			e := newE2E(t)
			e.srv.SetGuildLocale(e.srv.DefaultGuild(), tc.locale)
			anna, ben := e.srv.AddUser("Anna", tc.locale), e.srv.AddUser("Ben", "en-US")
			ch := e.srv.DefaultChannel()
			lobby := e.answer(anna.Command(ch, "qwixx", "new", nil))
			lobby = e.answer(ben.Click(lobby, players.IDWith(lobby, "join")))
			e.answer(anna.Click(lobby, players.IDWith(lobby, "start")))
			tbl := e.table(anna, tc.action1)
			if c, _ := tbl.Component(players.IDWith(tbl, "pass")); c.Label != tc.pass {
				t.Fatalf("pass button %q, want %q", c.Label, tc.pass)
			}
			// Ben reads English in private, whatever the guild speaks.
			if m := e.answer(ben.Click(tbl, players.IDWith(tbl, "sheet"))); !strings.Contains(m.Content, "Your sheet") {
				t.Fatalf("Ben's private sheet: %q", m.Content)
			}
			// Both pass; the active player passes action 2 too: a misthrow,
			// announced in the guild's language.
			e.answer(anna.Click(tbl, players.IDWith(tbl, "pass")))
			e.answer(ben.Click(tbl, players.IDWith(tbl, "pass")))
			next := e.table(anna, tc.action2)
			active := ben // action 2 mentions only the active player
			if strings.Contains(next.Content, "<@"+anna.ID+">") {
				active = anna
			}
			e.answer(active.Click(next, players.IDWith(next, "pass")))
			e.logLine(tc.misthrow)
		})
	}
}

// The rulebook's D9 example through Discord, with scripted dice: Max has five
// red crosses and Linus five yellow ones; a white 6+6 lets both lock at the
// same moment in action 1. Two rows are locked, so the game ends at once:
// no action 2, both locks announced, both lock crosses counted.
func TestE2ED9TwoLocksInActionOneEndTheGame(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	e.stop()
	var rolls [][6]int
	for k := 1; k <= 5; k++ {
		rolls = append(rolls, [6]int{1, k, 1, 1, 1, 1}) // white sums 2..6
	}
	e.script = &game.Record{Rolls: append(rolls, [6]int{6, 6, 1, 1, 1, 1})}
	e.start()
	max, linus := e.srv.AddUser("Max", "en-US"), e.srv.AddUser("Linus", "en-US")
	ch := e.srv.DefaultChannel()
	e.startTable(max, linus)
	e.whiteTurns(max, linus, "red", "yellow", []int{2, 3, 4, 5, 6, 12})
	var results *discordtest.Message
	if err := e.until(10*time.Second, func() bool {
		for _, m := range max.Messages(ch) {
			if strings.Contains(m.Content, "Game over") && players.IDWith(m, "again") != "" {
				results = m
				return true
			}
		}
		return false
	}); err != nil {
		t.Fatal("the game did not end after the second lock in action 1")
	}
	for _, want := range []string{"Red (Max) and yellow (Linus) locked: the game is over.", "Max: 28", "Linus: 28", "Shared win"} {
		if !strings.Contains(results.Content, want) {
			t.Errorf("results lack %q:\n%s", want, results.Content)
		}
	}
	for _, m := range max.Messages(ch) {
		if strings.Contains(m.Content, "white dice, **12**") && strings.Contains(m.Content, "Action 2") {
			t.Fatal("action 2 was offered after the game ended")
		}
	}
}

// RULES D7/D8 through Discord: both players lock red in the same action 1.
// Each gets the lock, it is one locked row, the game goes on, and the red
// die is gone from action 2.
func TestE2ED7SameRowLockedByTwoAtOnce(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	e.stop()
	var rolls [][6]int
	for k := 1; k <= 5; k++ {
		rolls = append(rolls, [6]int{1, k, 6, 1, 1, 1})
	}
	e.script = &game.Record{Rolls: append(rolls, [6]int{6, 6, 6, 1, 1, 1})}
	e.start()
	anna, ben := e.srv.AddUser("Anna", "en-US"), e.srv.AddUser("Ben", "en-US")
	e.startTable(anna, ben)
	e.whiteTurns(anna, ben, "red", "red", []int{2, 3, 4, 5, 6, 12})
	next := e.table(anna, "Action 2")
	for _, want := range []string{"Anna locked the red row", "Ben locked the red row"} {
		if !strings.Contains(next.Content, want) {
			t.Errorf("action 2 message lacks %q:\n%s", want, next.Content)
		}
	}
	if strings.Contains(next.Content, "Game over") {
		t.Fatal("one row locked by two players is one locked row: the game goes on")
	}
	for _, id := range next.CustomIDs() {
		if strings.Contains(id, ".red") {
			t.Fatalf("the red die is gone, yet action 2 offers %s", id)
		}
	}
}

// TestE2ESimultaneousLobbyJoinsHTTP: four players click Join on one lobby at
// once, answered through the interactions endpoint, whose responses the
// fake applies newest first (as Discord may apply responses that come
// within milliseconds): every join counts once, and the lobby message ends
// listing all five players.
func TestE2ESimultaneousLobbyJoinsHTTP(t *testing.T) {
	t.Parallel()
	e := newE2EOn(t, false, "http")
	ch := e.srv.DefaultChannel()
	var users []*discordtest.User
	for _, n := range []string{"Anna", "Ben", "Chloé", "Dörte", "Émile"} {
		users = append(users, e.srv.AddUser(n, "en-US"))
	}
	lobby := e.answer(users[0].Command(ch, "qwixx", "new", nil))
	join := players.IDWith(lobby, "join")
	e.srv.SetEndpointReorder(reorderWindow)
	var wg sync.WaitGroup
	its := make([]*discordtest.Interaction, len(users)-1)
	for i, u := range users[1:] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			it, err := u.ForgeClick(ch, lobby.ID, join)
			if err != nil {
				t.Error(err)
				return
			}
			its[i] = it
		}()
	}
	wg.Wait()
	for _, it := range its {
		if it == nil {
			t.FailNow()
		}
		if err := it.WaitTimeout(10 * time.Second); err != nil || it.Failed() {
			t.Fatalf("a simultaneous join was not answered: %v", err)
		}
	}
	e.srv.SetEndpointReorder(0)
	listed := func(m *discordtest.Message) bool {
		var text strings.Builder
		for _, em := range m.Embeds {
			for _, f := range em.Fields {
				text.WriteString(f.Value)
			}
		}
		for _, u := range users {
			if !strings.Contains(text.String(), "<@"+u.ID+">") {
				return false
			}
		}
		return true
	}
	if err := e.until(10*time.Second, func() bool {
		m, _ := e.srv.Message(lobby.ID)
		return m != nil && listed(m)
	}); err != nil {
		m, _ := e.srv.Message(lobby.ID)
		var fields []string
		for _, em := range m.Embeds {
			for _, f := range em.Fields {
				fields = append(fields, f.Name+": "+f.Value)
			}
		}
		t.Fatalf("the lobby does not list the five players after simultaneous joins: %q", fields)
	}
	if v := e.srv.SchemaViolations(); len(v) != 0 {
		t.Fatalf("schema violations: %+v", v)
	}
}
