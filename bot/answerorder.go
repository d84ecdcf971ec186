package bot

import (
	"hash/fnv"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// Answers that update the clicked message, and the order they take effect.
//
// A click on the live message is answered by updating that message (an
// interaction response of type 7, liveAnswer): no request beside the
// answer, and none counted against the rate limits. Through the gateway
// the answer is the bot's own callback request, which Discord has applied
// when it returns; the channel's lock serialises the answers, so the
// message ends at the newest state. Through the interactions endpoint the
// answer is the HTTP response to Discord's POST, and Discord promises no
// order between two responses that leave within milliseconds: two clicks
// answered one after the other may take effect the other way round, and
// the message stays a state behind.
//
// So an answer through an Answerer updates the clicked message only when
// no earlier update of it can still be on its way, and the bot knows that
// from the click itself: Discord sends the clicked message as it showed it
// when the user clicked. The bot remembers, per channel, the text and
// buttons it last sent to its live message (answerViews); when the clicked
// message shows them, every earlier update has taken effect (the click
// came after them, so its answer comes after them too) and the click is
// answered with the update as usual: the common case, one HTTP response
// and nothing else. When it shows something else, an update may be on its
// way: the click is answered privately ("You chose …") and the message is
// left to the reconciler, whose edit goes through the token of the click
// that was answered with the message's last update (liveTokens: Discord
// applies an edit of a response through its token after that response)
// and is serialised with the channel's other requests, so the message ends
// at the newest state.
//
// The comparison is of the text (trimmed) and of the buttons' custom IDs,
// which Discord keeps as sent; were Discord ever to show them otherwise,
// every click on the message would be answered privately and the message
// edited: slower, never wrong.

// answerView is what the bot last sent to a channel's live message: its
// ID and the fingerprint of its text and buttons (viewSum).
type answerView struct {
	msg, sum string
}

// viewSum fingerprints a message's text (trimmed), the text of its embeds
// (a lobby's players are listed there) and its buttons' custom IDs.
func viewSum(content string, embeds []*discordgo.MessageEmbed, ids []string) string {
	h := fnv.New64a()
	h.Write([]byte(strings.TrimSpace(content)))
	for _, e := range embeds {
		if e == nil {
			continue
		}
		parts := []string{e.Title, e.Description}
		for _, f := range e.Fields {
			if f != nil {
				parts = append(parts, f.Name, f.Value)
			}
		}
		if e.Footer != nil {
			parts = append(parts, e.Footer.Text)
		}
		for _, p := range parts {
			h.Write([]byte{1})
			h.Write([]byte(p))
		}
	}
	for _, id := range ids {
		h.Write([]byte{0})
		h.Write([]byte(id))
	}
	return string(h.Sum(nil))
}

// updateMayOvertake reports whether an answer to r that updates the clicked
// message could take effect before an earlier update of that message
// still on its way: the answer goes through an Answerer (the HTTP
// response of the interactions endpoint), and the clicked message, as
// Discord sent it with the click, does not show what the bot last sent to
// it.
func (b *Bot) updateMayOvertake(r *request) bool {
	if r.to == nil || r.i.Message == nil {
		return false
	}
	v, ok := b.answerViews.Load(r.i.ChannelID)
	if !ok {
		return false
	}
	av := v.(answerView)
	if av.msg != r.i.Message.ID {
		return false // another message: a new turn's, posted since
	}
	return av.sum != viewSum(r.i.Message.Content, r.i.Message.Embeds, messageCustomIDs(r.i.Message))
}

// noteAnswerView remembers an update of the clicked message given as r's
// answer through an Answerer (see updateMayOvertake).
func (b *Bot) noteAnswerView(r *request, content string, embeds []*discordgo.MessageEmbed, comps []discordgo.MessageComponent) {
	if r.to == nil || r.i.Message == nil {
		return
	}
	b.answerViews.Store(r.i.ChannelID, answerView{msg: r.i.Message.ID, sum: viewSum(content, embeds, componentIDs(comps))})
}

// noteEditView remembers an edit of a channel's live message in a channel
// where updates went out as HTTP responses (answerViews holds it): the
// message then shows the edit, which a click must see before its answer
// may update the message again.
func (b *Bot) noteEditView(edit *discordgo.MessageEdit) {
	if edit.Content == nil || edit.Components == nil {
		return
	}
	v, ok := b.answerViews.Load(edit.Channel)
	if !ok || v.(answerView).msg != edit.ID {
		return
	}
	var embeds []*discordgo.MessageEmbed
	if edit.Embeds != nil {
		embeds = *edit.Embeds
	}
	b.answerViews.CompareAndSwap(edit.Channel, v, answerView{msg: edit.ID, sum: viewSum(*edit.Content, embeds, componentIDs(*edit.Components))})
}

// componentIDs lists the custom_ids of components as the bot sends them.
func componentIDs(comps []discordgo.MessageComponent) []string {
	return messageCustomIDs(&discordgo.Message{Components: comps})
}
