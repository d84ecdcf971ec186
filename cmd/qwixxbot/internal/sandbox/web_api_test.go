package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/config"
)

// sseReader reads server-sent events from the page's stream.
type sseReader struct {
	sc   *bufio.Scanner
	body io.Closer
}

// The stream ends after two minutes at most, so a reader waiting for an
// event that never comes fails instead of hanging.
func openEvents(t *testing.T, base, user string) *sseReader {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/api/events?user="+user, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("events: %s %s", res.Status, res.Header.Get("Content-Type"))
	}
	t.Cleanup(func() { res.Body.Close() })
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	return &sseReader{sc: sc, body: res.Body}
}

// next returns the next event's name and data.
func (r *sseReader) next(t *testing.T) (string, []byte) {
	t.Helper()
	var name string
	for r.sc.Scan() {
		line := r.sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			return name, []byte(strings.TrimPrefix(line, "data: "))
		}
	}
	t.Fatalf("event stream ended: %v", r.sc.Err())
	return "", nil
}

func postJSON(t *testing.T, url string, body any) map[string]any {
	t.Helper()
	b, _ := json.Marshal(body)
	res, err := http.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		t.Fatalf("%s: %v", url, err)
	}
	return out
}

// TestWebPageShowsOnlyOwnEphemerals checks the page's server without a
// browser: a command sent through the page reaches the bot as the chosen
// user, its private answer is streamed to that user's page only, and its
// files are not served to another user's page; the registered commands are
// listed with their localisations.
func TestWebPageShowsOnlyOwnEphemerals(t *testing.T) {
	cfg := config.Default()
	cfg.Sandbox.OutDir = t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	fw, err := startFake(ctx, cfg, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fw.close)
	wt := newWebTable(fw.srv, []string{"Anna", "Ben"})
	hs := httptest.NewServer(wt.handler())
	t.Cleanup(hs.Close) // after the event streams' bodies are closed
	anna, ben := wt.users[0], wt.users[1]

	var world struct {
		Users    []webUser        `json:"users"`
		Commands []map[string]any `json:"commands"`
	}
	res, err := http.Get(hs.URL + "/api/world")
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(res.Body).Decode(&world)
	res.Body.Close()
	if len(world.Users) != 2 || world.Users[0].Name != "Anna" || len(world.Commands) != 1 || world.Commands[0]["name"] != "qwixx" {
		t.Fatalf("world: %+v", world)
	}
	if !strings.Contains(mustJSON(t, world.Commands[0]), `"name_localizations":{"de":"neu","fr":"nouvelle"}`) {
		t.Errorf("the commands lack their localised names: %s", mustJSON(t, world.Commands[0]))
	}

	annaEv, benEv := openEvents(t, hs.URL, anna.ID), openEvents(t, hs.URL, ben.ID)
	for _, r := range []*sseReader{annaEv, benEv} {
		if name, data := r.next(t); name != "snapshot" || string(data) != "[]" {
			t.Fatalf("first event %s %s, want an empty snapshot", name, data)
		}
	}
	// Ben's /qwixx sheet outside a game: a private answer for Ben.
	if out := postJSON(t, hs.URL+"/api/command", map[string]any{"user": ben.ID, "name": "qwixx", "sub": "sheet"}); out["ok"] != true {
		t.Fatalf("command: %v", out)
	}
	_, data := benEv.next(t)
	var m webMessage
	if err := json.Unmarshal(data, &m); err != nil || !m.Ephemeral || m.Content == "" {
		t.Fatalf("Ben's page got %s (%v), want his private answer", data, err)
	}
	// A public message after it: Anna's stream gets it, and nothing before.
	if out := postJSON(t, hs.URL+"/api/command", map[string]any{"user": anna.ID, "name": "qwixx", "sub": "new", "options": map[string]any{"variant": "dice", "games": 1}}); out["ok"] != true {
		t.Fatalf("command: %v", out)
	}
	_, data = annaEv.next(t)
	var lobby webMessage
	if err := json.Unmarshal(data, &lobby); err != nil || lobby.Ephemeral || lobby.ID == m.ID || len(lobby.Components) == 0 {
		t.Fatalf("Anna's page got %s (%v), want the public lobby first", data, err)
	}
	// A click through the page, as Ben: Join.
	var join string
	for _, c := range fw.srv.Messages(fw.srv.DefaultChannel())[0].CustomIDs() {
		if strings.Contains(c, ":join#") {
			join = c
		}
	}
	if out := postJSON(t, hs.URL+"/api/click", map[string]any{"user": ben.ID, "message": lobby.ID, "custom_id": join}); out["ok"] != true {
		t.Fatalf("click: %v", out)
	}
	for {
		_, data = annaEv.next(t)
		var joined webMessage
		json.Unmarshal(data, &joined)
		if joined.ID != lobby.ID || joined.Version < lobby.Version {
			t.Fatalf("after Ben's Join Anna's page got %s", data)
		}
		if strings.Contains(string(data), `\u003c@`+ben.ID+`\u003e`) {
			break
		}
	}
	// A refused click is reported, as Discord's client would not send it.
	if out := postJSON(t, hs.URL+"/api/click", map[string]any{"user": anna.ID, "message": m.ID, "custom_id": "x"}); out["error"] == nil {
		t.Errorf("a click on Ben's private message was sent for Anna: %v", out)
	}

	// Anna starts the game; Ben's sheet is a private picture, whose file
	// is served to his page only.
	var start string
	for _, c := range fw.srv.Messages(fw.srv.DefaultChannel())[0].CustomIDs() {
		if strings.Contains(c, ":start#") {
			start = c
		}
	}
	if out := postJSON(t, hs.URL+"/api/click", map[string]any{"user": anna.ID, "message": lobby.ID, "custom_id": start}); out["ok"] != true {
		t.Fatalf("start: %v", out)
	}
	if out := postJSON(t, hs.URL+"/api/command", map[string]any{"user": ben.ID, "name": "qwixx", "sub": "sheet"}); out["ok"] != true {
		t.Fatalf("command: %v", out)
	}
	sheetAtt := func() string {
		for _, msg := range ben.Messages(fw.srv.DefaultChannel()) {
			if msg.Ephemeral() && len(msg.Attachments) > 0 {
				return "/att/" + msg.ID + "/" + msg.Attachments[0].Filename
			}
		}
		return ""
	}
	p := sheetAtt()
	if p == "" {
		t.Fatal("Ben's sheet has no picture")
	}
	for user, want := range map[string]int{ben.ID: http.StatusOK, anna.ID: http.StatusNotFound, "": http.StatusNotFound} {
		res, err := http.Get(hs.URL + p + "?user=" + user)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("%s for user %q: %s, want %d", p, user, res.Status, want)
		}
	}
	// Another web site's form cannot act: only JSON is taken.
	res, err = http.Post(hs.URL+"/api/command", "application/x-www-form-urlencoded", strings.NewReader(`{"user":"`+anna.ID+`","name":"qwixx","sub":"end"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnsupportedMediaType {
		t.Errorf("a form post was answered %s", res.Status)
	}
	// Switching locales: the fake's interactions carry them, so Anna's
	// private answer to the same command is in French.
	if out := postJSON(t, hs.URL+"/api/locale", map[string]any{"user": anna.ID, "locale": "xx"}); out["error"] == nil {
		t.Errorf("an unknown locale was taken: %v", out)
	}
	if out := postJSON(t, hs.URL+"/api/locale", map[string]any{"user": anna.ID, "locale": "fr"}); out["ok"] != true {
		t.Fatalf("locale: %v", out)
	}
	english := m.Content
	if out := postJSON(t, hs.URL+"/api/command", map[string]any{"user": anna.ID, "name": "qwixx", "sub": "hand"}); out["ok"] != true {
		t.Fatalf("command: %v", out)
	}
	if out := postJSON(t, hs.URL+"/api/command", map[string]any{"user": ben.ID, "name": "qwixx", "sub": "hand"}); out["ok"] != true {
		t.Fatalf("command: %v", out)
	}
	var french, benHand webMessage
	for french.ID == "" {
		_, data = annaEv.next(t)
		json.Unmarshal(data, &m)
		if m.Ephemeral {
			french = m
		}
	}
	for benHand.ID == "" {
		_, data = benEv.next(t)
		json.Unmarshal(data, &m)
		if m.Ephemeral && m.ID != french.ID && idLess(french.ID, m.ID) {
			benHand = m
		}
	}
	if french.Content == "" || french.Content == benHand.Content {
		t.Errorf("Anna (fr) was answered %q, Ben (en-US) %q (and %q before)", french.Content, benHand.Content, english)
	}
	// Autocomplete: the game of /qwixx record asks the bot (no game has
	// finished here, so it offers none); an option without autocomplete
	// cannot be asked.
	out := postJSON(t, hs.URL+"/api/autocomplete", map[string]any{"user": anna.ID, "name": "qwixx", "sub": "record", "focused": "game", "options": map[string]any{"game": "20"}})
	if choices, ok := out["choices"].([]any); out["ok"] != true || out["callback"] != 8.0 || !ok || len(choices) != 0 {
		t.Errorf("autocomplete of the record's game: %v, want callback 8 and no choices", out)
	}
	if out := postJSON(t, hs.URL+"/api/autocomplete", map[string]any{"user": anna.ID, "name": "qwixx", "sub": "new", "focused": "variant"}); out["error"] == nil {
		t.Errorf("autocomplete of an option with choices: %v", out)
	}
}

// idLess orders snowflakes.
func idLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
