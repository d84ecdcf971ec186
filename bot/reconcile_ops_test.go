package bot

import (
	"testing"

	"github.com/bwmarrin/discordgo"
)

// postProbe is the fake Discord that, when a message is posted (a
// channel post or a follow-up), reads what the store holds at that moment.
type postProbe struct {
	*fakeDiscord
	h       *harness
	posting []string // the stored Shown.Posting at each post
}

func (p *postProbe) seen() { p.posting = append(p.posting, p.h.table().Shown.Posting) }

func (p *postProbe) ChannelMessageSendComplex(ch string, d *discordgo.MessageSend, o ...discordgo.RequestOption) (*discordgo.Message, error) {
	p.seen()
	return p.fakeDiscord.ChannelMessageSendComplex(ch, d, o...)
}

func (p *postProbe) FollowupMessageCreate(i *discordgo.Interaction, wait bool, d *discordgo.WebhookParams, o ...discordgo.RequestOption) (*discordgo.Message, error) {
	p.seen()
	return p.fakeDiscord.FollowupMessageCreate(i, wait, d, o...)
}

// The turn's post (postTurn) stores its intent (Shown.Posting) before it
// is sent, and its record clears it and adopts the message. When a crash
// lost that record, the next step finds the post among the channel's
// messages (lookupPost) and adopts it: nothing is posted twice.
func TestReconcilerPostIntentStoredBeforePostThenFound(t *testing.T) {
	h := newHarness(t)
	h.startTwo("dice")
	h.bot.Idle()
	probe := &postProbe{fakeDiscord: h.dc, h: h}
	h.bot.dc = probe
	step := func() {
		t.Helper()
		s := &step{b: h.bot, log: h.bot.log, ch: testChannel}
		done, err := s.run()
		if done || err != nil || s.fl.msg != "" {
			t.Fatalf("step: done %v, err %v, edit in flight %q; want one request done", done, err, s.fl.msg)
		}
	}
	unshown := func(posting string) {
		t.Helper()
		tb := h.table()
		tb.Shown.Msg, tb.Shown.Turn, tb.Shown.Rev, tb.Shown.Pic, tb.Shown.Att = "", "", "", "", ""
		tb.Shown.Posting = posting
		if err := h.bot.saveTable(h.bot.life, testChannel, tb); err != nil {
			t.Fatal(err)
		}
	}
	key := h.table().TurnKey()

	unshown("") // the turn not shown: posted
	if got := nextOp(h.table(), "", "", h.clock.Now(), coalesceEdits); got != opPost {
		t.Fatalf("nextOp = %v, want %v", got, opPost)
	}
	step()
	if len(probe.posting) != 1 || probe.posting[0] != key {
		t.Fatalf("stored intent at each post: %q, want one post with %q stored before it", probe.posting, key)
	}
	posted := h.table().Shown
	if posted.Posting != "" || posted.Msg == "" || posted.Turn != key {
		t.Fatalf("after the post: Posting %q, Msg %q, Turn %q; want the intent cleared and the message adopted", posted.Posting, posted.Msg, posted.Turn)
	}

	unshown(key) // a crash after Discord took the post, before its record
	step()
	if len(probe.posting) != 1 {
		t.Fatalf("%d posts after the crash window, want the post found, not made again", len(probe.posting)-1)
	}
	if s := h.table().Shown; s.Posting != "" || s.Msg != posted.Msg || s.Turn != key {
		t.Fatalf("after the lookup: Posting %q, Msg %q (posted %q), Turn %q", s.Posting, s.Msg, posted.Msg, s.Turn)
	}
}
