package bot

import (
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// keptTokens counts the interactions the bot keeps for their tokens: live
// messages' (liveTokens) and hand views' (handWatch).
func (h *harness) keptTokens() (live, hands int) {
	h.bot.liveTokens.Range(func(_, _ any) bool { live++; return true })
	h.bot.hands.mu.Lock()
	defer h.bot.hands.mu.Unlock()
	for _, users := range h.bot.hands.views {
		hands += len(users)
	}
	return live, hands
}

// The bot's periodic sweep forgets every interaction it kept for its token
// once the token's useful life is over, not only when the channel is next
// used: nothing more happens in the channel here after the clicks.
func TestTickForgetsInteractionTokensPastTheirLife(t *testing.T) {
	h := newHarness(t)
	h.bot.opt.LiveAnswers = true
	// No timer runs out meanwhile (its edits would drop the old tokens
	// on the way).
	h.bot.opt.TurnTimeout = time.Hour
	h.startTable("jokers", "anna", "ben")
	tb := h.table()
	msg := h.dc.lastTable(testChannel)
	// A click on the live message, answered by updating it, keeps its
	// token to edit the message later; the hand views opened are followed
	// through theirs.
	takes := buttons(msg.Components, "Take")
	if len(takes) == 0 {
		t.Fatalf("no take buttons on the table: %q", msg.Content)
	}
	active := tb.Seats[tb.Game.Waiting()[0]].UserID
	if r := h.click(active, takes[0], msg); r.Type != discordgo.InteractionResponseUpdateMessage {
		t.Fatalf("the take was not answered by updating the table: %+v", r)
	}
	msg = h.dc.lastTable(testChannel)
	for _, u := range []string{"anna", "ben"} {
		if r := h.click(u, buttons(msg.Components, "My cards")[0], msg); r.Data == nil || r.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
			t.Fatalf("%s's hand view: %+v", u, r)
		}
	}
	h.bot.Tick()
	h.bot.Idle()
	if live, hands := h.keptTokens(); live != 1 || hands != 2 {
		t.Fatalf("after the clicks the bot keeps %d live tokens and %d hand views; want 1 and 2", live, hands)
	}
	// Young tokens are kept through the sweep.
	h.clock.Advance(10 * time.Second)
	h.bot.Tick()
	h.bot.Idle()
	if live, hands := h.keptTokens(); live != 1 || hands != 2 {
		t.Fatalf("10 s later the bot keeps %d live tokens and %d hand views; want 1 and 2", live, hands)
	}
	h.clock.Advance(max(liveTokenLife, handRefreshWindow))
	h.bot.Tick()
	h.bot.Idle()
	if live, hands := h.keptTokens(); live != 0 || hands != 0 {
		t.Fatalf("past their life the bot keeps %d live tokens and %d hand views; want none", live, hands)
	}
}
