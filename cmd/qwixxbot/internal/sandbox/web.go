package sandbox

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/rs/zerolog"

	"github.com/qwixxbot/qwixxbot/bot/discordtest"
	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/config"
)

//go:embed web
var webFiles embed.FS

// ServePage starts the fake Discord and the bot as the sandbox does,
// and serves a page at cfg.Sandbox.Addr where a person plays in the fake's
// channel as one of its users, until ctx ends.
func ServePage(ctx context.Context, cfg config.Config, log zerolog.Logger, stdout io.Writer) error {
	ln, err := net.Listen("tcp", cfg.Sandbox.Addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		return addrInUse(cfg)
	}
	if err != nil {
		return fmt.Errorf("sandbox page: %w", err)
	}
	fw, err := startFake(ctx, cfg, log)
	if err != nil {
		ln.Close()
		return err
	}
	defer fw.close()
	wt := newWebTable(fw.srv, Names[:cfg.Sandbox.Players])
	hs := wt.server(configuredHost(cfg.Sandbox.Addr))
	served := make(chan error, 1)
	go func() { served <- hs.Serve(wt.listener(hs, ln)) }()
	fmt.Fprintf(stdout, "open http://%s\n", ln.Addr())
	select {
	case <-ctx.Done():
	case err = <-served:
		return fmt.Errorf("sandbox page: %w", err)
	}
	// Event streams end with their requests' context: Shutdown would wait
	// for them, so Close ends them.
	hs.Close()
	if err := fw.stop(); err != nil {
		return err
	}
	return nil
}

// addrInUse is the error for a page address that is taken. When another
// sandbox holds the folder too (a second sandbox started where the first
// runs), it says both changes at once: with only a new address, the next
// run would stop at the folder.
func addrInUse(cfg config.Config) error {
	addr, out := cfg.Sandbox.Addr, cfg.Sandbox.OutDir
	unlock, err := lockOutDir(out)
	var busy *outDirBusyError
	if errors.As(err, &busy) {
		return fmt.Errorf("sandbox page: %s is already in use and %s: stop that sandbox, or give this one an address and a folder of its own, e.g. QWIXXBOT_SANDBOX_ADDR=%s QWIXXBOT_SANDBOX_OUT_DIR=%s go run ./cmd/qwixxbot%s",
			addr, busy.running(), otherAddr(addr), otherDir(out), busy.stale)
	}
	if err == nil {
		unlock()
	}
	return fmt.Errorf("sandbox page: %s is already in use (another sandbox, or another program): choose another address, e.g. QWIXXBOT_SANDBOX_ADDR=%s go run ./cmd/qwixxbot", addr, otherAddr(addr))
}

// configuredHost is the host name of the configured address ("" for an IP
// or none).
func configuredHost(addr string) string {
	h, _, err := net.SplitHostPort(addr)
	if err != nil || net.ParseIP(h) != nil {
		return ""
	}
	return h
}

// server is the page's HTTP server: its handler behind guard, with timeouts
// for slow clients (see pageLimits; the event streams set their own).
func (wt *webTable) server(host string) *http.Server {
	return &http.Server{
		Handler:           guard(host, wt.handler()),
		ReadHeaderTimeout: wt.limits.headerTimeout,
		IdleTimeout:       2 * time.Minute, // or until a new connection needs the room (connCap)
		MaxHeaderBytes:    16 << 10,
	}
}

// listener is ln holding at most wt.limits.maxConns connections of hs
// (connCap).
func (wt *webTable) listener(hs *http.Server, ln net.Listener) net.Listener {
	return capConns(hs, ln, wt.limits.maxConns, wt.limits.headerGrace)
}

// webTable is the sandbox's page: a browser client of the fake Discord.
// It shows the fake's channel as one of its users sees it (public messages
// and that user's ephemeral ones) and sends that user's commands, clicks
// and selections to the fake, which passes them to the bot as Discord
// would. It knows nothing of the game. It is a sandbox for one person who
// may play every seat: any client of the page can act as any of its users
// and read their private messages (?user= chooses whose view is shown, it
// proves nothing); guard keeps other web sites out.
type webTable struct {
	srv     *discordtest.Server
	ch      string
	users   []*discordtest.User
	limits  pageLimits
	streams streamSlots
	mu      sync.Mutex
	// locales holds each user's client locale, by ID, and "" the guild's.
	locales map[string]string
	// names holds each user's name, by ID (they may be renamed).
	names map[string]string
	// used says, by interaction ID, who ran which command from the page
	// (name, "qwixx new"): Discord shows it above the command's answer.
	used map[string][2]string
}

// newWebTable adds the named users to the fake (the first is the one the
// page plays as at first) and returns the page.
func newWebTable(srv *discordtest.Server, names []string) *webTable {
	wt := &webTable{srv: srv, ch: srv.DefaultChannel(), limits: defaultPageLimits, locales: map[string]string{"": "en-US"}, names: map[string]string{}, used: map[string][2]string{}}
	for i, n := range names {
		u := srv.AddUser(n, "en-US")
		if i == 0 {
			// The first user may manage the server, so that the server's
			// settings (/qwixx settings) can be tried too.
			u.SetPermissions(srv.DefaultGuild(), discordtest.DefaultMemberPermissions|discordgo.PermissionManageGuild|discordgo.PermissionManageMessages)
		}
		wt.users = append(wt.users, u)
		wt.locales[u.ID] = "en-US"
		wt.names[u.ID] = n
	}
	return wt
}

// handler serves the page, its files and its API:
//
//	GET  /                       the page
//	GET  /api/world              users, locales, the bot, the registered commands
//	GET  /api/events?user=ID     server-sent events: the channel as ID sees it
//	POST /api/command            {user, name, sub, options}
//	POST /api/click              {user, message, custom_id}
//	POST /api/select             {user, message, custom_id, values}
//	POST /api/locale             {user, locale} (user "" is the guild)
//	POST /api/rename             {user, name}
//	GET  /att/MESSAGE/FILENAME   an attachment's bytes
func (wt *webTable) handler() http.Handler {
	mux := http.NewServeMux()
	static, err := fs.Sub(webFiles, "web")
	if err != nil {
		panic("sandbox page: embedded files: " + err.Error())
	}
	mux.Handle("GET /", http.FileServerFS(static))
	mux.HandleFunc("GET /api/world", wt.world)
	mux.HandleFunc("GET /api/events", wt.events)
	mux.HandleFunc("POST /api/command", wt.command)
	mux.HandleFunc("POST /api/autocomplete", wt.autocomplete)
	mux.HandleFunc("POST /api/click", wt.click)
	mux.HandleFunc("POST /api/select", wt.click)
	mux.HandleFunc("POST /api/locale", wt.locale)
	mux.HandleFunc("POST /api/rename", wt.rename)
	mux.HandleFunc("GET /att/{msg}/{file}", wt.attachment)
	return mux
}

func (wt *webTable) user(id string) *discordtest.User {
	if i := slices.IndexFunc(wt.users, func(u *discordtest.User) bool { return u.ID == id }); i >= 0 {
		return wt.users[i]
	}
	return nil
}

// webUser is a user as the page lists them.
type webUser struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Locale string `json:"locale"`
}

func (wt *webTable) world(w http.ResponseWriter, r *http.Request) {
	wt.mu.Lock()
	var users []webUser
	for _, u := range wt.users {
		users = append(users, webUser{u.ID, wt.names[u.ID], wt.locales[u.ID]})
	}
	guildLocale := wt.locales[""]
	wt.mu.Unlock()
	var cmds []map[string]any
	for _, scope := range []string{wt.srv.DefaultGuild(), ""} {
		for _, name := range wt.srv.Commands(scope) {
			if c, ok := wt.srv.CommandJSON(scope, name); ok && !slices.ContainsFunc(cmds, func(c map[string]any) bool { return c["name"] == name }) {
				cmds = append(cmds, c)
			}
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"users": users, "guild_locale": guildLocale, "commands": cmds,
		"bot":     map[string]string{"id": wt.srv.BotUserID(), "name": "qwixxbot"},
		"channel": "qwixx", "channel_id": wt.ch,
	})
}

// webMessage is a message as the page draws it.
type webMessage struct {
	ID          string                    `json:"id"`
	Author      string                    `json:"author"`
	Bot         bool                      `json:"bot"`
	Content     string                    `json:"content"`
	Embeds      []*discordgo.MessageEmbed `json:"embeds"`
	Components  []discordtest.Component   `json:"components"`
	Attachments []webAttachment           `json:"attachments"`
	Ephemeral   bool                      `json:"ephemeral"`
	Loading     bool                      `json:"loading"`
	Edited      bool                      `json:"edited"`
	Version     int                       `json:"version"`
	Time        int64                     `json:"time"` // Unix milliseconds
	Deleted     bool                      `json:"deleted,omitempty"`
	// UsedBy and UsedCommand say who ran which command ("qwixx new") for
	// the answer to a command: Discord shows "Anna used /qwixx new".
	UsedBy      string `json:"used_by,omitempty"`
	UsedCommand string `json:"used_command,omitempty"`
}

type webAttachment struct {
	Filename string `json:"filename"`
	URL      string `json:"url"`
	Image    bool   `json:"image"`
}

func (wt *webTable) webMessage(m *discordtest.Message) webMessage {
	out := webMessage{
		ID: m.ID, Content: m.Content, Embeds: m.Embeds, Components: m.Components,
		Ephemeral: m.Ephemeral(), Loading: m.Loading(), Edited: !m.Edited.IsZero(),
		Version: m.Version, Time: m.Timestamp.UnixMilli(), Deleted: m.Deleted,
		Attachments: []webAttachment{},
	}
	if m.InteractionID != "" {
		wt.mu.Lock()
		used := wt.used[m.InteractionID]
		out.UsedBy, out.UsedCommand = used[0], used[1]
		wt.mu.Unlock()
	}
	switch {
	case m.AuthorID == wt.srv.BotUserID():
		out.Author, out.Bot = "qwixxbot", true
	case wt.user(m.AuthorID) != nil:
		wt.mu.Lock()
		out.Author = wt.names[m.AuthorID]
		wt.mu.Unlock()
	default:
		out.Author = "someone"
	}
	for _, a := range m.Attachments {
		out.Attachments = append(out.Attachments, webAttachment{
			Filename: a.Filename,
			URL:      fmt.Sprintf("/att/%s/%s?a=%s", m.ID, a.Filename, a.ID),
			Image:    strings.HasPrefix(a.ContentType, "image/") || strings.HasSuffix(a.Filename, ".png"),
		})
	}
	return out
}

// events streams the channel as the user sees it: first every visible
// message ("snapshot"), then each change ("message"), as server-sent
// events. Another user's ephemeral messages are not in it (the fake's
// per-user watcher does not report them), though any client may ask for
// any user's stream. Streams are bounded (pageLimits): in number, in a
// time without news (the page's EventSource then reconnects), and in how
// long a write may wait for a client that does not read.
func (wt *webTable) events(w http.ResponseWriter, r *http.Request) {
	u := wt.user(r.URL.Query().Get("user"))
	if u == nil {
		http.Error(w, "unknown user", http.StatusNotFound)
		return
	}
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	slot := wt.streams.take(u.ID, wt.limits, cancel)
	if slot == nil {
		w.Header().Set("Connection", "close")
		w.Header().Set("Retry-After", "5")
		http.Error(w, "too many open pages", http.StatusServiceUnavailable)
		return
	}
	defer wt.streams.release(u.ID, slot)
	rc := http.NewResponseController(w)
	// Watch first, then read the channel: a change in between is sent
	// twice, which the page takes as the same version again.
	watch := u.Watch(wt.ch)
	snap := []webMessage{}
	for _, m := range u.Messages(wt.ch) {
		snap = append(snap, wt.webMessage(m))
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	// A stream's connection ends with it (the page reconnects with a new
	// one), instead of idling in the server's connection limit.
	w.Header().Set("Connection", "close")
	write := func(format string, args ...any) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(wt.limits.writeTimeout))
		if _, err := fmt.Fprintf(w, format, args...); err != nil {
			return false
		}
		fl.Flush()
		return true
	}
	send := func(event string, v any) bool {
		b, err := json.Marshal(v)
		return err == nil && write("event: %s\ndata: %s\n\n", event, b)
	}
	if !send("snapshot", snap) {
		return
	}
	idle := time.Now()
	for {
		wctx, wcancel := context.WithTimeout(ctx, wt.limits.heartbeat)
		ev, err := watch.Next(wctx)
		wcancel()
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			if time.Since(idle) >= wt.limits.streamIdle || !write(": still here\n\n") {
				return
			}
			continue
		}
		if err != nil {
			return
		}
		idle = time.Now()
		m := wt.webMessage(ev.Message)
		m.Deleted = ev.Kind == discordtest.Deleted || m.Deleted
		if !send("message", m) {
			return
		}
	}
}

// webAction is what the page sends for a command, click or selection.
type webAction struct {
	User     string         `json:"user"`
	Name     string         `json:"name"`
	Sub      string         `json:"sub"`
	Options  map[string]any `json:"options"`
	Message  string         `json:"message"`
	CustomID string         `json:"custom_id"`
	Values   []string       `json:"values"`
	Locale   string         `json:"locale"`
	// Focused names the option being typed into (autocomplete).
	Focused string `json:"focused"`
}

// readAction reads a request of the page. It must be JSON: a form another
// web site posts to the loopback address cannot be, as browsers ask before
// sending JSON across sites (and the page's server never says yes).
func (wt *webTable) readAction(w http.ResponseWriter, r *http.Request) (webAction, bool) {
	var a webAction
	if ct, _, _ := strings.Cut(r.Header.Get("Content-Type"), ";"); ct != "application/json" {
		writeJSON(w, http.StatusUnsupportedMediaType, map[string]string{"error": "send JSON"})
		return a, false
	}
	readBodyWithin(w, r, wt.limits)
	if err := json.NewDecoder(r.Body).Decode(&a); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "bad request: " + err.Error()})
		return a, false
	}
	return a, true
}

// actor reads a request of the page and the user it acts as; it answers
// the request itself when either is wrong.
func (wt *webTable) actor(w http.ResponseWriter, r *http.Request) (webAction, *discordtest.User, bool) {
	a, ok := wt.readAction(w, r)
	if !ok {
		return a, nil, false
	}
	u := wt.user(a.User)
	if u == nil {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "unknown user"})
		return a, nil, false
	}
	return a, u, true
}

func (wt *webTable) command(w http.ResponseWriter, r *http.Request) {
	a, u, ok := wt.actor(w, r)
	if !ok {
		return
	}
	it, err := u.Command(wt.ch, a.Name, a.Sub, a.Options)
	if err == nil {
		wt.mu.Lock()
		wt.used[it.ID()] = [2]string{wt.names[u.ID], strings.TrimSpace(a.Name + " " + a.Sub)}
		wt.mu.Unlock()
	}
	wt.answer(w, r)(it, err)
}

// autocomplete asks the bot for the choices of an option registered with
// autocomplete while the user types into it, as Discord's client does, and
// returns them ({"choices": [{"name", "value"}]}, see answer).
func (wt *webTable) autocomplete(w http.ResponseWriter, r *http.Request) {
	a, u, ok := wt.actor(w, r)
	if !ok {
		return
	}
	wt.answer(w, r)(u.Autocomplete(wt.ch, a.Name, a.Sub, a.Options, a.Focused))
}

// click handles both buttons (no values) and select menus.
func (wt *webTable) click(w http.ResponseWriter, r *http.Request) {
	a, u, ok := wt.actor(w, r)
	if !ok {
		return
	}
	m := &discordtest.Message{ID: a.Message}
	if strings.HasSuffix(r.URL.Path, "/select") {
		wt.answer(w, r)(u.Select(m, a.CustomID, a.Values...))
		return
	}
	wt.answer(w, r)(u.Click(m, a.CustomID))
}

// answer waits until the bot has acknowledged the interaction and tells
// the page whether it failed, as Discord's client says "This interaction
// failed". What the bot answered reaches the page as message events.
func (wt *webTable) answer(w http.ResponseWriter, r *http.Request) func(*discordtest.Interaction, error) {
	return func(it *discordtest.Interaction, err error) {
		if err != nil {
			writeJSON(w, http.StatusConflict, map[string]string{"error": err.Error()})
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
		defer cancel()
		if err := it.Wait(ctx); err != nil {
			msg := "This interaction failed"
			if !errors.Is(err, discordtest.ErrInteractionFailed) {
				msg += ": " + err.Error()
			}
			writeJSON(w, http.StatusOK, map[string]string{"error": msg})
			return
		}
		out := map[string]any{"ok": true, "callback": it.CallbackType()}
		if it.CallbackType() == int(discordgo.InteractionApplicationCommandAutocompleteResult) {
			out["choices"] = it.AutocompleteChoices()
		}
		writeJSON(w, http.StatusOK, out)
	}
}

func (wt *webTable) locale(w http.ResponseWriter, r *http.Request) {
	a, ok := wt.readAction(w, r)
	if !ok {
		return
	}
	switch a.Locale {
	case "en-US", "en-GB", "de", "fr":
	default:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "unknown locale " + a.Locale})
		return
	}
	if a.User == "" {
		wt.srv.SetGuildLocale(wt.srv.DefaultGuild(), a.Locale)
	} else if u := wt.user(a.User); u != nil {
		u.SetLocale(a.Locale)
	} else {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "unknown user"})
		return
	}
	wt.mu.Lock()
	wt.locales[a.User] = a.Locale
	wt.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// maxNameLen is the longest name a sandbox user may take, in characters:
// Discord's limit for a display name.
const maxNameLen = 32

// rename gives a sandbox user a new name, which the fake Discord sends to
// the bot from then on (the bot takes a player's name when they open or
// join a table).
func (wt *webTable) rename(w http.ResponseWriter, r *http.Request) {
	a, u, ok := wt.actor(w, r)
	if !ok {
		return
	}
	name := strings.TrimSpace(a.Name)
	if n := utf8.RuneCountInString(name); n == 0 || n > maxNameLen || !utf8.ValidString(name) ||
		strings.ContainsFunc(name, func(r rune) bool { return unicode.IsControl(r) }) {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": fmt.Sprintf("a name has 1 to %d characters, and no control characters", maxNameLen)})
		return
	}
	wt.mu.Lock()
	defer wt.mu.Unlock()
	for id, other := range wt.names {
		if id != u.ID && other == name {
			writeJSON(w, http.StatusConflict, map[string]string{"error": "another player is called " + name})
			return
		}
	}
	u.SetName(name)
	wt.names[u.ID] = name
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// attachment serves a file of a message the page has shown. Ephemeral
// messages' files are served only to their user's page (?user=ID).
func (wt *webTable) attachment(w http.ResponseWriter, r *http.Request) {
	m, ok := wt.srv.Message(r.PathValue("msg"))
	if !ok || m.ChannelID != wt.ch {
		http.NotFound(w, r)
		return
	}
	if m.Ephemeral() && m.VisibleTo != r.URL.Query().Get("user") {
		http.NotFound(w, r)
		return
	}
	a, ok := m.Attachment(r.PathValue("file"))
	if !ok {
		http.NotFound(w, r)
		return
	}
	if a.ContentType != "" {
		w.Header().Set("Content-Type", a.ContentType)
	}
	w.Header().Set("Cache-Control", "private, max-age=3600")
	w.Write(a.Data)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
