package discordtest

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

func TestGatewayHandshakeAndHeartbeat(t *testing.T) {
	t.Parallel()
	srv := NewTestServer(t, Options{HeartbeatInterval: 100 * time.Millisecond})
	ready := make(chan *discordgo.Ready, 1)
	guilds := make(chan *discordgo.GuildCreate, 4)
	Connect(t, srv, func(s *discordgo.Session) {
		s.StateEnabled = false // the state cache would modify the events we read
		// With 100 ms heartbeats discordgo's Close races with its heartbeat
		// goroutine, which then reconnects forever; a lost ACK still shows
		// as Connected == 0 below.
		s.ShouldReconnectOnError = false
		s.AddHandler(func(_ *discordgo.Session, r *discordgo.Ready) { ready <- r })
		s.AddHandler(func(_ *discordgo.Session, g *discordgo.GuildCreate) { guilds <- g })
	})
	r := recv(t, ready)
	if r.SessionID == "" || r.User == nil || r.User.ID != srv.BotUserID() || !r.User.Bot {
		t.Errorf("READY session %q user %+v, want a session and bot user %s", r.SessionID, r.User, srv.BotUserID())
	}
	if r.Application == nil || r.Application.ID != srv.ApplicationID() {
		t.Errorf("READY application = %+v, want %s", r.Application, srv.ApplicationID())
	}
	if len(r.Guilds) != 1 || !r.Guilds[0].Unavailable || r.Guilds[0].ID != srv.DefaultGuild() {
		t.Errorf("READY guilds = %+v, want the default guild, unavailable", r.Guilds)
	}
	g := recv(t, guilds)
	if g.ID != srv.DefaultGuild() || len(g.Channels) != 1 || g.Channels[0].Name != "general" || g.Channels[0].ID != srv.DefaultChannel() {
		t.Errorf("GUILD_CREATE = %s with %+v, want the default guild with #general", g.ID, g.Channels)
	}
	// A guild added later arrives as GUILD_CREATE on the live connection.
	id := srv.AddGuild("Second", "fr")
	if g2 := recv(t, guilds); g2.ID != id || g2.PreferredLocale != "fr" {
		t.Errorf("late GUILD_CREATE = %s %q, want %s fr", g2.ID, g2.PreferredLocale, id)
	}

	// discordgo reconnects if 5 intervals pass without an ACK; at 100 ms that
	// would show up as a second identify or a resume.
	if err := srv.Wait(ctx(t), func() bool { return srv.GatewayStats().Heartbeats >= 8 }); err != nil {
		t.Fatal(err)
	}
	if st := srv.GatewayStats(); st.Identifies != 1 || st.Resumes != 0 || st.Connected != 1 {
		t.Errorf("after 8 heartbeats: %+v, want 1 identify, no resume, 1 connection", st)
	}
}

func TestGatewayResumeAfterDrop(t *testing.T) {
	h := newHarness(t, Options{})
	h.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		_ = s.InteractionRespond(i.Interaction, reply("pong"))
	})
	if n := h.srv.DropGateway(); n != 1 {
		t.Fatalf("dropped %d connections, want 1", n)
	}
	// Sent while discordgo is reconnecting: it must arrive by replay on RESUME.
	it, err := h.alice.Command(h.ch, "qwixx", "hand", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := it.Wait(ctx(t)); err != nil {
		t.Fatalf("interaction sent during the drop: %v", err)
	}
	if err := h.srv.WaitConnected(ctx(t), 1); err != nil {
		t.Fatal(err)
	}
	if st := h.srv.GatewayStats(); st.Identifies != 1 || st.Resumes != 1 {
		t.Errorf("gateway stats %+v, want 1 identify and 1 resume", st)
	}
	if m, _ := it.Response(); m == nil || m.Content != "pong" {
		t.Errorf("response %+v, want pong", m)
	}
	if !strings.Contains(h.transcript.String(), "RESUME ok") {
		t.Error("transcript does not mention the resume")
	}
}

func TestGatewayRejectsBadIdentify(t *testing.T) {
	t.Parallel()
	srv := NewTestServer(t, Options{})
	for _, tc := range []struct {
		name    string
		token   string
		intents discordgo.Intent
		want    string
	}{
		{"wrong token", "Bot nope", discordgo.IntentsAllWithoutPrivileged, "4004"},
		{"privileged intent", "Bot " + srv.Token(), discordgo.IntentsAllWithoutPrivileged | discordgo.IntentMessageContent, "4014"},
	} {
		s, _ := discordgo.New(tc.token)
		s.Client = srv.Client()
		s.LogLevel = -1
		s.Identify.Intents = tc.intents
		err := s.Open()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Open() = %v, want close %s", tc.name, err, tc.want)
		}
		if err == nil {
			_ = s.Close()
		}
	}
	bad, _ := discordgo.New("Bot nope")
	bad.Client = srv.Client()
	if _, err := bad.User("@me"); err == nil {
		t.Error("REST with a wrong token succeeded")
	} else if st, _ := restErr(t, err); st != 401 {
		t.Errorf("REST with a wrong token: status %d, want 401", st)
	}
	// The same intent is fine once enabled for the application.
	srv2 := NewTestServer(t, Options{PrivilegedIntents: int64(discordgo.IntentMessageContent)})
	Connect(t, srv2, func(s *discordgo.Session) { s.Identify.Intents |= discordgo.IntentMessageContent })
	if st := srv2.GatewayStats(); st.Identifies != 1 {
		t.Errorf("enabled privileged intent: %+v, want 1 identify", st)
	}
}

// rawGateway is a bare websocket client for protocol-level checks.
type rawGateway struct {
	t  *testing.T
	ws *websocket.Conn
}

func dialRaw(t *testing.T, srv *Server) *rawGateway {
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial(srv.GatewayURL()+"/?v=10&encoding=json", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	g := &rawGateway{t, ws}
	if p := g.read(); p.Op != 10 {
		t.Fatalf("first payload op %d, want HELLO", p.Op)
	}
	return g
}

type rawPayload struct {
	Op int             `json:"op"`
	S  int64           `json:"s"`
	T  string          `json:"t"`
	D  json.RawMessage `json:"d"`
}

func (g *rawGateway) send(op int, d any) {
	if err := g.ws.WriteJSON(map[string]any{"op": op, "d": d}); err != nil {
		g.t.Fatal(err)
	}
}

func (g *rawGateway) read() rawPayload {
	g.t.Helper()
	_ = g.ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	var p rawPayload
	if err := g.ws.ReadJSON(&p); err != nil {
		g.t.Fatal(err)
	}
	return p
}

func TestGatewayProtocol(t *testing.T) {
	t.Parallel()
	srv := NewTestServer(t, Options{})
	gid, _ := strconv.ParseUint(srv.DefaultGuild(), 10, 64)
	home := int((gid >> 22) % 2)
	for shard := range 2 {
		g := dialRaw(t, srv)
		g.send(2, map[string]any{"token": srv.Token(), "intents": 513, "shard": []int{shard, 2}})
		p := g.read()
		var ready struct {
			SessionID string `json:"session_id"`
			Guilds    []struct{ ID string }
		}
		if err := json.Unmarshal(p.D, &ready); err != nil || p.T != "READY" || p.S != 1 {
			t.Fatalf("shard %d: first dispatch %s seq %d (%v), want READY seq 1", shard, p.T, p.S, err)
		}
		if got := len(ready.Guilds) == 1; got != (shard == home) {
			t.Errorf("shard %d of 2 got guilds %v; the default guild belongs to shard %d", shard, ready.Guilds, home)
		}
		if shard != home {
			continue
		}
		if p := g.read(); p.T != "GUILD_CREATE" || p.S != 2 {
			t.Errorf("after READY: %s seq %d, want GUILD_CREATE seq 2", p.T, p.S)
		}
		g.send(1, 2)
		if p := g.read(); p.Op != 11 {
			t.Errorf("heartbeat answered with op %d, want 11", p.Op)
		}
		// Events sent while the connection is gone are replayed on RESUME.
		before := srv.GatewayStats().Connected
		g.ws.Close()
		if err := srv.Wait(ctx(t), func() bool { return srv.GatewayStats().Connected == before-1 }); err != nil {
			t.Fatal(err)
		}
		ch := srv.AddChannel(srv.DefaultGuild(), "late")
		g2 := dialRaw(t, srv)
		g2.send(6, map[string]any{"token": srv.Token(), "session_id": ready.SessionID, "seq": 2})
		if p := g2.read(); p.T != "CHANNEL_CREATE" || p.S != 3 || !strings.Contains(string(p.D), ch) {
			t.Errorf("replay: %s seq %d, want CHANNEL_CREATE seq 3", p.T, p.S)
		}
		if p := g2.read(); p.T != "RESUMED" || p.S != 4 {
			t.Errorf("after replay: %s seq %d, want RESUMED seq 4", p.T, p.S)
		}
	}
	g := dialRaw(t, srv)
	g.send(6, map[string]any{"token": srv.Token(), "session_id": "nope", "seq": 1})
	if p := g.read(); p.Op != 9 {
		t.Errorf("resume of an unknown session: op %d, want 9", p.Op)
	}
	g = dialRaw(t, srv)
	g.send(3, map[string]any{"status": "online"})
	_ = g.ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	var ce *websocket.CloseError
	if _, _, err := g.ws.ReadMessage(); !errors.As(err, &ce) || ce.Code != 4003 {
		t.Errorf("payload before IDENTIFY: %v, want close 4003", err)
	}
}

func TestGatewayOutageResumes(t *testing.T) {
	h := newHarness(t, Options{InteractionDeadline: 500 * time.Millisecond})
	seen := make(chan string, 8)
	h.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		seen <- i.ID
		_ = s.InteractionRespond(i.Interaction, reply("pong"))
	})
	h.srv.SetGatewayDown(true)
	if st := h.srv.GatewayStats(); !st.Down {
		t.Fatalf("stats %+v, want down", st)
	}
	// discordgo is cut off and its reconnect attempts are refused.
	if err := h.srv.Wait(ctx(t), func() bool {
		st := h.srv.GatewayStats()
		return st.Connected == 0 && st.Refused >= 1
	}); err != nil {
		t.Fatal(err)
	}
	// REST still works; an interaction fails as no bot can get it.
	if _, err := h.sess.ChannelMessageSend(h.ch, "REST is up"); err != nil {
		t.Errorf("REST during the outage: %v", err)
	}
	lost, _ := h.alice.Command(h.ch, "qwixx", "hand", nil)
	if err := lost.Wait(ctx(t)); !errors.Is(err, ErrInteractionFailed) {
		t.Fatalf("interaction during the outage: %v, want failed", err)
	}
	h.srv.SetGatewayDown(false)
	if err := h.srv.Wait(ctx(t), func() bool { return h.srv.GatewayStats().Resumes == 1 }); err != nil {
		t.Fatal(err)
	}
	if err := h.srv.WaitConnected(ctx(t), 1); err != nil {
		t.Fatal(err)
	}
	it, _ := h.alice.Command(h.ch, "qwixx", "hand", nil)
	if m, err := it.WaitResponse(ctx(t)); err != nil || m.Content != "pong" {
		t.Fatalf("after the outage: %+v %v", m, err)
	}
	// The failed interaction was not replayed on RESUME.
	if id := recv(t, seen); id != it.ID() {
		t.Errorf("the bot got %s first, want only %s (not the failed %s)", id, it.ID(), lost.ID())
	}
	if st := h.srv.GatewayStats(); st.Identifies != 1 || st.Resumes != 1 || st.Down {
		t.Errorf("stats %+v, want one identify and one resume", st)
	}
	if st := h.srv.InteractionStats(); st.Failed != 1 || st.Answered != 1 || st.Late != 0 {
		t.Errorf("interaction stats %+v", st)
	}
}

func TestGatewayDownProtocol(t *testing.T) {
	t.Parallel()
	for _, deadline := range []time.Duration{100 * time.Millisecond, time.Hour} {
		srv := NewTestServer(t, Options{InteractionDeadline: deadline})
		alice := srv.AddUser("alice", "")
		g := dialRaw(t, srv)
		g.send(2, map[string]any{"token": srv.Token(), "intents": 513})
		var ready struct {
			SessionID string `json:"session_id"`
		}
		_ = json.Unmarshal(g.read().D, &ready)
		if p := g.read(); p.T != "GUILD_CREATE" {
			t.Fatalf("got %s, want GUILD_CREATE", p.T)
		}
		srv.GatewayDown(time.Hour)
		_ = g.ws.SetReadDeadline(time.Now().Add(5 * time.Second))
		var ce *websocket.CloseError
		if _, _, err := g.ws.ReadMessage(); !errors.As(err, &ce) || ce.Code != websocket.CloseGoingAway {
			t.Errorf("connection at the outage: %v, want close 1001", err)
		}
		_, resp, err := websocket.DefaultDialer.Dial(srv.GatewayURL()+"/?v=10&encoding=json", nil)
		if err == nil || resp == nil || resp.StatusCode != 503 {
			t.Errorf("dial during the outage: %v %v, want HTTP 503", err, resp)
		}
		it, _ := alice.ForgeCommand(srv.DefaultChannel(), map[string]any{"name": "help"})
		if deadline < time.Hour {
			if err := it.Wait(ctx(t)); !errors.Is(err, ErrInteractionFailed) {
				t.Fatalf("interaction during the outage: %v", err)
			}
		}
		srv.SetGatewayDown(false) // cancels the hour
		if st := srv.GatewayStats(); st.Down || st.Refused != 1 {
			t.Errorf("stats %+v, want up again after 1 refusal", st)
		}
		g2 := dialRaw(t, srv)
		g2.send(6, map[string]any{"token": srv.Token(), "session_id": ready.SessionID, "seq": 2})
		p := g2.read()
		if deadline < time.Hour {
			if p.T != "RESUMED" {
				t.Errorf("resume after a failed interaction: %s, want RESUMED without replaying it", p.T)
			}
			continue
		}
		if p.T != "INTERACTION_CREATE" || !strings.Contains(string(p.D), it.ID()) {
			t.Errorf("resume within the deadline: %s, want the queued INTERACTION_CREATE", p.T)
		}
		if p := g2.read(); p.T != "RESUMED" {
			t.Errorf("after replay: %s, want RESUMED", p.T)
		}
	}
	// GatewayDown ends by itself.
	srv := NewTestServer(t, Options{})
	srv.GatewayDown(time.Millisecond)
	if err := srv.Wait(ctx(t), func() bool { return !srv.GatewayStats().Down }); err != nil {
		t.Fatal(err)
	}
	dialRaw(t, srv)
}
