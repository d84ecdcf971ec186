package discordtest

import (
	"bytes"
	"os"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

func TestSmoke(t *testing.T) {
	srv := NewTestServer(t, Options{Transcript: os.Stderr})
	sess := Connect(t, srv, func(s *discordgo.Session) {
		s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
			err := s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{
				Content: "hi", Files: []*discordgo.File{{Name: "a.png", ContentType: "image/png", Reader: bytes.NewReader([]byte("PNG"))}},
				Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{Label: "x", CustomID: "x"}}}},
			}})
			if err != nil {
				t.Error(err)
			}
		})
	})
	_, err := sess.ApplicationCommandBulkOverwrite(srv.ApplicationID(), srv.DefaultGuild(), []*discordgo.ApplicationCommand{{Name: "qwixx", Description: "play", Options: []*discordgo.ApplicationCommandOption{{Type: 1, Name: "new", Description: "new game"}}}})
	if err != nil {
		t.Fatal(err)
	}
	alice := srv.AddUser("alice", "de")
	it, err := alice.Command(srv.DefaultChannel(), "qwixx", "new", nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := it.WaitResponse(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", m)
	_ = time.Second
	t.Log(srv.SchemaViolations(), srv.SchemaCompileTime())
}
