package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/bot/discordtest"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/players"
	"github.com/qwixxbot/qwixxbot/game"
)

// attachment is the data of m's attachment named name.
func attachment(m *discordtest.Message, name string) ([]byte, bool) {
	for _, a := range m.Attachments {
		if a.Filename == name {
			return a.Data, true
		}
	}
	return nil, false
}

// C10: a card game played to its end through the fake Discord, then 🔍
// Review: a player's click is answered privately with the review of their
// own seat (an estimate, with its chart); somebody who did not play is
// refused politely; nobody else sees it; after Play again the results keep
// the button and the review reads the kept record. The same review,
// written by the bot binary's render command in two more processes, is
// byte for byte the bot's answer: text and picture.
func TestE2EC10CardReview(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	e.script = &game.Record{Seed: 5}
	e.restart()
	anna, ben := e.srv.AddUser("Anna", "en-US"), e.srv.AddUser("Ben", "en-US")
	d := newCardDriver(e, 5, anna, ben)
	e.startCards("cards", anna, ben)
	res := d.play()
	id := players.IDWith(res, "review")
	if id == "" {
		t.Fatalf("the card game's results offer no review: %v", res.CustomIDs())
	}
	rv := e.answer(anna.Click(res, id))
	if !rv.Ephemeral() || !strings.Contains(rv.Content, "Review of your game") || !strings.Contains(rv.Content, "estimates") || !strings.Contains(rv.Content, " ± ") {
		t.Fatalf("anna's review: %q", rv.Content)
	}
	chart, ok := attachment(rv, "review.png")
	if !ok || !bytes.HasPrefix(chart, []byte("\x89PNG")) {
		t.Fatal("the review has no chart")
	}
	no := e.answer(d.eve.Click(res, id))
	if !no.Ephemeral() || !strings.Contains(no.Content, "you did not play") {
		t.Fatalf("eve's review: %q", no.Content)
	}
	for _, m := range d.eve.Messages(e.srv.DefaultChannel()) {
		if strings.Contains(m.Content, "Review of your game") {
			t.Fatal("eve sees a review")
		}
	}
	sent := e.answer(anna.Command(e.srv.DefaultChannel(), "qwixx", "record", nil))
	if len(sent.Attachments) != 1 {
		t.Fatalf("/qwixx record sent %d files", len(sent.Attachments))
	}
	// Play again: the old results keep 🔍 Review, which reads the record.
	e.answer(anna.Click(res, players.IDWith(res, "again")))
	var kept *discordtest.Message
	if err := e.until(15*time.Second, func() bool {
		for _, m := range anna.Messages(e.srv.DefaultChannel()) {
			if m.ID == res.ID && players.IDWith(m, "again") == "" && players.IDWith(m, "review") == id {
				kept = m
				return true
			}
		}
		return false
	}); err != nil {
		t.Fatal("the results lost their Review button after Play again")
	}
	brv := e.answer(ben.Click(kept, id))
	if !brv.Ephemeral() || !strings.Contains(brv.Content, "Review of your game") || brv.Content == rv.Content {
		t.Fatalf("ben's review after Play again: %q", brv.Content)
	}
	if _, ok := attachment(brv, "review.png"); !ok {
		t.Fatal("ben's review has no chart")
	}
	again := e.answer(anna.Click(kept, id))
	if png, _ := attachment(again, "review.png"); again.Content != rv.Content || !bytes.Equal(png, chart) {
		t.Fatal("anna's review changed after Play again")
	}
	e.stop()

	// Two more processes: the binary's render --review.
	file := filepath.Join(t.TempDir(), "game.json")
	if err := os.WriteFile(file, sent.Attachments[0].Data, 0o644); err != nil {
		t.Fatal(err)
	}
	bin := botBinary(t)
	for k := range 2 {
		dir := filepath.Join(t.TempDir(), "out")
		cmd := exec.CommandContext(context.Background(), bin, "render", file, "--review", "1", "-o", dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("qwixxbot render --review: %v\n%s", err, out)
		}
		text, err := os.ReadFile(filepath.Join(dir, "review.txt"))
		if err != nil {
			t.Fatal(err)
		}
		png, err := os.ReadFile(filepath.Join(dir, "review.png"))
		if err != nil {
			t.Fatal(err)
		}
		if string(text) != rv.Content || !bytes.Equal(png, chart) {
			t.Fatalf("process %d wrote another review than the bot answered:\n%s\n---\n%s", k+1, text, rv.Content)
		}
	}
}
