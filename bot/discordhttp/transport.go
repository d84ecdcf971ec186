// Package discordhttp is how the bot talks HTTP to Discord: the one
// transport (sizes, a base URL for the fake Discord, the bot's share of
// the global rate limit) and the interaction answers' own client, which
// keeps no rate-limit bucket per token and retries server errors within
// an interaction's deadline, answering each interaction at most once.
package discordhttp

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/time/rate"
)

// Sizes of the one HTTP transport the bot talks to Discord through.
//
// All the bot's REST traffic goes to one host (discord.com), and under load
// it has many requests in flight at once: every click is answered by its
// own goroutine, besides the channel edits, posts and deletes of the
// refreshers. net/http's default transport keeps only 2 idle connections
// per host (DefaultMaxIdleConnsPerHost), so every burst above 2 closed its
// extra connections when they came back and opened new ones, with a TLS
// handshake each, for the next burst (1,842 new connections in 10 s under
// load). 128 idle connections per host cover the bursts the bot sees;
// MaxIdleConns (all hosts: Discord, its CDN, a base URL) is twice that.
// HTTP/2 is attempted (Discord speaks it, and multiplexes many requests
// over few connections), since a custom dialer would otherwise turn it
// off. The timeouts bound each stage of a request, under the client's
// overall 20 s: 5 s to connect, 10 s for the TLS handshake, 15 s for the
// response's headers; idle connections are closed after 90 s (Discord
// closes them itself after a while anyway).
const (
	httpMaxIdleConns        = 256
	httpMaxIdleConnsPerHost = 128
	httpIdleConnTimeout     = 90 * time.Second
	httpTLSHandshakeTimeout = 10 * time.Second
	httpResponseHeader      = 15 * time.Second
	httpDialTimeout         = 5 * time.Second
	httpKeepAlive           = 30 * time.Second
	// httpWriteBuffer is a connection's write buffer: a request with a
	// picture (20–60 KiB) goes out in one write with its headers, where
	// the default 4 KiB took three or four writes and a copy buffer the
	// body's size (net/http's copy of a body of known length).
	httpWriteBuffer = 64 << 10
	// httpClientTimeout bounds a whole request, body included.
	httpClientTimeout = 20 * time.Second
)

// newDiscordTransport makes the transport for Discord's REST API (see the
// constants above for its sizes).
func newDiscordTransport() *http.Transport {
	d := &net.Dialer{Timeout: httpDialTimeout, KeepAlive: httpKeepAlive}
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           d.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          httpMaxIdleConns,
		MaxIdleConnsPerHost:   httpMaxIdleConnsPerHost,
		IdleConnTimeout:       httpIdleConnTimeout,
		TLSHandshakeTimeout:   httpTLSHandshakeTimeout,
		ResponseHeaderTimeout: httpResponseHeader,
		ExpectContinueTimeout: time.Second,
		WriteBufferSize:       httpWriteBuffer,
	}
}

// NewHTTPClient makes the session's HTTP client: requests go through rt
// (the sandbox's in-process fake), or a transport of newDiscordTransport
// when rt is nil; with a base URL other than Discord's they are sent
// there (newBaseURLTransport).
func NewHTTPClient(rt http.RoundTripper, baseURL string) (*http.Client, error) {
	if rt == nil {
		rt = newDiscordTransport()
	}
	if baseURL != "" && baseURL != "https://discord.com" {
		var err error
		if rt, err = newBaseURLTransport(baseURL, rt); err != nil {
			return nil, err
		}
	}
	return &http.Client{Transport: rt, Timeout: httpClientTimeout}, nil
}

// discordHosts are the hosts discordgo builds its URLs from.
var discordHosts = map[string]bool{"discord.com": true, "discordapp.com": true, "cdn.discordapp.com": true}

// baseURLTransport sends discordgo's requests for https://discord.com/… to
// another Discord-compatible server (the built-in fake, or a self-hosted
// one), keeping the path. With the default base URL it is not used at all.
type baseURLTransport struct {
	base *url.URL
	next http.RoundTripper
}

// newBaseURLTransport points discordgo at base (for example
// http://127.0.0.1:8080); next carries the requests (a transport of
// newDiscordTransport when nil).
func newBaseURLTransport(base string, next http.RoundTripper) (http.RoundTripper, error) {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("discord.base_url %q is not an http(s) URL", base)
	}
	if next == nil {
		next = newDiscordTransport()
	}
	return &baseURLTransport{base: u, next: next}, nil
}

// RoundTrip rewrites the request's scheme and host, and prefixes the base
// path, when it is addressed to Discord.
func (t *baseURLTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !discordHosts[req.URL.Hostname()] {
		return t.next.RoundTrip(req)
	}
	r := req.Clone(req.Context())
	r.URL.Scheme = t.base.Scheme
	r.URL.Host = t.base.Host
	r.URL.Path = strings.TrimSuffix(t.base.Path, "/") + req.URL.Path
	r.Host = t.base.Host
	return t.next.RoundTrip(r)
}

// GlobalShare is the part of the token's global rate limit
// (discord.rate_limit, 50 per second by default, shared by every process
// of the token) that the bot uses on the routes the limit counts
// (everything but interaction answers): below the limit, so that a busy
// bot waits here instead of collecting 429s (Discord bans an address that
// sends 10,000 refused requests in 10 minutes). Edits and posts of the
// channel wait; click answers never do.
const GlobalShare = 0.9

// globalLimit is a RoundTripper that paces the requests counted against
// the global rate limit (rate.Limiter, golang.org/x/time) and lets
// interaction answers (/interactions/… and /webhooks/…) through at once.
type globalLimit struct {
	next http.RoundTripper
	lim  *rate.Limiter
}

// NewGlobalLimit paces next at perSecond counted requests per second, in
// bursts of at most 10.
func NewGlobalLimit(next http.RoundTripper, perSecond float64) *globalLimit {
	return &globalLimit{next: next, lim: rate.NewLimiter(rate.Limit(perSecond), 10)}
}

// ExemptPath reports whether Discord's global rate limit skips a request:
// interaction callbacks and requests with an interaction token (the path
// after /api/vN).
func ExemptPath(path string) bool {
	if rest, ok := strings.CutPrefix(path, "/api/v"); ok {
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			path = rest[i:]
		}
	}
	return strings.HasPrefix(path, "/interactions/") || strings.HasPrefix(path, "/webhooks/")
}

// RoundTrip waits for the limiter unless the request is exempt.
func (g *globalLimit) RoundTrip(req *http.Request) (*http.Response, error) {
	if !ExemptPath(req.URL.Path) {
		if err := g.lim.Wait(req.Context()); err != nil {
			return nil, fmt.Errorf("waiting for the global rate limit: %w", err)
		}
	}
	return g.next.RoundTrip(req)
}

// Route names a request's route for metrics and logs: the method and the
// path after /api/vN with every ID replaced by {id} and every interaction
// or webhook token by {token}, so that routes are few and no token is
// ever shown ("POST /channels/{id}/messages",
// "POST /interactions/{id}/{token}/callback").
func Route(method, path string) string {
	if rest, ok := strings.CutPrefix(path, "/api/v"); ok {
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			path = rest[i:]
		}
	}
	segs := strings.Split(strings.Trim(path, "/"), "/")
	for i, s := range segs {
		switch {
		case s == "":
		case i == 2 && (segs[0] == "interactions" || segs[0] == "webhooks"):
			segs[i] = "{token}"
		case isID(s):
			segs[i] = "{id}"
		case i > 0 && segs[i-1] == "reactions":
			segs[i] = "{emoji}"
		}
	}
	return method + " /" + strings.Join(segs, "/")
}

// isID reports whether s is a snowflake: decimal digits only.
func isID(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}
