package discordtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/clock"
)

// rlCall is one raw REST request and its answer.
type rlCall struct {
	status int
	hd     http.Header
	body   map[string]any
}

// call sends one request to srv as the bot (auth) or anonymously.
func call(t *testing.T, srv *Server, method, path string, body any, auth bool) rlCall {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, "https://discord.com/api/v10"+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if auth {
		req.Header.Set("Authorization", "Bot "+srv.Token())
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	c := rlCall{status: resp.StatusCode, hd: resp.Header}
	if b, _ := io.ReadAll(resp.Body); len(b) > 0 {
		_ = json.Unmarshal(b, &c.body)
	}
	return c
}

// want checks the status of c.
func (c rlCall) want(t *testing.T, status int, what string) rlCall {
	t.Helper()
	if c.status != status {
		t.Fatalf("%s: status %d %v, want %d", what, c.status, c.body, status)
	}
	return c
}

// checkLimited checks the shape of a 429: Retry-After in whole seconds
// rounded up, X-RateLimit-Scope, X-RateLimit-Global only when global, and
// the JSON body.
func checkLimited(t *testing.T, c rlCall, scope string, retry time.Duration, message string, code int) {
	t.Helper()
	c.want(t, http.StatusTooManyRequests, scope+" limit")
	if got, want := c.hd.Get("Retry-After"), strconv.Itoa(int((retry+time.Second-1)/time.Second)); got != want {
		t.Errorf("Retry-After %q, want %q", got, want)
	}
	if got := c.hd.Get("X-RateLimit-Scope"); got != scope {
		t.Errorf("X-RateLimit-Scope %q, want %q", got, scope)
	}
	global := scope == "global"
	if got := c.hd.Get("X-RateLimit-Global"); (got == "true") != global || (!global && got != "") {
		t.Errorf("X-RateLimit-Global %q for scope %s", got, scope)
	}
	if c.body["message"] != message || c.body["global"] != global || c.body["retry_after"] != retry.Seconds() {
		t.Errorf("body %v, want message %q, global %v, retry_after %v", c.body, message, global, retry.Seconds())
	}
	if gotCode, _ := c.body["code"].(float64); int(gotCode) != code {
		t.Errorf("body code %v, want %d", c.body["code"], code)
	}
	if ct := c.hd.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
}

// checkBucket checks the X-RateLimit-* headers of a bucket answer.
func checkBucket(t *testing.T, c rlCall, clock *clock.Fake, limit, remaining int, resetAfter time.Duration) {
	t.Helper()
	reset := clock.Now().Add(resetAfter)
	want := map[string]string{
		"X-RateLimit-Limit":       strconv.Itoa(limit),
		"X-RateLimit-Remaining":   strconv.Itoa(remaining),
		"X-RateLimit-Reset-After": fmt.Sprintf("%.3f", resetAfter.Seconds()),
		"X-RateLimit-Reset":       fmt.Sprintf("%.3f", float64(reset.UnixMilli())/1000),
	}
	for k, v := range want {
		if got := c.hd.Get(k); got != v {
			t.Errorf("%s %q, want %q", k, got, v)
		}
	}
	if len(c.hd.Get("X-RateLimit-Bucket")) != 32 {
		t.Errorf("X-RateLimit-Bucket %q, want an opaque 32-digit hash", c.hd.Get("X-RateLimit-Bucket"))
	}
}

func newLimitedServer(t *testing.T, rl RateLimitOptions) (*Server, *clock.Fake) {
	t.Helper()
	t.Parallel()
	clock := clock.NewFake(time.Time{})
	rl.Enabled = true
	srv := NewTestServer(t, Options{Clock: clock, RateLimits: rl, InteractionDeadline: time.Minute})
	return srv, clock
}

func TestRateLimitGlobal(t *testing.T) {
	srv, clock := newLimitedServer(t, RateLimitOptions{})
	ch := srv.DefaultChannel()
	// 50 requests over two routes (25 each, well inside their own buckets).
	for i := range 50 {
		path := "/users/@me"
		if i%2 == 1 {
			path = "/channels/" + ch
		}
		c := call(t, srv, "GET", path, nil, true).want(t, 200, fmt.Sprintf("request %d", i+1))
		if c.hd.Get("X-RateLimit-Scope") != "" || c.hd.Get("Retry-After") != "" {
			t.Errorf("request %d carries 429 headers: %v", i+1, c.hd)
		}
	}
	// The 51st, on a third route, hits the global limit: no bucket headers.
	c := call(t, srv, "GET", "/gateway/bot", nil, true)
	checkLimited(t, c, "global", time.Second, "You are being rate limited.", 0)
	for _, k := range []string{"X-RateLimit-Bucket", "X-RateLimit-Limit", "X-RateLimit-Remaining"} {
		if c.hd.Get(k) != "" {
			t.Errorf("global 429 carries %s", k)
		}
	}
	// The limit is the token's: an anonymous request still passes.
	call(t, srv, "GET", "/gateway", nil, false).want(t, 200, "anonymous GET /gateway")

	// Interaction answers are exempt: 3 interactions × (callback + 20
	// edits of @original + 1 follow-up) = 66 requests, all answered.
	alice := srv.AddUser("alice", "en-US")
	for n := range 3 {
		it, err := alice.ForgeCommand(ch, map[string]any{"name": "qwixx", "type": 1})
		if err != nil {
			t.Fatal(err)
		}
		call(t, srv, "POST", "/interactions/"+it.ID()+"/"+it.Token()+"/callback",
			map[string]any{"type": 5}, false).want(t, 204, "deferred callback")
		wh := "/webhooks/" + srv.ApplicationID() + "/" + it.Token()
		for i := range 20 {
			call(t, srv, "PATCH", wh+"/messages/@original",
				map[string]any{"content": fmt.Sprintf("table %d, edit %d", n, i)}, false).want(t, 200, "edit @original")
		}
		call(t, srv, "POST", wh, map[string]any{"content": "follow-up"}, false).want(t, 200, "follow-up")
	}
	// Still within the same second: other requests stay limited.
	clock.Advance(999 * time.Millisecond)
	checkLimited(t, call(t, srv, "GET", "/gateway/bot", nil, true), "global", time.Millisecond, "You are being rate limited.", 0)
	clock.Advance(time.Millisecond)
	call(t, srv, "GET", "/gateway/bot", nil, true).want(t, 200, "after the window")

	st := srv.RateLimitStats()
	if st.Global != 52 || st.Exempt != 66 || st.Limited["global"] != 2 || st.Limited["user"] != 0 {
		t.Errorf("stats %+v, want 52 counted (one anonymous), 66 exempt, 2 global 429s", st)
	}
	if r := st.Routes["GET /gateway/bot"]; r.Requests != 3 || r.Limited["global"] != 2 {
		t.Errorf("GET /gateway/bot stats %+v", r)
	}
	if r := st.Routes["PATCH /webhooks/{application_id}/{interaction_token}/messages/{message_id}"]; r.Requests != 60 || len(r.Limited) != 0 {
		t.Errorf("webhook edit stats %+v", r)
	}
}

func TestRateLimitChannelPosts(t *testing.T) {
	srv, clock := newLimitedServer(t, RateLimitOptions{})
	ch, ch2 := srv.DefaultChannel(), srv.AddChannel(srv.DefaultGuild(), "second")
	post := func(c string) rlCall {
		return call(t, srv, "POST", "/channels/"+c+"/messages", map[string]any{"content": "hi"}, true)
	}
	var hash string
	for i := range 5 {
		c := post(ch).want(t, 200, fmt.Sprintf("post %d", i+1))
		checkBucket(t, c, clock, 5, 4-i, 5*time.Second)
		hash = c.hd.Get("X-RateLimit-Bucket")
	}
	clock.Advance(1500 * time.Millisecond)
	c := post(ch)
	checkLimited(t, c, "user", 3500*time.Millisecond, "You are being rate limited.", 0)
	checkBucket(t, c, clock, 5, 0, 3500*time.Millisecond)
	if c.hd.Get("X-RateLimit-Bucket") != hash {
		t.Errorf("429 names bucket %q, want %q", c.hd.Get("X-RateLimit-Bucket"), hash)
	}

	// Another channel has its own counter in the same (named) bucket.
	for i := range 5 {
		c := post(ch2).want(t, 200, fmt.Sprintf("post %d in the second channel", i+1))
		checkBucket(t, c, clock, 5, 4-i, 5*time.Second)
		if c.hd.Get("X-RateLimit-Bucket") != hash {
			t.Errorf("second channel's bucket %q, want %q", c.hd.Get("X-RateLimit-Bucket"), hash)
		}
	}
	checkLimited(t, post(ch2), "user", 5*time.Second, "You are being rate limited.", 0)

	clock.Advance(3500 * time.Millisecond) // the first channel's window ends
	checkBucket(t, post(ch).want(t, 200, "post after the window"), clock, 5, 4, 5*time.Second)
	if n := len(srv.Messages(ch)); n != 6 {
		t.Errorf("%d messages in the first channel, want 6", n)
	}

	// Routes sharing a bucket share its hash and its counter; others differ.
	list := call(t, srv, "GET", "/channels/"+ch+"/messages", nil, true).want(t, 200, "list")
	one := call(t, srv, "GET", "/channels/"+ch+"/messages/"+srv.Messages(ch)[0].ID, nil, true).want(t, 200, "get one")
	if list.hd.Get("X-RateLimit-Bucket") != one.hd.Get("X-RateLimit-Bucket") || list.hd.Get("X-RateLimit-Bucket") == hash {
		t.Errorf("buckets: list %q, get %q, post %q", list.hd.Get("X-RateLimit-Bucket"), one.hd.Get("X-RateLimit-Bucket"), hash)
	}
	if list.hd.Get("X-RateLimit-Remaining") != "49" || one.hd.Get("X-RateLimit-Remaining") != "48" {
		t.Errorf("shared bucket remaining %s then %s, want 49 then 48",
			list.hd.Get("X-RateLimit-Remaining"), one.hd.Get("X-RateLimit-Remaining"))
	}
	st := srv.RateLimitStats()
	if r := st.Routes["POST /channels/{channel_id}/messages"]; r.Requests != 13 || r.Limited["user"] != 2 || st.Limited["user"] != 2 {
		t.Errorf("stats %+v", st)
	}
}

func TestRateLimitOldMessageEdits(t *testing.T) {
	srv, clock := newLimitedServer(t, RateLimitOptions{})
	ch, ch2 := srv.DefaultChannel(), srv.AddChannel(srv.DefaultGuild(), "second")
	post := func(c string) string {
		r := call(t, srv, "POST", "/channels/"+c+"/messages", map[string]any{"content": "table"}, true).want(t, 200, "post")
		return r.body["id"].(string)
	}
	edit := func(c, id string) rlCall {
		return call(t, srv, "PATCH", "/channels/"+c+"/messages/"+id, map[string]any{"content": "edited"}, true)
	}
	old, old2 := post(ch), post(ch2)
	clock.Advance(59 * time.Minute)
	young := post(ch)
	clock.Advance(time.Minute + time.Second) // old and old2 are over an hour old now

	for i := range 3 {
		edit(ch, old).want(t, 200, fmt.Sprintf("old edit %d", i+1))
	}
	c := edit(ch, old)
	checkLimited(t, c, "shared", 5*time.Minute,
		"Maximum number of edits to messages older than 1 hour reached. Try again later.", 30046)
	checkBucket(t, c, clock, 5, 1, 5*time.Second) // the route bucket's own headers
	// A message younger than an hour is not affected; another channel
	// has its own allowance.
	edit(ch, young).want(t, 200, "edit of a young message")
	edit(ch2, old2).want(t, 200, "old edit in another channel")

	clock.Advance(5 * time.Second)
	checkLimited(t, edit(ch, old), "shared", 5*time.Minute-5*time.Second,
		"Maximum number of edits to messages older than 1 hour reached. Try again later.", 30046)
	clock.Advance(5*time.Minute - 5*time.Second)
	edit(ch, old).want(t, 200, "old edit after the window")
	if m, _ := srv.Message(old); m.Version != 4 {
		t.Errorf("old message edited %d times, want 4", m.Version)
	}

	// Edits per channel: 5 per 5 s whatever the age.
	clock.Advance(5 * time.Minute)
	for i := range 5 {
		edit(ch, young).want(t, 200, fmt.Sprintf("edit %d", i+1))
	}
	checkLimited(t, edit(ch, young), "user", 5*time.Second, "You are being rate limited.", 0)
	if st := srv.RateLimitStats(); st.Limited["shared"] != 2 || st.Limited["user"] != 1 {
		t.Errorf("stats %+v, want 2 shared and 1 user 429", st.Limited)
	}
}

func TestRateLimitsOffByDefault(t *testing.T) {
	t.Parallel()
	clock := clock.NewFake(time.Time{})
	srv := NewTestServer(t, Options{Clock: clock})
	for i := range 20 {
		c := call(t, srv, "POST", "/channels/"+srv.DefaultChannel()+"/messages", map[string]any{"content": "hi"}, true)
		c.want(t, 200, fmt.Sprintf("post %d", i+1))
		if c.hd.Get("X-RateLimit-Limit") != "50" || c.hd.Get("X-RateLimit-Bucket") == "" {
			t.Errorf("headers %v", c.hd)
		}
	}
	srv.InjectRateLimit(1, "GET /users/@me", 1500*time.Millisecond, true)
	checkLimited(t, call(t, srv, "GET", "/users/@me", nil, true), "global", 1500*time.Millisecond, "You are being rate limited.", 0)
	call(t, srv, "GET", "/users/@me", nil, true).want(t, 200, "after the injected 429")
	st := srv.RateLimitStats()
	if st.Global != 21 || st.Exempt != 0 || st.Limited["global"] != 1 || st.Routes["GET /users/@me"].Requests != 2 {
		t.Errorf("stats %+v", st)
	}

	// Switched on later, the limits apply from then on.
	srv.SetRateLimits(RateLimitOptions{Enabled: true, ChannelPosts: 2})
	for range 2 {
		call(t, srv, "POST", "/channels/"+srv.DefaultChannel()+"/messages", map[string]any{"content": "hi"}, true).want(t, 200, "post")
	}
	checkLimited(t, call(t, srv, "POST", "/channels/"+srv.DefaultChannel()+"/messages", map[string]any{"content": "hi"}, true),
		"user", 5*time.Second, "You are being rate limited.", 0)
}

// TestRateLimitDiscordgo runs a real discordgo session into every limit.
// discordgo waits out X-RateLimit-Reset-After and retry_after with
// time.Sleep, so this one test uses real time with windows of a few
// hundred milliseconds (about 2 s of waiting in all).
func TestRateLimitDiscordgo(t *testing.T) {
	t.Parallel()
	const window = 300 * time.Millisecond
	srv := NewTestServer(t, Options{RateLimits: RateLimitOptions{Enabled: true,
		Global: 10, GlobalWindow: window, ChannelPosts: 5, ChannelPostWindow: window,
		ChannelEdits: 2, ChannelEditWindow: window, OldEdits: 3, OldEditWindow: 2 * window, OldEditAge: time.Nanosecond,
		Route: 1000, RouteWindow: window}})
	s, err := discordgo.New("Bot " + srv.Token())
	if err != nil {
		t.Fatal(err)
	}
	s.Client = srv.Client()
	chans := []string{srv.DefaultChannel(), srv.AddChannel(srv.DefaultGuild(), "second")}

	// 12 posts into each of two channels at once, and 30 reads: more than
	// the per-channel and the global limit allow in one window.
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for _, ch := range chans {
		wg.Go(func() {
			for i := range 12 {
				if _, err := s.ChannelMessageSend(ch, fmt.Sprintf("post %d", i)); err != nil {
					errs <- fmt.Errorf("post %d in %s: %w", i, ch, err)
				}
			}
		})
	}
	wg.Go(func() {
		for range 30 {
			if _, err := s.User("@me"); err != nil {
				errs <- err
			}
		}
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, ch := range chans {
		ms := srv.Messages(ch)
		if len(ms) != 12 {
			t.Fatalf("%d messages in %s, want 12", len(ms), ch)
		}
		// The server let at most 5 through per window, so 12 posts span
		// at least two whole windows.
		if span := ms[11].Timestamp.Sub(ms[0].Timestamp); span < 2*window {
			t.Errorf("12 posts in %s within %v; the limit allows 5 per %v", ch, span, window)
		}
	}

	// Edits of four messages that are all "old": 2 edits per window in the
	// channel, which discordgo predicts from the headers (it waits before
	// the third), and 3 old edits per two windows, which it cannot: the
	// fourth answers 429 code 30046 (scope shared) and discordgo waits out
	// retry_after.
	for i, m := range srv.Messages(chans[0])[:4] {
		if _, err := s.ChannelMessageEdit(chans[0], m.ID, fmt.Sprintf("edited %d", i)); err != nil {
			t.Errorf("edit %d: %v", i, err)
		}
	}
	st := srv.RateLimitStats()
	t.Logf("429s by scope: %v", st.Limited)
	if st.Limited["global"] == 0 || st.Limited["shared"] == 0 {
		t.Errorf("limits never hit: %+v", st.Limited)
	}
	// discordgo keeps to X-RateLimit-Remaining and -Reset-After of its
	// per-channel post buckets, so the server never had to refuse a post.
	if n := st.Routes["POST /channels/{channel_id}/messages"].Limited["user"]; n != 0 {
		t.Errorf("%d posts refused by the channel bucket; discordgo should have waited", n)
	}
	for _, r := range srv.Requests() {
		if r.Status != 200 && r.Status != 429 {
			t.Errorf("%s %s answered %d %s", r.Method, r.Path, r.Status, r.Error)
		}
	}
}
