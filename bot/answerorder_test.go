package bot

import (
	"context"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// answererFunc is an Answerer (the interactions endpoint's HTTP response).
type answererFunc func(ctx context.Context, i *discordgo.Interaction, resp *discordgo.InteractionResponse) error

func (f answererFunc) Answer(ctx context.Context, i *discordgo.Interaction, resp *discordgo.InteractionResponse) error {
	return f(ctx, i, resp)
}

// A click answered through the endpoint updates the clicked message only
// when the message Discord sent with it shows what the bot last sent:
// otherwise an earlier update may still be on its way, and Discord could
// apply the two in either order.
func TestUpdateMayOvertakeOnlyWhileAnEarlierUpdateMayBeOnItsWay(t *testing.T) {
	b := &Bot{}
	http := answererFunc(func(context.Context, *discordgo.Interaction, *discordgo.InteractionResponse) error { return nil })
	comps := func(ids ...string) []discordgo.MessageComponent {
		var btns []discordgo.MessageComponent
		for _, id := range ids {
			btns = append(btns, discordgo.Button{Label: id, CustomID: id})
		}
		return []discordgo.MessageComponent{discordgo.ActionsRow{Components: btns}}
	}
	click := func(to Answerer, msg, content string, ids ...string) *request {
		// The message as Discord sends it: components decoded as pointers.
		var btns []discordgo.MessageComponent
		for _, id := range ids {
			btns = append(btns, &discordgo.Button{Label: id, CustomID: id})
		}
		return &request{b: b, to: to, i: &discordgo.Interaction{ChannelID: "c1", Message: &discordgo.Message{
			ID: msg, Content: content, Components: []discordgo.MessageComponent{&discordgo.ActionsRow{Components: btns}}}}}
	}
	if b.updateMayOvertake(click(http, "m1", "turn 1\nwaiting: A B", "pass")) {
		t.Error("nothing was sent to the message yet: nothing can be on its way")
	}
	b.noteAnswerView(click(http, "m1", "turn 1\nwaiting: A B", "pass"), "turn 1\nwaiting: B", nil, comps("pass"))
	if !b.updateMayOvertake(click(http, "m1", "turn 1\nwaiting: A B", "pass")) {
		t.Error("a click on the message as it was before the last update: that update may be on its way")
	}
	if b.updateMayOvertake(click(http, "m1", "turn 1\nwaiting: B\n", "pass")) {
		t.Error("a click on the message showing the last update (trailing space trimmed): it took effect")
	}
	if b.updateMayOvertake(click(nil, "m1", "turn 1\nwaiting: A B", "pass")) {
		t.Error("an answer through the gateway's callback is applied when it returns: never overtaken")
	}
	if b.updateMayOvertake(click(http, "m2", "turn 2", "pass")) {
		t.Error("another message (the next turn's) has no update on its way")
	}
	if !b.updateMayOvertake(click(http, "m1", "turn 1\nwaiting: B", "white:red", "pass")) {
		t.Error("other buttons than the last update's: not what the bot sent")
	}
	// The reconciler's edit of the message is what it shows next.
	content, cs := "turn 1\nwaiting: nobody", comps("pass")
	b.noteEditView(&discordgo.MessageEdit{ID: "m1", Channel: "c1", Content: &content, Components: &cs})
	if !b.updateMayOvertake(click(http, "m1", "turn 1\nwaiting: B", "pass")) {
		t.Error("a click on the message before the edit: the edit may be on its way")
	}
	if b.updateMayOvertake(click(http, "m1", content, "pass")) {
		t.Error("a click on the edited message: the edit took effect")
	}
	// An edit in a channel whose updates went through the gateway is not
	// remembered.
	b.noteEditView(&discordgo.MessageEdit{ID: "m9", Channel: "c9", Content: &content, Components: &cs})
	if _, ok := b.answerViews.Load("c9"); ok {
		t.Error("an edit where no answer went out as an HTTP response was remembered")
	}
}
