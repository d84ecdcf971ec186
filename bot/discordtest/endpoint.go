package discordtest

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"
)

// The interactions endpoint: Discord's second way of delivering
// interactions. With an endpoint URL set (SetInteractionsEndpoint), every
// interaction a user starts is POSTed there, signed with the application's
// Ed25519 key (X-Signature-Ed25519 over X-Signature-Timestamp and the
// body), instead of being sent as INTERACTION_CREATE on the gateway; the
// HTTP response is the interaction's callback, checked exactly as one sent
// to POST /interactions/{id}/{token}/callback (schema included). The
// deadline, the token and its follow-ups are those of every interaction.

// endpointKeys is the application's key pair, made once per server.
type endpointKeys struct {
	pub  ed25519.PublicKey
	priv ed25519.PrivateKey
}

func newEndpointKeys() endpointKeys {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		panic("discordtest: ed25519 key: " + err.Error())
	}
	return endpointKeys{pub: pub, priv: priv}
}

// InteractionsPublicKey is the application's public key in hexadecimal,
// as the developer portal shows it (the bot's discord.public_key).
func (s *Server) InteractionsPublicKey() string { return hex.EncodeToString(s.keys.pub) }

// SetInteractionsEndpoint sets the interactions endpoint URL (the
// developer portal's "Interactions Endpoint URL"): from now on, every
// interaction is POSTed there instead of being sent on the gateway. Empty
// goes back to the gateway.
func (s *Server) SetInteractionsEndpoint(url string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.endpoint = url
}

// EndpointStats counts what the interactions endpoint answered.
type EndpointStats struct {
	// Posted is the number of interactions POSTed; Answered those whose
	// response was taken as their callback.
	Posted, Answered int
	// Refused counts responses other than 200 (and failed requests),
	// BadCallbacks 200 responses that the callback route refused (its
	// error in the request log, a schema violation in SchemaViolations).
	Refused, BadCallbacks int
}

// EndpointStats reports the interactions endpoint's counts.
func (s *Server) EndpointStats() EndpointStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.epStats
}

// sign signs body with the application's key at ts (Unix seconds).
func (s *Server) sign(ts string, body []byte) string {
	msg := append([]byte(ts), body...)
	return hex.EncodeToString(ed25519.Sign(s.keys.priv, msg))
}

// endpointClient is the client Discord's side posts with (one, keeping
// its connections for the next interactions): no proxy, and a request
// ends with the interaction's deadline and a little more.
func (s *Server) endpointClient() *http.Client { return s.epClient }

// newEndpointClient makes the server's endpointClient.
func newEndpointClient(deadline time.Duration) *http.Client {
	return &http.Client{Timeout: deadline + 2*time.Second,
		Transport: &http.Transport{Proxy: nil, MaxIdleConns: 1024, MaxIdleConnsPerHost: 1024, IdleConnTimeout: 30 * time.Second}}
}

// postInteractionLocked POSTs the interaction's payload to the endpoint
// in the background.
func (s *Server) postInteractionLocked(it *interaction, p map[string]any) {
	if s.closed {
		return
	}
	body := mustJSON(p)
	url := s.endpoint
	it.posted = make(chan struct{})
	s.epStats.Posted++
	s.holds.Add(1)
	go func() {
		defer s.holds.Done()
		s.postInteraction(it, url, body)
	}()
}

func (s *Server) postInteraction(it *interaction, url string, body []byte) {
	defer close(it.posted)
	ctx, cancel := context.WithTimeout(context.Background(), s.opts.InteractionDeadline+2*time.Second)
	defer cancel()
	go func() {
		select {
		case <-s.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	status, ctype, resp, err := s.postSigned(ctx, url, body, true)
	if err != nil || status != http.StatusOK {
		s.mu.Lock()
		s.epStats.Refused++
		s.notifyLocked()
		s.mu.Unlock()
		s.logf("discord", "interactions endpoint: interaction %s: status %d, error %v", it.id, status, err)
		return
	}
	if !s.holdForReorder(it) {
		return // closed while held
	}
	s.takeResponse(it, ctype, resp)
}

// takeResponse takes an endpoint's response to it as its callback.
func (s *Server) takeResponse(it *interaction, ctype string, resp []byte) {
	// The response is the callback: through the callback route's checks.
	req, err := http.NewRequest(http.MethodPost, "/api/v10/interactions/"+it.id+"/"+it.token+"/callback", bytes.NewReader(resp))
	if err != nil {
		return
	}
	req.Header.Set("Content-Type", ctype)
	req.ContentLength = int64(len(resp))
	rec := &recorder{h: http.Header{}, code: http.StatusOK}
	s.hs.Handler.ServeHTTP(rec, req)
	s.mu.Lock()
	if rec.code >= 300 {
		s.epStats.BadCallbacks++
	} else {
		s.epStats.Answered++
	}
	s.notifyLocked()
	s.mu.Unlock()
	if rec.code >= 300 {
		s.logf("discord", "interactions endpoint: response to %s refused as a callback: %d %s", it.id, rec.code, rec.body.String())
	}
}

// recorder is the http.ResponseWriter of a response taken as a callback
// (net/http/httptest's, which the release binary must not link).
type recorder struct {
	h    http.Header
	code int
	body bytes.Buffer
}

func (r *recorder) Header() http.Header         { return r.h }
func (r *recorder) WriteHeader(code int)        { r.code = code }
func (r *recorder) Write(b []byte) (int, error) { return r.body.Write(b) }

// postSigned POSTs body to url, signed (or, forged, with a signature of
// other bytes), and returns the response.
func (s *Server) postSigned(ctx context.Context, url string, body []byte, good bool) (status int, ctype string, resp []byte, err error) {
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	sig := s.sign(ts, body)
	if !good {
		sig = s.sign(ts, append([]byte("forged"), body...))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, "", nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Discord-Interactions/1.0 (+https://discord.com)")
	req.Header.Set("X-Signature-Ed25519", sig)
	req.Header.Set("X-Signature-Timestamp", ts)
	r, err := s.endpointClient().Do(req)
	if err != nil {
		return 0, "", nil, err
	}
	defer r.Body.Close()
	resp, err = io.ReadAll(io.LimitReader(r.Body, int64(s.opts.AttachmentSizeLimit)*maxAttachments+1<<20))
	return r.StatusCode, r.Header.Get("Content-Type"), resp, err
}

// VerifyEndpoint checks url as Discord does when the developer portal
// saves an Interactions Endpoint URL: a signed PING must be answered with
// PONG, and a PING with a forged signature refused with 401.
func (s *Server) VerifyEndpoint(ctx context.Context, url string) error {
	ping := mustJSON(map[string]any{"id": s.lockedNewID(), "application_id": s.appID, "type": 1, "token": "aW50ZXJhY3Rpb246" + randomHex(40), "version": 1})
	st, _, resp, err := s.postSigned(ctx, url, ping, true)
	if err != nil {
		return fmt.Errorf("discordtest: endpoint: signed PING: %w", err)
	}
	var pong struct {
		Type int `json:"type"`
	}
	if st != http.StatusOK || json.Unmarshal(resp, &pong) != nil || pong.Type != 1 {
		return fmt.Errorf("discordtest: endpoint: signed PING answered %d %q, want 200 {\"type\":1}", st, resp)
	}
	if st, err := s.PostForged(ctx, url, ping); err != nil || st != http.StatusUnauthorized {
		return fmt.Errorf("discordtest: endpoint: forged PING answered %d (%v), want 401", st, err)
	}
	return nil
}

// PostForged POSTs body to url with a forged signature (a valid one, of
// other bytes), as Discord does on purpose to check an endpoint, and
// returns the status: anything but 401 is a hole.
func (s *Server) PostForged(ctx context.Context, url string, body []byte) (int, error) {
	st, _, _, err := s.postSigned(ctx, url, body, false)
	return st, err
}

// lockedNewID is newID taking the server's lock.
func (s *Server) lockedNewID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.newID()
}

// awaitPosted waits until the interactions endpoint's response to the
// interaction of token (if it was POSTed) has been taken: a request made
// with the token after the bot wrote its response comes after that
// response, as at Discord, however the fake's goroutines are scheduled.
func (s *Server) awaitPosted(token string) {
	s.mu.Lock()
	var posted chan struct{}
	if it := s.byToken[token]; it != nil {
		posted = it.posted
	}
	s.mu.Unlock()
	if posted == nil {
		return
	}
	t := time.NewTimer(s.opts.InteractionDeadline + 2*time.Second)
	defer t.Stop()
	select {
	case <-posted:
	case <-t.C:
	case <-s.done:
	}
}

// SetEndpointReorder makes the responses of the interactions endpoint to
// clicks on one message take effect in the order Discord does not
// promise: with window > 0, each such response is held until no other
// response to a click on the same message has come for window (real
// time), and the held ones then take effect newest first. Discord applies
// two responses that come within milliseconds in no particular order; this
// makes the worst order certain, so that a bot that relies on the order of
// its responses shows a stale message every time. A request made with a
// held interaction's token still waits for its response (awaitPosted).
// Zero (the default) takes every response as it comes.
func (s *Server) SetEndpointReorder(window time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reorderWindow = window
}

// reorderGroup is the responses to clicks on one message held together
// (SetEndpointReorder), in the order they came.
type reorderGroup struct {
	held  []heldResponse
	timer *time.Timer
}

// heldResponse is one response held by SetEndpointReorder.
type heldResponse struct {
	turn   chan struct{} // closed when it is its turn to take effect
	posted chan struct{} // its interaction's posted: closed once it was taken
}

// holdForReorder holds the response to it while SetEndpointReorder asks
// for it, until its turn comes: it reports false if the server closed
// meanwhile.
func (s *Server) holdForReorder(it *interaction) bool {
	s.mu.Lock()
	w := s.reorderWindow
	if w <= 0 || it.sourceID == "" {
		s.mu.Unlock()
		return true
	}
	if s.reorder == nil {
		s.reorder = map[string]*reorderGroup{}
	}
	g := s.reorder[it.sourceID]
	if g == nil {
		g = &reorderGroup{}
		s.reorder[it.sourceID] = g
	}
	turn := make(chan struct{})
	g.held = append(g.held, heldResponse{turn: turn, posted: it.posted})
	if g.timer != nil {
		g.timer.Stop()
	}
	src := it.sourceID
	g.timer = time.AfterFunc(w, func() { s.releaseReorder(src, g) })
	s.logf("discord", "interactions endpoint: holds the response to %s (%d held for message %s)", it.id, len(g.held), src)
	s.notifyLocked()
	s.mu.Unlock()
	select {
	case <-turn:
		return true
	case <-s.done:
		return false
	}
}

// releaseReorder lets the held responses of g take effect, newest first,
// each once the one before it was taken.
func (s *Server) releaseReorder(src string, g *reorderGroup) {
	s.mu.Lock()
	if s.reorder[src] != g {
		s.mu.Unlock()
		return
	}
	delete(s.reorder, src)
	held := g.held
	s.mu.Unlock()
	for k := len(held) - 1; k >= 0; k-- {
		close(held[k].turn)
		// The next (older) one waits until this one was taken.
		select {
		case <-held[k].posted:
		case <-s.done:
			return
		}
	}
}
