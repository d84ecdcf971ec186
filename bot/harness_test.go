package bot

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rs/zerolog"

	"github.com/qwixxbot/qwixxbot/bot/clock"
	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/logbuf"
	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/render"
)

// memStore is an in-memory Store. A channel in corrupt reads as damaged
// bytes (session.ErrCorrupt), as a failed checksum does.
type memStore struct {
	mu          sync.Mutex
	m           map[string][]byte
	corrupt     map[string]bool
	quarantined map[string][][]byte
	secrets     map[string][]byte
	marks       map[string]bool // daily marks: day/mark
}

func (s *memStore) Get(ctx context.Context, ch string) ([]byte, bool, error) {
	if err := ctx.Err(); err != nil { // as sessiondb.OnDisk: no transaction
		return nil, false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.corrupt[ch] {
		return nil, true, fmt.Errorf("memstore: game %s: %w", ch, session.ErrCorrupt)
	}
	b, ok := s.m[ch]
	return slices.Clone(b), ok, nil
}

func (s *memStore) GetUnless(ctx context.Context, ch string, have []byte) ([]byte, bool, bool, error) {
	s.mu.Lock()
	b, ok := s.m[ch]
	same := ok && have != nil && !s.corrupt[ch] && bytes.Equal(b, have)
	s.mu.Unlock()
	if same {
		return nil, true, true, ctx.Err()
	}
	b, ok, err := s.Get(ctx, ch)
	return b, ok, false, err
}

func (s *memStore) Update(ctx context.Context, ch string, fn func([]byte, bool) ([]byte, bool, error)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string][]byte{}
	}
	if s.corrupt[ch] {
		return fmt.Errorf("memstore: game %s: %w", ch, session.ErrCorrupt)
	}
	old, ok := s.m[ch]
	nb, del, err := fn(slices.Clone(old), ok)
	if err != nil {
		return err
	}
	if del {
		delete(s.m, ch)
	} else if nb != nil {
		s.m[ch] = nb
	}
	return nil
}

func (s *memStore) ForEach(ctx context.Context, fn func(string, []byte, error) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, v := range s.m {
		var err error
		if s.corrupt[k] {
			v, err = nil, session.ErrCorrupt
		}
		if err := fn(k, v, err); err != nil {
			return err
		}
	}
	return nil
}

func (s *memStore) Quarantine(_ context.Context, ch, _ string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[ch]
	if !ok {
		return false, nil
	}
	if s.quarantined == nil {
		s.quarantined = map[string][][]byte{}
	}
	s.quarantined[ch] = append(s.quarantined[ch], v)
	delete(s.m, ch)
	delete(s.corrupt, ch)
	return true, nil
}

// Secret keeps a secret per name, made once, as the store does.
func (s *memStore) Secret(_ context.Context, name string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.secrets == nil {
		s.secrets = map[string][]byte{}
	}
	if _, ok := s.secrets[name]; !ok {
		b := make([]byte, 32)
		if _, err := rand.Read(b); err != nil {
			return nil, err
		}
		s.secrets[name] = b
	}
	return s.secrets[name], nil
}

func (s *memStore) GuildSettings(ctx context.Context, g string) ([]byte, bool, error) {
	return s.Get(ctx, "guild:"+g)
}
func (s *memStore) PutGuildSettings(ctx context.Context, g string, b []byte) error {
	return s.Update(ctx, "guild:"+g, func([]byte, bool) ([]byte, bool, error) { return b, false, nil })
}

// tinyRenderer draws a 4x4 PNG whose pixel encodes what was asked, so tests
// can check which view reached it.
type tinyRenderer struct {
	mu     sync.Mutex
	hands  []game.PrivateView
	sheets []sheetRequest
	charts []game.ScoreSeries
	// moments are the last review chart's marks.
	moments []render.Moment
}

// sheetRequest is what a private sheet was asked to show.
type sheetRequest struct {
	seat    int
	choices []render.Cell
}

var tinyPNG = sync.OnceValue(func() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	img.Set(0, 0, color.RGBA{255, 0, 0, 255})
	var buf bytes.Buffer
	png.Encode(&buf, img)
	return buf.Bytes()
})

func (r *tinyRenderer) Table(game.PublicView, Lang) ([]byte, error) { return tinyPNG(), nil }
func (r *tinyRenderer) Sheet(_ game.PublicView, seat int, choices []render.Cell, _ Lang) ([]byte, error) {
	r.mu.Lock()
	r.sheets = append(r.sheets, sheetRequest{seat, choices})
	r.mu.Unlock()
	return tinyPNG(), nil
}
func (r *tinyRenderer) Hand(v game.PrivateView, _ Lang) ([]byte, error) {
	r.mu.Lock()
	r.hands = append(r.hands, v)
	r.mu.Unlock()
	return tinyPNG(), nil
}
func (r *tinyRenderer) Results(game.PublicView, *game.Match, Lang) ([]byte, error) {
	return tinyPNG(), nil
}
func (r *tinyRenderer) ReviewChart(_ game.PublicView, _ game.ScoreSeries, moments []render.Moment, _ Lang) ([]byte, error) {
	r.mu.Lock()
	r.moments = append(r.moments[:0], moments...)
	r.mu.Unlock()
	return tinyPNG(), nil
}
func (r *tinyRenderer) Chart(_ game.PublicView, s game.ScoreSeries, _ Lang) ([]byte, error) {
	r.mu.Lock()
	r.charts = append(r.charts, s)
	r.mu.Unlock()
	return tinyPNG(), nil
}

// fakeDiscord records what the bot sends.
type fakeDiscord struct {
	mu        sync.Mutex
	next      int
	responses map[string]*discordgo.InteractionResponse // by interaction ID
	// fresh are the interactions answered since the last forgetFiles.
	fresh   []string
	channel map[string][]*discordgo.Message // channel messages, in order
	byID    map[string]*discordgo.Message
	edits   []hookEdit // edits of interaction responses, in order
	edited  int        // channel message edits
	uploads int        // edits (channel or through a token) that uploaded a file
	// hookEdited counts edits of channel messages through the token of a
	// click on them.
	hookEdited int
	// files are the files of interaction responses, by interaction ID and
	// file name ("i7/results.png").
	files map[string][]byte
	// refuseEdits makes channel message edits fail with 400 (as if the
	// bot had died before sending them: nothing is changed).
	refuseEdits bool
	// refuseTokenEdits makes edits of a click's @original through its
	// token fail with 404 Unknown Message (as Discord does while the
	// click's own answer has not landed yet).
	refuseTokenEdits bool
	// failPosts makes channel posts fail with 503 (a server error, which
	// the reconciler retries after a backoff).
	failPosts bool
	posts     int // channel posts tried
	followups int // follow-ups tried
	// madeBy is the interaction whose follow-up a message is, by ID;
	// original is the message a click answered with an update made its
	// @original, by interaction ID.
	madeBy, original map[string]string
}

func newFakeDiscord() *fakeDiscord {
	return &fakeDiscord{responses: map[string]*discordgo.InteractionResponse{}, channel: map[string][]*discordgo.Message{}, byID: map[string]*discordgo.Message{}}
}

// forgetFiles drops the files, answers and edits the fake kept of
// interactions and all but a channel's last 50 messages, so that a benchmark playing game after game measures the bot,
// not a growing heap of pictures nobody looks at again.
func (f *fakeDiscord) forgetFiles() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.files, f.edits = nil, nil
	answered := &discordgo.InteractionResponse{}
	for _, id := range f.fresh { // not every answer ever: game after game, that grows
		f.responses[id] = answered // still answered, for the follow-ups' check
	}
	f.fresh = f.fresh[:0]
	for ch, msgs := range f.channel {
		if n := len(msgs) - 50; n > 0 {
			for _, m := range msgs[:n] {
				delete(f.byID, m.ID)
			}
			f.channel[ch] = slices.Clone(msgs[n:])
		}
	}
}

func (f *fakeDiscord) InteractionRespond(i *discordgo.Interaction, r *discordgo.InteractionResponse, _ ...discordgo.RequestOption) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, dup := f.responses[i.ID]; dup {
		return fmt.Errorf("interaction %s answered twice", i.ID)
	}
	f.responses[i.ID] = r
	f.fresh = append(f.fresh, i.ID)
	if r.Data != nil {
		for _, file := range r.Data.Files {
			data := readFile(file.Reader)
			if f.files == nil {
				f.files = map[string][]byte{}
			}
			f.files[i.ID+"/"+file.Name] = data
		}
	}
	// An update of a channel message (a click's answer of type 7) changes
	// that message, as on Discord, and is the interaction's @original.
	if r.Type == discordgo.InteractionResponseUpdateMessage && i.Message != nil {
		if f.original == nil {
			f.original = map[string]string{}
		}
		f.original[i.ID] = i.Message.ID
	}
	if r.Type == discordgo.InteractionResponseUpdateMessage && i.Message != nil && r.Data != nil {
		if m := f.byID[i.Message.ID]; m != nil {
			m.Content = r.Data.Content
			if r.Data.Components != nil {
				m.Components = r.Data.Components
			}
			if r.Data.Attachments != nil {
				m.Attachments = nil
			}
			for _, file := range r.Data.Files {
				f.next++
				m.Attachments = append(m.Attachments, &discordgo.MessageAttachment{ID: fmt.Sprintf("a%d", f.next), Filename: file.Name})
			}
		}
	}
	return nil
}

func (f *fakeDiscord) InteractionResponseEdit(i *discordgo.Interaction, e *discordgo.WebhookEdit, _ ...discordgo.RequestOption) (*discordgo.Message, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.edits = append(f.edits, hookEdit{interaction: i.ID, edit: e})
	if id, ok := f.original[i.ID]; ok && f.refuseTokenEdits {
		for _, file := range e.Files {
			readFile(file.Reader)
		}
		return nil, unknownMessage(id)
	}
	// A click answered by updating its message: @original is that
	// message, as on Discord (known by the interaction's token alone: the
	// bot keeps no more of it).
	if id, ok := f.original[i.ID]; ok && f.byID[id] != nil {
		f.hookEdited++
		return f.applyEdit(f.byID[id], e.Content, e.Components, e.Attachments, e.Files), nil
	}
	for _, file := range e.Files {
		readFile(file.Reader)
	}
	return &discordgo.Message{ID: "edited"}, nil
}

// FollowupMessageCreate posts a follow-up of the interaction to its
// channel, as on Discord (a message of the channel like any other).
func (f *fakeDiscord) FollowupMessageCreate(i *discordgo.Interaction, _ bool, d *discordgo.WebhookParams, _ ...discordgo.RequestOption) (*discordgo.Message, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.followups++
	if f.responses[i.ID] == nil {
		return nil, unknownWebhook()
	}
	f.next++
	m := &discordgo.Message{ID: fmt.Sprintf("m%d", f.next), ChannelID: i.ChannelID, Content: d.Content, Components: d.Components, WebhookID: "app"}
	for _, file := range d.Files {
		readFile(file.Reader)
		f.next++
		m.Attachments = append(m.Attachments, &discordgo.MessageAttachment{ID: fmt.Sprintf("a%d", f.next), Filename: file.Name})
	}
	f.channel[i.ChannelID] = append(f.channel[i.ChannelID], m)
	f.byID[m.ID] = m
	if f.madeBy == nil {
		f.madeBy = map[string]string{}
	}
	f.madeBy[m.ID] = i.ID
	return m, nil
}

// FollowupMessageEdit edits a follow-up the interaction made, and nothing
// else, as on Discord.
func (f *fakeDiscord) FollowupMessageEdit(i *discordgo.Interaction, id string, e *discordgo.WebhookEdit, _ ...discordgo.RequestOption) (*discordgo.Message, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m := f.byID[id]
	if m == nil || f.madeBy[id] != i.ID {
		return nil, unknownMessage(id)
	}
	f.hookEdited++
	return f.applyEdit(m, e.Content, e.Components, e.Attachments, e.Files), nil
}

// unknownWebhook is Discord's 404 for a token it does not know.
func unknownWebhook() error {
	return &discordgo.RESTError{Response: &http.Response{StatusCode: http.StatusNotFound, Status: "404 Not Found"},
		ResponseBody: []byte(`{"message":"Unknown Webhook","code":10015}`), Message: &discordgo.APIErrorMessage{Code: 10015, Message: "Unknown Webhook"}}
}

// unknownMessage is Discord's 404 for a message that does not exist.
func unknownMessage(id string) error {
	return &discordgo.RESTError{Response: &http.Response{StatusCode: http.StatusNotFound, Status: "404 Not Found"},
		ResponseBody: []byte(`{"message":"Unknown Message","code":10008}`), Message: &discordgo.APIErrorMessage{Code: 10008, Message: "Unknown Message " + id}}
}

// hookEdit is an edit of an interaction's @original message.
type hookEdit struct {
	interaction string
	edit        *discordgo.WebhookEdit
}

func (f *fakeDiscord) ChannelMessageSendComplex(ch string, d *discordgo.MessageSend, _ ...discordgo.RequestOption) (*discordgo.Message, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.posts++
	if f.failPosts {
		return nil, &discordgo.RESTError{Response: &http.Response{StatusCode: http.StatusServiceUnavailable, Status: "503 Service Unavailable"}, ResponseBody: []byte(`{"message":"unavailable"}`)}
	}
	f.next++
	m := &discordgo.Message{ID: fmt.Sprintf("m%d", f.next), ChannelID: ch, Content: d.Content, Components: d.Components}
	for _, file := range d.Files {
		readFile(file.Reader)
		f.next++
		m.Attachments = append(m.Attachments, &discordgo.MessageAttachment{ID: fmt.Sprintf("a%d", f.next), Filename: file.Name})
	}
	f.channel[ch] = append(f.channel[ch], m)
	f.byID[m.ID] = m
	return m, nil
}

func (f *fakeDiscord) ChannelMessageEditComplex(e *discordgo.MessageEdit, _ ...discordgo.RequestOption) (*discordgo.Message, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m := f.byID[e.ID]
	if m == nil {
		return nil, unknownMessage(e.ID)
	}
	if f.refuseEdits {
		return nil, &discordgo.RESTError{Response: &http.Response{StatusCode: http.StatusBadRequest}, Message: &discordgo.APIErrorMessage{Message: "refused by the test"}}
	}
	f.edited++
	return f.applyEdit(m, e.Content, e.Components, e.Attachments, e.Files), nil
}

// applyEdit changes m as an edit with these fields does.
func (f *fakeDiscord) applyEdit(m *discordgo.Message, content *string, comps *[]discordgo.MessageComponent, atts *[]*discordgo.MessageAttachment, files []*discordgo.File) *discordgo.Message {
	if len(files) > 0 {
		f.uploads++
	}
	if content != nil {
		m.Content = *content
	}
	if comps != nil {
		m.Components = *comps
	}
	if atts != nil {
		var keep []*discordgo.MessageAttachment
		for _, a := range m.Attachments {
			for _, k := range *atts {
				if k.ID == a.ID {
					keep = append(keep, a)
				}
			}
		}
		m.Attachments = keep
	}
	for _, file := range files {
		readFile(file.Reader)
		f.next++
		m.Attachments = append(m.Attachments, &discordgo.MessageAttachment{ID: fmt.Sprintf("a%d", f.next), Filename: file.Name})
	}
	return m
}

func (f *fakeDiscord) ChannelMessages(ch string, limit int, _, _, _ string, _ ...discordgo.RequestOption) ([]*discordgo.Message, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []*discordgo.Message
	msgs := f.channel[ch]
	for i := len(msgs) - 1; i >= 0 && len(out) < limit; i-- {
		out = append(out, msgs[i])
	}
	return out, nil
}

func (f *fakeDiscord) ChannelMessageDelete(ch, id string, _ ...discordgo.RequestOption) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.byID[id] == nil {
		return unknownMessage(id)
	}
	delete(f.byID, id)
	f.channel[ch] = slices.DeleteFunc(f.channel[ch], func(m *discordgo.Message) bool { return m.ID == id })
	return nil
}

func (f *fakeDiscord) ApplicationCommandBulkOverwrite(string, string, []*discordgo.ApplicationCommand, ...discordgo.RequestOption) ([]*discordgo.ApplicationCommand, error) {
	return nil, nil
}

// lastTable returns the newest channel message with components.
func (f *fakeDiscord) lastTable(ch string) *discordgo.Message {
	f.mu.Lock()
	defer f.mu.Unlock()
	msgs := f.channel[ch]
	for i := len(msgs) - 1; i >= 0; i-- {
		if len(msgs[i].Components) > 0 {
			return msgs[i]
		}
	}
	return nil
}

// harness runs a bot against the doubles, with a fake clock.
type harness struct {
	t   testing.TB
	bot *Bot
	dc  *fakeDiscord
	st  *memStore
	// tables and hist are what the bot keeps its tables and its history
	// in (h.st and none, unless a test uses others: use).
	tables session.Tables
	hist   session.History
	rd     *tinyRenderer
	// pictures, if set, draws the pictures instead of rd (benchmarks).
	pictures Renderer
	clock    *clock.Fake // read by the bot's goroutines too
	seq      int
	perm     int64
	logs     logbuf.Buffer // the bot's log
	games    int           // games started (their seeds)
	// deliver, if set, hands the clicks to the bot (click) in place of
	// a call of Handle on the test's goroutine, and returns once handled.
	deliver func(i *discordgo.Interaction)
}

const testChannel = "c1"

func newHarness(t testing.TB) *harness {
	h := &harness{t: t, dc: newFakeDiscord(), st: &memStore{}, rd: &tinyRenderer{}, clock: clock.NewFake(time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)), perm: RequiredPermissions}
	h.bot = h.newBot()
	return h
}

// use makes the bot keep its tables in tables and its finished games in
// hist (nil: none), from now on and after restarts (newBot).
func (h *harness) use(tables session.Tables, hist session.History) {
	h.tables, h.hist = tables, hist
	h.bot.st, h.bot.opt.History = tables, hist
}

func (h *harness) newBot() *Bot {
	// Games are seeded from a counter, not crypto/rand: every run of a
	// test plays the same games.
	newGame := func(v game.Variant, players []string) (*game.Game, error) {
		h.games++
		var seed [32]byte
		seed[0], seed[1] = byte(h.games), byte(h.games>>8)
		return game.New(game.Config{Variant: v, Players: players, Seed: seed})
	}
	tables := h.tables
	if tables == nil {
		tables = h.st
	}
	var rd Renderer = h.rd
	if h.pictures != nil {
		rd = h.pictures
	}
	return New(h.dc, tables, rd, Options{History: h.hist, Secrets: h.st, AppID: "app", TurnTimeout: time.Minute, ReminderBefore: 15 * time.Second, Now: h.clock.Now, NewGame: newGame}, zerolog.New(&h.logs))
}

func (h *harness) interaction(user string, typ discordgo.InteractionType, data discordgo.InteractionData, msg *discordgo.Message) *discordgo.Interaction {
	h.seq++
	loc := discordgo.Locale("en-US")
	return &discordgo.Interaction{
		ID: fmt.Sprintf("i%d", h.seq), AppID: "app", Type: typ, Data: data, GuildID: "g1", ChannelID: testChannel,
		Member: &discordgo.Member{User: &discordgo.User{ID: user, Username: user}}, Locale: "en-US", GuildLocale: &loc,
		AppPermissions: h.perm, Token: "tok", Message: msg,
	}
}

// command runs /qwixx sub as user and returns the response.
func (h *harness) command(user, sub string, opts ...*discordgo.ApplicationCommandInteractionDataOption) *discordgo.InteractionResponse {
	i := h.interaction(user, discordgo.InteractionApplicationCommand, discordgo.ApplicationCommandInteractionData{
		Name: "qwixx", Options: []*discordgo.ApplicationCommandInteractionDataOption{{Name: sub, Type: discordgo.ApplicationCommandOptionSubCommand, Options: opts}},
	}, nil)
	h.bot.Handle(i)
	h.bot.Idle()
	return h.response(i)
}

// commandIn runs /qwixx sub as user in another channel and guild.
func (h *harness) commandIn(channelID, guildID, user, sub string) *discordgo.InteractionResponse {
	i := h.interaction(user, discordgo.InteractionApplicationCommand, discordgo.ApplicationCommandInteractionData{
		Name: "qwixx", Options: []*discordgo.ApplicationCommandInteractionDataOption{{Name: sub, Type: discordgo.ApplicationCommandOptionSubCommand}},
	}, nil)
	i.ChannelID, i.GuildID = channelID, guildID
	h.bot.Handle(i)
	h.bot.Idle()
	return h.response(i)
}

// click presses the component with customID as user.
func (h *harness) click(user, customID string, msg *discordgo.Message, values ...string) *discordgo.InteractionResponse {
	if msg == nil {
		msg = &discordgo.Message{ID: "lobby"}
	}
	typ := discordgo.ButtonComponent
	if a, err := customid.Decode(customID); err == nil && a.IsSelect() {
		typ = discordgo.SelectMenuComponent
	}
	i := h.interaction(user, discordgo.InteractionMessageComponent, discordgo.MessageComponentInteractionData{CustomID: customID, ComponentType: typ, Values: values}, msg)
	if h.deliver != nil {
		h.deliver(i)
	} else {
		h.bot.Handle(i)
	}
	h.bot.Idle()
	return h.response(i)
}

func (h *harness) response(i *discordgo.Interaction) *discordgo.InteractionResponse {
	h.dc.mu.Lock()
	defer h.dc.mu.Unlock()
	r := h.dc.responses[i.ID]
	if r == nil {
		h.t.Fatalf("interaction %s got no response", i.ID)
	}
	return r
}

// buttons lists the custom_ids of a message's (or response's) components
// whose label starts with prefix.
func buttons(comps []discordgo.MessageComponent, prefix string) []string {
	var out []string
	for _, row := range comps {
		ar, ok := row.(discordgo.ActionsRow)
		if !ok {
			continue
		}
		for _, c := range ar.Components {
			switch b := c.(type) {
			case discordgo.Button:
				if strings.HasPrefix(b.Label, prefix) && !b.Disabled {
					out = append(out, b.CustomID)
				}
			case discordgo.SelectMenu:
				if prefix == "" || strings.HasPrefix(b.Placeholder, prefix) {
					out = append(out, b.CustomID)
				}
			}
		}
	}
	return out
}

// startTwo opens a table of the variant for anna and ben and starts it.
func (h *harness) startTwo(variant string) {
	h.t.Helper()
	h.startTable(variant, "anna", "ben")
}

// startTable opens a table of variant hosted by host with others seated
// (openTable) and has the host start it.
func (h *harness) startTable(variant, host string, others ...string) {
	h.t.Helper()
	resp := h.openTable(variant, host, others...)
	h.click(host, buttons(resp.Data.Components, "Start")[0], nil)
}

func (h *harness) table() *Table {
	t, err := h.bot.loadTable(context.Background(), testChannel)
	if err != nil {
		h.t.Fatal(err)
	}
	return t
}

// untilOver calls move with the running game's table and the first seat
// it waits for, and the step's number, until the game is over (failing
// after 2,000 steps).
func (h *harness) untilOver(move func(tb *Table, seat, step int)) {
	h.t.Helper()
	for step := 0; h.table().Stage == StagePlaying; step++ {
		if step > 2000 {
			h.t.Fatal("game did not end")
		}
		tb := h.table()
		move(tb, tb.Game.Waiting()[0], step)
	}
}

// readFile reads a file the bot sends, in one piece when its size is known
// (the pictures' readers), as the fake's time is not the bot's.
func readFile(r io.Reader) []byte {
	if br, ok := r.(*bytes.Reader); ok {
		b := make([]byte, br.Len())
		br.Read(b)
		return b
	}
	b, _ := io.ReadAll(r)
	return b
}

// waitUntil waits for cond, checked every millisecond, and fails the test
// naming what when it does not hold within 10 s: every poll of the tests
// has a deadline.
func waitUntil(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10 s for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// DailyMarked and MarkDaily keep the daily marks, as the store does.
func (s *memStore) DailyMarked(_ context.Context, day int, mark []byte) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.marks[fmt.Sprintf("%d/%x", day, mark)]
	return ok, nil
}

func (s *memStore) MarkDaily(_ context.Context, day int, mark []byte) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := fmt.Sprintf("%d/%x", day, mark)
	if _, ok := s.marks[k]; ok {
		return true, nil
	}
	if s.marks == nil {
		s.marks = map[string]bool{}
	}
	s.marks[k] = true
	return false, nil
}
