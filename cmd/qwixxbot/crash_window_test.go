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

// newestTable waits for the newest public message of ch with a "My sheet"
// button whose content satisfies ok.
func newestTable(t *testing.T, srv *discordtest.Server, ch string, d time.Duration, ok func(string) bool) *discordtest.Message {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var m *discordtest.Message
	err := srv.Wait(ctx, func() bool {
		var found bool
		m, found = srv.Newest(ch)
		return found && players.IDWith(m, "sheet") != "" && ok(m.Content)
	})
	if err != nil {
		content := ""
		if m != nil {
			content = m.Content
		}
		t.Fatalf("no current table message within %v (newest: %q)", d, content)
	}
	return m
}

// The crash windows, hit on purpose: the real binary is killed while the
// fake Discord holds the request that would show a saved decision. After
// the restart the channel shows the stored state within 5 s and the game
// goes on.
func TestCrashWindowDecisionSavedNotShown(t *testing.T) {
	srv, p := startedBot(t, "window-token", filepath.Join(t.TempDir(), "bot.db"))
	anna, ben, cleo := srv.AddUser("Anna", "en-US"), srv.AddUser("Ben", "en-US"), srv.AddUser("Cleo", "en-US")
	ch := srv.DefaultChannel()
	ans := func(it *discordtest.Interaction, err error) *discordtest.Message {
		t.Helper()
		m, err := players.AwaitAnswer(context.Background(), it, err)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	// move clicks and fails unless the answer confirms the move (privately,
	// or by updating the table message: see acked).
	move := func(u *discordtest.User, m *discordtest.Message, verb string) {
		t.Helper()
		it, err := u.Click(m, players.IDWith(m, verb))
		a := ans(it, err)
		if !acked(it, a) {
			t.Fatalf("%s's %s was not confirmed: %q", u.Name, verb, a.Content)
		}
	}
	lobby := ans(anna.Command(ch, "qwixx", "new", nil))
	lobby = ans(ben.Click(lobby, players.IDWith(lobby, "join")))
	lobby = ans(cleo.Click(lobby, players.IDWith(lobby, "join")))
	ans(anna.Click(lobby, players.IDWith(lobby, "start")))
	tbl := newestTable(t, srv, ch, 10*time.Second, func(c string) bool { return strings.Contains(c, "Action 1") })

	// Window 1: Anna's pass on the table message is saved; its answer,
	// which would update that message, is held and lost with the bot.
	srv.InjectDelay(1, "POST /interactions", time.Minute, discordtest.DelayBefore)
	if _, err := anna.Click(tbl, players.IDWith(tbl, "pass")); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.WaitHeld(ctx, 1); err != nil {
		t.Fatalf("the answer never came: %v", err)
	}
	p.Kill()
	srv.ReleaseHeld()
	waitsFor := func(c string, u *discordtest.User) bool {
		return strings.Contains(c[strings.Index(c, "Waiting for"):], "<@"+u.ID+">")
	}
	if m, _ := srv.Message(tbl.ID); !waitsFor(m.Content, anna) {
		t.Fatalf("window 1 was missed: the message no longer waits for Anna: %q", m.Content)
	}
	started := time.Now()
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	tbl = newestTable(t, srv, ch, 5*time.Second, func(c string) bool { return !waitsFor(c, anna) && waitsFor(c, ben) })
	t.Logf("window 1: waiting list current %v after the restart", time.Since(started).Round(time.Millisecond))

	// Window 1b: Ben passes in his private sheet; the edit of the table
	// message that shows it is held, and the bot dies.
	sheet := ans(ben.Click(tbl, players.IDWith(tbl, "sheet")))
	srv.InjectDelay(1, "PATCH /channels", time.Minute, discordtest.DelayBefore)
	move(ben, sheet, "pass")
	if err := srv.WaitHeld(ctx, 1); err != nil {
		t.Fatalf("the table edit never came: %v", err)
	}
	p.Kill()
	srv.ReleaseHeld()
	if m, _ := srv.Message(tbl.ID); !waitsFor(m.Content, ben) {
		t.Fatalf("window 1b was missed: the message no longer waits for Ben: %q", m.Content)
	}
	started = time.Now()
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	tbl = newestTable(t, srv, ch, 5*time.Second, func(c string) bool { return !waitsFor(c, ben) && waitsFor(c, cleo) })
	t.Logf("window 1b: waiting list current %v after the restart", time.Since(started).Round(time.Millisecond))

	// Window 2: the last decision ends the turn; the bot dies after
	// Discord took the next turn's message (a follow-up of that click,
	// issue 25) but before the bot heard its ID. After the restart the
	// bot finds that message rather than posting the turn twice.
	ans(cleo.Click(tbl, players.IDWith(tbl, "pass")))
	tbl = newestTable(t, srv, ch, 10*time.Second, func(c string) bool { return strings.Contains(c, "Action 2") })
	active := anna
	for _, u := range []*discordtest.User{ben, cleo} {
		if strings.Contains(tbl.Content, "active player: <@"+u.ID+">") {
			active = u
		}
	}
	srv.InjectDelay(1, "POST /webhooks", time.Minute, discordtest.DelayAfter)
	ans(active.Click(tbl, players.IDWith(tbl, "pass")))
	if err := srv.WaitHeld(ctx, 1); err != nil {
		t.Fatalf("the new turn's message never came: %v", err)
	}
	p.Kill()
	srv.ReleaseHeld()
	started = time.Now()
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	tbl = newestTable(t, srv, ch, 5*time.Second, func(c string) bool { return strings.Contains(c, "**Turn 2**") && strings.Contains(c, "Action 1") })
	t.Logf("turn 2 shown %v after the restart", time.Since(started).Round(time.Millisecond))
	move(anna, tbl, "pass") // the game goes on after the restart
	newestTable(t, srv, ch, 10*time.Second, func(c string) bool {
		return strings.Contains(c, "**Turn 2**") && !strings.Contains(c[strings.Index(c, "Waiting for"):], "<@"+anna.ID+">")
	})
	turn2 := 0
	for _, m := range srv.Messages(ch) {
		if strings.Contains(m.Content, "**Turn 2**") {
			turn2++
		}
	}
	if turn2 != 1 {
		t.Fatalf("turn 2 has %d messages, want 1 (posted twice after the crash?)", turn2)
	}
	if panics, races := p.LogProblems(); len(panics)+len(races) > 0 {
		t.Fatalf("bot log: panics %v, races %v", panics, races)
	}
}

// Issue: the bot killed between storing the lobby that Play again opens
// and answering the click left a lobby nobody saw: the results lost their
// Play again button and no table appeared until /qwixx new. The real
// binary is killed while the fake holds that answer; after the restart
// the channel shows the lobby, once, and the game goes on from it.
func TestCrashWindowPlayAgainLobbyStoredNotShown(t *testing.T) {
	srv, p := startedBot(t, "again-token", filepath.Join(t.TempDir(), "bot.db"))
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
	newestTable(t, srv, ch, 10*time.Second, func(c string) bool { return strings.Contains(c, "Action 1") })
	// Both leave: the game ends, its results offer Play again.
	ans(anna.Command(ch, "qwixx", "leave", nil))
	ans(ben.Command(ch, "qwixx", "leave", nil))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var results *discordtest.Message
	if err := srv.Wait(ctx, func() bool {
		m, ok := srv.Newest(ch)
		if ok && players.IDWith(m, "again") != "" {
			results = m
		}
		return results != nil
	}); err != nil {
		t.Fatal("no results with Play again after both left")
	}
	againLobbies := func() (n int, last *discordtest.Message) {
		for _, m := range srv.Messages(ch) {
			if !m.Ephemeral() && strings.Contains(m.Content, "wants to play again") && players.IDWith(m, "join") != "" {
				n, last = n+1, m
			}
		}
		return n, last
	}

	// The window: Ben's Play again is stored (the table is a lobby); its
	// answer, which would show the lobby, is held and lost with the bot.
	srv.InjectDelay(1, "POST /interactions", time.Minute, discordtest.DelayBefore)
	if _, err := ben.Click(results, players.IDWith(results, "again")); err != nil {
		t.Fatal(err)
	}
	if err := srv.WaitHeld(ctx, 1); err != nil {
		t.Fatalf("the answer never came: %v", err)
	}
	p.Kill()
	srv.ReleaseHeld()
	if n, _ := againLobbies(); n != 0 {
		t.Fatalf("the window was missed: %d lobbies shown before the restart", n)
	}
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	ctx2, cancel2 := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel2()
	if err := srv.Wait(ctx2, func() bool { n, _ := againLobbies(); return n > 0 }); err != nil {
		t.Fatal("no lobby in the channel after the restart: the stored lobby is not shown")
	}
	// The results lose their Play again (the lobby replaces it); the
	// game goes on from the lobby shown.
	if err := srv.Wait(ctx2, func() bool { m, _ := srv.Message(results.ID); return players.IDWith(m, "again") == "" }); err != nil {
		m, _ := srv.Message(results.ID)
		t.Fatalf("the results keep their Play again button: %v\n%s", m.CustomIDs(), p.LogTail(30))
	}
	_, shown := againLobbies()
	if !strings.Contains(shown.Content, "<@"+ben.ID+">") {
		t.Fatalf("the lobby shown does not say who asked to play again: %q", shown.Content)
	}
	shown = ans(anna.Click(shown, players.IDWith(shown, "join")))
	ans(ben.Click(shown, players.IDWith(shown, "start")))
	newestTable(t, srv, ch, 10*time.Second, func(c string) bool { return strings.Contains(c, "Action 1") && strings.Contains(c, "**Turn 1**") })
	if n, _ := againLobbies(); n > 1 {
		t.Fatalf("the lobby was shown %d times", n)
	}
	if panics, races := p.LogProblems(); len(panics)+len(races) > 0 {
		t.Fatalf("bot log: panics %v, races %v", panics, races)
	}
}
