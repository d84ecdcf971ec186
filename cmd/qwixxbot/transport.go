package main

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

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
// http://127.0.0.1:8080).
func newBaseURLTransport(base string, next http.RoundTripper) (http.RoundTripper, error) {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("discord.base_url %q is not an http(s) URL", base)
	}
	if next == nil {
		next = http.DefaultTransport
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
