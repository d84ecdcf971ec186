package discordtest

import (
	"fmt"
	"hash/fnv"
	"maps"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/qwixxbot/qwixxbot/bot/clock"
)

// RateLimitOptions configures the rate limits the server enforces. The zero
// value leaves them off; a field left zero takes its Discord-like default
// (see doc.go, "Rate limits", for where the figures come from).
type RateLimitOptions struct {
	// Enabled switches Discord's limits on: the global limit per bot token,
	// Discord-shaped per-route buckets, the per-channel message limit and
	// the limit on edits of old messages. When false (the default) every
	// route has one generous bucket (50 requests per second of real time,
	// per route and major parameter), which a bot never reaches in practice.
	Enabled bool
	// Clock measures the windows (message ages are always measured by
	// Options.Clock, which stamps them). Default: Options.Clock. Tests that pin
	// Options.Clock but let a real discordgo wait out Retry-After may set
	// a real-time clock here (and short windows).
	Clock clock.Clock

	// Global requests per GlobalWindow may a bot token make across all
	// routes; interaction answers (POST /interactions/{id}/{token}/callback
	// and everything under /webhooks/{application_id}/{token}) are exempt.
	// Default 50 per second.
	Global       int
	GlobalWindow time.Duration
	// ChannelPosts messages per ChannelPostWindow may the bot post in one
	// channel (POST /channels/{channel_id}/messages). Default 5 per 5 s.
	ChannelPosts      int
	ChannelPostWindow time.Duration
	// ChannelEdits message edits per ChannelEditWindow may the bot make in
	// one channel (PATCH /channels/{channel_id}/messages/{message_id}).
	// Default 5 per 5 s.
	ChannelEdits      int
	ChannelEditWindow time.Duration
	// OldEdits edits per OldEditWindow may the bot make, per channel, to
	// messages created more than OldEditAge ago; beyond that Discord answers
	// 429 with code 30046. Default 3 per 5 minutes, for messages older than
	// one hour: an approximation, Discord publishes no figure.
	OldEdits      int
	OldEditWindow time.Duration
	OldEditAge    time.Duration
	// Route requests per RouteWindow is the bucket of every other route,
	// per major parameter (channel, guild, webhook or interaction token).
	// Default 50 per second, so the global limit binds first.
	Route       int
	RouteWindow time.Duration
}

// Defaults of RateLimitOptions.
const (
	DefaultGlobalRateLimit   = 50
	DefaultGlobalWindow      = time.Second
	DefaultChannelPosts      = 5
	DefaultChannelPostWindow = 5 * time.Second
	DefaultChannelEdits      = 5
	DefaultChannelEditWindow = 5 * time.Second
	DefaultOldEdits          = 3
	DefaultOldEditWindow     = 5 * time.Minute
	DefaultOldEditAge        = time.Hour
	DefaultRouteRateLimit    = 50
	DefaultRouteWindow       = time.Second
)

// withDefaults fills zero fields.
func (o RateLimitOptions) withDefaults(c clock.Clock) RateLimitOptions {
	if o.Clock == nil {
		o.Clock = c
	}
	set := func(n *int, d *time.Duration, dn int, dd time.Duration) {
		if *n <= 0 {
			*n = dn
		}
		if *d <= 0 {
			*d = dd
		}
	}
	set(&o.Global, &o.GlobalWindow, DefaultGlobalRateLimit, DefaultGlobalWindow)
	set(&o.ChannelPosts, &o.ChannelPostWindow, DefaultChannelPosts, DefaultChannelPostWindow)
	set(&o.ChannelEdits, &o.ChannelEditWindow, DefaultChannelEdits, DefaultChannelEditWindow)
	set(&o.OldEdits, &o.OldEditWindow, DefaultOldEdits, DefaultOldEditWindow)
	set(&o.Route, &o.RouteWindow, DefaultRouteRateLimit, DefaultRouteWindow)
	if o.OldEditAge <= 0 {
		o.OldEditAge = DefaultOldEditAge
	}
	return o
}

// SetRateLimits replaces the rate-limit options (zero fields take their
// defaults) and forgets every window, for example to switch the limits on
// after a test's setup.
func (s *Server) SetRateLimits(o RateLimitOptions) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rl = o.withDefaults(s.clock)
	s.buckets = map[string]*bucket{}
	s.globals = map[string]*window{}
	s.oldEdits = map[string]*window{}
}

// RateLimitStats counts what the rate limiter saw; see Server.RateLimitStats.
type RateLimitStats struct {
	// Global counts requests counted against the global limit (every token
	// together); they are counted whether or not the limits are enabled.
	Global int
	// Exempt counts interaction answers, which the global limit skips.
	Exempt int
	// Limited counts 429 answers by X-RateLimit-Scope: "global", "user"
	// and "shared", injected ones (InjectRateLimit) included.
	Limited map[string]int
	// Routes breaks requests and 429s down by route, named as in Discord's
	// documentation: "POST /channels/{channel_id}/messages".
	Routes map[string]RouteRateStats
}

// RouteRateStats counts one route's requests and 429s.
type RouteRateStats struct {
	// Requests counts every request on the route.
	Requests int
	// Limited counts its 429 answers by scope.
	Limited map[string]int
}

// rlCounters are the live counters behind RateLimitStats.
type rlCounters struct {
	global, exempt int
	limited        map[string]int
	routes         map[string]*RouteRateStats
}

// RateLimitStats returns a copy of the rate-limit counters.
func (s *Server) RateLimitStats() RateLimitStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := RateLimitStats{Global: s.rlStats.global, Exempt: s.rlStats.exempt,
		Limited: maps.Clone(s.rlStats.limited), Routes: map[string]RouteRateStats{}}
	for k, v := range s.rlStats.routes {
		st.Routes[k] = RouteRateStats{Requests: v.Requests, Limited: maps.Clone(v.Limited)}
	}
	return st
}

// routeStatsLocked returns the live counters of a route.
func (s *Server) routeStatsLocked(rt route) *RouteRateStats {
	name := rt.method + " " + discordPath(rt.path)
	rs := s.rlStats.routes[name]
	if rs == nil {
		rs = &RouteRateStats{Limited: map[string]int{}}
		s.rlStats.routes[name] = rs
	}
	return rs
}

// countRequest counts one request on rt.
func (s *Server) countRequest(rt route) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.routeStatsLocked(rt).Requests++
}

// countLimitedLocked counts one 429 of scope on rt.
func (s *Server) countLimitedLocked(rt route, scope string) {
	s.routeStatsLocked(rt).Limited[scope]++
	s.rlStats.limited[scope]++
}

var discordParams = strings.NewReplacer("{cid}", "{channel_id}", "{mid}", "{message_id}",
	"{guild}", "{guild_id}", "{app}", "{application_id}", "{iid}", "{interaction_id}",
	"{token}", "{interaction_token}")

// discordPath renames the fake's path parameters to Discord's.
func discordPath(path string) string { return discordParams.Replace(path) }

// exempt reports whether rt answers an interaction, which Discord does not
// count against the global limit.
func exempt(rt route) bool {
	return strings.HasPrefix(rt.path, "/interactions/") || strings.HasPrefix(rt.path, "/webhooks/")
}

type bucket struct {
	hash      string
	remaining int
	reset     time.Time
}

// window is a fixed-window counter.
type window struct {
	count int
	reset time.Time
}

// take counts one use at now if fewer than limit were counted in the
// current window, and otherwise reports how long until the window ends.
func (w *window) take(now time.Time, limit int, length time.Duration) (time.Duration, bool) {
	if !now.Before(w.reset) {
		w.count = 0
		w.reset = now.Add(length)
	}
	if w.count >= limit {
		return w.reset.Sub(now), false
	}
	w.count++
	return 0, true
}

// bucketOf names the shared bucket of a route (routes in the same group
// share one X-RateLimit-Bucket and one counter per major parameter) and
// gives its limit.
func (o *RateLimitOptions) bucketOf(rt route) (group string, limit int, length time.Duration) {
	switch rt.method + " " + rt.path {
	case "POST /channels/{cid}/messages":
		return "channel message create", o.ChannelPosts, o.ChannelPostWindow
	case "PATCH /channels/{cid}/messages/{mid}":
		return "channel message edit", o.ChannelEdits, o.ChannelEditWindow
	case "GET /channels/{cid}/messages", "GET /channels/{cid}/messages/{mid}":
		return "channel messages read", o.Route, o.RouteWindow
	case "POST /channels/{cid}/threads", "POST /channels/{cid}/messages/{mid}/threads":
		return "channel thread create", o.Route, o.RouteWindow
	}
	if strings.HasPrefix(rt.path, "/webhooks/") {
		// Follow-ups and edits of one interaction's messages share a bucket.
		return "interaction webhook", o.Route, o.RouteWindow
	}
	return rt.method + " " + rt.path, o.Route, o.RouteWindow
}

// bucketHash is the opaque X-RateLimit-Bucket of a group.
func bucketHash(group string) string {
	h := fnv.New128a()
	h.Write([]byte(group))
	return fmt.Sprintf("%x", h.Sum(nil))
}

// majorKey names the rate-limit bucket of a request: the route plus its
// major parameters (channel, guild, webhook or interaction id and token),
// the other ids replaced, as Discord does: "PATCH
// /channels/123/messages/{message_id}".
func majorKey(r *http.Request, rt route) string {
	p := discordPath(rt.path)
	for _, major := range []struct{ name, param string }{
		{"{channel_id}", "cid"}, {"{guild_id}", "guild"}, {"{interaction_id}", "iid"}, {"{interaction_token}", "token"}} {
		p = strings.Replace(p, major.name, r.PathValue(major.param), 1)
	}
	if strings.HasPrefix(rt.path, "/webhooks/") {
		p = strings.Replace(p, "{application_id}", r.PathValue("app"), 1)
	}
	return rt.method + " " + p
}

// majors lists the major parameters of a request: the counter of a bucket
// is per bucket and majors, whichever of the bucket's routes is called.
func majors(r *http.Request, rt route) string {
	m := []string{r.PathValue("cid"), r.PathValue("guild"), r.PathValue("iid"), r.PathValue("token")}
	if strings.HasPrefix(rt.path, "/webhooks/") {
		m = append(m, r.PathValue("app"))
	}
	return strings.Join(m, "/")
}

// secs formats a duration as Discord's float seconds,
// rounded up to the millisecond.
func secs(d time.Duration) float64 {
	return float64((d+time.Millisecond-1)/time.Millisecond) / 1000
}

// retryAfter formats Retry-After: whole seconds, rounded up.
func retryAfter(d time.Duration) string { return strconv.Itoa(int(math.Ceil(d.Seconds()))) }

func rateLimited(msg string, code int, after time.Duration, global bool) map[string]any {
	body := map[string]any{"message": msg, "retry_after": secs(after), "global": global}
	if code != 0 {
		body["code"] = code
	}
	return body
}

const rateLimitedMsg = "You are being rate limited."

// rateLimit applies the global limit, per-route buckets and the old-message
// edit limit, sets X-RateLimit-* headers and answers 429 when one is hit.
func (s *Server) rateLimit(w http.ResponseWriter, r *http.Request, rt route) (int, any, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if exempt(rt) {
		s.rlStats.exempt++
	} else if !s.rl.Enabled {
		s.rlStats.global++
	}
	if !s.rl.Enabled {
		return s.simpleBucketLocked(w, r, rt)
	}
	o := &s.rl
	now := o.Clock.Now()
	hd := w.Header()
	if !exempt(rt) {
		// Per token; without one Discord limits the IP address.
		tok := r.Header.Get("Authorization")
		g := s.globals[tok]
		if g == nil {
			g = &window{}
			s.globals[tok] = g
		}
		if after, ok := g.take(now, o.Global, o.GlobalWindow); !ok {
			hd.Set("Retry-After", retryAfter(after))
			hd.Set("X-RateLimit-Global", "true")
			hd.Set("X-RateLimit-Scope", "global")
			s.countLimitedLocked(rt, "global")
			return http.StatusTooManyRequests, rateLimited(rateLimitedMsg, 0, after, true), true
		}
		s.rlStats.global++
	}

	group, limit, length := o.bucketOf(rt)
	hash := bucketHash(group)
	key := hash + " " + majors(r, rt)
	b := s.buckets[key]
	if b == nil {
		b = &bucket{hash: hash}
		s.buckets[key] = b
	}
	if status, body, limited := s.spendLocked(hd, rt, b, now, limit, length); limited {
		return status, body, true
	}

	if rt.method == http.MethodPatch && rt.path == "/channels/{cid}/messages/{mid}" {
		cid := r.PathValue("cid")
		m := s.messages[r.PathValue("mid")]
		if m != nil && m.ChannelID == cid && s.clock.Now().Sub(m.Timestamp) > o.OldEditAge {
			ow := s.oldEdits[cid]
			if ow == nil {
				ow = &window{}
				s.oldEdits[cid] = ow
			}
			if after, ok := ow.take(now, o.OldEdits, o.OldEditWindow); !ok {
				hd.Set("X-RateLimit-Scope", "shared")
				hd.Set("Retry-After", retryAfter(after))
				s.countLimitedLocked(rt, "shared")
				return http.StatusTooManyRequests, rateLimited(
					"Maximum number of edits to messages older than 1 hour reached. Try again later.", 30046, after, false), true
			}
		}
	}
	return 0, nil, false
}

const simpleBucketLimit = 50
const simpleBucketWindow = time.Second

// simpleBucketLocked is the fake's bucket when the limits are off: 50
// requests per second of real time per route and major parameter.
func (s *Server) simpleBucketLocked(w http.ResponseWriter, r *http.Request, rt route) (int, any, bool) {
	now := time.Now()
	key := "simple " + majorKey(r, rt)
	b := s.buckets[key]
	if b == nil {
		b = &bucket{hash: bucketHash(rt.method + " " + rt.path)}
		s.buckets[key] = b
	}
	return s.spendLocked(w.Header(), rt, b, now, simpleBucketLimit, simpleBucketWindow)
}

// spendLocked takes one request from bucket b (limit per length, the window
// opening at its first request), sets the X-RateLimit-* headers, and
// answers 429 (scope user) when the bucket is empty.
func (s *Server) spendLocked(hd http.Header, rt route, b *bucket, now time.Time, limit int, length time.Duration) (int, any, bool) {
	if !now.Before(b.reset) {
		b.remaining = limit
		b.reset = now.Add(length)
	}
	after := b.reset.Sub(now)
	hd.Set("X-RateLimit-Limit", strconv.Itoa(limit))
	hd.Set("X-RateLimit-Bucket", b.hash)
	hd.Set("X-RateLimit-Reset", fmt.Sprintf("%.3f", float64(b.reset.UnixMilli())/1000))
	hd.Set("X-RateLimit-Reset-After", fmt.Sprintf("%.3f", secs(after)))
	if b.remaining <= 0 {
		hd.Set("X-RateLimit-Remaining", "0")
		hd.Set("X-RateLimit-Scope", "user")
		hd.Set("Retry-After", retryAfter(after))
		s.countLimitedLocked(rt, "user")
		return http.StatusTooManyRequests, rateLimited(rateLimitedMsg, 0, after, false), true
	}
	b.remaining--
	hd.Set("X-RateLimit-Remaining", strconv.Itoa(b.remaining))
	return 0, nil, false
}
