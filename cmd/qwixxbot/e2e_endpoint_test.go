package main

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/players"
	"github.com/qwixxbot/qwixxbot/game"
)

// TestE2EHTTPSlowAnswerDeferredThenShown: the bot takes longer than the
// interactions endpoint's 2.5 s to start a game (its start held until the
// fake Discord has taken the deferred answer). The click is answered in
// time with a deferred update (type 6) as the HTTP response, nobody sees
// "This interaction failed", and the bot's answer follows through the
// interaction's webhook: the clicked lobby message is edited and the
// table is shown.
func TestE2EHTTPSlowAnswerDeferredThenShown(t *testing.T) {
	t.Parallel()
	e := newE2EHTTP(t)
	hold := make(chan struct{})
	e.script = &game.Record{Seed: 5}
	e.holdNewGame = hold
	e.restart()
	anna, ben := e.srv.AddUser("Anna", "en-US"), e.srv.AddUser("Ben", "en-US")
	ch := e.srv.DefaultChannel()
	lobby := e.answer(anna.Command(ch, "qwixx", "new", nil))
	lobby = e.answer(ben.Click(lobby, players.IDWith(lobby, "join")))
	before, _ := e.srv.Message(lobby.ID)
	it, err := anna.Click(lobby, players.IDWith(lobby, "start"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := it.Wait(ctx); err != nil {
		close(hold)
		t.Fatalf("the slow start: %v", err)
	}
	if got := it.CallbackType(); got != 6 {
		close(hold)
		t.Fatalf("the slow start was answered with type %d, want the deferred update 6", got)
	}
	close(hold)
	e.table(anna, "Action 1")
	if err := e.until(20*time.Second, func() bool {
		cur, ok := e.srv.Message(lobby.ID)
		return ok && (cur.Content != before.Content || !slices.Equal(cur.CustomIDs(), before.CustomIDs()))
	}); err != nil {
		t.Fatalf("the clicked lobby was not edited after the deferred answer")
	}
	edited := false
	for _, r := range e.srv.Requests() {
		if r.Method == "PATCH" && strings.HasSuffix(r.Path, "/"+it.Token()+"/messages/@original") && r.Status < 300 {
			edited = true
		}
	}
	if !edited {
		t.Error("no edit of the original response through the interaction's token")
	}
}
