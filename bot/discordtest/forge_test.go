package discordtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// normJSON renders v as canonical JSON for comparisons.
func normJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var x any
	if err := json.Unmarshal(b, &x); err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(x)
	return string(b)
}

func TestForgeCommandBypassesRegistry(t *testing.T) {
	h := newHarness(t, Options{})
	got := make(chan *discordgo.Interaction, 8)
	h.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		got <- i.Interaction
		if err := s.InteractionRespond(i.Interaction, reply("refused")); err != nil {
			t.Errorf("respond: %v", err)
		}
	})
	for _, data := range []map[string]any{
		// A string where the registered option is an integer.
		{"id": "1", "name": "qwixx", "type": 1, "options": []any{map[string]any{"name": "new", "type": 1,
			"options": []any{map[string]any{"name": "players", "type": 4, "value": "three"}}}}},
		// The required option missing.
		{"id": "1", "name": "qwixx", "type": 1, "options": []any{map[string]any{"name": "new", "type": 1, "options": []any{}}}},
		// An unknown subcommand, an unknown command.
		{"id": "1", "name": "qwixx", "type": 1, "options": []any{map[string]any{"name": "cheat", "type": 1}}},
		{"id": "2", "name": "chess", "type": 1},
	} {
		// Command refuses what a Discord client would never send.
		if sub, _ := data["options"].([]any); len(sub) > 0 {
			name := sub[0].(map[string]any)["name"].(string)
			if _, err := h.alice.Command(h.ch, data["name"].(string), name, map[string]any{"players": "three"}); err == nil {
				t.Errorf("Command accepted %v", data)
			}
		}
		it, err := h.alice.ForgeCommand(h.ch, data)
		if err != nil {
			t.Fatal(err)
		}
		i := recv(t, got)
		if i.ID != it.ID() || i.Type != discordgo.InteractionApplicationCommand || i.Token != it.Token() {
			t.Fatalf("bot got %s type %d, want forged %s type 2", i.ID, i.Type, it.ID())
		}
		if g, w := normJSON(t, it.Payload()["data"]), normJSON(t, data); g != w {
			t.Errorf("data sent %s, want exactly %s", g, w)
		}
		if i.Member == nil || i.Member.User.ID != h.alice.ID || i.User != nil || i.GuildID != h.srv.DefaultGuild() ||
			i.ChannelID != h.ch || i.Locale != "en-US" || i.GuildLocale == nil || *i.GuildLocale != "en-US" ||
			i.AppPermissions != DefaultBotPermissions || i.AppID != h.srv.ApplicationID() {
			t.Errorf("envelope member %v user %v guild %q channel %q locale %q guild_locale %v perms %d",
				i.Member, i.User, i.GuildID, i.ChannelID, i.Locale, i.GuildLocale, i.AppPermissions)
		}
		if err := it.Wait(ctx(t)); err != nil {
			t.Errorf("forged command: %v", err)
		}
	}
	if un := h.srv.Unanswered(); len(un) != 0 {
		t.Errorf("unanswered %v", un)
	}
	if _, err := h.alice.ForgeCommand(h.ch, map[string]any{"name": "x", "bad": make(chan int)}); err == nil {
		t.Error("data that is not JSON was accepted")
	}
	if _, err := h.alice.ForgeCommand("999", map[string]any{"name": "x"}); err == nil {
		t.Error("unknown channel accepted")
	}
	if _, err := h.alice.ForgeInteraction(h.ch, 1, nil, nil); err == nil {
		t.Error("PING forged by a user")
	}
	if st := h.srv.InteractionStats(); st.Sent != 4 || st.Answered != 4 {
		t.Errorf("stats %+v, want 4 sent and answered", st)
	}
}

func TestForgeInteractionTypes(t *testing.T) {
	h := newHarness(t, Options{})
	errs := make(chan error, 8)
	got := make(chan *discordgo.Interaction, 8)
	h.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		got <- i.Interaction
		switch i.Type {
		case discordgo.InteractionApplicationCommandAutocomplete:
			// A message reply is not a valid answer to autocomplete.
			errs <- s.InteractionRespond(i.Interaction, reply("nope"))
			errs <- s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionApplicationCommandAutocompleteResult,
				Data: &discordgo.InteractionResponseData{Choices: []*discordgo.ApplicationCommandOptionChoice{
					{Name: "cards", Value: "cards"}}}})
		case discordgo.InteractionApplicationCommand:
			errs <- s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionApplicationCommandAutocompleteResult,
				Data: &discordgo.InteractionResponseData{Choices: []*discordgo.ApplicationCommandOptionChoice{}}})
			errs <- s.InteractionRespond(i.Interaction, reply("ok"))
		default:
			errs <- s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: 7,
				Data: &discordgo.InteractionResponseData{Content: "updated by " + i.Type.String()}})
		}
	})

	ac, err := h.alice.ForgeInteraction(h.ch, InteractionApplicationCommandAutocomplete, map[string]any{
		"name": "qwixx", "type": 1, "options": []any{map[string]any{"name": "new", "type": 1, "options": []any{
			map[string]any{"name": "variant", "type": 3, "value": "ca", "focused": true}}}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	i := recv(t, got)
	if d := i.ApplicationCommandData(); i.Type != 4 || d.Options[0].Options[0].Value != "ca" || !d.Options[0].Options[0].Focused {
		t.Errorf("autocomplete %d %+v", i.Type, d)
	}
	if st, code := restErr(t, recv(t, errs)); st != 400 || code != 50035 {
		t.Errorf("message reply to autocomplete: %d %d, want 400 50035", st, code)
	}
	if err := recv(t, errs); err != nil {
		t.Fatalf("autocomplete result: %v", err)
	}
	if err := ac.Wait(ctx(t)); err != nil || ac.CallbackType() != 8 {
		t.Fatalf("autocomplete wait %v type %d", err, ac.CallbackType())
	}
	if ch := ac.AutocompleteChoices(); len(ch) != 1 || ch[0]["value"] != "cards" {
		t.Errorf("choices %v", ch)
	}
	if len(h.srv.Messages(h.ch)) != 0 {
		t.Error("autocomplete created a message")
	}

	// An autocomplete result is not an answer to a command.
	cmd, _ := h.alice.Command(h.ch, "qwixx", "hand", nil)
	recv(t, got)
	if st, _ := restErr(t, recv(t, errs)); st != 400 {
		t.Errorf("autocomplete result for a command: %d", st)
	}
	if err := recv(t, errs); err != nil || cmd.Wait(ctx(t)) != nil || cmd.CallbackType() != 4 {
		t.Errorf("command after refused result: %v type %d", err, cmd.CallbackType())
	}

	// A modal submit and a component from a stale snapshot of a message.
	m, err := h.sess.ChannelMessageSendComplex(h.ch, &discordgo.MessageSend{Content: "v1",
		Components: []discordgo.MessageComponent{row(button("a"))}})
	if err != nil {
		t.Fatal(err)
	}
	stale, _ := h.srv.Message(m.ID)
	if _, err := h.sess.ChannelMessageEdit(h.ch, m.ID, "v2"); err != nil {
		t.Fatal(err)
	}
	it, err := h.bob.ForgeInteraction(h.ch, InteractionMessageComponent, map[string]any{"custom_id": "a", "component_type": 2}, stale)
	if err != nil {
		t.Fatal(err)
	}
	i = recv(t, got)
	if i.Message == nil || i.Message.ID != m.ID || i.Message.Content != "v1" || i.MessageComponentData().CustomID != "a" {
		t.Errorf("forged component message %+v", i.Message)
	}
	if err := recv(t, errs); err != nil {
		t.Fatal(err)
	}
	if r, err := it.WaitResponse(ctx(t)); err != nil || r.ID != m.ID || r.Content != "updated by MessageComponent" {
		t.Errorf("update from stale snapshot: %+v %v", r, err)
	}
	cur, _ := h.srv.Message(m.ID)
	ms, err := h.bob.ForgeInteraction(h.ch, InteractionModalSubmit, map[string]any{"custom_id": "form",
		"components": []any{map[string]any{"type": 1, "components": []any{map[string]any{"type": 4, "custom_id": "f", "value": "x"}}}}}, cur)
	if err != nil {
		t.Fatal(err)
	}
	i = recv(t, got)
	if d := i.ModalSubmitData(); i.Type != 5 || d.CustomID != "form" || i.Member.User.ID != h.bob.ID || i.Locale != "de" {
		t.Errorf("modal submit %+v from %v locale %q", d, i.Member, i.Locale)
	}
	if err := recv(t, errs); err != nil || ms.Wait(ctx(t)) != nil || ms.CallbackType() != 7 {
		t.Errorf("modal submit answered by update: %v type %d", err, ms.CallbackType())
	}
}

func TestForgedInteractionsElsewhere(t *testing.T) {
	h := newHarness(t, Options{})
	got := make(chan *discordgo.Interaction, 8)
	h.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		got <- i.Interaction
		_ = s.InteractionRespond(i.Interaction, reply("ok"))
	})
	g2 := h.srv.AddGuild("Second", "fr")
	c2 := h.srv.AddChannel(g2, "table")
	carol := h.srv.AddUser("carol", "it") // joins every guild, the new one too
	for _, u := range []*User{h.alice, carol} {
		it, err := u.ForgeCommand(c2, map[string]any{"name": "help", "type": 1})
		if err != nil {
			t.Fatal(err)
		}
		i := recv(t, got)
		if i.GuildID != g2 || i.ChannelID != c2 || i.GuildLocale == nil || *i.GuildLocale != "fr" ||
			i.Member == nil || i.Member.User.ID != u.ID || i.Member.Permissions != DefaultMemberPermissions {
			t.Errorf("%s in the second guild: guild %q channel %q locale %v member %+v", u.Name, i.GuildID, i.ChannelID, i.GuildLocale, i.Member)
		}
		if m, err := it.WaitResponse(ctx(t)); err != nil || m.ChannelID != c2 || m.GuildID != g2 {
			t.Errorf("reply %+v %v, want it in the second guild", m, err)
		}
	}

	dm := h.alice.DMChannel()
	if dm != h.srv.DMChannel(h.alice.ID) {
		t.Error("User.DMChannel and Server.DMChannel differ")
	}
	for _, forge := range []func() (*Interaction, error){
		func() (*Interaction, error) {
			return h.alice.ForgeCommand(dm, map[string]any{"name": "qwixx", "type": 1})
		},
		func() (*Interaction, error) { return h.alice.ForgeComponent(dm, "42", "join", 2, nil) },
		func() (*Interaction, error) {
			return h.alice.ForgeInteraction(dm, InteractionModalSubmit, map[string]any{"custom_id": "m", "components": []any{}}, nil)
		},
	} {
		it, err := forge()
		if err != nil {
			t.Fatal(err)
		}
		i := recv(t, got)
		if i.GuildID != "" || i.Member != nil || i.User == nil || i.User.ID != h.alice.ID || i.ChannelID != dm ||
			i.GuildLocale != nil || i.Context != discordgo.InteractionContextBotDM {
			t.Errorf("DM interaction type %d: guild %q member %v user %v channel %q", i.Type, i.GuildID, i.Member, i.User, i.ChannelID)
		}
		if m, err := it.WaitResponse(ctx(t)); err != nil || m.ChannelID != dm || !h.alice.CanSee(m.ID) || h.bob.CanSee(m.ID) {
			t.Errorf("DM reply %+v %v", m, err)
		}
	}
}

func TestOmitInteractionAttachments(t *testing.T) {
	h := newHarness(t, Options{})
	got := make(chan *discordgo.Interaction, 4)
	h.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		got <- i.Interaction
		_ = s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: 7,
			Data: &discordgo.InteractionResponseData{Content: "clicked"}})
	})
	m, err := h.sess.ChannelMessageSendComplex(h.ch, &discordgo.MessageSend{Content: "sheet",
		Files:      []*discordgo.File{{Name: "sheet.png", ContentType: "image/png", Reader: bytes.NewReader([]byte("png"))}},
		Components: []discordgo.MessageComponent{row(button("b"))}})
	if err != nil {
		t.Fatal(err)
	}
	msg := func(it *Interaction) map[string]any { return it.Payload()["message"].(map[string]any) }
	it, _ := h.alice.Click(&Message{ID: m.ID}, "b")
	if i := recv(t, got); len(i.Message.Attachments) != 1 || msg(it)["attachments"] == nil {
		t.Errorf("by default the message carries its attachments: %v", i.Message.Attachments)
	}
	h.srv.SetOmitInteractionAttachments(true)
	for _, send := range []func() (*Interaction, error){
		func() (*Interaction, error) { return h.alice.Click(&Message{ID: m.ID}, "b") },
		func() (*Interaction, error) { return h.alice.ForgeClick(h.ch, m.ID, "b") },
	} {
		it, err := send()
		if err != nil {
			t.Fatal(err)
		}
		i := recv(t, got)
		if _, has := msg(it)["attachments"]; has || i.Message == nil || i.Message.Attachments != nil || i.Message.ID != m.ID {
			t.Errorf("attachments not omitted: %v", msg(it))
		}
		if err := it.Wait(ctx(t)); err != nil {
			t.Fatal(err)
		}
	}
	// Omitted from the interaction only: the message keeps its file.
	if cur, _ := h.srv.Message(m.ID); len(cur.Attachments) != 1 || cur.Content != "clicked" {
		t.Errorf("message after updates: %+v", cur)
	}

	srv := NewTestServer(t, Options{OmitInteractionAttachments: true})
	u := srv.AddUser("dora", "")
	fi, err := u.ForgeInteraction(srv.DefaultChannel(), InteractionMessageComponent, map[string]any{"custom_id": "x", "component_type": 2},
		&Message{ID: "1", Content: "old", Attachments: []Attachment{{ID: "2", Filename: "a.png"}}})
	if err != nil {
		t.Fatal(err)
	}
	if mj := fi.Payload()["message"].(map[string]any); mj["attachments"] != nil || mj["content"] != "old" {
		t.Errorf("Options.OmitInteractionAttachments: message %v", mj)
	}
}

func TestInteractionStatsAndUnanswered(t *testing.T) {
	h := newHarness(t, Options{InteractionDeadline: 300 * time.Millisecond})
	errs := make(chan error, 8)
	h.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		switch name := interactionNameOf(i); name {
		case "twice":
			errs <- s.InteractionRespond(i.Interaction, reply("one"))
			errs <- s.InteractionRespond(i.Interaction, reply("two"))
		case "late":
			// Answer only once the fake has failed the interaction.
			_ = h.srv.Wait(ctx(t), func() bool {
				return slices.ContainsFunc(h.srv.Unanswered(), func(u UnansweredInteraction) bool { return u.ID == i.ID && u.Failed })
			})
			errs <- s.InteractionRespond(i.Interaction, reply("late"))
		}
	})
	twice, _ := h.alice.ForgeCommand(h.ch, map[string]any{"name": "twice"})
	if err := recv(t, errs); err != nil {
		t.Fatal(err)
	}
	if st, code := restErr(t, recv(t, errs)); st != 400 || code != 40060 {
		t.Errorf("second callback %d %d, want 400 40060", st, code)
	}
	silent, _ := h.alice.Command(h.ch, "qwixx", "new", map[string]any{"players": 2})
	click, _ := h.bob.ForgeClick(h.ch, "77", "join")
	late, _ := h.bob.ForgeCommand(h.ch, map[string]any{"name": "late"})
	if st, code := restErr(t, recv(t, errs)); st != 404 || code != 10062 {
		t.Errorf("late callback %d %d, want 404 10062", st, code)
	}
	for _, it := range []*Interaction{silent, click, late} {
		if err := it.Wait(ctx(t)); !errors.Is(err, ErrInteractionFailed) {
			t.Errorf("%s: %v, want failed", it.ID(), err)
		}
	}
	if err := twice.Wait(ctx(t)); err != nil {
		t.Error(err)
	}
	want := InteractionStats{Sent: 4, Answered: 1, Failed: 3, Duplicate: 1, Late: 1}
	if st := h.srv.InteractionStats(); st != want {
		t.Errorf("stats %+v, want %+v", st, want)
	}
	un := h.srv.Unanswered()
	var names []string
	for _, u := range un {
		names = append(names, u.Name)
		if !u.Failed || u.UserID == "" || u.ChannelID != h.ch {
			t.Errorf("unanswered %+v", u)
		}
	}
	if !slices.Equal(names, []string{"qwixx new", "join", "late"}) || un[1].ID != click.ID() || un[1].Type != 3 {
		t.Errorf("unanswered %v, want qwixx new, join, late in order", un)
	}
}

// interactionNameOf is the command name or custom_id of i.
func interactionNameOf(i *discordgo.InteractionCreate) string {
	if i.Type == discordgo.InteractionMessageComponent {
		return i.MessageComponentData().CustomID
	}
	return i.ApplicationCommandData().Name
}
