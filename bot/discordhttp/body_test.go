package discordhttp

import (
	"bytes"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/qwixxbot/qwixxbot/bot/discordjson"
)

// TestRequestBodyAsDiscordgo: the bodies the interactions' client sends
// say what discordgo's would (its Marshal and MultipartBodyWithJSON; the
// JSON itself is checked in discordjson), for answers, follow-ups and
// edits, with files read from where they lie, from their current position
// (a reader partly read, a plain reader, a section of a file).
func TestRequestBodyAsDiscordgo(t *testing.T) {
	rows := []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: "Pass", CustomID: "t1.pass"}}}}
	content := "turn 3"
	datas := []any{
		&discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: &discordgo.InteractionResponseData{
			Content: content, Components: rows, Flags: discordgo.MessageFlagsEphemeral}},
		&discordgo.WebhookParams{Content: content, Components: rows},
		&discordgo.WebhookEdit{Content: &content, Components: &rows},
	}
	png := bytes.Repeat([]byte("\x89PNG pixels "), 500)
	filesets := []func() []*discordgo.File{
		func() []*discordgo.File { return nil },
		func() []*discordgo.File {
			r := bytes.NewReader(png)
			r.Read(make([]byte, 5)) // what is left is sent, as discordgo sends it
			return []*discordgo.File{
				{Name: "table.png", ContentType: "image/png", Reader: r},
				{Name: `odd "name".txt`, Reader: strings.NewReader("plain reader")},
				{Name: "part.png", ContentType: "image/png", Reader: io.NewSectionReader(bytes.NewReader(png), 100, 300)},
			}
		},
	}
	for di, data := range datas {
		for fi, files := range filesets {
			wantType, wantBody, err := discordgo.MultipartBodyWithJSON(data, files())
			if err != nil {
				t.Fatal(err)
			}
			b, err := requestBody(data, files())
			if err != nil {
				t.Fatal(err)
			}
			gotBody := b.b
			if len(gotBody) != cap(gotBody) {
				t.Errorf("request %d files %d: a body of %d bytes in a buffer of %d", di, fi, len(gotBody), cap(gotBody))
			}
			if fi == 0 {
				if ours, _ := discordjson.Request(data); b.contentType != "application/json" || !bytes.Equal(gotBody, ours) {
					t.Errorf("request %d without files: %s %s", di, b.contentType, gotBody)
				}
				continue
			}
			if again, _ := io.ReadAll(b.reader()); !bytes.Equal(again, gotBody) {
				t.Errorf("request %d files %d: read again, the body differs", di, fi)
			}
			ours, _ := discordjson.Request(data)
			gp := multipartParts(t, fakeRequest{contentType: b.contentType, body: gotBody})
			wp := multipartParts(t, fakeRequest{contentType: wantType, body: wantBody})
			if gp["payload_json"] != string(ours) || wp["payload_json"] == "" {
				t.Errorf("request %d files %d: payload %s, want %s", di, fi, gp["payload_json"], ours)
			}
			delete(gp, "payload_json")
			delete(wp, "payload_json")
			if !reflect.DeepEqual(gp, wp) {
				t.Errorf("request %d files %d: parts %q, want %q", di, fi, gp, wp)
			}
		}
	}
}
