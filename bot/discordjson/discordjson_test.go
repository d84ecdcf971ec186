package discordjson

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestRequestAsDiscordgo: the JSON of answers, follow-ups and edits, and
// of components alone, says what discordgo's Marshal writes, with
// components of every kind the bot uses (buttons without a style are
// primary, emoji, select menus with options) and one it does not (left to
// discordgo), components nil, empty and absent.
func TestRequestAsDiscordgo(t *testing.T) {
	one := 1
	rows := []discordgo.MessageComponent{
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Pass", CustomID: "t1.pass"}, // style 0: primary
			discordgo.Button{Label: "5 in red", Style: discordgo.DangerButton, CustomID: "t1.red5", Disabled: true,
				Emoji: &discordgo.ComponentEmoji{Name: "🎲"}},
			&discordgo.Button{Label: "Rules", Style: discordgo.LinkButton, URL: "https://example.com/r"},
		}},
		&discordgo.ActionsRow{ID: 7, Components: []discordgo.MessageComponent{
			discordgo.SelectMenu{CustomID: "t1.pick", Placeholder: "Pick", MinValues: &one, MaxValues: 2,
				Options: []discordgo.SelectMenuOption{{Label: "A", Value: "a", Default: true}, {Label: "B", Value: "b", Description: "bee",
					Emoji: &discordgo.ComponentEmoji{ID: "42", Name: "x", Animated: true}}}},
		}},
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{}},
		discordgo.ActionsRow{},
	}
	odd := []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.TextInput{CustomID: "t1.name", Label: "Name", Style: discordgo.TextInputShort}}}}
	empty := []discordgo.MessageComponent{}
	content := "turn 3"
	atts := []*discordgo.MessageAttachment{{ID: "a1"}}
	datas := []any{
		&discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate},
		&discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: &discordgo.InteractionResponseData{
			Content: content, Components: rows, Flags: discordgo.MessageFlagsEphemeral,
			AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{"9"}}, Attachments: &atts}},
		&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{Content: content}},
		&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{Components: empty}},
		&discordgo.InteractionResponse{Type: discordgo.InteractionResponseModal, Data: &discordgo.InteractionResponseData{Title: "t", CustomID: "m", Components: odd}},
		&discordgo.WebhookParams{Content: content, Components: rows, Flags: discordgo.MessageFlagsEphemeral},
		&discordgo.WebhookParams{Content: content},
		&discordgo.WebhookEdit{Content: &content},
		&discordgo.WebhookEdit{Content: &content, Components: &rows, Attachments: &atts},
		&discordgo.WebhookEdit{Components: &empty, Embeds: &[]*discordgo.MessageEmbed{{Title: "results"}}},
		&discordgo.WebhookEdit{Components: &odd},
	}
	for di, data := range datas {
		want, err := discordgo.Marshal(data)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Request(data)
		if err != nil {
			t.Fatal(err)
		}
		if !sameJSON(t, got, want) {
			t.Errorf("request %d: %s\nwant %s", di, got, want)
		}
		// Appended after what a buffer holds, it is the same bytes.
		prefix := []byte("--framing\r\n")
		app, err := AppendRequest(prefix[:len(prefix):len(prefix)], data)
		if err != nil || string(app) != string(prefix)+string(got) {
			t.Errorf("request %d appended: %s (%v), want %s after the prefix", di, app, err, got)
		}
	}
	for ci, comps := range [][]discordgo.MessageComponent{rows, odd, empty, nil} {
		want, _ := discordgo.Marshal(comps)
		got, err := ComponentsJSON(comps)
		if err != nil || !sameJSON(t, got, want) {
			t.Errorf("components %d: %s (%v), want %s", ci, got, err, want)
		}
	}
}

// sameJSON reports whether two JSON texts say the same (their objects'
// keys in any order).
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return reflect.DeepEqual(x, y)
}
