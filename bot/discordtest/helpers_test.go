package discordtest

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/logbuf"
)

type handlerFunc = func(*discordgo.Session, *discordgo.InteractionCreate)

// harness is a fake Discord with a connected discordgo bot and two users.
type harness struct {
	srv          *Server
	sess         *discordgo.Session
	alice, bob   *User
	ch           string
	handler      atomic.Pointer[handlerFunc]
	transcript   *logbuf.Buffer
	allowSchemaV bool
}

func floatp(v float64) *float64 { return &v }
func strp(s string) *string     { return &s }
func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	t.Cleanup(cancel)
	return c
}

var testCommands = []*discordgo.ApplicationCommand{{
	Name: "qwixx", Description: "Play Qwixx",
	NameLocalizations: &map[discordgo.Locale]string{discordgo.German: "qwixx"},
	Options: []*discordgo.ApplicationCommandOption{
		{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "new", Description: "Start a table", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionInteger, Name: "players", Description: "Seats", Required: true, MinValue: floatp(2), MaxValue: 5},
			{Type: discordgo.ApplicationCommandOptionString, Name: "variant", Description: "Dice or cards", Choices: []*discordgo.ApplicationCommandOptionChoice{
				{Name: "dice", Value: "dice"}, {Name: "cards", Value: "cards"}}},
			{Type: discordgo.ApplicationCommandOptionUser, Name: "invite", Description: "Invite someone"},
		}},
		{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "hand", Description: "Show my hand"},
	},
}}

func newHarness(t *testing.T, opts Options) *harness {
	t.Helper()
	t.Parallel()
	h := &harness{transcript: &logbuf.Buffer{}}
	if opts.Transcript == nil {
		opts.Transcript = h.transcript
	}
	h.srv = NewTestServer(t, opts)
	h.ch = h.srv.DefaultChannel()
	h.sess = Connect(t, h.srv, func(s *discordgo.Session) {
		s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
			if f := h.handler.Load(); f != nil {
				(*f)(s, i)
			}
		})
	})
	if _, err := h.sess.ApplicationCommandBulkOverwrite(h.srv.ApplicationID(), h.srv.DefaultGuild(), testCommands); err != nil {
		t.Fatalf("registering commands: %v", err)
	}
	help := []*discordgo.ApplicationCommand{{Name: "help", Description: "How to play"}}
	if _, err := h.sess.ApplicationCommandBulkOverwrite(h.srv.ApplicationID(), "", help); err != nil {
		t.Fatalf("registering global commands: %v", err)
	}
	h.alice = h.srv.AddUser("alice", "en-US")
	h.bob = h.srv.AddUser("bob", "de")
	t.Cleanup(func() {
		if v := h.srv.SchemaViolations(); len(v) > 0 && !h.allowSchemaV {
			t.Errorf("discordgo's own requests broke Discord's schema: %+v", v)
		}
		if t.Failed() {
			t.Logf("transcript:\n%s", h.transcript)
		}
	})
	return h
}

func (h *harness) handle(f handlerFunc) { h.handler.Store(&f) }

// restErr extracts the HTTP status and Discord error code of err.
func restErr(t *testing.T, err error) (status, code int) {
	t.Helper()
	var re *discordgo.RESTError
	if !errors.As(err, &re) {
		t.Fatalf("want a REST error, got %v", err)
	}
	if re.Message != nil {
		code = re.Message.Code
	}
	return re.Response.StatusCode, code
}

func reply(content string) *discordgo.InteractionResponse {
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: content}}
}

func button(id string) discordgo.Button { return discordgo.Button{Label: id, CustomID: id} }

func row(cs ...discordgo.MessageComponent) discordgo.ActionsRow {
	return discordgo.ActionsRow{Components: cs}
}

// recv waits for one value from ch.
func recv[T any](t *testing.T, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(5 * time.Second):
		t.Fatal("timed out waiting for the bot")
	}
	var zero T
	return zero
}
