package discordtest

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/clock"
)

func TestSlashCommandWithOptionsAndFile(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, Options{AttachmentDir: dir, AttachmentSizeLimit: 64 << 10})
	png := []byte("\x89PNG fake image bytes")
	got := make(chan *discordgo.Interaction, 1)
	h.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		got <- i.Interaction
		err := s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{
			Content: "table ready",
			Files:   []*discordgo.File{{Name: "sheet.png", ContentType: "image/png", Reader: bytes.NewReader(png)}},
		}})
		if err != nil {
			t.Errorf("respond: %v", err)
		}
	})
	it, err := h.bob.Command(h.ch, "qwixx", "new", map[string]any{"players": 3, "variant": "cards", "invite": h.alice})
	if err != nil {
		t.Fatal(err)
	}
	i := recv(t, got)
	data := i.ApplicationCommandData()
	if data.Name != "qwixx" || len(data.Options) != 1 || data.Options[0].Name != "new" {
		t.Fatalf("command data %+v, want qwixx new", data)
	}
	opts := data.Options[0].Options
	if len(opts) != 3 || opts[0].IntValue() != 3 || opts[1].StringValue() != "cards" || opts[2].UserValue(nil).ID != h.alice.ID {
		t.Errorf("options %+v, want players=3 variant=cards invite=alice", opts)
	}
	if u := data.Resolved.Users[h.alice.ID]; u == nil || u.Username != "alice" {
		t.Errorf("resolved users %+v, want alice", data.Resolved.Users)
	}
	if i.Member == nil || i.Member.User.ID != h.bob.ID || i.Locale != discordgo.German || i.GuildLocale == nil || *i.GuildLocale != "en-US" {
		t.Errorf("member %+v locale %q guild locale %v, want bob, de, en-US", i.Member, i.Locale, i.GuildLocale)
	}
	if i.AppPermissions != DefaultBotPermissions {
		t.Errorf("app_permissions %d, want %d", i.AppPermissions, DefaultBotPermissions)
	}
	if lim := it.Payload()["attachment_size_limit"]; lim != float64(64<<10) {
		t.Errorf("attachment_size_limit %v, want %d", lim, 64<<10)
	}

	m, err := it.WaitResponse(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if it.CallbackType() != 4 || m.Content != "table ready" || m.Ephemeral() || len(m.Attachments) != 1 {
		t.Fatalf("response type %d %+v, want a public message with one file", it.CallbackType(), m)
	}
	a := m.Attachments[0]
	if a.Filename != "sheet.png" || a.ContentType != "image/png" || !bytes.Equal(a.Data, png) {
		t.Errorf("attachment %s %s %q, want sheet.png image/png with the sent bytes", a.Filename, a.ContentType, a.Data)
	}
	resp, err := h.srv.Client().Get(a.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Equal(body, png) {
		t.Errorf("GET %s = %q, want the file", a.URL, body)
	}
	if saved, err := os.ReadFile(filepath.Join(dir, m.ID+"-sheet.png")); err != nil || !bytes.Equal(saved, png) {
		t.Errorf("attachment dir copy: %v", err)
	}
	if ms := h.alice.Messages(h.ch); len(ms) != 1 || ms[0].ID != m.ID {
		t.Errorf("alice sees %d messages, want the public reply", len(ms))
	}
	tr := h.transcript.String()
	for _, want := range []string{"bob", "/qwixx new", "sheet.png", "answers interaction"} {
		if !strings.Contains(tr, want) {
			t.Errorf("transcript lacks %q:\n%s", want, tr)
		}
	}

	// What a Discord client would refuse never reaches the bot.
	for _, bad := range []struct {
		name, sub string
		opts      map[string]any
	}{
		{"qwixx", "new", map[string]any{"players": 9}},
		{"qwixx", "new", map[string]any{"variant": "dice"}},
		{"qwixx", "new", map[string]any{"players": 3, "variant": "poker"}},
		{"qwixx", "", nil},
		{"chess", "", nil},
	} {
		if _, err := h.alice.Command(h.ch, bad.name, bad.sub, bad.opts); err == nil {
			t.Errorf("/%s %s %v was accepted", bad.name, bad.sub, bad.opts)
		}
	}
}

func TestEphemeralVisibility(t *testing.T) {
	h := newHarness(t, Options{})
	clicked := make(chan *discordgo.Interaction, 1)
	others := make(chan *discordgo.Interaction, 1)
	h.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		switch {
		case i.Type == discordgo.InteractionMessageComponent:
			clicked <- i.Interaction
			_ = s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: 7,
				Data: &discordgo.InteractionResponseData{Content: "you peeked"}})
		case i.Member.User.ID == h.alice.ID:
			_ = s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{
				Content: "your hand", Flags: discordgo.MessageFlagsEphemeral,
				Components: []discordgo.MessageComponent{row(button("peek"))}}})
		default:
			_ = s.InteractionRespond(i.Interaction, reply("public"))
			others <- i.Interaction
		}
	})
	aw, pw := h.alice.Watch(h.ch), h.srv.Watch(h.ch)
	it, err := h.alice.Command(h.ch, "qwixx", "hand", nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := it.WaitResponse(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if !it.Ephemeral() || m.VisibleTo != h.alice.ID {
		t.Fatalf("response %+v, want ephemeral for alice", m)
	}
	if ev, err := aw.NextTimeout(time.Second); err != nil || ev.Kind != Created || ev.Message.ID != m.ID {
		t.Errorf("alice's watcher: %+v %v, want the ephemeral message", ev, err)
	}
	if !h.alice.CanSee(m.ID) || h.bob.CanSee(m.ID) {
		t.Error("ephemeral message: alice must see it, bob must not")
	}
	if slices.ContainsFunc(h.bob.Messages(h.ch), func(x *Message) bool { return x.ID == m.ID }) || len(h.srv.Messages(h.ch)) != 0 {
		t.Error("ephemeral message listed for bob or in the public channel")
	}
	if _, err := h.bob.Click(m, "peek"); err == nil {
		t.Error("bob clicked a button on alice's ephemeral message")
	}
	if _, err := h.sess.ChannelMessage(h.ch, m.ID); err == nil {
		t.Error("the bot fetched an ephemeral message through the channel")
	} else if st, code := restErr(t, err); st != 404 || code != 10008 {
		t.Errorf("channel GET of ephemeral: %d %d, want 404 10008", st, code)
	}
	if list, err := h.sess.ChannelMessages(h.ch, 50, "", "", ""); err != nil || len(list) != 0 {
		t.Errorf("channel list = %d messages, %v; want none", len(list), err)
	}

	// Another interaction's token cannot touch it.
	it2, _ := h.bob.Command(h.ch, "qwixx", "hand", nil)
	bobI := recv(t, others)
	if err := it2.Wait(ctx(t)); err != nil {
		t.Fatal(err)
	}
	if _, err := h.sess.FollowupMessageEdit(bobI, m.ID, &discordgo.WebhookEdit{Content: strp("hijack")}); err == nil {
		t.Error("edited alice's ephemeral message with bob's token")
	} else if st, code := restErr(t, err); st != 404 || code != 10008 {
		t.Errorf("foreign token edit: %d %d, want 404 10008", st, code)
	}

	// A click on it carries the message with flags 64 and may update it.
	ci, err := h.alice.Click(m, "peek")
	if err != nil {
		t.Fatal(err)
	}
	i := recv(t, clicked)
	if i.Message == nil || i.Message.ID != m.ID || i.Message.Flags&discordgo.MessageFlagsEphemeral == 0 {
		t.Errorf("component interaction message %+v, want the ephemeral message with flags 64", i.Message)
	}
	if err := ci.Wait(ctx(t)); err != nil {
		t.Fatal(err)
	}
	if up, _ := h.srv.Message(m.ID); up.Content != "you peeked" || !up.Ephemeral() || len(up.Components) != 1 {
		t.Errorf("after update %+v, want ephemeral 'you peeked' with its button kept", up)
	}
	if ev, err := pw.NextTimeout(time.Second); err != nil || ev.Message.Content != "public" {
		t.Errorf("public watcher's first event %+v %v, want bob's public reply (no ephemeral)", ev, err)
	}
}

func TestUpdateMessageComponents(t *testing.T) {
	h := newHarness(t, Options{})
	h.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		data := &discordgo.InteractionResponseData{Content: "clicked " + i.MessageComponentData().CustomID}
		if i.MessageComponentData().CustomID == "b" {
			data.Components = []discordgo.MessageComponent{} // [] removes, nil keeps
		}
		_ = s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: 7, Data: data})
	})
	m0, err := h.sess.ChannelMessageSendComplex(h.ch, &discordgo.MessageSend{Content: "board",
		Components: []discordgo.MessageComponent{row(button("a"), button("b")),
			row(discordgo.Button{Label: "off", CustomID: "off", Disabled: true})}})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := h.srv.Message(m0.ID)
	if _, err := h.alice.Click(m, "off"); err == nil {
		t.Error("clicked a disabled button")
	}
	it, err := h.alice.Click(m, "a")
	if err != nil {
		t.Fatal(err)
	}
	if err := it.Wait(ctx(t)); err != nil {
		t.Fatal(err)
	}
	m, _ = h.srv.Message(m0.ID)
	if m.Content != "clicked a" || len(m.Components) != 2 || m.Version != 1 {
		t.Errorf("after type 7 with nil components: %q, %d rows, version %d; want components kept", m.Content, len(m.Components), m.Version)
	}
	it, _ = h.alice.Click(m, "b")
	if err := it.Wait(ctx(t)); err != nil {
		t.Fatal(err)
	}
	m, _ = h.srv.Message(m0.ID)
	if m.Content != "clicked b" || len(m.Components) != 0 {
		t.Errorf("after type 7 with []: %q with %d rows, want no components", m.Content, len(m.Components))
	}
	if _, err := h.alice.Click(m, "a"); err == nil {
		t.Error("clicked a button that was removed")
	}
	// A forged click still reaches the bot.
	fi, err := h.alice.ForgeClick(h.ch, m.ID, "a")
	if err != nil {
		t.Fatal(err)
	}
	if err := fi.Wait(ctx(t)); err != nil || fi.CallbackType() != 7 {
		t.Errorf("forged click: %v, type %d", err, fi.CallbackType())
	}
}

func TestSelectMenu(t *testing.T) {
	h := newHarness(t, Options{})
	values := make(chan []string, 1)
	h.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		values <- i.MessageComponentData().Values
		_ = s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: 6})
	})
	m0, err := h.sess.ChannelMessageSendComplex(h.ch, &discordgo.MessageSend{Content: "pick",
		Components: []discordgo.MessageComponent{row(discordgo.SelectMenu{CustomID: "colour", MaxValues: 2,
			Options: []discordgo.SelectMenuOption{{Label: "Red", Value: "r"}, {Label: "Blue", Value: "b"}, {Label: "Green", Value: "g"}}})}})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := h.srv.Message(m0.ID)
	for _, bad := range [][]string{{"x"}, {"r", "b", "g"}, {}} {
		if _, err := h.alice.Select(m, "colour", bad...); err == nil {
			t.Errorf("select %v accepted", bad)
		}
	}
	it, err := h.alice.Select(m, "colour", "r", "g")
	if err != nil {
		t.Fatal(err)
	}
	if v := recv(t, values); !slices.Equal(v, []string{"r", "g"}) {
		t.Errorf("bot got values %v", v)
	}
	if err := it.Wait(ctx(t)); err != nil || it.CallbackType() != 6 {
		t.Errorf("select: %v type %d, want deferred update", err, it.CallbackType())
	}
	// After type 6, @original is the message with the menu.
	if m2, err := h.sess.InteractionResponseEdit(&discordgo.Interaction{AppID: h.srv.ApplicationID(), Token: it.Token()},
		&discordgo.WebhookEdit{Content: strp("picked")}); err != nil || m2.ID != m.ID {
		t.Fatalf("edit @original after type 6: %v", err)
	}
	if m, _ = h.srv.Message(m0.ID); m.Content != "picked" {
		t.Errorf("content %q, want picked", m.Content)
	}
}

func TestCallbackRules(t *testing.T) {
	h := newHarness(t, Options{})
	errs := make(chan error, 3)
	h.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		errs <- s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: 7, Data: &discordgo.InteractionResponseData{Content: "x"}})
		errs <- s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: 5, Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral}})
		errs <- s.InteractionRespond(i.Interaction, reply("again"))
	})
	it, _ := h.alice.Command(h.ch, "qwixx", "hand", nil)
	if st, code := restErr(t, recv(t, errs)); st != 400 || code != 50035 {
		t.Errorf("type 7 for a slash command: %d %d, want 400 50035", st, code)
	}
	if err := recv(t, errs); err != nil {
		t.Errorf("deferred response: %v", err)
	}
	if st, code := restErr(t, recv(t, errs)); st != 400 || code != 40060 {
		t.Errorf("second callback: %d %d, want 400 40060", st, code)
	}
	m, _ := it.Response()
	if !m.Loading() || !m.Ephemeral() {
		t.Errorf("deferred message %+v, want loading and ephemeral", m)
	}
	inter := &discordgo.Interaction{AppID: h.srv.ApplicationID(), Token: it.Token()}
	// Discord: the first follow-up "directly after" a deferred message
	// (type 5) edits the loading message instead of making one.
	first, err := h.sess.FollowupMessageCreate(inter, true, &discordgo.WebhookParams{Content: "first"})
	if err != nil {
		t.Fatal(err)
	}
	if first.ID != m.ID || len(it.Followups()) != 0 {
		t.Errorf("the first follow-up after a deferred answer made message %s (follow-ups %d), want the loading message %s edited", first.ID, len(it.Followups()), m.ID)
	}
	if m, err := it.WaitResponse(ctx(t)); err != nil || m.Content != "first" || m.Loading() || !m.Ephemeral() {
		t.Errorf("WaitResponse = %+v, %v; want the loading message filled in, still ephemeral", m, err)
	}
	f, err := h.sess.FollowupMessageCreate(inter, true, &discordgo.WebhookParams{Content: "psst", Flags: discordgo.MessageFlagsEphemeral})
	if err != nil {
		t.Fatal(err)
	}
	if fs := it.Followups(); len(fs) != 1 || fs[0].ID != f.ID || !fs[0].Ephemeral() || h.bob.CanSee(f.ID) {
		t.Errorf("follow-ups %+v, want one ephemeral for alice", fs)
	}
	if m, err := h.sess.InteractionResponseEdit(inter, &discordgo.WebhookEdit{Content: strp("done")}); err != nil || m.Content != "done" {
		t.Errorf("edit of the original: %+v, %v", m, err)
	}
	if _, err := h.sess.InteractionResponseEdit(inter, &discordgo.WebhookEdit{Content: strp(""), Components: &[]discordgo.MessageComponent{}}); err == nil {
		t.Error("edit leaving an empty message succeeded")
	} else if st, code := restErr(t, err); st != 400 || code != 50006 {
		t.Errorf("empty message: %d %d, want 400 50006", st, code)
	}
}

func TestLateCallbackFails(t *testing.T) {
	h := newHarness(t, Options{InteractionDeadline: 200 * time.Millisecond})
	errs, failed := make(chan error, 1), make(chan struct{})
	h.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		<-failed // the answer comes once the deadline has passed
		errs <- s.InteractionRespond(i.Interaction, reply("too late"))
	})
	it, _ := h.alice.Command(h.ch, "qwixx", "hand", nil)
	err := it.Wait(ctx(t))
	close(failed)
	if !errors.Is(err, ErrInteractionFailed) || !it.Failed() {
		t.Errorf("Wait = %v, Failed %v; want ErrInteractionFailed", err, it.Failed())
	}
	if st, code := restErr(t, recv(t, errs)); st != 404 || code != 10062 {
		t.Errorf("late callback: %d %d, want 404 10062", st, code)
	}
	if len(h.srv.Messages(h.ch)) != 0 || it.CallbackType() != 0 {
		t.Error("a late callback created a message")
	}
	if !strings.Contains(h.transcript.String(), "This interaction failed") {
		t.Error("transcript does not show the failure")
	}
}

func TestTokenExpiry(t *testing.T) {
	clock := clock.NewFake(time.Time{})
	h := newHarness(t, Options{Clock: clock})
	got := make(chan *discordgo.Interaction, 1)
	h.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		_ = s.InteractionRespond(i.Interaction, reply("started"))
		got <- i.Interaction
	})
	it, _ := h.alice.Command(h.ch, "qwixx", "hand", nil)
	inter := recv(t, got)
	if err := it.Wait(ctx(t)); err != nil {
		t.Fatal(err)
	}
	clock.Advance(14 * time.Minute)
	if _, err := h.sess.InteractionResponseEdit(inter, &discordgo.WebhookEdit{Content: strp("14 min")}); err != nil {
		t.Fatalf("edit at 14 min: %v", err)
	}
	clock.Advance(2 * time.Minute)
	_, err := h.sess.InteractionResponseEdit(inter, &discordgo.WebhookEdit{Content: strp("16 min")})
	if st, code := restErr(t, err); st != 401 || code != 50027 {
		t.Errorf("edit at 16 min: %d %d, want 401 50027", st, code)
	}
	uses := h.srv.TokenUses()
	if len(uses) != 3 || uses[1].Age != 14*time.Minute || uses[1].Rejected || !uses[2].Rejected || uses[2].Age != 16*time.Minute {
		t.Errorf("token uses %+v, want callback, 14 min ok, 16 min rejected", uses)
	}
	if h.srv.MaxTokenAge() != 16*time.Minute {
		t.Errorf("MaxTokenAge %v", h.srv.MaxTokenAge())
	}
	// The bot's own channel message stays editable without the token.
	m, _ := it.Response()
	if _, err := h.sess.ChannelMessageEdit(h.ch, m.ID, "edited later"); err != nil {
		t.Errorf("channel edit after token expiry: %v", err)
	}
	if m, _ := h.srv.Message(m.ID); m.Content != "edited later" || m.Version != 2 {
		t.Errorf("message %q version %d", m.Content, m.Version)
	}
}

func TestDirectMessages(t *testing.T) {
	h := newHarness(t, Options{})
	got := make(chan *discordgo.Interaction, 1)
	h.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		got <- i.Interaction
		_ = s.InteractionRespond(i.Interaction, reply("I only play in servers"))
	})
	dm := h.srv.DMChannel(h.alice.ID)
	if _, err := h.alice.Command(dm, "qwixx", "hand", nil); err == nil {
		t.Error("a guild command ran in a DM")
	}
	if _, err := h.bob.Command(dm, "help", "", nil); err == nil {
		t.Error("bob used alice's DM channel")
	}
	it, err := h.alice.Command(dm, "help", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	i := recv(t, got)
	if i.GuildID != "" || i.Member != nil || i.User == nil || i.User.ID != h.alice.ID || i.Context != discordgo.InteractionContextBotDM {
		t.Errorf("DM interaction guild %q member %v user %v context %d", i.GuildID, i.Member, i.User, i.Context)
	}
	if m, err := it.WaitResponse(ctx(t)); err != nil || m.ChannelID != dm || !h.alice.CanSee(m.ID) || h.bob.CanSee(m.ID) {
		t.Errorf("DM reply %+v %v", m, err)
	}
}

// A follow-up is edited through the token of the interaction that made it
// (Discord's "Edit Followup Message": a follow-up "for an Interaction");
// another interaction's token, even in the same channel, gets Unknown
// Message, and so does a channel message nobody clicked.
func TestFollowupEditedOnlyByItsInteraction(t *testing.T) {
	h := newHarness(t, Options{})
	answered := make(chan *discordgo.Interaction, 2)
	h.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		if err := s.InteractionRespond(i.Interaction, reply("ok")); err != nil {
			t.Error(err)
		}
		answered <- i.Interaction
	})
	h.alice.Command(h.ch, "qwixx", "hand", nil)
	ai := recv(t, answered)
	h.bob.Command(h.ch, "qwixx", "hand", nil)
	bi := recv(t, answered)
	f, err := h.sess.FollowupMessageCreate(ai, true, &discordgo.WebhookParams{Content: "turn 2"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.sess.FollowupMessageEdit(bi, f.ID, &discordgo.WebhookEdit{Content: strp("hijack")}); err == nil {
		t.Error("another interaction's token edited the follow-up")
	} else if st, code := restErr(t, err); st != 404 || code != 10008 {
		t.Errorf("another token's edit: %d %d, want 404 10008", st, code)
	}
	if m, err := h.sess.FollowupMessageEdit(ai, f.ID, &discordgo.WebhookEdit{Content: strp("turn 2 · Anna passed")}); err != nil || m.Content != "turn 2 · Anna passed" {
		t.Errorf("its own token's edit: %+v, %v", m, err)
	}
	posted, err := h.sess.ChannelMessageSend(h.ch, "a channel post")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.sess.FollowupMessageEdit(ai, posted.ID, &discordgo.WebhookEdit{Content: strp("x")}); err == nil {
		t.Error("a token edited a channel post it did not make")
	}
	// The bot's own channel request may edit the follow-up: it is the
	// bot's message.
	if m, err := h.sess.ChannelMessageEdit(h.ch, f.ID, "turn 2 · over"); err != nil || m.Content != "turn 2 · over" {
		t.Errorf("channel edit of the bot's follow-up: %+v, %v", m, err)
	}
}

// TestUpdateMessageAttachments: a type 7 answer edits the message as an
// edit does: without "attachments" it keeps the picture; with them it
// keeps the listed ones and appends only the uploaded files listed by
// upload index; an unknown id is refused.
func TestUpdateMessageAttachments(t *testing.T) {
	h := newHarness(t, Options{})
	file := func(name string) []*discordgo.File {
		return []*discordgo.File{{Name: name, ContentType: "image/png", Reader: strings.NewReader("data of " + name)}}
	}
	errs := make(chan error, 1)
	h.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		id := i.MessageComponentData().CustomID
		data := &discordgo.InteractionResponseData{Content: "clicked " + id}
		switch id {
		case "listed":
			data.Files, data.Attachments = file("new.png"), &[]*discordgo.MessageAttachment{{ID: "0", Filename: "new.png"}}
		case "unlisted":
			data.Files, data.Attachments = file("other.png"), &[]*discordgo.MessageAttachment{}
		case "unknown":
			data.Files, data.Attachments = file("bad.png"), &[]*discordgo.MessageAttachment{{ID: "3", Filename: "bad.png"}}
		}
		errs <- s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: 7, Data: data})
	})
	m0, err := h.sess.ChannelMessageSendComplex(h.ch, &discordgo.MessageSend{Content: "board", Files: file("old.png"),
		Components: []discordgo.MessageComponent{row(button("text"), button("listed"), button("unlisted"), button("unknown"))}})
	if err != nil {
		t.Fatal(err)
	}
	shows := func() string {
		m, _ := h.srv.Message(m0.ID)
		var ns []string
		for _, a := range m.Attachments {
			ns = append(ns, a.Filename+"="+string(a.Data))
		}
		return m.Content + ": " + strings.Join(ns, ",")
	}
	for _, c := range []struct{ click, want string }{
		{"text", "clicked text: old.png=data of old.png"},
		{"listed", "clicked listed: new.png=data of new.png"},
		{"unknown", "clicked listed: new.png=data of new.png"},
		{"unlisted", "clicked unlisted: "},
	} {
		m, _ := h.srv.Message(m0.ID)
		if _, err := h.alice.Click(m, c.click); err != nil {
			t.Fatal(err)
		}
		err := <-errs
		if c.click == "unknown" {
			var re *discordgo.RESTError
			if !errors.As(err, &re) || re.Response.StatusCode != 400 || !strings.Contains(string(re.ResponseBody), `"attachments":{"0":{"id":`) {
				t.Errorf("%s: %v, want 400 at data.attachments.0.id", c.click, err)
			}
		} else if err != nil {
			t.Errorf("%s: %v", c.click, err)
		}
		if got := shows(); got != c.want {
			t.Errorf("after %s: %q, want %q", c.click, got, c.want)
		}
	}
}
