package discordtest

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/discordtest/internal/openapisub"
)

// errorPaths lists the dotted field paths of a 50035 answer's "errors".
func errorPaths(t *testing.T, err error) []string {
	t.Helper()
	var re *discordgo.RESTError
	if !errors.As(err, &re) {
		t.Fatalf("want a REST error, got %v", err)
	}
	var body struct {
		Errors map[string]any `json:"errors"`
	}
	if err := discordgo.Unmarshal(re.ResponseBody, &body); err != nil {
		t.Fatalf("error body %s: %v", re.ResponseBody, err)
	}
	var paths []string
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for k, v := range m {
			if k == "_errors" {
				paths = append(paths, strings.TrimPrefix(prefix, "."))
			} else if sub, ok := v.(map[string]any); ok {
				walk(prefix+"."+k, sub)
			}
		}
	}
	walk("", body.Errors)
	return paths
}

func manyButtons(n int, id func(int) string) []discordgo.MessageComponent {
	var cs []discordgo.MessageComponent
	for i := 0; i < n; i++ {
		cs = append(cs, button(id(i)))
	}
	return cs
}

func options(n int) []discordgo.SelectMenuOption {
	var os []discordgo.SelectMenuOption
	for i := 0; i < n; i++ {
		os = append(os, discordgo.SelectMenuOption{Label: fmt.Sprint(i), Value: fmt.Sprint(i)})
	}
	return os
}

func TestMessageLimits(t *testing.T) {
	h := newHarness(t, Options{AttachmentSizeLimit: 1 << 10})
	h.allowSchemaV = true // several of these also break the OpenAPI schema
	id := func(i int) string { return fmt.Sprint("b", i) }
	rows := func(n int) []discordgo.MessageComponent {
		var rs []discordgo.MessageComponent
		for i := 0; i < n; i++ {
			rs = append(rs, row(button(id(i))))
		}
		return rs
	}
	file := func(name string, size int) *discordgo.File {
		return &discordgo.File{Name: name, Reader: bytes.NewReader(make([]byte, size))}
	}
	long := strings.Repeat("x", 101)
	for _, tc := range []struct {
		name   string
		msg    discordgo.MessageSend
		status int
		code   int
		path   string
	}{
		{"six rows", discordgo.MessageSend{Components: rows(6)}, 400, 50035, "components"},
		{"six buttons in a row", discordgo.MessageSend{Components: []discordgo.MessageComponent{row(manyButtons(6, id)...)}}, 400, 50035, "components.0.components"},
		{"select shares its row", discordgo.MessageSend{Components: []discordgo.MessageComponent{row(
			discordgo.SelectMenu{CustomID: "s", Options: options(2)}, button("x"))}}, 400, 50035, "components.0.components"},
		{"26 select options", discordgo.MessageSend{Components: []discordgo.MessageComponent{row(
			discordgo.SelectMenu{CustomID: "s", Options: options(26)})}}, 400, 50035, "components.0.components.0.options"},
		{"custom_id of 101", discordgo.MessageSend{Components: []discordgo.MessageComponent{row(button(long))}}, 400, 50035, "components.0.components.0.custom_id"},
		{"duplicate custom_id", discordgo.MessageSend{Components: []discordgo.MessageComponent{row(button("a")), row(button("a"))}}, 400, 50035, "components.1.components.0.custom_id"},
		{"link button with custom_id", discordgo.MessageSend{Components: []discordgo.MessageComponent{row(
			discordgo.Button{Label: "rules", Style: discordgo.LinkButton, URL: "https://example.com", CustomID: "r"})}}, 400, 50035, "components.0.components.0.custom_id"},
		{"label of 81", discordgo.MessageSend{Components: []discordgo.MessageComponent{row(
			discordgo.Button{Label: strings.Repeat("l", 81), CustomID: "l"})}}, 400, 50035, "components.0.components.0.label"},
		{"content of 2001", discordgo.MessageSend{Content: strings.Repeat("c", 2001)}, 400, 50035, "content"},
		{"11 embeds", discordgo.MessageSend{Embeds: make11Embeds()}, 400, 50035, "embeds"},
		{"embeds over 6000", discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{
			{Description: strings.Repeat("d", 3001)}, {Description: strings.Repeat("d", 3000)}}}, 400, 50035, "embeds"},
		{"embed title of 257", discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Title: strings.Repeat("t", 257)}}}, 400, 50035, "embeds.0.title"},
		{"empty", discordgo.MessageSend{}, 400, 50006, ""},
		{"11 files", discordgo.MessageSend{Content: "x", Files: []*discordgo.File{file("0", 1), file("1", 1), file("2", 1),
			file("3", 1), file("4", 1), file("5", 1), file("6", 1), file("7", 1), file("8", 1), file("9", 1), file("10", 1)}}, 400, 50035, "attachments"},
		{"file over the limit", discordgo.MessageSend{Files: []*discordgo.File{file("big.png", 1<<10+1)}}, 413, 40005, ""},
	} {
		_, err := h.sess.ChannelMessageSendComplex(h.ch, &tc.msg)
		if err == nil {
			t.Errorf("%s: accepted", tc.name)
			continue
		}
		st, code := restErr(t, err)
		if st != tc.status || code != tc.code {
			t.Errorf("%s: %d %d, want %d %d", tc.name, st, code, tc.status, tc.code)
		}
		if paths := errorPaths(t, err); tc.path != "" && !containsStr(paths, tc.path) {
			t.Errorf("%s: error paths %v, want %q", tc.name, paths, tc.path)
		}
	}
	if n := len(h.srv.Messages(h.ch)); n != 0 {
		t.Errorf("%d invalid messages were stored", n)
	}
	// The limits hold for interaction responses too, and a refused
	// callback does not use up the interaction.
	errs := make(chan error, 2)
	h.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		errs <- s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{
			Content: "x", Components: []discordgo.MessageComponent{row(button(long))}}})
		errs <- s.InteractionRespond(i.Interaction, reply("fixed"))
	})
	it, _ := h.alice.Command(h.ch, "qwixx", "hand", nil)
	err := recv(t, errs)
	if paths := errorPaths(t, err); !containsStr(paths, "data.components.0.components.0.custom_id") {
		t.Errorf("callback error paths %v", paths)
	}
	if err := recv(t, errs); err != nil {
		t.Errorf("valid callback after a refused one: %v", err)
	}
	if m, err := it.WaitResponse(ctx(t)); err != nil || m.Content != "fixed" {
		t.Errorf("response %+v %v", m, err)
	}
}

func make11Embeds() []*discordgo.MessageEmbed {
	var es []*discordgo.MessageEmbed
	for i := 0; i < 11; i++ {
		es = append(es, &discordgo.MessageEmbed{Title: fmt.Sprint(i)})
	}
	return es
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestCommandRegistration(t *testing.T) {
	h := newHarness(t, Options{})
	h.allowSchemaV = true
	g, app := h.srv.DefaultGuild(), h.srv.ApplicationID()
	var opts []*discordgo.ApplicationCommandOption
	for i := 0; i < 26; i++ {
		opts = append(opts, &discordgo.ApplicationCommandOption{Type: 3, Name: fmt.Sprint("o", i), Description: "d"})
	}
	for _, tc := range []struct {
		name string
		cmd  discordgo.ApplicationCommand
		path string
	}{
		{"uppercase name", discordgo.ApplicationCommand{Name: "Qwixx", Description: "d"}, "0.name"},
		{"name with space", discordgo.ApplicationCommand{Name: "qw ixx", Description: "d"}, "0.name"},
		{"no description", discordgo.ApplicationCommand{Name: "qwixx"}, "0.description"},
		{"description of 101", discordgo.ApplicationCommand{Name: "qwixx", Description: strings.Repeat("d", 101)}, "0.description"},
		{"bad locale", discordgo.ApplicationCommand{Name: "qwixx", Description: "d", NameLocalizations: &map[discordgo.Locale]string{"xx": "q"}}, "0.name_localizations.xx"},
		{"26 options", discordgo.ApplicationCommand{Name: "qwixx", Description: "d", Options: opts}, "0.options"},
		{"autocomplete with choices", discordgo.ApplicationCommand{Name: "qwixx", Description: "d", Options: []*discordgo.ApplicationCommandOption{{
			Type: 3, Name: "o", Description: "d", Autocomplete: true, Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "a", Value: "a"}}}}}, "0.options.0.autocomplete"},
		{"autocomplete on a boolean", discordgo.ApplicationCommand{Name: "qwixx", Description: "d", Options: []*discordgo.ApplicationCommandOption{{
			Type: 5, Name: "o", Description: "d", Autocomplete: true}}}, "0.options.0.autocomplete"},
	} {
		_, err := h.sess.ApplicationCommandBulkOverwrite(app, g, []*discordgo.ApplicationCommand{&tc.cmd})
		if err == nil {
			t.Errorf("%s: accepted", tc.name)
			continue
		}
		if st, code := restErr(t, err); st != 400 || code != 50035 || !containsStr(errorPaths(t, err), tc.path) {
			t.Errorf("%s: %d %d %v, want 400 50035 at %s", tc.name, st, code, errorPaths(t, err), tc.path)
		}
	}
	got, err := h.sess.ApplicationCommands(app, g)
	if err != nil || len(got) != 1 || got[0].Name != "qwixx" || got[0].ID == "" || len(got[0].Options) != 2 {
		t.Fatalf("GET guild commands = %+v, %v; want the harness's qwixx", got, err)
	}
	again, err := h.sess.ApplicationCommandBulkOverwrite(app, g, testCommands)
	if err != nil || again[0].ID != got[0].ID || again[0].GuildID != g {
		t.Errorf("re-registering changed the ID or lost the guild: %+v %v", again, err)
	}
	if names := h.srv.Commands(""); len(names) != 1 || names[0] != "help" {
		t.Errorf("global commands %v, want [help]", names)
	}
}

func TestPermissionsAndLocales(t *testing.T) {
	h := newHarness(t, Options{})
	got := make(chan *discordgo.Interaction, 2)
	h.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		got <- i.Interaction
		_ = s.InteractionRespond(i.Interaction, reply("answers need no channel permission"))
	})
	g := h.srv.DefaultGuild()
	h.srv.SetGuildLocale(g, "fr")
	h.alice.SetPermissions(g, DefaultMemberPermissions|discordgo.PermissionManageMessages)
	h.srv.RevokeBotPermissions(h.ch, discordgo.PermissionSendMessages|discordgo.PermissionAttachFiles)

	it, _ := h.alice.Command(h.ch, "qwixx", "hand", nil)
	i := recv(t, got)
	if i.AppPermissions&discordgo.PermissionSendMessages != 0 || i.AppPermissions&discordgo.PermissionViewChannel == 0 {
		t.Errorf("app_permissions %b, want VIEW_CHANNEL without SEND_MESSAGES", i.AppPermissions)
	}
	if i.Member.Permissions&discordgo.PermissionManageMessages == 0 || *i.GuildLocale != "fr" || i.Locale != "en-US" {
		t.Errorf("member permissions %b, guild locale %v, locale %v", i.Member.Permissions, *i.GuildLocale, i.Locale)
	}
	if err := it.Wait(ctx(t)); err != nil {
		t.Errorf("interaction response without SEND_MESSAGES: %v", err)
	}
	h.bob.Command(h.ch, "qwixx", "hand", nil)
	if i := recv(t, got); i.Member.Permissions&discordgo.PermissionManageMessages != 0 || i.Locale != "de" {
		t.Errorf("bob: permissions %b locale %s", i.Member.Permissions, i.Locale)
	}

	_, err := h.sess.ChannelMessageSend(h.ch, "hello")
	if st, code := restErr(t, err); st != 403 || code != 50013 {
		t.Errorf("send without SEND_MESSAGES: %d %d, want 403 50013", st, code)
	}
	h.srv.SetBotPermissions(h.ch, DefaultBotPermissions&^discordgo.PermissionAttachFiles)
	if _, err := h.sess.ChannelMessageSend(h.ch, "hello"); err != nil {
		t.Errorf("text without ATTACH_FILES: %v", err)
	}
	_, err = h.sess.ChannelFileSend(h.ch, "a.png", bytes.NewReader([]byte("x")))
	if st, code := restErr(t, err); st != 403 || code != 50013 {
		t.Errorf("file without ATTACH_FILES: %d %d, want 403 50013", st, code)
	}
	h.srv.RevokeBotPermissions(h.ch, discordgo.PermissionViewChannel)
	_, err = h.sess.ChannelMessages(h.ch, 10, "", "", "")
	if st, code := restErr(t, err); st != 403 || code != 50001 {
		t.Errorf("read without VIEW_CHANNEL: %d %d, want 403 50001", st, code)
	}
}

func TestEditAttachments(t *testing.T) {
	h := newHarness(t, Options{})
	f := func(name string) *discordgo.File {
		return &discordgo.File{Name: name, ContentType: "image/png", Reader: strings.NewReader("data of " + name)}
	}
	w := h.srv.Watch(h.ch)
	m0, err := h.sess.ChannelMessageSendComplex(h.ch, &discordgo.MessageSend{Content: "sheets", Files: []*discordgo.File{f("a.png"), f("b.png")}})
	if err != nil {
		t.Fatal(err)
	}
	names := func() []string {
		m, _ := h.srv.Message(m0.ID)
		var ns []string
		for _, a := range m.Attachments {
			ns = append(ns, a.Filename+"="+string(a.Data))
		}
		return ns
	}
	// A file sent with an edit that lists attachments is appended only
	// when the list names it by its upload index (files[n] is id n).
	keep := []*discordgo.MessageAttachment{m0.Attachments[0]}
	edit := discordgo.NewMessageEdit(h.ch, m0.ID)
	edit.Attachments = &keep
	edit.Files = []*discordgo.File{f("c.png")}
	if _, err := h.sess.ChannelMessageEditComplex(edit); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(names(), ","); got != "a.png=data of a.png" {
		t.Errorf("after explicit attachments + a new file they do not list: %s, want only a.png kept", got)
	}
	// Refused, and nothing changes: an id that is neither the message's
	// attachment nor a file of the request (another message's attachment,
	// an upload index with no file).
	other, err := h.sess.ChannelMessageSendComplex(h.ch, &discordgo.MessageSend{Content: "other", Files: []*discordgo.File{f("x.png")}})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{other.Attachments[0].ID, "1"} {
		edit = discordgo.NewMessageEdit(h.ch, m0.ID)
		edit.Attachments = &[]*discordgo.MessageAttachment{{ID: bad, Filename: "d.png"}}
		edit.Files = []*discordgo.File{f("d.png")}
		_, err := h.sess.ChannelMessageEditComplex(edit)
		if err == nil {
			t.Errorf("attachments [%s]: accepted", bad)
			continue
		}
		var re *discordgo.RESTError
		if st, code := restErr(t, err); st != 400 || code != 50035 || !errors.As(err, &re) || !strings.Contains(string(re.ResponseBody), `"attachments":{"0":{"id":`) {
			t.Errorf("attachments [%s]: %v, want 400 50035 at attachments.0.id", bad, err)
		}
	}
	if got := strings.Join(names(), ","); got != "a.png=data of a.png" {
		t.Errorf("after refused edits: %s", got)
	}
	keep = []*discordgo.MessageAttachment{m0.Attachments[0], {ID: "0", Filename: "c.png"}}
	edit = discordgo.NewMessageEdit(h.ch, m0.ID)
	edit.Attachments = &keep
	edit.Files = []*discordgo.File{f("c.png")}
	if _, err := h.sess.ChannelMessageEditComplex(edit); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(names(), ","); got != "a.png=data of a.png,c.png=data of c.png" {
		t.Errorf("after explicit attachments + new file listed by index: %s", got)
	}
	if _, err := h.sess.ChannelMessageEdit(h.ch, m0.ID, "only text"); err != nil {
		t.Fatal(err)
	}
	if got := len(names()); got != 2 {
		t.Errorf("edit without attachments kept %d files, want 2", got)
	}
	edit = discordgo.NewMessageEdit(h.ch, m0.ID)
	edit.Attachments = &[]*discordgo.MessageAttachment{}
	if _, err := h.sess.ChannelMessageEditComplex(edit); err != nil {
		t.Fatal(err)
	}
	if got := len(names()); got != 0 {
		t.Errorf("attachments: [] left %d files", got)
	}
	var kinds []EventKind
	for range 6 {
		ev, err := w.NextTimeout(time.Second)
		if err != nil {
			t.Fatal(err)
		}
		kinds = append(kinds, ev.Kind)
	}
	if fmt.Sprint(kinds) != "[create update create update update update]" {
		t.Errorf("events %v", kinds)
	}
	if err := h.sess.ChannelMessageDelete(h.ch, m0.ID); err != nil {
		t.Fatal(err)
	}
	if ev, err := w.NextTimeout(time.Second); err != nil || ev.Kind != Deleted {
		t.Errorf("after delete: %+v %v", ev, err)
	}
	if _, err := h.sess.ChannelMessageEdit(h.ch, m0.ID, "ghost"); err == nil {
		t.Error("edited a deleted message")
	} else if st, code := restErr(t, err); st != 404 || code != 10008 {
		t.Errorf("edit deleted: %d %d, want 404 10008", st, code)
	}
}

func TestThreads(t *testing.T) {
	h := newHarness(t, Options{})
	m, err := h.sess.ChannelMessageSend(h.ch, "game 1")
	if err != nil {
		t.Fatal(err)
	}
	th, err := h.sess.MessageThreadStart(h.ch, m.ID, "Game 1", 60)
	if err != nil || th.ID != m.ID || th.ParentID != h.ch || th.Type != discordgo.ChannelTypeGuildPublicThread {
		t.Fatalf("thread from message: %+v %v", th, err)
	}
	if _, err := h.sess.ChannelMessageSend(th.ID, "inside"); err != nil {
		t.Errorf("post in thread: %v", err)
	}
	if ms := h.alice.Messages(th.ID); len(ms) != 1 || ms[0].Content != "inside" {
		t.Errorf("alice sees %v in the thread", ms)
	}
	if _, err := h.sess.ThreadStart(h.ch, "private", discordgo.ChannelTypeGuildPrivateThread, 60); err == nil {
		t.Error("private thread without CREATE_PRIVATE_THREADS")
	}
	h.srv.RevokeBotPermissions(h.ch, discordgo.PermissionSendMessagesInThreads)
	if _, err := h.sess.ChannelMessageSend(th.ID, "again"); err == nil {
		t.Error("posted in a thread without SEND_MESSAGES_IN_THREADS")
	}
}

func TestFaultInjection(t *testing.T) {
	h := newHarness(t, Options{})
	limited := make(chan *discordgo.RateLimit, 4)
	h.sess.AddHandler(func(_ *discordgo.Session, r *discordgo.RateLimit) { limited <- r })

	h.srv.InjectRateLimit(2, "/messages", 150*time.Millisecond, false)
	start := time.Now()
	if _, err := h.sess.ChannelMessageSend(h.ch, "after 429s"); err != nil {
		t.Fatalf("discordgo did not recover from 429: %v", err)
	}
	if d := time.Since(start); d < 300*time.Millisecond {
		t.Errorf("recovered after %v; discordgo should have waited out retry_after twice", d)
	}
	if r := recv(t, limited); r.RetryAfter != 150*time.Millisecond || r.Message != "You are being rate limited." {
		t.Errorf("rate limit event %+v", r.TooManyRequests)
	}

	h.srv.InjectServerErrors(2, "/messages", http.StatusBadGateway)
	if _, err := h.sess.ChannelMessageSend(h.ch, "after 502s"); err != nil {
		t.Errorf("discordgo did not recover from 502: %v", err)
	}
	h.srv.InjectServerErrors(1, "/messages", http.StatusInternalServerError)
	if _, err := h.sess.ChannelMessageSend(h.ch, "lost"); err == nil {
		t.Error("a 500 was not reported")
	} else if st, _ := restErr(t, err); st != 500 {
		t.Errorf("status %d, want 500", st)
	}
	counts := map[int]int{}
	for _, r := range h.srv.Requests() {
		if strings.HasSuffix(r.Path, "/messages") {
			counts[r.Status]++
		}
	}
	if counts[429] != 2 || counts[502] != 2 || counts[500] != 1 || counts[200] != 2 {
		t.Errorf("statuses %v, want 2×429, 2×502, 1×500, 2×200", counts)
	}
	if n := len(h.srv.Messages(h.ch)); n != 2 {
		t.Errorf("%d messages stored, want 2", n)
	}

	// Every answer carries the bucket headers discordgo's limiter reads.
	req, _ := http.NewRequest("GET", discordgo.EndpointChannel(h.ch), nil)
	req.Header.Set("Authorization", "Bot "+h.srv.Token())
	resp, err := h.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for _, k := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset-After", "X-RateLimit-Bucket"} {
		if resp.Header.Get(k) == "" {
			t.Errorf("missing header %s", k)
		}
	}
}

func TestSchemaChecking(t *testing.T) {
	t.Parallel()
	srv := NewTestServer(t, Options{})
	if err := srv.SchemaStatus(); err != nil {
		t.Fatalf("the embedded schema is off: %v", err)
	}
	t.Logf("the schema compiled in %v", srv.SchemaCompileTime())
	s, _ := discordgo.New("Bot " + srv.Token())
	s.Client = srv.Client()
	bad := map[string]any{"content": "hi", "tts": "yes"}
	_, err := s.RequestWithBucketID("POST", discordgo.EndpointChannelMessages(srv.DefaultChannel()), bad, "x")
	if st, code := restErr(t, err); st != 400 || code != 50035 {
		t.Errorf("bad body: %d %d, want 400 50035", st, code)
	}
	v := srv.SchemaViolations()
	if len(v) != 1 || v[0].Route != "POST /channels/{channel_id}/messages" || !strings.Contains(v[0].Err, "/tts") {
		t.Errorf("violations %+v, want one at /tts", v)
	}
	if len(srv.Messages(srv.DefaultChannel())) != 0 {
		t.Error("a body failing the schema created a message")
	}
	if _, err := s.RequestWithBucketID("POST", discordgo.EndpointChannelMessages(srv.DefaultChannel()), map[string]any{"content": "hi", "tts": true}, "x"); err != nil {
		t.Errorf("a good body: %v", err)
	}
}

// A schema that is missing or unparsable is an error, never checks
// silently off: NewServer fails and NewTestServer fails the test.
func TestSchemaMissingOrBrokenFails(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "missing.json")
	broken := filepath.Join(t.TempDir(), "broken.json")
	if err := os.WriteFile(broken, []byte(`{"openapi": "3.1.0", "paths": {`), 0o644); err != nil {
		t.Fatal(err)
	}
	noRoutes := filepath.Join(t.TempDir(), "empty.json")
	if err := os.WriteFile(noRoutes, []byte(`{"openapi": "3.1.0", "paths": {}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{missing, broken, noRoutes} {
		if srv, err := NewServer(Options{SpecPath: path}); err == nil {
			srv.Close()
			t.Errorf("NewServer with SpecPath %s: no error", filepath.Base(path))
		} else if !strings.Contains(err.Error(), filepath.Base(path)) {
			t.Errorf("NewServer with SpecPath %s: %v does not name the file", filepath.Base(path), err)
		}
		ft := &fatalTB{TB: t}
		func() {
			defer func() { _ = recover() }() // fatalTB.Fatalf stops like t.Fatalf
			NewTestServer(ft, Options{SpecPath: path})
		}()
		if !ft.failed {
			t.Errorf("NewTestServer with SpecPath %s did not fail the test", filepath.Base(path))
		}
	}
	if _, err := compileSpec("garbage", []byte("not json")); err == nil {
		t.Error("compileSpec accepted garbage")
	}
}

// fatalTB records Fatalf and stops the caller, as testing.T does, without
// failing the test around it.
type fatalTB struct {
	TB
	failed bool
}

func (f *fatalTB) Fatalf(format string, args ...any) {
	f.failed = true
	panic(fmt.Sprintf(format, args...))
}

// The committed schema subset is what internal/schemagen writes from
// Discord's whole openapi.json (when that is beside the repository), and
// the whole document judges bodies as the subset does.
func TestSchemaSubsetIsGenerated(t *testing.T) {
	t.Parallel()
	path := FindSpec()
	if path == "" {
		t.Skip("shared/discord-api-spec/openapi.json is not beside the repository: the embedded subset is checked by TestSchemaChecking")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := openapisub.Subset(data)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(subsetSpec, want) {
		t.Fatalf("discord-openapi-subset.json (%d bytes) is not what the generator writes from %s (%d bytes): run go generate ./bot/discordtest", len(subsetSpec), path, len(want))
	}
	whole := NewTestServer(t, Options{SpecPath: path})
	sub := NewTestServer(t, Options{})
	for _, body := range []string{
		`{"content": "hi", "tts": "yes"}`,
		`{"content": "hi", "components": [{"type": 1, "components": [{"type": 2, "style": 1, "label": "x", "custom_id": "a"}]}]}`,
		`{"content": "hi", "components": [{"type": 1, "components": [{"type": 2, "style": "one"}]}]}`,
	} {
		for _, r := range openapisub.Routes {
			a, b := whole.spec.validate(r, []byte(body)), sub.spec.validate(r, []byte(body))
			if (a == nil) != (b == nil) || a != nil && a.Error() != b.Error() {
				t.Errorf("%s %s: the whole spec says %v, the subset %v", r, body, a, b)
			}
		}
	}
}

// Requests records each body's uploaded size (file parts included) and its
// JSON payload.
func TestRequestBodySizes(t *testing.T) {
	h := newHarness(t, Options{})
	png := bytes.Repeat([]byte{0x89, 'P', 'N', 'G'}, 2500)
	_, err := h.sess.ChannelMessageSendComplex(h.ch, &discordgo.MessageSend{Content: "with a file",
		Files: []*discordgo.File{{Name: "a.png", ContentType: "image/png", Reader: bytes.NewReader(png)}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.sess.ChannelMessageSend(h.ch, "plain"); err != nil {
		t.Fatal(err)
	}
	var sizes []int64
	var payloads []string
	for _, r := range h.srv.Requests() {
		if r.Method == "POST" && strings.HasSuffix(r.Path, "/messages") {
			sizes = append(sizes, r.BodySize)
			payloads = append(payloads, string(r.Payload))
		}
	}
	if len(sizes) != 2 || sizes[0] <= int64(len(png)) || sizes[1] <= 0 || sizes[1] >= 200 {
		t.Fatalf("body sizes %v: want the upload above %d bytes, the plain message small", sizes, len(png))
	}
	if !strings.Contains(payloads[0], `"with a file"`) || !strings.Contains(payloads[1], `"plain"`) {
		t.Fatalf("payloads %q", payloads)
	}
}
