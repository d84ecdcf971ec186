package main

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/bot/discordtest"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/config"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/players"
	"github.com/qwixxbot/qwixxbot/game"
)

// heldCardGame starts a scripted card game of Anna and Ben (seed 11, an
// hour per action) for the tests that hold one surface's request.
func heldCardGame(t *testing.T) (*e2e, *discordtest.User, *discordtest.User) {
	t.Parallel()
	e := newE2EClock(t, true)
	e.config = func(c *config.Config) { c.Game.TurnTimeout = time.Hour }
	e.script = &game.Record{Seed: 11}
	e.restart()
	anna, ben := e.srv.AddUser("Anna", "en-US"), e.srv.AddUser("Ben", "en-US")
	e.startCards("cards", anna, ben)
	return e, anna, ben
}

// heldLast releases the request InjectDelay holds and checks through the
// fake's request log that every request earlier names completed while it
// was held: the log lists a request held before taking effect as its hold
// ends, so each must come before it. Nothing waited for the held request,
// however slow the machine (each click was also answered within Discord's
// deadline, or the fake would have failed it).
func heldLast(t *testing.T, e *e2e, earlier map[string]func(discordtest.Request) bool) {
	t.Helper()
	// The fake logs a request a moment after its effect (and its answer)
	// is seen: each of the earlier ones must reach the log while the held
	// request is still held, which shows it did not wait for it.
	for what, match := range earlier {
		if err := e.until(10*time.Second, func() bool {
			return slices.ContainsFunc(e.srv.Requests(), func(r discordtest.Request) bool { return !r.Held && match(r) })
		}); err != nil {
			t.Errorf("%s: not in the fake's log while the held request was held", what)
		}
	}
	if n := len(e.srv.HeldRequests()); n != 1 {
		t.Fatalf("%d requests held, want the one: the test proves nothing", n)
	}
	e.srv.ReleaseHeld()
	var reqs []discordtest.Request
	held := -1
	if err := e.until(10*time.Second, func() bool {
		reqs = e.srv.Requests()
		held = slices.IndexFunc(reqs, func(r discordtest.Request) bool { return r.Held })
		return held >= 0
	}); err != nil {
		t.Fatal("the held request is not in the fake's log after its release")
	}
	for what, match := range earlier {
		switch i := slices.IndexFunc(reqs, func(r discordtest.Request) bool { return !r.Held && match(r) }); {
		case i < 0:
			t.Errorf("%s: no such request in the fake's log", what)
		case i > held:
			t.Errorf("%s completed after the held %s %s ended: it waited for it", what, reqs[held].Method, reqs[held].Path)
		}
	}
}

// answered matches the callback that answered it.
func answered(it *discordtest.Interaction) func(discordtest.Request) bool {
	return func(r discordtest.Request) bool {
		return r.Method == "POST" && strings.HasSuffix(r.Path, "/"+it.Token()+"/callback")
	}
}

// carrying matches a request whose JSON body contains s.
func carrying(s string) func(discordtest.Request) bool {
	return func(r discordtest.Request) bool { return strings.Contains(string(r.Payload), s) }
}

// latency is how long an interaction waited for its answer.
func latency(t *testing.T, it *discordtest.Interaction) time.Duration {
	t.Helper()
	d, ok := it.Latency()
	if !ok {
		t.Fatal("the interaction was not answered")
	}
	return d
}

// One player's hand-view edit held by Discord delays only that edit: the
// player's own clicks are answered, the table moves on and the next
// turn's message appears while it is held (the fake's log shows them all
// before it), and the view shows the game as it is once the edit got
// through (issue 24).
func TestE2EHeldHandViewEditDelaysOnlyItself(t *testing.T) {
	e, anna, ben := heldCardGame(t)

	tbl := e.table(anna, "takes cards from the display")
	itView, err := anna.Click(tbl, players.IDWith(tbl, "hand"))
	view := e.answer(itView, err)
	if handCount(view) != 4 {
		t.Fatalf("Anna's first hand: %q", view.Content)
	}
	const hold = time.Hour // until heldLast releases it
	e.srv.InjectDelay(1, "PATCH /webhooks/"+e.srv.ApplicationID()+"/"+itView.Token(), hold, discordtest.DelayBefore)
	take, err := anna.Click(tbl, idsWith(tbl, "take")[0])
	e.answer(take, err)
	if err := e.until(10*time.Second, func() bool { return len(e.srv.HeldRequests()) == 1 }); err != nil {
		t.Fatal("the hand view's edit was not held")
	}
	var lat []time.Duration
	lat = append(lat, latency(t, take))
	earlier := map[string]func(discordtest.Request) bool{"the answer to Anna's take": answered(take)}
	// The table moves on at once: the number for everyone.
	tbl = e.table(anna, "the number for everyone")
	for _, u := range []*discordtest.User{anna, ben} {
		it, err := u.Click(tbl, players.IDWith(tbl, "pass"))
		e.answer(it, err)
		lat = append(lat, latency(t, it))
		earlier["the answer to "+u.Name+"'s pass"] = answered(it)
	}
	// Anna's own view answers her while its edit is held: a fresh view
	// with the play builder, and her play in it ends the turn.
	e.table(anna, "plays 1 to 3 cards")
	it, err := anna.Click(view, players.IDWith(view, "hand"))
	fresh := e.answer(it, err)
	lat = append(lat, latency(t, it))
	earlier["the answer to Anna's hand click"] = answered(it)
	if players.IDWith(fresh, "pick") == "" || handCount(fresh) != 5 {
		t.Fatalf("Anna's view while its edit is held: %q", fresh.Content)
	}
	pick, ok := fresh.Component(players.IDWith(fresh, "pick"))
	if !ok {
		t.Fatal("no card to pick")
	}
	it, err = anna.Select(fresh, players.IDWith(fresh, "pick"), pick.Options[0].Value)
	fresh = e.answer(it, err)
	lat = append(lat, latency(t, it))
	earlier["the answer to Anna's pick"] = answered(it)
	it, err = anna.Click(fresh, players.IDWith(fresh, "play")) // C6: at least one card
	ended := e.answer(it, err)
	lat = append(lat, latency(t, it))
	earlier["the answer to Anna's play"] = answered(it)
	if !strings.Contains(ended.Content, "✅") {
		t.Fatalf("Anna's play: %q", ended.Content)
	}
	// The next turn's message is in the channel while the edit is still
	// held (heldLast releases it only now): it did not wait for it.
	next := e.table(ben, "**Turn 2**")
	if len(e.srv.HeldRequests()) != 1 {
		t.Fatal("the hand view's edit was released before the next turn was shown")
	}
	heldLast(t, e, earlier)
	slices.Sort(lat)
	// Once the edit got through, Anna's view shows the game as it is
	// (turn 2: Ben takes), through her newest click's token.
	e.waitFor(fresh.ID, "the hand view shows turn 2", func(m *discordtest.Message) bool {
		return handCount(m) == 4 && players.IDWith(m, "pick") == "" && players.IDWith(m, "take") == ""
	})
	t.Logf("clicks answered in %v; %s", lat, next.Content[:min(40, len(next.Content))])
}

// The channel's edit held by Discord: clicks are still answered and the
// players' hand views still follow the game while it is held (the fake's
// log shows them before it; issue 24). With
// the bot's live answers the table message is edited through the token of
// the newest click on it (PATCH /webhooks/…): that edit is held.
func TestE2EHeldChannelEditDelaysOnlyItself(t *testing.T) {
	e, anna, ben := heldCardGame(t)
	tbl := e.table(anna, "takes cards from the display")
	view := e.answer(anna.Click(tbl, players.IDWith(tbl, "hand")))
	bview := e.answer(ben.Click(tbl, players.IDWith(tbl, "hand")))
	e.answer(anna.Click(tbl, idsWith(tbl, "take")[0]))
	tbl = e.table(anna, "the number for everyone")
	e.answer(anna.Click(tbl, players.IDWith(tbl, "pass")))
	last, err := ben.Click(tbl, players.IDWith(tbl, "pass"))
	e.answer(last, err)
	const hold = time.Hour // until heldLast releases it
	e.srv.InjectDelay(1, "PATCH /webhooks/"+e.srv.ApplicationID()+"/"+last.Token(), hold, discordtest.DelayBefore)
	// Anna plays from her view, which followed the game: the table
	// message's edit for it is held.
	shown := func(id string, ok func(*discordtest.Message) bool) func() bool {
		return func() bool { m, _ := e.srv.Message(id); return m != nil && ok(m) }
	}
	if err := e.until(10*time.Second, shown(view.ID, func(m *discordtest.Message) bool { return players.IDWith(m, "pick") != "" })); err != nil {
		t.Fatal("Anna's view shows no play builder")
	}
	view, _ = e.srv.Message(view.ID)
	pick, _ := view.Component(players.IDWith(view, "pick"))
	var lat []time.Duration
	it, err := anna.Select(view, players.IDWith(view, "pick"), pick.Options[0].Value)
	view = e.answer(it, err)
	lat = append(lat, latency(t, it))
	earlier := map[string]func(discordtest.Request) bool{"the answer to Anna's pick": answered(it)}
	it, err = anna.Click(view, players.IDWith(view, "play"))
	e.answer(it, err)
	lat = append(lat, latency(t, it))
	earlier["the answer to Anna's play"] = answered(it)
	if err := e.until(10*time.Second, func() bool { return len(e.srv.HeldRequests()) == 1 }); err != nil {
		t.Fatal("the table message's edit was not held: the test proves nothing")
	}
	// Ben's view follows the game while the table's edit is held: his
	// take buttons of turn 2.
	if err := e.until(10*time.Second, shown(bview.ID, func(m *discordtest.Message) bool { return players.IDWith(m, "take") != "" })); err != nil {
		t.Fatal("Ben's hand view did not show his take")
	}
	bview, _ = e.srv.Message(bview.ID)
	earlier["the edit of Ben's view with his take"] = carrying(players.IDWith(bview, "take"))
	it, err = ben.Click(bview, players.IDWith(bview, "hand"))
	e.answer(it, err)
	lat = append(lat, latency(t, it))
	earlier["the answer to Ben's hand click"] = answered(it)
	heldLast(t, e, earlier)
	slices.Sort(lat)
	t.Logf("clicks answered in %v while the table's edit was held", lat)
}

// Issue: a slow edit of the old turn's message held up the next turn's
// message: with the table message's own edit held by Discord for 5 s or
// 8 s, the next turn appeared 5.01 s or 8.01 s later (the channel's
// requests went one at a time). Now an edit in flight holds up only what
// touches its message: the next turn is posted first, and the old
// message, once its edit got through, is shrunk to its log line. Checked
// through the fake's message events (their order), for the live
// message's edit (Ben passes in his sheet, the table message says so)
// and for the shrink of the finished turn.
func TestE2EHeldTableEditDoesNotDelayNextTurn(t *testing.T) {
	for _, held := range []string{"live edit", "shrink"} {
		t.Run(held, func(t *testing.T) {
			e, anna, ben := heldCardGame(t)
			ch := e.srv.DefaultChannel()
			tbl := e.table(anna, "takes cards from the display")
			view := e.answer(anna.Click(tbl, players.IDWith(tbl, "hand")))
			e.answer(anna.Click(tbl, idsWith(tbl, "take")[0]))
			tbl = e.table(anna, "the number for everyone")
			pass, err := anna.Click(tbl, players.IDWith(tbl, "pass"))
			e.answer(pass, err)
			const hold = 10 * time.Second
			if held == "live edit" {
				// The table message's edit that shows Ben's pass goes
				// through the token of the newest click on it, Anna's.
				sheet := e.answer(ben.Click(tbl, players.IDWith(tbl, "sheet")))
				e.srv.InjectDelay(1, "PATCH /webhooks/"+e.srv.ApplicationID()+"/"+pass.Token(), hold, discordtest.DelayBefore)
				e.answer(ben.Click(sheet, players.IDWith(sheet, "pass")))
			} else {
				last, err := ben.Click(tbl, players.IDWith(tbl, "pass"))
				e.answer(last, err)
				// The shrink of the finished turn's message goes through
				// the token of the newest click on it, Ben's.
				e.srv.InjectDelay(1, "PATCH /webhooks/"+e.srv.ApplicationID()+"/"+last.Token(), hold, discordtest.DelayBefore)
			}
			view = e.waitFor(view.ID, "Anna's view offers her play", func(m *discordtest.Message) bool { return players.IDWith(m, "pick") != "" })
			pick, _ := view.Component(players.IDWith(view, "pick"))
			if held == "live edit" {
				if err := e.until(5*time.Second, func() bool { return len(e.srv.HeldRequests()) == 1 }); err != nil {
					t.Fatal("the table message's edit was not held: the test proves nothing")
				}
			}
			w := e.srv.Watch(ch)
			view = e.answer(anna.Select(view, players.IDWith(view, "pick"), pick.Options[0].Value))
			e.answer(anna.Click(view, players.IDWith(view, "play"))) // the turn ends
			ended := time.Now()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			for {
				ev, err := w.Next(ctx)
				if err != nil {
					t.Fatalf("no message of turn 2: %v", err)
				}
				if ev.Message.ID == tbl.ID {
					t.Fatalf("the old turn's message changed (%s: %q) before the next turn's message was posted: the next turn waited for the held %s", ev.Kind, ev.Message.Content, held)
				}
				if ev.Kind == discordtest.Created && strings.Contains(ev.Message.Content, "**Turn 2**") {
					break
				}
			}
			t.Logf("the next turn's message %v after the move that ended the turn, with the %s held for %v", time.Since(ended).Round(time.Millisecond), held, hold)
			// The held request was that edit (the shrink may be sent just
			// after the next turn's post: they go on side by side).
			if err := e.until(10*time.Second, func() bool { return e.srv.HeldTotal() > 0 }); err != nil || e.srv.HeldTotal() != 1 {
				t.Fatalf("%d requests were held, want 1: the test proves nothing", e.srv.HeldTotal())
			}
			// Once the held edit got through, the old message is the
			// finished turn's log line (shrunk after it, not before).
			e.srv.ReleaseHeld()
			e.waitFor(tbl.ID, "the old turn's message is its log line", func(m *discordtest.Message) bool {
				return len(m.CustomIDs()) == 0 && strings.Contains(m.Content, "Turn 1")
			})
			e.table(ben, "**Turn 2**")
		})
	}
}
