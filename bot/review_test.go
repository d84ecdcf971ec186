package bot

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/view"
	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/game/ai"
)

// C10, P1: the results of a card game (and a joker game) offer 🔍 Review:
// a player's click is answered privately with the review of their own
// seat (an estimate with standard errors, the count per class, the
// costliest numbered on the chart, coloured by class); a second asking is
// answered from the kept review (nothing graded or drawn again); somebody
// who did not play is refused politely; after Play again the review reads
// the kept record and says the same.
func TestC10ReviewOfACardGame(t *testing.T) {
	t.Parallel() // a card review plays every choice out: seconds under -race
	for _, variant := range []string{"cards", "jokers"} {
		t.Run(variant, func(t *testing.T) {
			t.Parallel()
			h, _ := newHistoryHarness(t)
			h.startTwo(variant)
			h.playCardsToEnd()
			tb := h.table()
			res, review, want := h.reviewOfResults(1)
			rv := []string{review}
			text := view.ReviewText(LangFor("en"), want)
			got, files := h.reviewReply("ben", rv[0], res, "")
			if got != text {
				t.Fatalf("ben's review %q, want %q", got, text)
			}
			for _, s := range []string{"estimates", " ± ", "Accuracy", "Best ", "blunder"} {
				if !strings.Contains(got, s) {
					t.Errorf("the review does not say %q: %q", s, got)
				}
			}
			if len(files) != 1 || files[0].Name != "review.png" {
				t.Fatalf("the review has no chart: %+v", files)
			}
			h.rd.mu.Lock()
			moments := h.rd.moments
			h.rd.mu.Unlock()
			if len(moments) != len(want.Costliest) {
				t.Fatalf("the chart marks %d moments, the review has %d costliest", len(moments), len(want.Costliest))
			}
			for i, m := range moments {
				if d := want.Costliest[i]; m.Turn != d.Turn || m.N != i+1 || m.Player != 1 || m.Class != markClass(d.Class) {
					t.Fatalf("moment %d: %+v, want %+v", i, m, d)
				}
			}
			// Asked again: the kept answer, nothing graded again.
			again := h.click("ben", rv[0], res)
			if !isEphemeral(again) || again.Data.Content != text {
				t.Fatalf("the second asking differs: %q", again.Data.Content)
			}
			if hits, misses, _ := h.bot.reviews.answers.Stats(); hits != 1 || misses != 1 {
				t.Fatalf("answers kept: %d hits, %d misses; want 1, 1", hits, misses)
			}
			if _, misses, _ := h.bot.reviews.graded.Stats(); misses != 1 {
				t.Fatalf("the review was graded %d times", misses)
			}
			// Somebody who did not play.
			if r := h.click("carl", rv[0], res); !isEphemeral(r) || !strings.Contains(r.Data.Content, "you did not play") {
				t.Fatalf("a stranger's review: %q", r.Data.Content)
			}
			// Play again: the review reads the kept record (Anna's, in
			// German: graded afresh from the record, the same figures).
			h.click("anna", buttons(res.Components, "Play again")[0], res)
			wantAnna, err := ai.Review(tb.Game.Record(), 0)
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := h.reviewReply("anna", rv[0], res, discordgo.German); got != view.ReviewText(LangFor("de"), wantAnna) || !strings.Contains(got, "Schätzungen") {
				t.Fatalf("anna's review from the record: %q", got)
			}
		})
	}
}

// A review not ready in time is deferred (a private "thinking…", type 5)
// and edited in when ready, with its chart.
func TestReviewDeferredWhenSlow(t *testing.T) {
	t.Parallel()
	h, _ := newHistoryHarness(t)
	h.bot.opt.ReviewDefer = -1
	h.startTwo("cards")
	h.playCardsToEnd()
	tb := h.table()
	res := h.resultsPost()
	i := h.interaction("anna", discordgo.InteractionMessageComponent, discordgo.MessageComponentInteractionData{CustomID: buttons(res.Components, "Review")[0], ComponentType: discordgo.ButtonComponent}, res)
	h.bot.Handle(i)
	h.bot.Idle()
	r := h.response(i)
	if r.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource || r.Data == nil || r.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
		t.Fatalf("the slow review answered %+v, want a private deferral", r)
	}
	want, err := ai.Review(tb.Game.Record(), 0)
	if err != nil {
		t.Fatal(err)
	}
	h.dc.mu.Lock()
	defer h.dc.mu.Unlock()
	var edit *discordgo.WebhookEdit
	for _, e := range h.dc.edits {
		if e.interaction == i.ID {
			edit = e.edit
		}
	}
	if edit == nil || edit.Content == nil || *edit.Content != view.ReviewText(LangFor("en"), want) || len(edit.Files) != 1 || edit.Files[0].Name != "review.png" {
		t.Fatalf("the deferred review's edit: %+v", edit)
	}
}

// The card review's golden text and chart in the three languages
// (testdata/review-cards-LANG.txt and .png), from a fixed joker game of an
// easy player against a medium one, the easy seat reviewed; the picture
// drawn by the real renderer. Drawn twice, byte for byte the same.
//
//	go test ./bot -run TestCardReviewGolden -update
func TestCardReviewGolden(t *testing.T) {
	var seed [32]byte
	copy(seed[:], "card review golden")
	g, err := game.New(game.Config{Variant: game.Jokers, Players: []string{"Anna", "Ben"}, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	levels := []ai.Level{ai.Easy, ai.Medium}
	for !g.Over() {
		p := g.Waiting()[0]
		if err := g.Apply(ai.Choose(levels[p], g.Private(p), g.LegalMoves(p))); err != nil {
			t.Fatal(err)
		}
	}
	rv, err := ai.Review(g.Record(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(rv.Costliest) == 0 {
		t.Fatal("the golden game has no costly choice to mark")
	}
	for _, code := range []string{"en", "de", "fr"} {
		l := LangFor(code)
		text := view.ReviewText(l, rv)
		png, err := Images{}.ReviewChart(g.Public(), g.ScoreSeries(), reviewMoments(rv), l)
		if err != nil {
			t.Fatal(err)
		}
		again, err := Images{}.ReviewChart(g.Public(), g.ScoreSeries(), reviewMoments(rv), l)
		if err != nil || !bytes.Equal(png, again) {
			t.Fatalf("%s: the chart drawn twice differs (%v)", code, err)
		}
		base := filepath.Join("testdata", "review-cards-"+code)
		if *updateGolden {
			if err := os.WriteFile(base+".txt", []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(base+".png", png, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		wantText, err := os.ReadFile(base + ".txt")
		if err != nil {
			t.Fatalf("%v (go test ./bot -run TestCardReviewGolden -update writes it)", err)
		}
		if string(wantText) != text {
			t.Errorf("%s: the review text differs from %s.txt (-update rewrites it); first difference:\n%s", code, base, firstDiff(string(wantText), text))
		}
		wantPNG, err := os.ReadFile(base + ".png")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(wantPNG, png) {
			t.Errorf("%s: the review chart differs from %s.png (-update rewrites it)", code, base)
		}
	}
}

// playCardsToEnd plays the running card game to its end, each move
// clicked by the player it waits for (answered by updating the live
// message: Options.LiveAnswers).
func (h *harness) playCardsToEnd() {
	h.t.Helper()
	h.bot.opt.LiveAnswers = true
	h.playOnTheLiveMessage()
}

// reviewReply clicks 🔍 Review (customID on msg) as user in locale (""
// for the harness's) and returns the private answer's text and files,
// from the answer itself or, when it was deferred, from its edit.
func (h *harness) reviewReply(user, customID string, msg *discordgo.Message, locale discordgo.Locale) (string, []*discordgo.File) {
	h.t.Helper()
	i := h.interaction(user, discordgo.InteractionMessageComponent, discordgo.MessageComponentInteractionData{CustomID: customID, ComponentType: discordgo.ButtonComponent}, msg)
	if locale != "" {
		i.Locale = locale
	}
	h.bot.Handle(i)
	h.bot.Idle()
	r := h.response(i)
	if r.Data == nil || r.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
		h.t.Fatalf("the review is not private: %+v", r)
	}
	switch r.Type {
	case discordgo.InteractionResponseChannelMessageWithSource:
		return r.Data.Content, r.Data.Files
	case discordgo.InteractionResponseDeferredChannelMessageWithSource:
		if e := h.lastHookEdit(i.ID); e != nil && e.Content != nil {
			return *e.Content, e.Files
		}
	}
	h.t.Fatalf("the review answered %+v", r)
	return "", nil
}

// A kept review answer is not shown with names the kept record no longer
// has (forget-me renames a player there): the names are part of its key,
// while the grading, which has no names, is kept.
func TestReviewKeptAnswerFollowsTheNames(t *testing.T) {
	h := newHarness(t)
	g, err := game.New(game.Config{Variant: game.Cards, Players: []string{"Anna", "Ben"}})
	if err != nil {
		t.Fatal(err)
	}
	for !g.Over() {
		p := g.Waiting()[0]
		if err := g.Apply(ai.Choose(ai.Medium, g.Private(p), g.LegalMoves(p))); err != nil {
			t.Fatal(err)
		}
	}
	rec := g.Record()
	rec.Players[0] = "Player 1"
	if rec.First == "Anna" {
		rec.First = "Player 1"
	}
	for i := range rec.Moves {
		if rec.Moves[i].Player == "Anna" {
			rec.Moves[i].Player = "Player 1"
		}
	}
	renamed, err := game.Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	r := h.bot.newRequest(h.interaction("ben", discordgo.InteractionMessageComponent, discordgo.MessageComponentInteractionData{CustomID: "x", ComponentType: discordgo.ButtonComponent}, nil))
	for _, gg := range []*game.Game{g, renamed, g} {
		if _, err := h.bot.reviewAnswer(r, "table-1", gg, 1); err != nil {
			t.Fatal(err)
		}
	}
	if hits, misses, _ := h.bot.reviews.answers.Stats(); hits != 1 || misses != 2 {
		t.Fatalf("answers: %d hits, %d misses; want 1 and 2", hits, misses)
	}
	if _, misses, _ := h.bot.reviews.graded.Stats(); misses != 1 {
		t.Fatalf("graded %d times", misses)
	}
}
