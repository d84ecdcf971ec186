package discordhttp

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestBaseURLTransport(t *testing.T) {
	var got string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.URL.Path + "?" + r.URL.RawQuery
		io.WriteString(w, "ok")
	}))
	defer srv.Close()
	rt, err := newBaseURLTransport(srv.URL+"/prefix/", nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &http.Client{Transport: rt}
	resp, err := c.Get("https://discord.com/api/v10/gateway?x=1")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got != "/prefix/api/v10/gateway?x=1" {
		t.Fatalf("request reached %q", got)
	}
	for _, bad := range []string{"", "ftp://x", "not a url", "http://"} {
		if _, err := newBaseURLTransport(bad, nil); err == nil {
			t.Errorf("base URL %q accepted", bad)
		}
	}
}

func TestHTTPClientTransport(t *testing.T) {
	check := func(what string, rt http.RoundTripper) {
		t.Helper()
		tr, ok := rt.(*http.Transport)
		if !ok {
			t.Fatalf("%s: transport %T", what, rt)
		}
		if tr.MaxIdleConns != 256 || tr.MaxIdleConnsPerHost != 128 || tr.IdleConnTimeout != 90*time.Second ||
			tr.TLSHandshakeTimeout != 10*time.Second || tr.ResponseHeaderTimeout != 15*time.Second ||
			!tr.ForceAttemptHTTP2 || tr.DialContext == nil {
			t.Errorf("%s: transport %+v", what, tr)
		}
	}
	c, err := NewHTTPClient(nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if c.Timeout != 20*time.Second {
		t.Errorf("client timeout %v", c.Timeout)
	}
	check("discord", c.Transport)
	if c, err = NewHTTPClient(nil, "https://discord.com"); err != nil {
		t.Fatal(err)
	}
	check("discord.com as base URL", c.Transport)
	if c, err = NewHTTPClient(nil, "http://127.0.0.1:8080"); err != nil {
		t.Fatal(err)
	}
	check("under the base URL", c.Transport.(*baseURLTransport).next)
	// A transport of the caller's (the sandbox's fake) is kept.
	own := roundTripFunc(func(*http.Request) (*http.Response, error) { return nil, io.EOF })
	if c, err = NewHTTPClient(own, "http://127.0.0.1:8080"); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Transport.(*baseURLTransport).next.(roundTripFunc); !ok {
		t.Errorf("the given transport was replaced")
	}
	if c, err = NewHTTPClient(own, ""); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Transport.(roundTripFunc); !ok || c.Timeout != 20*time.Second {
		t.Errorf("the given transport was replaced (%T, timeout %v)", c.Transport, c.Timeout)
	}
	if _, err := NewHTTPClient(nil, "ftp://x"); err == nil {
		t.Error("a bad base URL was accepted")
	}
}

// The global limit paces the requests Discord counts and lets interaction
// answers through at once.
func TestGlobalLimitPacesCountedRequestsOnly(t *testing.T) {
	var mu sync.Mutex
	var got []string
	next := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		mu.Lock()
		got = append(got, r.URL.Path)
		mu.Unlock()
		return &http.Response{StatusCode: 204, Body: http.NoBody, Request: r}, nil
	})
	g := NewGlobalLimit(next, 20) // burst 10, then one per 50 ms
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	send := func(path string) error {
		req, _ := http.NewRequestWithContext(ctx, "POST", "https://discord.com"+path, nil)
		_, err := g.RoundTrip(req)
		return err
	}
	counted := 0
	for range 40 {
		if send("/api/v9/channels/1/messages") != nil {
			break
		}
		counted++
	}
	// The context ends after 300 ms: the burst and about 6 more got out.
	if counted < 10 || counted > 20 {
		t.Errorf("%d counted requests within 300 ms at 20/s with a burst of 10", counted)
	}
	for range 50 {
		if err := send("/api/v9/interactions/2/tok/callback"); err != nil {
			t.Fatalf("an interaction answer waited: %v", err)
		}
	}
	if err := send("/api/v9/webhooks/3/tok/messages/@original"); err != nil {
		t.Fatalf("an edit through an interaction token waited: %v", err)
	}
	for _, p := range []string{"/api/v10/interactions/1/x/callback", "/webhooks/1/x"} {
		if !ExemptPath(p) {
			t.Errorf("%s not exempt", p)
		}
	}
	if ExemptPath("/api/v9/channels/1/messages/2") {
		t.Error("a channel edit counted as exempt")
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestRouteHidesIDsAndTokens(t *testing.T) {
	for _, tt := range []struct{ method, path, want string }{
		{"POST", "/api/v10/channels/123456789012345678/messages", "POST /channels/{id}/messages"},
		{"PATCH", "/api/v10/channels/1/messages/2", "PATCH /channels/{id}/messages/{id}"},
		{"POST", "/api/v10/interactions/42/aW50ZXJhY3Rpb246c2VjcmV0/callback", "POST /interactions/{id}/{token}/callback"},
		{"PATCH", "/api/v10/webhooks/7/c2VjcmV0LXRva2Vu/messages/@original", "PATCH /webhooks/{id}/{token}/messages/@original"},
		{"POST", "/api/v10/webhooks/7/c2VjcmV0LXRva2Vu", "POST /webhooks/{id}/{token}"},
		{"GET", "/api/v10/gateway/bot", "GET /gateway/bot"},
		{"PUT", "/api/v10/applications/9/commands", "PUT /applications/{id}/commands"},
		{"PUT", "/api/v10/channels/1/messages/2/reactions/%F0%9F%8E%B2/@me", "PUT /channels/{id}/messages/{id}/reactions/{emoji}/@me"},
	} {
		got := Route(tt.method, tt.path)
		if got != tt.want {
			t.Errorf("Route(%s %s) = %q, want %q", tt.method, tt.path, got, tt.want)
		}
		if strings.Contains(got, "c2Vj") || strings.Contains(got, "aW50") {
			t.Errorf("Route(%s %s) = %q shows a token", tt.method, tt.path, got)
		}
	}
}
