package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rs/zerolog"

	"github.com/qwixxbot/qwixxbot/bot"
)

// maxInteractionRetries is how many times an interaction request is sent
// again after a 429 (waiting Retry-After each time) before its error is
// returned.
const maxInteractionRetries = 3

// interactionSession is the bot's Discord: the discordgo session, except
// that the interaction answers (InteractionRespond and
// InteractionResponseEdit, the only interaction routes the bot uses) are
// sent past discordgo's rate limiter.
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
type interactionSession struct {
	*discordgo.Session
	log zerolog.Logger
	// sleep waits d, or until ctx ends (its error then); tests shorten it.
	sleep func(ctx context.Context, d time.Duration) error
}

var _ bot.Discord = (*interactionSession)(nil)

// newInteractionSession wraps s.
func newInteractionSession(s *discordgo.Session, log zerolog.Logger) *interactionSession {
	return &interactionSession{Session: s, log: log, sleep: sleepCtx}
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
// multipart with payload_json when the response has files).
func (s *interactionSession) InteractionRespond(i *discordgo.Interaction, r *discordgo.InteractionResponse, opts ...discordgo.RequestOption) error {
	endpoint := discordgo.EndpointInteractionResponse(i.ID, i.Token)
	contentType, body, err := requestBody(r, filesOf(r))
	if err != nil {
		return err
	}
	_, err = s.interactionRequest(http.MethodPost, endpoint, contentType, body, opts)
	return err
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
func (s *interactionSession) InteractionResponseEdit(i *discordgo.Interaction, e *discordgo.WebhookEdit, opts ...discordgo.RequestOption) (*discordgo.Message, error) {
	endpoint := discordgo.EndpointWebhookMessage(i.AppID, i.Token, "@original")
	contentType, body, err := requestBody(e, e.Files)
	if err != nil {
		return nil, err
	}
	resp, err := s.interactionRequest(http.MethodPatch, endpoint, contentType, body, opts)
	if err != nil {
		return nil, err
	}
	var m *discordgo.Message
	if err := discordgo.Unmarshal(resp, &m); err != nil {
		return nil, fmt.Errorf("%w: %s", discordgo.ErrJSONUnmarshal, err)
	}
	return m, nil
}

// requestBody encodes data as discordgo does: JSON, or multipart with the
// JSON as payload_json and the files as files[n] when there are files.
func requestBody(data any, files []*discordgo.File) (contentType string, body []byte, err error) {
	if len(files) > 0 {
		return discordgo.MultipartBodyWithJSON(data, files)
	}
	body, err = discordgo.Marshal(data)
	return "application/json", body, err
}

// interactionRequest sends one request with the session's client, token and
// user agent (and the request options), without a rate-limit bucket. A 429
// is waited out (Retry-After) and sent again, up to maxInteractionRetries
// times, unless the options turn retries on rate limits off; a 502 is sent
// again up to MaxRestRetries times, as discordgo does. Any other status
// but 200, 201 and 204 is a *discordgo.RESTError.
func (s *interactionSession) interactionRequest(method, url, contentType string, body []byte, opts []discordgo.RequestOption) ([]byte, error) {
	limited, bad := 0, 0
	for {
		req, err := http.NewRequest(method, url, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		if s.Token != "" {
			req.Header.Set("authorization", s.Token)
		}
		if body != nil {
			req.Header.Set("Content-Type", contentType)
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
		resp, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		switch c := resp.StatusCode; {
		case c == http.StatusOK || c == http.StatusCreated || c == http.StatusNoContent:
			return data, nil
		case c == http.StatusBadGateway && bad < cfg.MaxRestRetries:
			bad++
			continue
		case c == http.StatusTooManyRequests && cfg.ShouldRetryOnRateLimit && limited < maxInteractionRetries:
			limited++
			wait := retryAfter(resp.Header, data)
			s.log.Info().Str("method", method).Str("route", routeName(method)).Dur("retry_in", wait).Int("attempt", limited).
				Msg("interaction answer rate limited")
			if err := s.sleep(req.Context(), wait); err != nil {
				return nil, err
			}
			continue
		}
		return nil, restError(req, resp, data)
	}
}

// routeName names the interaction route for logs (never with its token).
func routeName(method string) string {
	if method == http.MethodPost {
		return "POST /interactions/{id}/{token}/callback"
	}
	return method + " /webhooks/{app}/{token}/messages/@original"
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
