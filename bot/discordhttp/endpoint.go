package discordhttp

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rs/zerolog"

	"github.com/qwixxbot/qwixxbot/bot"
	"github.com/qwixxbot/qwixxbot/bot/workers"
)

// Limits of the interactions endpoint.
const (
	// MaxInteractionBody is the largest request body the endpoint reads
	// (an interaction is a few KiB); a larger one is refused with 413.
	MaxInteractionBody = 1 << 20
	// MaxSignatureAge is how far a request's X-Signature-Timestamp may lie
	// from the endpoint's clock: an older request is a replay (401).
	MaxSignatureAge = 5 * time.Minute
	// DeferAfter is how long the endpoint waits for the bot's answer
	// before it answers with a deferred response (Discord fails an
	// interaction not answered within 3 s of its creation); the bot's
	// answer then follows through the interaction's webhook.
	DeferAfter = 2500 * time.Millisecond
	// answerLimit is how long an interaction that cannot be deferred
	// (autocomplete) may wait for its answer.
	answerLimit = 2900 * time.Millisecond
)

// Timeouts of the endpoint's HTTP server: a client that sends its headers
// or its body slowly (or not at all) is cut off, and holds nothing.
type serverTimeouts struct {
	readHeader, read, write, idle time.Duration
}

var defaultTimeouts = serverTimeouts{readHeader: 5 * time.Second, read: 10 * time.Second, write: 15 * time.Second, idle: 60 * time.Second}

// Webhooks are the interaction routes an answer takes after the endpoint
// deferred it: the edit of the original response, its deletion, and a
// follow-up (InteractionSession has them).
type Webhooks interface {
	InteractionResponseEdit(i *discordgo.Interaction, e *discordgo.WebhookEdit, opts ...discordgo.RequestOption) (*discordgo.Message, error)
	InteractionResponseDelete(i *discordgo.Interaction, opts ...discordgo.RequestOption) error
	FollowupMessageCreate(i *discordgo.Interaction, wait bool, data *discordgo.WebhookParams, opts ...discordgo.RequestOption) (*discordgo.Message, error)
}

// Endpoint is Discord's HTTP interactions endpoint (the "Interactions
// Endpoint URL" of the developer portal): Discord POSTs each interaction,
// signed with the application's key, and takes the HTTP response as its
// answer. It verifies the signature (X-Signature-Ed25519 over
// X-Signature-Timestamp and the body; 401 on a bad or missing one, or a
// timestamp further than MaxSignatureAge from now), answers PING with
// PONG, decodes the interaction (DecodeInteraction) and hands it to the
// bot with itself as the Answerer: the bot's answer becomes the HTTP
// response (JSON, or multipart with payload_json and files[n] when it has
// files). When the bot has not answered within DeferAfter, the response
// is the deferred answer (5 for a command, 6 for a click) and the bot's
// answer follows through Webhooks.
type Endpoint struct {
	key    *PublicKey
	handle func(i *discordgo.Interaction, to bot.Answerer)
	hooks  Webhooks
	log    zerolog.Logger
	// now is the clock the timestamps are checked against; deferAfter is
	// DeferAfter (tests shorten them).
	now        func() time.Time
	deferAfter time.Duration
	// timeouts are the server's (Server); tests shorten them.
	timeouts serverTimeouts
	inflight sync.WaitGroup
	// spawn runs the bot's handling of an interaction: workers.Go, on a
	// reused goroutine whose stack has grown already (the benchmark
	// compares a go statement).
	spawn func(func())
}

// NewEndpoint makes the endpoint for the application's public key: handle
// (the bot's HandleVia) answers each interaction, hooks carry the answers
// that come after a deferred one.
func NewEndpoint(key *PublicKey, handle func(i *discordgo.Interaction, to bot.Answerer), hooks Webhooks, log zerolog.Logger) *Endpoint {
	return &Endpoint{key: key, handle: handle, hooks: hooks, log: log, now: time.Now, deferAfter: DeferAfter, timeouts: defaultTimeouts, spawn: workers.Go}
}

// Server is an HTTP server for the endpoint on addr, with timeouts that
// cut off slow clients.
func (e *Endpoint) Server(addr string) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           e,
		ReadHeaderTimeout: e.timeouts.readHeader,
		ReadTimeout:       e.timeouts.read,
		WriteTimeout:      e.timeouts.write,
		IdleTimeout:       e.timeouts.idle,
		MaxHeaderBytes:    16 << 10,
	}
}

// Serve serves the endpoint on ln until ctx ends, then shuts the server
// down, letting the interactions in flight finish (or until the shutdown
// context given ends).
func (e *Endpoint) Serve(ctx context.Context, ln net.Listener) error {
	srv := e.Server(ln.Addr().String())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("interactions endpoint: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("interactions endpoint: shutdown: %w", err)
	}
	<-done
	return nil
}

// Wait waits for the answers that follow deferred responses.
func (e *Endpoint) Wait() { e.inflight.Wait() }

// Verify reports whether the request's signature headers sign body with
// key, with a timestamp within MaxSignatureAge of now.
func Verify(key *PublicKey, h http.Header, body []byte, now time.Time) error {
	ts := h.Get("X-Signature-Timestamp")
	return verifySigned(key, h, ts, append([]byte(ts), body...), now)
}

// verifySigned is Verify of signed, the timestamp ts followed by the body,
// as the signature signs them (the endpoint reads the body after ts, and
// verifies it without a copy).
func verifySigned(key *PublicKey, h http.Header, ts string, signed []byte, now time.Time) error {
	sigHex := h.Get("X-Signature-Ed25519")
	if sigHex == "" || ts == "" {
		return errors.New("missing signature headers")
	}
	var sig [ed25519.SignatureSize]byte
	if len(sigHex) != 2*len(sig) {
		return errors.New("malformed signature")
	}
	if _, err := hex.Decode(sig[:], []byte(sigHex)); err != nil {
		return errors.New("malformed signature")
	}
	secs, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return errors.New("malformed timestamp")
	}
	if d := now.Sub(time.Unix(secs, 0)); d > MaxSignatureAge || d < -MaxSignatureAge {
		return fmt.Errorf("timestamp %s off by %v", ts, d.Round(time.Second))
	}
	if !key.Verify(signed, sig[:]) {
		return errors.New("bad signature")
	}
	return nil
}

// The buffers request bodies are read into, reused: a request's body
// is garbage once it is decoded (the interaction holds copies of what it
// keeps). Buffers grown past keepBodyBuffer are left to the collector.
var bodyBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 8<<10); return &b }}

const keepBodyBuffer = 64 << 10

// readBody reads r's body after prefix into a buffer of bodyBuffers, the
// size its Content-Length says (when it says one), at most
// MaxInteractionBody (else an *http.MaxBytesError, before reading when
// Content-Length says it is larger). The caller puts the buffer back.
func readBody(w http.ResponseWriter, r *http.Request, prefix string) (*[]byte, error) {
	if r.ContentLength > MaxInteractionBody {
		return nil, &http.MaxBytesError{Limit: MaxInteractionBody}
	}
	bp := bodyBuffers.Get().(*[]byte)
	b := append((*bp)[:0], prefix...)
	if r.ContentLength > 0 {
		// One more byte: io.EOF comes without growing the buffer.
		b = slices.Grow(b, int(r.ContentLength)+1)
	}
	body := http.MaxBytesReader(w, r.Body, MaxInteractionBody)
	for {
		if len(b) == cap(b) {
			b = slices.Grow(b, len(b))
		}
		n, err := body.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			*bp = b
			return bp, nil
		}
		if err != nil {
			*bp = b
			putBody(bp)
			return nil, err
		}
	}
}

// putBody puts a body's buffer back into bodyBuffers.
func putBody(bp *[]byte) {
	if cap(*bp) <= keepBodyBuffer {
		*bp = (*bp)[:0]
		bodyBuffers.Put(bp)
	}
}

// ServeHTTP answers one POST from Discord.
func (e *Endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	ts := r.Header.Get("X-Signature-Timestamp")
	bp, err := readBody(w, r, ts)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			e.log.Warn().Int64("limit", tooBig.Limit).Msg("interactions endpoint: body too large")
			http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
			return
		}
		e.log.Info().Err(err).Msg("interactions endpoint: reading the body failed")
		http.Error(w, "bad body", http.StatusBadRequest)
		return
	}
	if err := verifySigned(e.key, r.Header, ts, *bp, e.now()); err != nil {
		putBody(bp)
		// Discord sends bad signatures on purpose to check this.
		e.log.Info().Err(err).Str("remote", r.RemoteAddr).Msg("interactions endpoint: refused")
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return
	}
	i, err := DecodeInteraction((*bp)[len(ts):])
	putBody(bp)
	if err != nil {
		e.log.Warn().Err(err).Msg("interactions endpoint: undecodable interaction")
		http.Error(w, "bad interaction", http.StatusBadRequest)
		return
	}
	if i.Type == discordgo.InteractionPing {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"type":1}`)
		return
	}
	e.serve(w, r, i)
}

// The states of a pending answer.
const (
	waiting  = iota // the bot has not answered, the response not been written
	answered        // the bot's answer is (being) written as the response
	deferred        // the response was the deferred answer
)

// pending is one interaction waiting for its answer: the bot's Answer and
// the waiting HTTP handler meet here.
type pending struct {
	e     *Endpoint
	w     http.ResponseWriter
	mu    sync.Mutex
	state int
	// deferType is the deferred response written (state deferred).
	deferType discordgo.InteractionResponseType
	// answer carries the bot's answer's body to the handler, written
	// carries back whether it was written.
	answer  chan body
	written chan error
}

// serve hands the interaction to the bot (on a worker of the workers
// pool) and writes its answer, or the deferred one.
func (e *Endpoint) serve(w http.ResponseWriter, r *http.Request, i *discordgo.Interaction) {
	p := &pending{e: e, w: w, answer: make(chan body, 1), written: make(chan error, 1)}
	handled := make(chan struct{})
	e.inflight.Add(1)
	e.spawn(func() {
		defer e.inflight.Done()
		defer close(handled)
		e.handle(i, p)
	})
	dt, canDefer := deferTypeOf(i.Type)
	limit := e.deferAfter
	if !canDefer {
		limit = answerLimit
	}
	timer := time.NewTimer(limit)
	defer timer.Stop()
	for {
		select {
		case b := <-p.answer:
			p.written <- writeBody(w, b)
			return
		case <-handled:
			// The handler ended; an answer it gave is waiting, else it
			// gave none (Discord shows the interaction failed).
			select {
			case b := <-p.answer:
				p.written <- writeBody(w, b)
			default:
				e.log.Warn().Str("interaction", i.ID).Msg("interactions endpoint: the bot gave no answer")
				http.Error(w, "no answer", http.StatusInternalServerError)
			}
			return
		case <-r.Context().Done():
			p.mu.Lock()
			if p.state == waiting {
				p.state = deferred // nobody listens: an answer goes by webhook
				p.deferType = 0
			}
			p.mu.Unlock()
			return
		case <-timer.C:
			p.mu.Lock()
			if p.state != waiting {
				p.mu.Unlock()
				continue // the answer is on its way
			}
			if !canDefer {
				p.state = deferred
				p.mu.Unlock()
				http.Error(w, "no answer in time", http.StatusServiceUnavailable)
				return
			}
			p.state, p.deferType = deferred, dt
			p.mu.Unlock()
			e.log.Info().Str("interaction", i.ID).Int("type", int(dt)).Msg("interactions endpoint: the answer is late: deferring it")
			w.Header().Set("Content-Type", "application/json")
			_, _ = fmt.Fprintf(w, `{"type":%d}`, dt)
			return
		}
	}
}

// deferTypeOf is the deferred answer of an interaction type: 5 (a loading
// message) for a command or a modal, 6 (nothing changes yet) for a click;
// autocomplete cannot be deferred.
func deferTypeOf(t discordgo.InteractionType) (discordgo.InteractionResponseType, bool) {
	switch t {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionModalSubmit:
		return discordgo.InteractionResponseDeferredChannelMessageWithSource, true
	case discordgo.InteractionMessageComponent:
		return discordgo.InteractionResponseDeferredMessageUpdate, true
	}
	return 0, false
}

// writeBody writes an answer as the HTTP response, its pieces one by
// one, and releases its buffer.
func writeBody(w http.ResponseWriter, b body) error {
	defer b.release()
	h := w.Header()
	h["Content-Type"] = []string{b.contentType}
	h["Content-Length"] = []string{strconv.FormatInt(b.size, 10)}
	if err := b.writeTo(w); err != nil {
		return fmt.Errorf("writing the answer: %w", withoutAddress(err))
	}
	// Out now, not when the handler returns: the bot goes on (and may
	// edit the same message) once its answer has left.
	if err := http.NewResponseController(w).Flush(); err != nil {
		return fmt.Errorf("writing the answer: %w", withoutAddress(err))
	}
	return nil
}

// Answer is the bot's answer (bot.Answerer): the HTTP response while the
// handler waits for it, else (deferred) the edit of the original response
// or a follow-up.
func (p *pending) Answer(ctx context.Context, i *discordgo.Interaction, resp *discordgo.InteractionResponse) error {
	files, err := bufferFiles(filesOf(resp))
	if err != nil {
		return err
	}
	b, err := pooledRequestBody(resp, files)
	if err != nil {
		return fmt.Errorf("interactions endpoint: encoding the answer: %w", err)
	}
	p.mu.Lock()
	if p.state != waiting {
		b.release() // not written: the answer goes by webhook
	}
	switch p.state {
	case waiting:
		p.state = answered
		p.mu.Unlock()
		p.answer <- b
		select {
		case err := <-p.written:
			return err
		case <-ctx.Done():
			return fmt.Errorf("interactions endpoint: answer not written: %w", ctx.Err())
		}
	case answered:
		p.mu.Unlock()
		return errors.New("interactions endpoint: answered twice")
	}
	dt := p.deferType
	p.mu.Unlock()
	if dt == 0 {
		return errors.New("interactions endpoint: Discord went away before the answer")
	}
	return p.e.after(i, resp, files, dt)
}

// after sends an answer after the deferred response dt: the update of the
// clicked message (7) or the message (4) as the edit of the original
// response (the clicked message after 6, the loading message after 5), a
// message after 6 as a follow-up, an ephemeral message after 5 (whose
// loading message is public) as an ephemeral follow-up once the loading
// message is deleted. resp.Type becomes dt: the bot keeps tokens by it.
func (e *Endpoint) after(i *discordgo.Interaction, resp *discordgo.InteractionResponse, files bufferedFiles, dt discordgo.InteractionResponseType) error {
	defer func() { resp.Type = dt }()
	ctx, cancel := context.WithTimeout(context.Background(), editBudget)
	defer cancel()
	opt := discordgo.WithContext(ctx)
	d := resp.Data
	if d == nil {
		d = &discordgo.InteractionResponseData{}
	}
	ephemeral := d.Flags&discordgo.MessageFlagsEphemeral != 0
	switch {
	case resp.Type == discordgo.InteractionResponseDeferredMessageUpdate || resp.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource:
		return nil // deferred already
	case resp.Type == discordgo.InteractionResponseUpdateMessage,
		resp.Type == discordgo.InteractionResponseChannelMessageWithSource && dt == discordgo.InteractionResponseDeferredChannelMessageWithSource && !ephemeral:
		edit := editOf(d)
		edit.Files = files.fresh()
		if _, err := e.hooks.InteractionResponseEdit(i, edit, opt); err != nil {
			return fmt.Errorf("interactions endpoint: edit after a deferred answer: %w", err)
		}
		return nil
	case resp.Type == discordgo.InteractionResponseChannelMessageWithSource:
		if dt == discordgo.InteractionResponseDeferredChannelMessageWithSource {
			if err := e.hooks.InteractionResponseDelete(i, opt); err != nil {
				return fmt.Errorf("interactions endpoint: delete the loading message: %w", err)
			}
		}
		params := &discordgo.WebhookParams{Content: d.Content, Components: d.Components, Embeds: d.Embeds,
			Files: files.fresh(), AllowedMentions: d.AllowedMentions, Flags: d.Flags}
		if _, err := e.hooks.FollowupMessageCreate(i, true, params, opt); err != nil {
			return fmt.Errorf("interactions endpoint: follow-up after a deferred answer: %w", err)
		}
		return nil
	}
	return fmt.Errorf("interactions endpoint: an answer of type %d came after the deadline", resp.Type)
}
