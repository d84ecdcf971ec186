package main

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/qwixxbot/qwixxbot/bot/discordtest"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/players"
)

// Issue 25: a table in a group DM where the bot is no member lives on its
// players' interactions alone. A dice game is played there in part, then
// a card game to its end by simulated players; every turn's message is a follow-up
// of a click, every edit goes through a token, and the bot sends not one
// request to the channel (Discord would refuse them all: 403). A timer
// firing after the tokens have aged out (15 minutes of nobody clicking)
// shows with the next click; a restart in the middle loses nothing.
func TestE2EGroupDMTableOnInteractions(t *testing.T) {
	t.Parallel()
	e2eGroupDMTableOnInteractions(t, "")
}

// TestE2EGroupDMTableOnInteractionsHTTP is TestE2EGroupDMTableOnInteractions with the interactions POSTed to the bot's
// interactions endpoint and answered in its HTTP responses.
func TestE2EGroupDMTableOnInteractionsHTTP(t *testing.T) {
	t.Parallel()
	e2eGroupDMTableOnInteractions(t, "http")
}

// e2eGroupDMTableOnInteractions runs the test with ingress "http" or "gateway" (empty: as
// ingressEnv says).
func e2eGroupDMTableOnInteractions(t *testing.T, ingress string) {
	e := newE2EOn(t, true, ingress)
	anna, ben := e.srv.AddUser("Anna", ""), e.srv.AddUser("Ben", "")
	group := e.srv.AddGroupDM("friends", anna, ben)
	anna.InstallApp()
	view := players.NewChannelView(e.srv, group)
	lobby := e.answer(anna.Command(group, "qwixx", "new", nil))
	if lobby.Ephemeral() || len(lobby.Embeds) == 0 || !strings.Contains(lobby.Embeds[0].Description, "not a member here") {
		t.Fatalf("/qwixx new in a group DM: %+v", lobby)
	}
	// Ben did not install the app: his click on Anna's message is
	// authorized by her install.
	lobby = e.answer(ben.Click(lobby, players.IDWith(lobby, "join")))
	e.answer(anna.Click(lobby, players.IDWith(lobby, "start")))
	newest := func() *discordtest.Message {
		ms := view.Messages()
		for i := len(ms) - 1; i >= 0; i-- {
			if players.IDWith(ms[i], "sheet") != "" {
				return ms[i]
			}
		}
		return nil
	}
	if err := e.until(5*time.Second, func() bool { return newest() != nil }); err != nil {
		t.Fatal("the first turn was never shown")
	}
	// A few turns by clicks on the table, then a restart.
	for moves := 0; moves < 6; {
		var tbl *discordtest.Message
		if err := e.until(5*time.Second, func() bool { tbl = newest(); return tbl != nil && players.IDWith(tbl, "pass") != "" }); err != nil {
			t.Fatalf("after %d moves: no table to click", moves)
		}
		for _, u := range []*discordtest.User{anna, ben} {
			if players.WaitsFor(tbl, u) {
				e.answer(u.Click(tbl, players.IDWith(tbl, "pass")))
				moves++
				break
			}
		}
		_ = e.until(2*time.Second, func() bool { n := newest(); return n != nil && (n.ID != tbl.ID || n.Version != tbl.Version) })
	}
	debug := zerolog.DebugLevel
	e.logLevel = &debug
	e.restart()
	// Nobody clicks for 16 minutes: the tokens age out; the timer passes
	// for the undecided, which nothing can show yet.
	before := newest()
	const waits = "the table waits for a click to show its change"
	n0 := strings.Count(e.logs.String(), waits)
	e.clock.Advance(16 * time.Minute)
	// The bot's timer tick (20 ms) runs, and the update finds no token.
	for deadline := time.Now().Add(10 * time.Second); strings.Count(e.logs.String(), waits) == n0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the bot did not log %q after the timer:\n%s", waits, e.logs.String())
		}
	}
	if m, _ := e.srv.Message(before.ID); m.Version != before.Version {
		t.Fatalf("the table message changed with no token alive: %q", m.Content)
	}
	// The next click (Anna opens her sheet on the old message) brings a
	// token: the table shows what the timer decided.
	e.answer(anna.Click(before, players.IDWith(before, "sheet")))
	if err := e.until(5*time.Second, func() bool { n := newest(); return n.ID != before.ID || n.Version != before.Version }); err != nil {
		t.Fatalf("the timer's decision was not shown after the next click:\n%s", e.logs.String())
	}
	// The rest of the game, and a card game after it, by simulated players.
	p := players.New(e.srv, group, []*discordtest.User{anna, ben}, rand.New(rand.NewPCG(3, 4)))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	e.answer(anna.Command(group, "qwixx", "end", nil))
	for _, v := range []string{"cards"} { // whole dice and card games: TestCrashGroupDMTableLosesNoMove
		res, err := p.PlayGame(ctx, v)
		if err != nil {
			t.Fatalf("%s in the group DM: %v", v, err)
		}
		if !strings.Contains(res.Results, "Game over") {
			t.Fatalf("%s: results %q", v, res.Results)
		}
	}
	// Play again there: the results' button opens the next lobby (after
	// 🔍 Review).
	var results *discordtest.Message
	for _, m := range view.Messages() {
		if players.IDWith(m, "again") != "" {
			results = m
		}
	}
	if results == nil {
		t.Fatal("no results with Play again in the group DM")
	}
	// 🔍 Review of the card game there: Ben's own, privately, with its
	// chart.
	rv := e.answer(ben.Click(results, players.IDWith(results, "review")))
	if !rv.Ephemeral() || rv.VisibleTo != ben.ID || !strings.Contains(rv.Content, "Review of your game") || !strings.Contains(rv.Content, "estimates") {
		t.Fatalf("the card review in the group DM: %+v", rv)
	}
	if _, ok := attachment(rv, "review.png"); !ok {
		t.Fatal("the card review in the group DM has no chart")
	}
	again := e.answer(ben.Click(results, players.IDWith(results, "again")))
	if again.Ephemeral() || players.IDWith(again, "join") == "" {
		t.Fatalf("Play again in the group DM: %+v", again)
	}
	followups := 0
	for _, r := range e.srv.Requests() {
		if strings.Contains(r.Path, "/channels/"+group) {
			t.Errorf("the bot sent %s %s to the group DM's channel", r.Method, r.Path)
		}
		if r.Method == "POST" && strings.HasPrefix(strings.TrimPrefix(r.Path, "/api/v9"), "/webhooks/") {
			followups++
		}
	}
	if followups < 10 {
		t.Errorf("%d follow-ups for two games' turns", followups)
	}
	if strings.Contains(e.logs.String(), `"level":"error"`) {
		t.Errorf("errors logged:\n%s", e.logs.String())
	}
}

// Issue 25, in a server with the bot: a whole game played by people who
// click the table goes out through their interactions alone: the lobby
// is the command's answer, every turn's message and the results are
// follow-ups of clicks, every edit goes through a token. Not one request
// counted by the global rate limit (a channel post, edit or delete).
func TestE2EServerTableThroughInteractions(t *testing.T) {
	t.Parallel()
	e2eServerTableThroughInteractions(t, "")
}

// TestE2EServerTableThroughInteractionsHTTP is TestE2EServerTableThroughInteractions with the interactions POSTed to the bot's
// interactions endpoint and answered in its HTTP responses.
func TestE2EServerTableThroughInteractionsHTTP(t *testing.T) {
	t.Parallel()
	e2eServerTableThroughInteractions(t, "http")
}

// e2eServerTableThroughInteractions runs the test with ingress "http" or "gateway" (empty: as
// ingressEnv says).
func e2eServerTableThroughInteractions(t *testing.T, ingress string) {
	e := newE2EOn(t, false, ingress)
	ch := e.srv.DefaultChannel()
	p := players.New(e.srv, ch, []*discordtest.User{e.srv.AddUser("Anna", "en-US"), e.srv.AddUser("Ben", "en-US"), e.srv.AddUser("Cleo", "en-US")}, rand.New(rand.NewPCG(8, 9)))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	before, counted := len(e.srv.Requests()), e.srv.RateLimitStats().Global
	res, err := p.PlayGame(ctx, "dice")
	if err != nil || !strings.Contains(res.Results, "Game over") {
		t.Fatalf("the game: %+v, %v", res, err)
	}
	followups := 0
	for _, r := range e.srv.Requests()[before:] {
		path := strings.TrimPrefix(r.Path, "/api/v9")
		switch {
		case strings.HasPrefix(path, "/channels/"+ch+"/messages") && r.Method != "GET":
			t.Errorf("a request counted by the global limit: %s %s", r.Method, path)
		case strings.HasPrefix(path, "/webhooks/") && r.Method == "POST":
			followups++
		}
	}
	if followups < 10 {
		t.Errorf("%d follow-ups for a game of %d moves", followups, res.Moves)
	}
	if got := e.srv.RateLimitStats().Global - counted; got != 0 {
		t.Errorf("%d requests counted by the global limit in the game", got)
	}
}
