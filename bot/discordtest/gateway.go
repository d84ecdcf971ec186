package discordtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	fastjson "github.com/segmentio/encoding/json"
)

// Gateway intents that change what the fake sends.
const (
	intentGuilds          = 1 << 0
	intentGuildMembers    = 1 << 1
	intentGuildPresences  = 1 << 8
	intentGuildMessages   = 1 << 9
	intentDirectMessages  = 1 << 12
	intentMessageContent  = 1 << 15
	privilegedIntents     = intentGuildMembers | intentGuildPresences | intentMessageContent
	gatewayReplayCapacity = 2000
)

type gwFrame struct {
	seq int64
	raw []byte
	iid string // INTERACTION_CREATE: the interaction ID
}

// gwSession is a gateway session: it outlives connections so it can resume.
type gwSession struct {
	id      string
	shard   [2]int
	intents int64
	seq     int64
	buf     []gwFrame
	conn    *gwConn
}

type gwConn struct {
	ws        *websocket.Conn
	out       chan []byte
	done      chan struct{}
	closeOnce sync.Once
	sess      *gwSession
}

func (c *gwConn) close() {
	c.closeOnce.Do(func() {
		close(c.done)
		_ = c.ws.Close()
	})
}

// closeWith sends a close frame with code and reason, then closes.
func (c *gwConn) closeWith(code int, reason string) {
	_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(time.Second))
}

// send queues a frame; a connection that cannot keep up is dropped.
func (c *gwConn) send(b []byte) {
	select {
	case c.out <- b:
	case <-c.done:
	default:
		c.close()
	}
}

func (c *gwConn) writer() {
	for {
		select {
		case b := <-c.out:
			if err := c.ws.WriteMessage(websocket.TextMessage, b); err != nil {
				c.close()
				return
			}
		case <-c.done:
			return
		}
	}
}

// mustJSON writes a payload the fake sends, with segmentio/encoding's
// JSON (what encoding/json writes, map keys sorted, in about half the
// time: the gateway's events were a tenth of the load harness's CPU).
func mustJSON(v any) []byte {
	b, err := fastjson.Marshal(v)
	if err != nil {
		panic("discordtest: marshal: " + err.Error())
	}
	return b
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

var upgrader = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}

func (s *Server) handleGateway(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	down := s.gwDown
	if down {
		s.gwRefused++
		s.notifyLocked()
	}
	s.mu.Unlock()
	if down {
		// What a client sees when the gateway behind Discord's edge is
		// unavailable: the websocket upgrade fails with 503.
		s.logf("gateway", "gateway down: connection refused with 503")
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{"message": "503: Service Unavailable", "code": 0})
		return
	}
	ws, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		s.logf("gateway", "upgrade failed: %v", err)
		return
	}
	c := &gwConn{ws: ws, out: make(chan []byte, 4096), done: make(chan struct{})}
	s.mu.Lock()
	if s.closed || s.gwDown {
		s.mu.Unlock()
		c.closeWith(websocket.CloseGoingAway, "Gateway unavailable.")
		_ = ws.Close()
		return
	}
	s.conns[c] = struct{}{}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.conns, c)
		if c.sess != nil && c.sess.conn == c {
			c.sess.conn = nil
		}
		s.notifyLocked()
		s.mu.Unlock()
		c.close()
	}()
	go c.writer()
	c.send(mustJSON(map[string]any{"op": 10, "s": nil, "t": nil,
		"d": map[string]any{"heartbeat_interval": s.opts.HeartbeatInterval.Milliseconds()}}))
	s.logf("gateway", "connection opened, HELLO sent")

	for {
		_, data, err := ws.ReadMessage()
		if err != nil {
			s.logf("gateway", "connection closed: %v", err)
			return
		}
		var p struct {
			Op int             `json:"op"`
			D  json.RawMessage `json:"d"`
		}
		ok := json.Unmarshal(data, &p) == nil
		if !ok {
			c.closeWith(4002, "Error while decoding payload.")
		}
		if !ok || !s.gatewayOp(c, p.Op, p.D) {
			// A close frame was sent: let the client read it and hang up.
			_ = ws.SetReadDeadline(time.Now().Add(2 * time.Second))
			for {
				if _, _, err := ws.ReadMessage(); err != nil {
					return
				}
			}
		}
	}
}

// gatewayOp handles one client payload; false means the connection is done.
func (s *Server) gatewayOp(c *gwConn, op int, d json.RawMessage) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch op {
	case 1: // heartbeat
		s.heartbeats++
		c.send(mustJSON(map[string]any{"op": 11, "d": nil}))
		s.notifyLocked()
		return true
	case 2:
		return s.identifyLocked(c, d)
	case 6:
		return s.resumeLocked(c, d)
	}
	if c.sess == nil {
		c.closeWith(4003, "Not authenticated.")
		return false
	}
	switch op {
	case 3, 4, 8: // presence, voice state, request guild members: accepted, ignored
		return true
	}
	c.closeWith(4001, "Unknown opcode.")
	return false
}

func (s *Server) tokenOK(tok string) bool {
	return strings.TrimPrefix(tok, "Bot ") == s.opts.Token
}

func (s *Server) identifyLocked(c *gwConn, d json.RawMessage) bool {
	var id struct {
		Token   string `json:"token"`
		Intents int64  `json:"intents"`
		Shard   *[2]int
	}
	if err := json.Unmarshal(d, &id); err != nil {
		c.closeWith(4002, "Error while decoding payload.")
		return false
	}
	if c.sess != nil {
		c.closeWith(4005, "Already authenticated.")
		return false
	}
	if !s.tokenOK(id.Token) {
		s.logf("gateway", "IDENTIFY with wrong token: closing 4004")
		c.closeWith(4004, "Authentication failed.")
		return false
	}
	if bad := id.Intents & privilegedIntents &^ s.opts.PrivilegedIntents; bad != 0 {
		s.logf("gateway", "IDENTIFY with disallowed intents %d: closing 4014", bad)
		c.closeWith(4014, "Disallowed intent(s).")
		return false
	}
	shard := [2]int{0, 1}
	if id.Shard != nil {
		shard = *id.Shard
	}
	if shard[1] < 1 || shard[0] < 0 || shard[0] >= shard[1] {
		c.closeWith(4010, "Invalid shard.")
		return false
	}
	bucket := shard[0] % max(s.opts.MaxConcurrency, 1)
	if last, ok := s.lastIdentify[bucket]; ok && time.Since(last) < identifyInterval {
		s.identifyTooSoon++
		s.logf("gateway", "IDENTIFY of shard %v %v after the last of its bucket %d (Discord allows one per %v)", shard, time.Since(last).Round(time.Millisecond), bucket, identifyInterval)
	}
	if s.lastIdentify == nil {
		s.lastIdentify = map[int]time.Time{}
	}
	s.lastIdentify[bucket] = time.Now()
	sess := &gwSession{id: randomHex(16), shard: shard, intents: id.Intents, conn: c}
	c.sess = sess
	s.sessions[sess.id] = sess
	s.identifies++
	var guilds []any
	var mine []*guild
	for _, gid := range s.guildOrder {
		if sess.hasGuild(gid) {
			guilds = append(guilds, map[string]any{"id": gid, "unavailable": true})
			mine = append(mine, s.guilds[gid])
		}
	}
	if guilds == nil {
		guilds = []any{}
	}
	s.sendLocked(sess, "READY", map[string]any{
		"v": 10, "user": s.users[s.botID].json(), "guilds": guilds, "session_id": sess.id,
		"resume_gateway_url": s.GatewayURL(), "shard": shard, "session_type": "normal",
		"application": map[string]any{"id": s.appID, "flags": 0}, "private_channels": []any{},
		"presences": []any{}, "relationships": []any{}, "user_settings": map[string]any{},
		"geo_ordered_rtc_regions": []any{}, "auth": map[string]any{},
	})
	for _, g := range mine {
		s.sendLocked(sess, "GUILD_CREATE", s.guildJSON(g))
	}
	s.logf("gateway", "IDENTIFY ok: session %s shard %v intents %d, READY + %d GUILD_CREATE", sess.id[:8], shard, id.Intents, len(mine))
	s.notifyLocked()
	return true
}

func (s *Server) resumeLocked(c *gwConn, d json.RawMessage) bool {
	var rs struct {
		Token     string `json:"token"`
		SessionID string `json:"session_id"`
		Seq       int64  `json:"seq"`
	}
	if err := json.Unmarshal(d, &rs); err != nil {
		c.closeWith(4002, "Error while decoding payload.")
		return false
	}
	if !s.tokenOK(rs.Token) {
		c.closeWith(4004, "Authentication failed.")
		return false
	}
	sess := s.sessions[rs.SessionID]
	if sess == nil || (len(sess.buf) > 0 && sess.buf[0].seq > rs.Seq+1) {
		s.logf("gateway", "RESUME of unknown session: INVALID_SESSION")
		c.send(mustJSON(map[string]any{"op": 9, "d": false}))
		return true
	}
	if old := sess.conn; old != nil && old != c {
		old.close()
	}
	sess.conn = c
	c.sess = sess
	s.resumes++
	n := 0
	for _, f := range sess.buf {
		if it := s.interactions[f.iid]; it != nil && it.failed {
			continue // failed by the deadline while the bot was away
		}
		if f.seq > rs.Seq {
			c.send(f.raw)
			n++
		}
	}
	s.sendLocked(sess, "RESUMED", map[string]any{})
	s.logf("gateway", "RESUME ok: session %s from seq %d, replayed %d events", sess.id[:8], rs.Seq, n)
	s.notifyLocked()
	return true
}

func (g *gwSession) hasGuild(guildID string) bool {
	if guildID == "" {
		return g.shard[0] == 0
	}
	id, err := strconv.ParseUint(guildID, 10, 64)
	if err != nil {
		return g.shard[0] == 0
	}
	return int((id>>22)%uint64(g.shard[1])) == g.shard[0]
}

// sendLocked sends a dispatch to one session, buffering it for resume.
func (s *Server) sendLocked(sess *gwSession, t string, d any) {
	sess.seq++
	raw := mustJSON(map[string]any{"op": 0, "s": sess.seq, "t": t, "d": d})
	f := gwFrame{seq: sess.seq, raw: raw}
	if m, ok := d.(map[string]any); ok && t == "INTERACTION_CREATE" {
		f.iid, _ = m["id"].(string)
	}
	sess.buf = append(sess.buf, f)
	if capacity := s.replayCapacity(); len(sess.buf) > capacity {
		// Drop from the front by reslicing (append copies the kept
		// frames when it grows the array): shifting the whole buffer at
		// every event was a few per cent of the fake's time under load.
		drop := len(sess.buf) - capacity
		clear(sess.buf[:drop])
		sess.buf = sess.buf[drop:]
	}
	if sess.conn != nil {
		sess.conn.send(raw)
	}
}

// replayCapacity is how many events a session keeps for RESUME:
// gatewayReplayCapacity, or Options.History when that is smaller.
func (s *Server) replayCapacity() int {
	if h := s.opts.History; h > 0 && h < gatewayReplayCapacity {
		return h
	}
	return gatewayReplayCapacity
}

var eventIntents = map[string]int64{
	"GUILD_CREATE": intentGuilds, "GUILD_DELETE": intentGuilds, "CHANNEL_CREATE": intentGuilds, "THREAD_CREATE": intentGuilds,
	"MESSAGE_CREATE": intentGuildMessages, "MESSAGE_UPDATE": intentGuildMessages, "MESSAGE_DELETE": intentGuildMessages,
}

// dispatchLocked sends an event to every session that handles guildID
// ("" = DMs, shard 0) and asked for the event's intent.
func (s *Server) dispatchLocked(t string, d any, guildID string) {
	for _, sess := range s.sessions {
		if sess.wants(t, guildID) {
			s.sendLocked(sess, t, d)
		}
	}
}

// wantsLocked reports whether any session receives event t of guildID, so
// that an event nobody receives need not be built.
func (s *Server) wantsLocked(t, guildID string) bool {
	for _, sess := range s.sessions {
		if sess.wants(t, guildID) {
			return true
		}
	}
	return false
}

// wants reports whether the session receives event t of guildID.
func (g *gwSession) wants(t, guildID string) bool {
	if !g.hasGuild(guildID) {
		return false
	}
	need := eventIntents[t]
	if guildID == "" && need == intentGuildMessages {
		need = intentDirectMessages
	}
	return need == 0 || g.intents&need != 0
}

// DropGateway abruptly closes every gateway connection (as a network failure
// would), leaving the sessions resumable. It returns how many were dropped.
func (s *Server) DropGateway() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for c := range s.conns {
		c.close()
		n++
	}
	s.logf("gateway", "dropped %d connection(s)", n)
	return n
}

// RequestReconnect sends op 7 RECONNECT to every connection.
func (s *Server) RequestReconnect() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		c.send(mustJSON(map[string]any{"op": 7, "d": nil}))
	}
}

// identifyInterval is how often Discord takes an IDENTIFY per identify
// bucket (shard ID modulo max_concurrency).
const identifyInterval = 5 * time.Second

// LastIdentify is when the newest IDENTIFY came (zero if none).
func (s *Server) LastIdentify() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	var last time.Time
	for _, t := range s.lastIdentify {
		if t.After(last) {
			last = t
		}
	}
	return last
}

// GatewayStats counts gateway activity.
type GatewayStats struct {
	Identifies, Resumes, Heartbeats int
	// IdentifyTooSoon counts IDENTIFYs that came within 5 s of the last
	// one of their identify bucket (Options.MaxConcurrency).
	IdentifyTooSoon int
	// Connected is the number of sessions with a live connection.
	Connected int
	// Refused counts connection attempts refused while the gateway was
	// down (SetGatewayDown, GatewayDown).
	Refused int
	// Down reports whether the gateway is down now.
	Down bool
}

// GatewayStats returns the gateway counters.
func (s *Server) GatewayStats() GatewayStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gatewayStatsLocked()
}

func (s *Server) gatewayStatsLocked() GatewayStats {
	st := GatewayStats{Identifies: s.identifies, IdentifyTooSoon: s.identifyTooSoon, Resumes: s.resumes, Heartbeats: s.heartbeats,
		Refused: s.gwRefused, Down: s.gwDown}
	for _, sess := range s.sessions {
		if sess.conn != nil {
			st.Connected++
		}
	}
	return st
}

// WaitConnected waits until at least n gateway sessions are connected.
func (s *Server) WaitConnected(ctx context.Context, n int) error {
	return s.waitLocked(ctx, func() bool { return s.gatewayStatsLocked().Connected >= n })
}

// SetGatewayDown takes the gateway down (true) or brings it back (false).
// Going down closes every connection with close code 1001 (Going Away),
// which clients such as discordgo treat as resumable, and answers every new
// websocket upgrade with HTTP 503 until the gateway is back; discordgo keeps
// retrying with its backoff (1 s, 2 s, 4 s, …) and resumes its session once
// it can connect. REST keeps working. Events meanwhile, interactions
// included, are queued for the sessions; an interaction whose deadline
// passes before its bot is back fails ("This interaction failed") and is
// left out of the replay on RESUME, so the bot never sees it. Coming back
// cancels the timer of GatewayDown.
func (s *Server) SetGatewayDown(down bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.setGatewayDownLocked(down)
}

// GatewayDown takes the gateway down (see SetGatewayDown) and brings it back
// after d of real time, or earlier by SetGatewayDown(false).
func (s *Server) GatewayDown(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.setGatewayDownLocked(true)
	var t *time.Timer
	t = time.AfterFunc(d, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.gwDownTimer == t && !s.closed {
			s.setGatewayDownLocked(false)
		}
	})
	s.gwDownTimer = t
}

func (s *Server) setGatewayDownLocked(down bool) {
	if s.gwDownTimer != nil {
		s.gwDownTimer.Stop()
		s.gwDownTimer = nil
	}
	if s.gwDown == down {
		return
	}
	s.gwDown = down
	if down {
		for c := range s.conns {
			c.closeWith(websocket.CloseGoingAway, "Gateway unavailable.")
			c.close()
		}
		s.logf("gateway", "gateway down: %d connection(s) closed with 1001", len(s.conns))
	} else {
		s.logf("gateway", "gateway back up")
	}
	s.notifyLocked()
}
