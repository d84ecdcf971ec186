package serve

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/config"
)

// /readyz answers 503 with the reason until the bot is connected and its
// store readable, then 200; /healthz answers 200 throughout.
func TestReadyzFollowsTheBot(t *testing.T) {
	m := newMetrics()
	mux := http.NewServeMux()
	m.handle(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	get := func(path string) (int, string) {
		t.Helper()
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	state := error(errGatewayDown)
	for _, tt := range []struct {
		name  string
		set   func()
		code  int
		words string
	}{
		{"starting", func() {}, 503, "starting"},
		{"gateway down", func() {
			f := func() error { return state }
			m.ready.Store(&f)
		}, 503, "gateway is not connected"},
		{"store unreadable", func() { state = errors.New("store: version: database not open") }, 503, "database not open"},
		{"ready", func() { state = nil }, 200, "ready"},
	} {
		tt.set()
		if code, body := get("/readyz"); code != tt.code || !strings.Contains(body, tt.words) {
			t.Errorf("%s: /readyz = %d %q, want %d with %q", tt.name, code, body, tt.code, tt.words)
		}
		if code, _ := get("/healthz"); code != 200 {
			t.Errorf("%s: /healthz = %d", tt.name, code)
		}
	}
}

// The answer histogram, the REST counters (with 429s by scope) and the
// commit histogram are served in Prometheus's text format.
func TestMetricsCountRequestsAndAnswers(t *testing.T) {
	m := newMetrics()
	discord := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "/messages") {
			w.Header().Set("X-RateLimit-Scope", "shared")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer discord.Close()
	c := &http.Client{Transport: m.transport(http.DefaultTransport)}
	for _, p := range []string{"/api/v10/interactions/1/secret-token/callback", "/api/v10/interactions/2/other-token/callback", "/api/v10/channels/3/messages"} {
		resp, err := c.Post(discord.URL+p, "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	m.observeAnswer("component", 40*time.Millisecond, true)
	m.observeAnswer("command", 4*time.Second, false)
	m.observeCommit(2*time.Millisecond, 3)
	mux := http.NewServeMux()
	m.handle(mux)
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body := rec.Body.String()
	for _, want := range []string{
		`qwixxbot_discord_requests_total{route="POST /interactions/{id}/{token}/callback",status="204"} 2`,
		`qwixxbot_discord_requests_total{route="POST /channels/{id}/messages",status="429"} 1`,
		`qwixxbot_discord_rate_limited_total{route="POST /channels/{id}/messages",scope="shared"} 1`,
		`qwixxbot_interaction_answer_seconds_count{kind="component",ok="true"} 1`,
		`qwixxbot_interaction_answer_seconds_bucket{kind="command",ok="false",le="3"} 0`,
		`qwixxbot_store_commit_seconds_count 1`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if strings.Contains(body, "secret-token") || strings.Contains(body, "other-token") {
		t.Error("/metrics shows an interaction token")
	}
}

// The HTTP interactions endpoint is for a bot of one shard: with several,
// the start is refused with what to do.
func TestEndpointWithShardsRefused(t *testing.T) {
	for _, c := range []struct {
		addr   string
		shards int
		ok     bool
	}{{"", 1, true}, {"", 3, true}, {"127.0.0.1:8443", 1, true}, {"127.0.0.1:8443", 2, false}} {
		err := supported(config.Discord{InteractionsAddr: c.addr, ShardCount: c.shards})
		if (err == nil) != c.ok {
			t.Errorf("endpoint %q with %d shards: %v", c.addr, c.shards, err)
		}
		if err != nil && !strings.Contains(err.Error(), "leave discord.interactions_addr empty") {
			t.Errorf("the refusal does not say what to do: %v", err)
		}
	}
}
