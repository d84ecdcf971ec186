package discordhttp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	neturl "net/url"
	"reflect"
	"slices"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rs/zerolog"
	fastjson "github.com/segmentio/encoding/json"

	"github.com/qwixxbot/qwixxbot/bot"
)

// maxInteractionRetries is how many times an interaction request is sent
// again after a 429 (waiting Retry-After each time) before its error is
// returned.
const maxInteractionRetries = 3

// Budgets of the retries of interaction requests on server errors (500,
// 502, 503, 504) and broken connections.
//
// Discord fails an interaction that is not answered within 3 s of its
// creation. The bot gives its answer a deadline (answerDeadline, through
// the request's context); without one the callback gets callbackBudget from
// its first attempt. The full answer is tried until deferReserve before
// that deadline; then, for an answer that can be deferred (a message, or
// an update of the clicked message), the short deferred callback is tried
// in the time left and the answer follows as an edit of the original
// response, which the interaction's token allows for 15 minutes
// (editBudget of retries). Between attempts the wait doubles from
// firstBackoff up to maxBackoff.
const (
	callbackBudget         = 2500 * time.Millisecond
	deferReserve           = 700 * time.Millisecond
	editBudget             = 10 * time.Second
	firstBackoff           = 50 * time.Millisecond
	maxBackoff             = 400 * time.Millisecond
	maxInteractionAttempts = 8
)

// InteractionSession is the bot's Discord: the discordgo session, except
// that the interaction answers (InteractionRespond, InteractionResponseEdit,
// FollowupMessageCreate and FollowupMessageEdit, the only interaction
// routes the bot uses) are
// sent past discordgo's rate limiter, and retried on server errors within
// the interaction's deadline.
//
// discordgo keeps one rate-limit bucket per route key for ever
// (discordgo issue #1333), and the keys of these routes hold the
// interaction's token (POST /interactions/{id}/{token}/callback, and
// PATCH /webhooks/{app}/{token}/messages/@original with files): a bucket
// per interaction, never freed, that keeps its token in memory. Such a
// bucket is of no use anyway: every interaction has its own, Discord does
// not count these routes against the global limit, and one interaction is
// answered a handful of times at most. A 429 is still honoured: the request
// waits out Retry-After and is sent again.
//
// discordgo itself retries only a 502, and its callback retry can answer
// an interaction twice. Here a callback is answered at most once: an
// attempt whose outcome is unknown (a server error or a broken
// connection: Discord may have taken it) followed by "already
// acknowledged" (400, code 40060) counts as answered.
type InteractionSession struct {
	*discordgo.Session
	log zerolog.Logger
	// sleep waits d, or until ctx ends (its error then); tests shorten it.
	sleep func(ctx context.Context, d time.Duration) error
}

var _ bot.Discord = (*InteractionSession)(nil)

// NewInteractionSession wraps s.
func NewInteractionSession(s *discordgo.Session, log zerolog.Logger) *InteractionSession {
	return &InteractionSession{Session: s, log: log, sleep: sleepCtx}
}

// sleepCtx waits d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// InteractionRespond answers an interaction, as discordgo's does (JSON, or
// multipart with payload_json when the response has files), retrying
// server errors and broken connections until shortly before the deadline
// (the context's, else callbackBudget from now). Where the answer has not
// gone through by then and it can be deferred (types 4 and 7), a deferred
// answer (5 or 6) takes the place of the callback, and the answer follows
// as an edit of the original response; r.Type is then the deferred type,
// which Discord may have taken (a caller that sends follow-ups must know:
// after a deferred message, type 5, Discord turns the first follow-up into
// an edit of the loading message).
func (s *InteractionSession) InteractionRespond(i *discordgo.Interaction, r *discordgo.InteractionResponse, opts ...discordgo.RequestOption) error {
	endpoint := discordgo.EndpointInteractionResponse(i.ID, i.Token)
	files, err := bufferFiles(filesOf(r))
	if err != nil {
		return err
	}
	body, err := requestBody(r, files.fresh())
	if err != nil {
		return err
	}
	deadline := requestDeadline(opts, callbackBudget)
	deferred, canDefer := deferredOf(r)
	full := deadline
	if canDefer {
		full = deadline.Add(-deferReserve)
	}
	_, err = s.interactionRequest(http.MethodPost, endpoint, body, opts, full, sendCallback)
	if err == nil || !canDefer || !retryable(err) {
		return err
	}
	s.log.Warn().Err(withoutAddress(err)).Int("type", int(r.Type)).Msg("interaction answer failed: deferring it")
	defer func() { r.Type = deferred.Type }()
	dbody, derr := requestBody(deferred, nil)
	if derr != nil {
		return derr
	}
	if _, derr = s.interactionRequest(http.MethodPost, endpoint, dbody, opts, deadline, sendCallback); derr != nil {
		return fmt.Errorf("deferred answer after %w: %w", err, derr)
	}
	// The deferred answer (or the full one, if an attempt of it that
	// seemed lost went through) stands; the edit makes the original
	// response what the answer says, which is the same either way.
	ctx, cancel := context.WithTimeout(context.Background(), editBudget)
	defer cancel()
	edit := editOf(r.Data)
	edit.Files = files.fresh()
	if _, eerr := s.InteractionResponseEdit(i, edit, discordgo.WithContext(ctx)); eerr != nil {
		return fmt.Errorf("edit after a deferred answer: %w", eerr)
	}
	return nil
}

// deferredOf is the deferred form of an answer: a message (4) becomes
// "thinking" (5, ephemeral if the message is), an update of the clicked
// message (7) becomes a deferred update (6). Other answers (pong,
// autocomplete, modal, or already deferred) have none.
func deferredOf(r *discordgo.InteractionResponse) (*discordgo.InteractionResponse, bool) {
	switch r.Type {
	case discordgo.InteractionResponseChannelMessageWithSource:
		d := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}
		if r.Data != nil && r.Data.Flags&discordgo.MessageFlagsEphemeral != 0 {
			d.Data = &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral}
		}
		return d, true
	case discordgo.InteractionResponseUpdateMessage:
		return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}, true
	}
	return nil, false
}

// bufferedFiles are an answer's files read into memory, so that they can
// be sent more than once (the answer, then its edit).
type bufferedFiles struct {
	files []*discordgo.File
	data  []piece
}

// bufferFiles keeps what is left to read of the files: the bytes behind
// a reader that reads at an offset (the pictures' bytes.Readers), without
// copying them, or what the reader gives.
func bufferFiles(files []*discordgo.File) (bufferedFiles, error) {
	b := bufferedFiles{files: files, data: make([]piece, len(files))}
	for k, f := range files {
		d, err := readFile(f.Reader)
		if err != nil {
			return b, fmt.Errorf("reading %s: %w", f.Name, err)
		}
		b.data[k] = d
	}
	return b, nil
}

// fresh is a copy of the files with readers from their start.
func (b bufferedFiles) fresh() []*discordgo.File {
	if len(b.files) == 0 {
		return nil
	}
	out := make([]*discordgo.File, len(b.files))
	for k, f := range b.files {
		var r io.Reader
		if p := b.data[k]; p.file != nil {
			r = io.NewSectionReader(p.file, p.off, p.n)
		} else {
			r = bytes.NewReader(p.b)
		}
		out[k] = &discordgo.File{Name: f.Name, ContentType: f.ContentType, Reader: r}
	}
	return out
}

// editOf is the edit of the original response that says what an answer's
// data says (content, embeds, components, attachments, mentions; the
// caller adds the files).
func editOf(d *discordgo.InteractionResponseData) *discordgo.WebhookEdit {
	e := &discordgo.WebhookEdit{}
	if d == nil {
		return e
	}
	content := d.Content
	e.Content = &content
	if d.Components != nil {
		e.Components = &d.Components
	}
	if d.Embeds != nil {
		e.Embeds = &d.Embeds
	}
	e.Attachments = d.Attachments
	e.AllowedMentions = d.AllowedMentions
	return e
}

// requestDeadline is the deadline of the options' context, or budget from
// now when it has none.
func requestDeadline(opts []discordgo.RequestOption, budget time.Duration) time.Time {
	req, _ := http.NewRequest(http.MethodGet, "/", nil)
	cfg := &discordgo.RequestConfig{Request: req}
	for _, opt := range opts {
		opt(cfg)
	}
	if d, ok := cfg.Request.Context().Deadline(); ok {
		return d
	}
	return time.Now().Add(budget)
}

// filesOf is the response's files (none without data).
func filesOf(r *discordgo.InteractionResponse) []*discordgo.File {
	if r.Data == nil {
		return nil
	}
	return r.Data.Files
}

// InteractionResponseEdit edits the interaction's original response, as
// discordgo's does, and returns the edited message.
func (s *InteractionSession) InteractionResponseEdit(i *discordgo.Interaction, e *discordgo.WebhookEdit, opts ...discordgo.RequestOption) (*discordgo.Message, error) {
	return s.FollowupMessageEdit(i, "@original", e, opts...)
}

// FollowupMessageCreate makes a follow-up message of the interaction, as
// discordgo's does (with wait, the message is returned), past discordgo's
// rate limiter. It is not sent again after an attempt whose outcome is
// unknown (a server error, a broken connection): the message may exist,
// and the caller finds out rather than post it twice. A 429 is waited out.
func (s *InteractionSession) FollowupMessageCreate(i *discordgo.Interaction, wait bool, data *discordgo.WebhookParams, opts ...discordgo.RequestOption) (*discordgo.Message, error) {
	endpoint := discordgo.EndpointWebhookToken(i.AppID, i.Token)
	if wait {
		endpoint += "?wait=true"
	}
	body, err := requestBody(data, data.Files)
	if err != nil {
		return nil, err
	}
	resp, err := s.interactionRequest(http.MethodPost, endpoint, body, opts, requestDeadline(opts, editBudget), sendCreate)
	if err != nil || !wait {
		return nil, err
	}
	return returned(resp, data.Components)
}

// FollowupMessageEdit edits a follow-up message the interaction made (or
// with messageID "@original" its original response), as discordgo's does,
// past discordgo's rate limiter, and returns it.
func (s *InteractionSession) FollowupMessageEdit(i *discordgo.Interaction, messageID string, e *discordgo.WebhookEdit, opts ...discordgo.RequestOption) (*discordgo.Message, error) {
	endpoint := discordgo.EndpointWebhookMessage(i.AppID, i.Token, messageID)
	body, err := requestBody(e, e.Files)
	if err != nil {
		return nil, err
	}
	resp, err := s.interactionRequest(http.MethodPatch, endpoint, body, opts, requestDeadline(opts, editBudget), sendEdit)
	if err != nil {
		return nil, err
	}
	var comps []discordgo.MessageComponent
	if e.Components != nil {
		comps = *e.Components
	}
	return returned(resp, comps)
}

// returnedMessage is what the bot reads of a message Discord returns for
// a follow-up or an edit: not its components, the costliest part to
// decode (a table's message holds a few dozen), which are the ones the
// request sent. It is decoded with segmentio/encoding's JSON, which skips
// the rest faster than encoding/json.
type returnedMessage struct {
	ID          string                         `json:"id"`
	ChannelID   string                         `json:"channel_id"`
	Content     string                         `json:"content"`
	WebhookID   string                         `json:"webhook_id"`
	Flags       discordgo.MessageFlags         `json:"flags"`
	Attachments []*discordgo.MessageAttachment `json:"attachments"`
}

// returned decodes a message Discord returned, with sent as its
// components (nil when the request left them as they were).
func returned(resp []byte, sent []discordgo.MessageComponent) (*discordgo.Message, error) {
	var r *returnedMessage
	if err := fastjson.Unmarshal(resp, &r); err != nil {
		return nil, fmt.Errorf("%w: %s", discordgo.ErrJSONUnmarshal, err)
	}
	if r == nil {
		return nil, nil
	}
	return &discordgo.Message{ID: r.ID, ChannelID: r.ChannelID, Content: r.Content, WebhookID: r.WebhookID,
		Flags: r.Flags, Attachments: r.Attachments, Components: sent}, nil
}

// interactionRequest sends one request with the session's client, token and
// user agent (and the request options), without a rate-limit bucket. A 429
// is waited out (Retry-After) and sent again, up to maxInteractionRetries
// times, unless the options turn retries on rate limits off. A server error
// (500, 502, 503, 504) or a broken connection is sent again after a short
// wait (doubling up to maxBackoff) while the next attempt can start before deadline (at
// most maxInteractionAttempts in all). For a callback (once), "already
// acknowledged" after an attempt whose outcome was unknown is success: that
// attempt went through. Any other status but 200, 201 and 204 is a
// *discordgo.RESTError.
// sending is how an interaction request may be sent again.
type sending int

const (
	// sendCallback: answered at most once; "already acknowledged" after
	// an attempt whose outcome was unknown means that attempt went through.
	sendCallback sending = iota
	// sendEdit: an edit, sent again on server errors and broken
	// connections (the same edit twice changes nothing).
	sendEdit
	// sendCreate: makes a message, never sent again after an attempt
	// whose outcome is unknown (it may have made the message: a second
	// one would be a duplicate). The caller finds out.
	sendCreate
)

func (s *InteractionSession) interactionRequest(method, url string, body body, opts []discordgo.RequestOption, deadline time.Time, how sending) ([]byte, error) {
	limited, attempts := 0, 0
	unknown := false // an earlier attempt may have gone through
	backoff := firstBackoff
	for {
		attempts++
		req, err := http.NewRequest(method, url, body.reader())
		if err != nil {
			return nil, err
		}
		if s.Token != "" {
			req.Header.Set("authorization", s.Token)
		}
		if body.contentType != "" {
			req.Header.Set("Content-Type", body.contentType)
			// The body in pieces, its length known, and read again from
			// its start if the client sends it again.
			req.ContentLength = body.size
			req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(body.reader()), nil }
			if body.size == 0 {
				req.Body, req.GetBody = http.NoBody, nil
			}
		}
		req.Header.Set("User-Agent", s.UserAgent)
		cfg := &discordgo.RequestConfig{
			Request:                req,
			ShouldRetryOnRateLimit: s.ShouldRetryOnRateLimit,
			MaxRestRetries:         s.MaxRestRetries,
			Client:                 s.Client,
		}
		for _, opt := range opts {
			opt(cfg)
		}
		req = cfg.Request
		client := cfg.Client
		if client == nil {
			client = http.DefaultClient
		}
		again := func(cause error) bool {
			if how == sendCreate || attempts >= maxInteractionAttempts || req.Context().Err() != nil || time.Now().Add(backoff).After(deadline) {
				return false
			}
			s.log.Info().Err(withoutAddress(cause)).Str("route", routeName(method, how)).Int("attempt", attempts).Dur("retry_in", backoff).
				Msg("interaction request failed: sending it again")
			if s.sleep(req.Context(), backoff) != nil {
				return false
			}
			backoff = min(2*backoff, maxBackoff)
			return true
		}
		resp, err := client.Do(req)
		if err != nil {
			if req.Context().Err() == nil {
				unknown = true
				if again(err) {
					continue
				}
			}
			return nil, err
		}
		data, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			unknown = true
			if again(err) {
				continue
			}
			return nil, err
		}
		switch c := resp.StatusCode; {
		case c == http.StatusOK || c == http.StatusCreated || c == http.StatusNoContent:
			return data, nil
		case retryableStatus(c):
			unknown = true
			if again(restError(req, resp, data)) {
				continue
			}
		case c == http.StatusBadRequest && how == sendCallback && unknown && apiCode(data) == discordgo.ErrCodeInteractionHasAlreadyBeenAcknowledged:
			s.log.Info().Str("route", routeName(method, how)).Int("attempt", attempts).Msg("interaction answer had gone through")
			return nil, nil
		case c == http.StatusTooManyRequests && cfg.ShouldRetryOnRateLimit && limited < maxInteractionRetries:
			limited++
			wait := retryAfter(resp.Header, data)
			s.log.Info().Str("method", method).Str("route", routeName(method, how)).Dur("retry_in", wait).Int("attempt", limited).
				Msg("interaction answer rate limited")
			if err := s.sleep(req.Context(), wait); err != nil {
				return nil, err
			}
			continue
		}
		return nil, restError(req, resp, data)
	}
}

// retryableStatus reports whether a status is a server error worth
// another attempt (Discord's 500, 502, 503 and 504 are passing).
func retryableStatus(c int) bool {
	return c == http.StatusInternalServerError || c == http.StatusBadGateway ||
		c == http.StatusServiceUnavailable || c == http.StatusGatewayTimeout
}

// retryable reports whether err is a server error or a broken connection
// (not a refusal, a rate limit or the end of the context).
func retryable(err error) bool {
	var re *discordgo.RESTError
	if errors.As(err, &re) {
		return re.Response != nil && retryableStatus(re.Response.StatusCode)
	}
	return err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
}

// apiCode is the code of a Discord error body (0 if none).
func apiCode(body []byte) int {
	var m discordgo.APIErrorMessage
	if json.Unmarshal(body, &m) != nil {
		return 0
	}
	return m.Code
}

// withoutAddress drops the address from a transport error: interaction
// routes hold the interaction's token, which must not reach the logs.
func withoutAddress(err error) error {
	var ue *neturl.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("%s request: %w", ue.Op, ue.Err)
	}
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Response != nil {
		return fmt.Errorf("HTTP %d", re.Response.StatusCode)
	}
	return err
}

// routeName names the interaction route for logs (never with its token).
func routeName(method string, how sending) string {
	switch {
	case how == sendCallback:
		return "POST /interactions/{id}/{token}/callback"
	case how == sendCreate:
		return "POST /webhooks/{app}/{token}"
	}
	return method + " /webhooks/{app}/{token}/messages/{message}"
}

// restError is the error discordgo returns for a bad status.
func restError(req *http.Request, resp *http.Response, body []byte) *discordgo.RESTError {
	re := &discordgo.RESTError{Request: req, Response: resp, ResponseBody: body}
	var msg *discordgo.APIErrorMessage
	if json.Unmarshal(body, &msg) == nil {
		re.Message = msg
	}
	return re
}

// retryAfter is how long a 429 asks to wait: the body's retry_after
// (seconds, fractional), else the Retry-After header (whole seconds), else
// one second; never less than 10 ms nor more than a minute.
func retryAfter(h http.Header, body []byte) time.Duration {
	d := time.Second
	var rl struct {
		RetryAfter *float64 `json:"retry_after"`
	}
	if json.Unmarshal(body, &rl) == nil && rl.RetryAfter != nil && !math.IsNaN(*rl.RetryAfter) {
		d = time.Duration(*rl.RetryAfter * float64(time.Second))
	} else if v, err := strconv.ParseFloat(h.Get("Retry-After"), 64); err == nil && !math.IsNaN(v) {
		d = time.Duration(v * float64(time.Second))
	}
	return min(max(d, 10*time.Millisecond), time.Minute)
}

// BucketKeys lists the keys of the buckets discordgo's rate limiter holds
// (it keeps one per route key for ever, issue #1333), sorted: how tests and
// diagnostics see that no interaction token is kept in one. It reads
// discordgo's unexported map, so it reports an error when a version of
// discordgo keeps its buckets otherwise.
func BucketKeys(rl *discordgo.RateLimiter) ([]string, error) {
	rl.Lock()
	defer rl.Unlock()
	m := reflect.ValueOf(rl).Elem().FieldByName("buckets")
	if !m.IsValid() || m.Kind() != reflect.Map || m.Type().Key().Kind() != reflect.String {
		return nil, errors.New("discordhttp: discordgo's RateLimiter has no map buckets keyed by string any more")
	}
	keys := make([]string, 0, m.Len())
	for _, k := range m.MapKeys() {
		keys = append(keys, k.String())
	}
	slices.Sort(keys)
	return keys, nil
}

// InteractionResponseDelete deletes the interaction's original response,
// as discordgo's does, past discordgo's rate limiter (whose bucket would
// keep the token).
func (s *InteractionSession) InteractionResponseDelete(i *discordgo.Interaction, opts ...discordgo.RequestOption) error {
	endpoint := discordgo.EndpointWebhookMessage(i.AppID, i.Token, "@original")
	_, err := s.interactionRequest(http.MethodDelete, endpoint, body{}, opts, requestDeadline(opts, editBudget), sendEdit)
	return err
}
