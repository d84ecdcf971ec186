package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/bot/discordtest"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/players"
)

// TestCrashWindowNewTurnNotTakenForTheLastTurnsMessageHTTP is the crash
// window behind a stall seen once in TestCrashKillsLoseNoMoveHTTP: the
// click that ends turn 1 is answered by shrinking turn 1's message to its
// log line (the HTTP response), and the bot dies after storing that it
// posts turn 2's message but before hearing of it. Discord applies the
// answer late, after the restart. Meanwhile the restarted bot looks for
// turn 2's message among the channel's messages (the post's outcome is
// unknown) while turn 1's message still carries its buttons; it must not
// take that message for turn 2's, or the late answer turns it into turn
// 1's log line while the bot believes it shows turn 2, and nobody can act
// until the turn's timer runs out.
func TestCrashWindowNewTurnNotTakenForTheLastTurnsMessageHTTP(t *testing.T) {
	crashWindowNewTurnLookup(t, httpIngress)
}

// crashWindowNewTurnLookup runs the test with env added to the bot's.
func crashWindowNewTurnLookup(t *testing.T, env ...string) {
	// A minute to answer, so that the held answer still counts when it
	// is applied after the restart.
	srv, err := discordtest.NewServer(discordtest.Options{Token: "lookup-token", InteractionDeadline: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	p := newBotProc(t, srv, filepath.Join(t.TempDir(), "bot.db"), env...)
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	anna, ben := srv.AddUser("Anna", "en-US"), srv.AddUser("Ben", "en-US")
	ch := srv.DefaultChannel()
	ans := func(it *discordtest.Interaction, err error) *discordtest.Message {
		t.Helper()
		m, err := players.AwaitAnswer(context.Background(), it, err)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	lobby := ans(anna.Command(ch, "qwixx", "new", nil))
	lobby = ans(ben.Click(lobby, players.IDWith(lobby, "join")))
	ans(anna.Click(lobby, players.IDWith(lobby, "start")))
	tbl := newestTable(t, srv, ch, 10*time.Second, func(c string) bool { return strings.Contains(c, "Action 1") })
	turn1 := tbl.ID
	ans(anna.Click(tbl, players.IDWith(tbl, "pass")))
	tbl = newestTable(t, srv, ch, 10*time.Second, func(c string) bool { return !strings.Contains(c[strings.Index(c, "Waiting for"):], "<@"+anna.ID+">") })
	ans(ben.Click(tbl, players.IDWith(tbl, "pass")))
	tbl = newestTable(t, srv, ch, 10*time.Second, func(c string) bool { return strings.Contains(c, "Action 2") })
	if tbl.ID != turn1 {
		t.Fatalf("action 2 is a new message %s, want turn 1's %s edited", tbl.ID, turn1)
	}
	active := anna
	if strings.Contains(tbl.Content, "active player: <@"+ben.ID+">") {
		active = ben
	}

	// The window: the active player's pass ends turn 1. Its answer (turn
	// 1's message shrunk to its log line) is held as it takes effect, and
	// so is turn 2's message (a follow-up of that click): the bot dies
	// with both held, and the follow-up is lost with it.
	srv.InjectDelay(1, "POST /interactions", time.Minute, discordtest.DelayBefore)
	srv.InjectDelay(1, "POST /webhooks", time.Minute, discordtest.DelayBefore)
	end, err := active.Click(tbl, players.IDWith(tbl, "pass"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := srv.WaitHeld(ctx, 2); err != nil {
		t.Fatalf("the answer and the next turn's message were not both held: %v (held: %+v)", err, srv.HeldRequests())
	}
	p.Kill()
	if err := srv.Wait(ctx, func() bool { return srv.Held() == 1 }); err != nil {
		t.Fatalf("the follow-up of the dead bot is still held: %+v", srv.HeldRequests())
	}
	if m, _ := srv.Message(turn1); len(m.CustomIDs()) == 0 {
		t.Fatalf("the window was missed: turn 1's message lost its buttons before the restart: %q", m.Content)
	}
	// After the restart its shrink of turn 1's message is held a moment
	// too, so that the bot looks for turn 2's message while turn 1's
	// still has its buttons.
	srv.InjectDelay(1, "PATCH /channels", time.Second, discordtest.DelayBefore)
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	// Turn 2 shown (by a new message, or, wrongly, by turn 1's edited),
	// then the late answer applied.
	newestTable(t, srv, ch, 10*time.Second, func(c string) bool { return strings.Contains(c, "**Turn 2**") })
	if err := srv.Wait(ctx, func() bool { return srv.Held() == 1 }); err != nil {
		t.Fatalf("the restarted bot's shrink is still held: %+v", srv.HeldRequests())
	}
	if n := srv.ReleaseHeld(); n != 1 {
		t.Fatalf("released %d held requests, want the late answer", n)
	}
	if err := end.Wait(ctx); err != nil {
		t.Fatalf("the late answer: %v", err)
	}
	tbl = newestTable(t, srv, ch, 10*time.Second, func(c string) bool { return strings.Contains(c, "**Turn 2**") && strings.Contains(c, "Action 1") })
	if tbl.ID == turn1 {
		t.Fatalf("turn 1's message %s was taken for turn 2's", turn1)
	}
	if m, _ := srv.Message(turn1); len(m.CustomIDs()) != 0 || strings.Contains(m.Content, "Turn 2") {
		t.Fatalf("turn 1's message is not its log line: %q %v", m.Content, m.CustomIDs())
	}
	// The game goes on from the turn-2 message.
	it, err := anna.Click(tbl, players.IDWith(tbl, "pass"))
	if m := ans(it, err); !acked(it, m) {
		t.Fatalf("Anna's pass on turn 2 was not confirmed: %q", m.Content)
	}
	if panics, races := p.LogProblems(); len(panics)+len(races) > 0 {
		t.Fatalf("bot log: panics %v, races %v", panics, races)
	}
}

// TestCrashWindowNewTurnNotTakenForTheLastTurnsMessage is the same window
// through the gateway, where the answers are the bot's own requests: the
// turn ends by a move in a player's sheet, and the bot dies while both its
// shrink of turn 1's message and turn 2's post are held (and lost with
// it). After the restart, while its shrink of turn 1's message is on its
// way, the bot looks for turn 2's message: turn 1's, with its buttons
// still, must not be taken for it (it was, and edited into turn 2's: turn
// 1's log line was lost).
func TestCrashWindowNewTurnNotTakenForTheLastTurnsMessage(t *testing.T) {
	srv, p := startedBot(t, "lookup-gw-token", filepath.Join(t.TempDir(), "bot.db"), ingressEnv+"=gateway")
	anna, ben := srv.AddUser("Anna", "en-US"), srv.AddUser("Ben", "en-US")
	ch := srv.DefaultChannel()
	ans := func(it *discordtest.Interaction, err error) *discordtest.Message {
		t.Helper()
		m, err := players.AwaitAnswer(context.Background(), it, err)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	lobby := ans(anna.Command(ch, "qwixx", "new", nil))
	lobby = ans(ben.Click(lobby, players.IDWith(lobby, "join")))
	ans(anna.Click(lobby, players.IDWith(lobby, "start")))
	tbl := newestTable(t, srv, ch, 10*time.Second, func(c string) bool { return strings.Contains(c, "Action 1") })
	turn1 := tbl.ID
	ans(anna.Click(tbl, players.IDWith(tbl, "pass")))
	tbl = newestTable(t, srv, ch, 10*time.Second, func(c string) bool { return !strings.Contains(c[strings.Index(c, "Waiting for"):], "<@"+anna.ID+">") })
	ans(ben.Click(tbl, players.IDWith(tbl, "pass")))
	tbl = newestTable(t, srv, ch, 10*time.Second, func(c string) bool { return strings.Contains(c, "Action 2") })
	active := anna
	if strings.Contains(tbl.Content, "active player: <@"+ben.ID+">") {
		active = ben
	}
	sheet := ans(active.Click(tbl, players.IDWith(tbl, "sheet")))
	if players.IDWith(sheet, "pass") == "" {
		t.Fatalf("the active player's sheet in action 2 has no Pass: %v", sheet.CustomIDs())
	}

	srv.InjectDelay(1, "PATCH /messages/", time.Minute, discordtest.DelayBefore)
	srv.InjectDelay(1, "POST /webhooks", time.Minute, discordtest.DelayBefore)
	it, err := active.Click(sheet, players.IDWith(sheet, "pass"))
	if m := ans(it, err); !acked(it, m) {
		t.Fatalf("the pass ending turn 1 was not confirmed: %q", m.Content)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := srv.WaitHeld(ctx, 2); err != nil {
		t.Fatalf("the shrink and the next turn's message were not both held: %v (held: %+v)", err, srv.HeldRequests())
	}
	p.Kill()
	if err := srv.Wait(ctx, func() bool { return srv.Held() == 0 }); err != nil {
		t.Fatalf("the dead bot's requests are still held: %+v", srv.HeldRequests())
	}
	if m, _ := srv.Message(turn1); len(m.CustomIDs()) == 0 {
		t.Fatalf("the window was missed: turn 1's message lost its buttons before the restart: %q", m.Content)
	}
	srv.InjectDelay(1, "PATCH /messages/", time.Second, discordtest.DelayBefore)
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	newestTable(t, srv, ch, 10*time.Second, func(c string) bool { return strings.Contains(c, "**Turn 2**") })
	if err := srv.Wait(ctx, func() bool { return srv.Held() == 0 }); err != nil {
		t.Fatalf("the restarted bot's shrink is still held: %+v", srv.HeldRequests())
	}
	tbl = newestTable(t, srv, ch, 10*time.Second, func(c string) bool { return strings.Contains(c, "**Turn 2**") && strings.Contains(c, "Action 1") })
	if tbl.ID == turn1 {
		t.Fatalf("turn 1's message %s was taken for turn 2's (turn 1's log line is lost)", turn1)
	}
	if err := srv.Wait(ctx, func() bool { m, _ := srv.Message(turn1); return len(m.CustomIDs()) == 0 }); err != nil {
		m, _ := srv.Message(turn1)
		t.Fatalf("turn 1's message is not its log line: %q %v", m.Content, m.CustomIDs())
	}
	it, err = anna.Click(tbl, players.IDWith(tbl, "pass"))
	if m := ans(it, err); !acked(it, m) {
		t.Fatalf("Anna's pass on turn 2 was not confirmed: %q", m.Content)
	}
	if panics, races := p.LogProblems(); len(panics)+len(races) > 0 {
		t.Fatalf("bot log: panics %v, races %v", panics, races)
	}
}
