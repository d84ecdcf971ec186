package discordhttp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rs/zerolog"
)

// bucketKeys lists discordgo's rate-limit buckets, failing the test when
// they cannot be read.
func bucketKeys(t *testing.T, rl *discordgo.RateLimiter) []string {
	t.Helper()
	keys, err := BucketKeys(rl)
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// fakeRequest is one request the test server saw.
type fakeRequest struct {
	method, path, contentType, auth, agent string
	body                                   []byte
}

// interactionServer serves answer(n, request) for the n-th request (from 0)
// and records the requests; the session it returns sends there.
func interactionServer(t *testing.T, answer func(n int, w http.ResponseWriter)) (*InteractionSession, func() []fakeRequest, *[]time.Duration) {
	t.Helper()
	return interactionServerSeeing(t, func(n int, _ fakeRequest, w http.ResponseWriter) { answer(n, w) })
}

// interactionServerSeeing is interactionServer whose answers see the request.
func interactionServerSeeing(t *testing.T, answer func(n int, r fakeRequest, w http.ResponseWriter)) (*InteractionSession, func() []fakeRequest, *[]time.Duration) {
	t.Helper()
	var mu sync.Mutex
	var seen []fakeRequest
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		n := len(seen)
		fr := fakeRequest{r.Method, r.URL.Path, r.Header.Get("Content-Type"), r.Header.Get("Authorization"), r.Header.Get("User-Agent"), body}
		seen = append(seen, fr)
		mu.Unlock()
		answer(n, fr, w)
	}))
	t.Cleanup(srv.Close)
	s, err := discordgo.New("Bot unit-token")
	if err != nil {
		t.Fatal(err)
	}
	if s.Client, err = NewHTTPClient(nil, srv.URL); err != nil {
		t.Fatal(err)
	}
	is := NewInteractionSession(s, zerolog.Nop())
	var slept []time.Duration
	is.sleep = func(ctx context.Context, d time.Duration) error {
		slept = append(slept, d)
		return ctx.Err()
	}
	return is, func() []fakeRequest { mu.Lock(); defer mu.Unlock(); return slices.Clone(seen) }, &slept
}

var unitInteraction = &discordgo.Interaction{ID: "111", AppID: "222", Token: "tok-secret-333"}

func TestInteractionSessionWaitsOut429(t *testing.T) {
	is, seen, slept := interactionServer(t, func(n int, w http.ResponseWriter) {
		if n < 2 {
			w.Header().Set("Retry-After", "1")
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusTooManyRequests)
			io.WriteString(w, `{"message": "You are being rate limited.", "retry_after": 0.25, "global": false}`)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	err := is.InteractionRespond(unitInteraction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
		Data: &discordgo.InteractionResponseData{Content: "hello"}})
	if err != nil {
		t.Fatal(err)
	}
	reqs := seen()
	if len(reqs) != 3 || !slices.Equal(*slept, []time.Duration{250 * time.Millisecond, 250 * time.Millisecond}) {
		t.Fatalf("%d requests, waits %v; want 3 requests after two waits of 250ms", len(reqs), *slept)
	}
	for _, r := range reqs {
		if r.method != "POST" || r.path != "/api/v"+discordgo.APIVersion+"/interactions/111/tok-secret-333/callback" || r.contentType != "application/json" ||
			r.auth != "Bot unit-token" || r.agent != is.UserAgent || !strings.Contains(string(r.body), `"content":"hello"`) {
			t.Fatalf("request %+v", r)
		}
	}
	if keys := bucketKeys(t, is.Ratelimiter); len(keys) != 0 {
		t.Errorf("discordgo's rate limiter got buckets %q", keys)
	}

	// Past maxInteractionRetries the 429 is returned, as a RESTError.
	is, seen, slept = interactionServer(t, func(n int, w http.ResponseWriter) {
		w.Header().Set("Retry-After", "2")
		w.WriteHeader(http.StatusTooManyRequests)
	})
	err = is.InteractionRespond(unitInteraction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage})
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Response.StatusCode != 429 || len(seen()) != 1+maxInteractionRetries ||
		!slices.Equal(*slept, []time.Duration{2 * time.Second, 2 * time.Second, 2 * time.Second}) {
		t.Fatalf("err %v after %d requests and waits %v", err, len(seen()), *slept)
	}

	// A context that ends during the wait ends the request.
	is, seen, _ = interactionServer(t, func(n int, w http.ResponseWriter) {
		w.Header().Set("Retry-After", "30")
		w.WriteHeader(http.StatusTooManyRequests)
	})
	is.sleep = sleepCtx
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	err = is.InteractionRespond(unitInteraction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage}, discordgo.WithContext(ctx))
	// The one request, no retry after the wait the context cut short.
	if !errors.Is(err, context.DeadlineExceeded) || len(seen()) != 1 {
		t.Fatalf("err %v after %v and %d requests", err, time.Since(start), len(seen()))
	}
}

func TestInteractionSessionErrorsAreRESTErrors(t *testing.T) {
	is, seen, _ := interactionServer(t, func(n int, w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"message": "Unknown interaction", "code": 10062}`)
	})
	check := func(what string, err error) {
		t.Helper()
		var re *discordgo.RESTError
		if !errors.As(err, &re) || re.Response == nil || re.Response.StatusCode != 404 || re.Request == nil ||
			re.Message == nil || re.Message.Code != discordgo.ErrCodeUnknownInteraction || !strings.Contains(string(re.ResponseBody), "Unknown interaction") {
			t.Fatalf("%s: err %#v", what, err)
		}
	}
	check("respond", is.InteractionRespond(unitInteraction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage}))
	content := "x"
	m, err := is.InteractionResponseEdit(unitInteraction, &discordgo.WebhookEdit{Content: &content})
	if m != nil {
		t.Errorf("a message with the error: %+v", m)
	}
	check("edit", err)
	if n := len(seen()); n != 2 {
		t.Errorf("%d requests, want 2 (no retry of a 404)", n)
	}

	// An edit that keeps getting 502 is sent maxInteractionAttempts times.
	is, seen, _ = interactionServer(t, func(n int, w http.ResponseWriter) { w.WriteHeader(http.StatusBadGateway) })
	_, err = is.InteractionResponseEdit(unitInteraction, &discordgo.WebhookEdit{Content: &content})
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Response.StatusCode != 502 || len(seen()) != maxInteractionAttempts {
		t.Fatalf("err %v after %d requests", err, len(seen()))
	}
}

// Issue: an interaction answer that got 500, 503 or 504 was not sent again
// (only 502 was), so a move that was saved showed "This interaction
// failed". Each of those, and a broken connection, is sent again.
func TestInteractionAnswerRetriedOnServerErrors(t *testing.T) {
	for _, status := range []int{500, 502, 503, 504, 0} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			is, seen, slept := interactionServer(t, func(n int, w http.ResponseWriter) {
				if n < 2 {
					if status == 0 { // the connection breaks before an answer
						hj, _ := w.(http.Hijacker)
						conn, _, _ := hj.Hijack()
						conn.Close()
						return
					}
					w.WriteHeader(status)
					return
				}
				w.WriteHeader(http.StatusNoContent)
			})
			err := is.InteractionRespond(unitInteraction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
				Data: &discordgo.InteractionResponseData{Content: "moved"}})
			if err != nil {
				t.Fatal(err)
			}
			reqs := seen()
			if len(reqs) != 3 || !slices.Equal(*slept, []time.Duration{firstBackoff, 2 * firstBackoff}) {
				t.Fatalf("%d requests after waits %v; want 3 after %v and %v", len(reqs), *slept, firstBackoff, 2*firstBackoff)
			}
			for _, r := range reqs {
				if !strings.Contains(string(r.body), `"content":"moved"`) {
					t.Fatalf("request %d is not the answer: %s", len(reqs), r.body)
				}
			}
		})
	}
	// A refusal (400) is not sent again.
	is, seen, _ := interactionServer(t, func(n int, w http.ResponseWriter) { w.WriteHeader(http.StatusBadRequest) })
	if err := is.InteractionRespond(unitInteraction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong}); err == nil || len(seen()) != 1 {
		t.Fatalf("err %v after %d requests; want the 400 after one", err, len(seen()))
	}
}

// An answer is given once: when an attempt whose outcome was unknown (504)
// had in fact gone through, the next attempt's "already acknowledged" is
// success, not an error and not a third attempt.
func TestInteractionAnswerNeverTwice(t *testing.T) {
	is, seen, _ := interactionServer(t, func(n int, w http.ResponseWriter) {
		if n == 0 {
			w.WriteHeader(http.StatusGatewayTimeout) // Discord took it, the edge timed out
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"message": "Interaction has already been acknowledged.", "code": 40060}`)
	})
	err := is.InteractionRespond(unitInteraction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
		Data: &discordgo.InteractionResponseData{Content: "moved"}})
	if err != nil || len(seen()) != 2 {
		t.Fatalf("err %v after %d requests; want success after 2", err, len(seen()))
	}
	// Without an unknown attempt before it, 40060 is the error it is.
	is, seen, _ = interactionServer(t, func(n int, w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"message": "Interaction has already been acknowledged.", "code": 40060}`)
	})
	var re *discordgo.RESTError
	err = is.InteractionRespond(unitInteraction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage})
	if !errors.As(err, &re) || re.Message == nil || re.Message.Code != 40060 || len(seen()) != 1 {
		t.Fatalf("err %v after %d requests", err, len(seen()))
	}
}

// When the full answer keeps failing until the time runs short, a deferred
// answer takes its place (ephemeral if the answer is) and the answer
// follows as an edit of the original response, files included.
func TestInteractionAnswerDeferredWhenTimeRunsShort(t *testing.T) {
	for _, tc := range []struct {
		typ      discordgo.InteractionResponseType
		flags    discordgo.MessageFlags
		deferred int  // the deferred answer's type
		hasData  bool // with data: the flags, to stay ephemeral
	}{
		{discordgo.InteractionResponseChannelMessageWithSource, discordgo.MessageFlagsEphemeral, 5, true},
		{discordgo.InteractionResponseChannelMessageWithSource, 0, 5, false},
		{discordgo.InteractionResponseUpdateMessage, 0, 6, false},
	} {
		t.Run(fmt.Sprint(tc.typ, tc.flags), func(t *testing.T) {
			is, seen, _ := interactionServerSeeing(t, func(n int, r fakeRequest, w http.ResponseWriter) {
				if r.method == "POST" && !bytes.Contains(r.body, []byte(`"type":5`)) && !bytes.Contains(r.body, []byte(`"type":6`)) {
					w.WriteHeader(http.StatusServiceUnavailable) // the full answer never goes through
					return
				}
				if r.method == "PATCH" {
					w.Header().Set("Content-Type", "application/json")
					io.WriteString(w, `{"id": "9", "channel_id": "1", "content": "your cards"}`)
					return
				}
				w.WriteHeader(http.StatusNoContent)
			})
			resp := &discordgo.InteractionResponse{Type: tc.typ,
				Data: &discordgo.InteractionResponseData{Content: "your cards", Flags: tc.flags,
					Files: []*discordgo.File{{Name: "hand.png", ContentType: "image/png", Reader: strings.NewReader("png")}}}}
			err := is.InteractionRespond(unitInteraction, resp)
			if err != nil {
				t.Fatal(err)
			}
			// The caller learns the deferral (its follow-ups depend on it).
			if want := map[discordgo.InteractionResponseType]discordgo.InteractionResponseType{4: 5, 7: 6}[tc.typ]; resp.Type != want {
				t.Errorf("the answer's type after the deferral: %d, want %d", resp.Type, want)
			}
			reqs := seen()
			if len(reqs) != maxInteractionAttempts+2 {
				t.Fatalf("%d requests, want %d full answers, the deferred one and the edit", len(reqs), maxInteractionAttempts)
			}
			d := reqs[maxInteractionAttempts]
			var got struct {
				Type int `json:"type"`
				Data *struct {
					Content string                 `json:"content"`
					Flags   discordgo.MessageFlags `json:"flags"`
				} `json:"data"`
			}
			if err := json.Unmarshal(d.body, &got); err != nil || d.method != "POST" || got.Type != tc.deferred || (got.Data != nil) != tc.hasData ||
				(tc.hasData && (got.Data.Flags != tc.flags || got.Data.Content != "")) {
				t.Fatalf("deferred answer %s %s (%v), want type %d with data %v", d.method, d.body, err, tc.deferred, tc.hasData)
			}
			e := reqs[maxInteractionAttempts+1]
			parts := multipartParts(t, e)
			if e.method != "PATCH" || !strings.HasSuffix(e.path, "/webhooks/222/tok-secret-333/messages/@original") ||
				!strings.Contains(parts["payload_json"], `"content":"your cards"`) || parts["files[0] hand.png image/png"] != "png" {
				t.Fatalf("edit %s %s: %v", e.method, e.path, parts)
			}
		})
	}
	// An autocomplete answer cannot be deferred: its error is returned.
	is, seen, _ := interactionServer(t, func(n int, w http.ResponseWriter) { w.WriteHeader(http.StatusInternalServerError) })
	err := is.InteractionRespond(unitInteraction, &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult})
	if err == nil || len(seen()) != maxInteractionAttempts {
		t.Fatalf("err %v after %d requests", err, len(seen()))
	}
}

// The retries end at the deadline of the answer's context.
func TestInteractionAnswerRetriesEndAtDeadline(t *testing.T) {
	is, seen, _ := interactionServer(t, func(n int, w http.ResponseWriter) { w.WriteHeader(http.StatusInternalServerError) })
	is.sleep = sleepCtx
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := is.InteractionRespond(unitInteraction, &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult}, discordgo.WithContext(ctx))
	// Ended by the deadline (counted: fewer than all the attempts), not by
	// running out of attempts.
	if err == nil || len(seen()) >= maxInteractionAttempts {
		t.Fatalf("err %v after %v and %d requests", err, time.Since(start), len(seen()))
	}
}

// multipartParts reads a multipart body: each part's name and content.
func multipartParts(t *testing.T, r fakeRequest) map[string]string {
	t.Helper()
	mt, params, err := mime.ParseMediaType(r.contentType)
	if err != nil || mt != "multipart/form-data" {
		t.Fatalf("content type %q", r.contentType)
	}
	parts := map[string]string{}
	mr := multipart.NewReader(strings.NewReader(string(r.body)), params["boundary"])
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return parts
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(p)
		name := p.FormName()
		if p.FileName() != "" {
			name += " " + p.FileName() + " " + p.Header.Get("Content-Type")
		}
		parts[name] = string(b)
	}
}

func TestInteractionSessionSendsFilesAsMultipart(t *testing.T) {
	is, seen, _ := interactionServer(t, func(n int, w http.ResponseWriter) {
		if n == 0 {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id": "444", "channel_id": "555", "content": "edited"}`)
	})
	err := is.InteractionRespond(unitInteraction, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: "sheet", Files: []*discordgo.File{{Name: "sheet.png", ContentType: "image/png", Reader: strings.NewReader("PNG1")}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	content := "edited"
	m, err := is.InteractionResponseEdit(unitInteraction, &discordgo.WebhookEdit{Content: &content,
		Files: []*discordgo.File{{Name: "a.png", Reader: strings.NewReader("PNG2")}}})
	if err != nil {
		t.Fatal(err)
	}
	if m == nil || m.ID != "444" || m.ChannelID != "555" || m.Content != "edited" {
		t.Fatalf("edited message %+v", m)
	}
	reqs := seen()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	if r := reqs[0]; r.method != "POST" || r.path != "/api/v"+discordgo.APIVersion+"/interactions/111/tok-secret-333/callback" {
		t.Errorf("respond went to %s %s", r.method, r.path)
	}
	if r := reqs[1]; r.method != "PATCH" || r.path != "/api/v"+discordgo.APIVersion+"/webhooks/222/tok-secret-333/messages/@original" {
		t.Errorf("edit went to %s %s", r.method, r.path)
	}
	p := multipartParts(t, reqs[0])
	if !strings.Contains(p["payload_json"], `"type":4`) || !strings.Contains(p["payload_json"], `"content":"sheet"`) ||
		p["files[0] sheet.png image/png"] != "PNG1" || len(p) != 2 {
		t.Errorf("respond's parts: %q", p)
	}
	p = multipartParts(t, reqs[1])
	if !strings.Contains(p["payload_json"], `"content":"edited"`) || p["files[0] a.png application/octet-stream"] != "PNG2" || len(p) != 2 {
		t.Errorf("edit's parts: %q", p)
	}
	if keys := bucketKeys(t, is.Ratelimiter); len(keys) != 0 {
		t.Errorf("discordgo's rate limiter got buckets %q", keys)
	}
}

// TestDiscordgoKeepsABucketPerInteraction is the leak the wrapper avoids
// (discordgo issue #1333): discordgo's own InteractionRespond leaves a
// bucket keyed by the interaction's token. When this fails, discordgo no
// longer does that, and InteractionSession may not be needed any more.
func TestDiscordgoKeepsABucketPerInteraction(t *testing.T) {
	is, _, _ := interactionServer(t, func(n int, w http.ResponseWriter) { w.WriteHeader(http.StatusNoContent) })
	for i := range 3 {
		it := &discordgo.Interaction{ID: fmt.Sprint(i), AppID: "222", Token: fmt.Sprintf("leaky-%d", i)}
		if err := is.Session.InteractionRespond(it, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage}); err != nil {
			t.Fatal(err)
		}
	}
	keys := bucketKeys(t, is.Ratelimiter)
	n := 0
	for _, k := range keys {
		if strings.Contains(k, "leaky-") {
			n++
		}
	}
	if n != 3 {
		t.Errorf("discordgo kept %d buckets with a token (keys %q); it kept one per interaction", n, keys)
	}
}

// A follow-up is made at most once: an attempt whose outcome is unknown
// (a server error, a broken connection) is not sent again, since Discord
// may have made the message (the caller looks it up); a 429 is waited
// out and sent again; its edit is retried like any edit. Neither waits in
// a bucket of its own (discordgo issue #1333).
func TestFollowupMadeAtMostOnce(t *testing.T) {
	for _, status := range []int{500, 503, 0} {
		is, seen, _ := interactionServer(t, func(n int, w http.ResponseWriter) {
			if status == 0 {
				hj, _ := w.(http.Hijacker)
				conn, _, _ := hj.Hijack()
				conn.Close()
				return
			}
			w.WriteHeader(status)
		})
		_, err := is.FollowupMessageCreate(unitInteraction, true, &discordgo.WebhookParams{Content: "turn 2"})
		if err == nil || len(seen()) != 1 {
			t.Errorf("%d: err %v after %d requests; want the error after one", status, err, len(seen()))
		}
	}
	is, seen, slept := interactionServer(t, func(n int, w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		if n == 0 {
			w.Header().Set("Retry-After", "0.25")
			w.WriteHeader(http.StatusTooManyRequests)
			io.WriteString(w, `{"message": "You are being rate limited.", "retry_after": 0.25, "global": false}`)
			return
		}
		io.WriteString(w, `{"id": "77", "channel_id": "1", "content": "turn 2"}`)
	})
	m, err := is.FollowupMessageCreate(unitInteraction, true, &discordgo.WebhookParams{Content: "turn 2"})
	reqs := seen()
	if err != nil || m == nil || m.ID != "77" || len(reqs) != 2 || len(*slept) != 1 {
		t.Fatalf("after a 429: %+v, %v, %d requests", m, err, len(reqs))
	}
	if r := reqs[1]; r.method != "POST" || !strings.HasSuffix(r.path, "/webhooks/222/tok-secret-333") {
		t.Errorf("follow-up sent as %s %s", r.method, r.path)
	}
	is, seen, _ = interactionServer(t, func(n int, w http.ResponseWriter) {
		if n == 0 {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id": "77", "channel_id": "1", "content": "turn 2 · over"}`)
	})
	content := "turn 2 · over"
	if m, err := is.FollowupMessageEdit(unitInteraction, "77", &discordgo.WebhookEdit{Content: &content}); err != nil || m.Content != content || len(seen()) != 2 ||
		!strings.HasSuffix(seen()[1].path, "/webhooks/222/tok-secret-333/messages/77") {
		t.Errorf("edit after a 502: %+v, %v, %d requests", m, err, len(seen()))
	}
	if keys, err := BucketKeys(is.Ratelimiter); err != nil || len(keys) != 0 {
		t.Errorf("discordgo buckets made: %v (%v)", keys, err)
	}
}

// TestReturnedMessageKeepsWhatTheBotReads: a follow-up's or an edit's
// returned message is read without its components (the costliest part to
// decode), which are the ones the request sent; its ID and attachments
// (the picture the next edit keeps) come from Discord's answer.
func TestReturnedMessageKeepsWhatTheBotReads(t *testing.T) {
	answer := `{"id": "77", "channel_id": "1", "content": "turn 2", "webhook_id": "222", "flags": 64,
		"attachments": [{"id": "a9", "filename": "table.png", "size": 3}],
		"components": [{"type": 1, "components": [{"type": 2, "style": 1, "label": "Pass", "custom_id": "from-discord"}]}]}`
	is, _, _ := interactionServer(t, func(n int, w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, answer)
	})
	sent := []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: "Pass", Style: discordgo.PrimaryButton, CustomID: "sent"}}}}
	check := func(what string, m *discordgo.Message, err error, wantComps bool) {
		t.Helper()
		if err != nil || m == nil || m.ID != "77" || m.ChannelID != "1" || m.Content != "turn 2" || m.WebhookID != "222" ||
			m.Flags != discordgo.MessageFlagsEphemeral || len(m.Attachments) != 1 || m.Attachments[0].ID != "a9" {
			t.Fatalf("%s: %+v, %v", what, m, err)
		}
		if !wantComps {
			if m.Components != nil {
				t.Errorf("%s: components %v, want none (the edit left them)", what, m.Components)
			}
			return
		}
		if len(m.Components) != 1 || m.Components[0].(discordgo.ActionsRow).Components[0].(discordgo.Button).CustomID != "sent" {
			t.Errorf("%s: components %+v, want the ones sent", what, m.Components)
		}
	}
	m, err := is.FollowupMessageCreate(unitInteraction, true, &discordgo.WebhookParams{Content: "turn 2", Components: sent})
	check("follow-up", m, err, true)
	content := "turn 2"
	m, err = is.FollowupMessageEdit(unitInteraction, "77", &discordgo.WebhookEdit{Content: &content, Components: &sent})
	check("edit", m, err, true)
	m, err = is.InteractionResponseEdit(unitInteraction, &discordgo.WebhookEdit{Content: &content})
	check("edit of @original without components", m, err, false)
	is, _, _ = interactionServer(t, func(n int, w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id": 77`)
	})
	if _, err := is.FollowupMessageCreate(unitInteraction, true, &discordgo.WebhookParams{Content: "x"}); !errors.Is(err, discordgo.ErrJSONUnmarshal) {
		t.Errorf("a cut answer: %v, want ErrJSONUnmarshal", err)
	}
}
