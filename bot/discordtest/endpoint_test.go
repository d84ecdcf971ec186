package discordtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/discordhttp"
)

// endpointBot is a bot's interactions endpoint for the fake to POST to:
// it checks the signature with the application's public key (401 when
// bad, unless check is off) and answers with answer.
func endpointBot(t *testing.T, srv *Server, check bool, answer func(w http.ResponseWriter, body []byte)) string {
	t.Helper()
	key, err := discordhttp.ParsePublicKey(srv.InteractionsPublicKey())
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if check {
			if err := discordhttp.Verify(key, r.Header, body, time.Now()); err != nil {
				http.Error(w, err.Error(), http.StatusUnauthorized)
				return
			}
		}
		var p struct {
			Type int `json:"type"`
		}
		if json.Unmarshal(body, &p) == nil && p.Type == 1 {
			io.WriteString(w, `{"type":1}`)
			return
		}
		answer(w, body)
	}))
	t.Cleanup(hs.Close)
	return hs.URL + "/interactions"
}

func endpointServer(t *testing.T) (*Server, *User) {
	t.Helper()
	srv := NewTestServer(t, Options{InteractionDeadline: 2 * time.Second})
	sess := Connect(t, srv, nil)
	if _, err := sess.ApplicationCommandBulkOverwrite(srv.ApplicationID(), srv.DefaultGuild(), testCommands); err != nil {
		t.Fatalf("registering commands: %v", err)
	}
	return srv, srv.AddUser("ana", "en-US")
}

func TestEndpointModePostsSignedInteractionsAndTakesTheResponse(t *testing.T) {
	srv, ana := endpointServer(t)
	got := make(chan map[string]any, 1)
	srv.SetInteractionsEndpoint(endpointBot(t, srv, true, func(w http.ResponseWriter, body []byte) {
		var p map[string]any
		json.Unmarshal(body, &p)
		got <- p
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"type":4,"data":{"content":"lobby open"}}`)
	}))
	it, err := ana.Command(srv.DefaultChannel(), "qwixx", "new", map[string]any{"players": 2})
	if err != nil {
		t.Fatal(err)
	}
	m, err := it.WaitResponse(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if m.Content != "lobby open" || it.CallbackType() != 4 {
		t.Errorf("answer %q type %d", m.Content, it.CallbackType())
	}
	p := <-got
	if p["id"] != it.ID() || p["token"] != it.Token() || p["type"] != float64(2) {
		t.Errorf("posted interaction %v", p)
	}
	if st := srv.EndpointStats(); st.Posted != 1 || st.Answered != 1 || st.Refused != 0 || st.BadCallbacks != 0 {
		t.Errorf("stats %+v", st)
	}
}

func TestEndpointModeResponseCheckedLikeTheCallback(t *testing.T) {
	srv, ana := endpointServer(t)
	srv.SetInteractionsEndpoint(endpointBot(t, srv, true, func(w http.ResponseWriter, _ []byte) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"type":4,"data":{"content":%q}}`, strings.Repeat("x", 2001))
	}))
	it, err := ana.Command(srv.DefaultChannel(), "qwixx", "new", map[string]any{"players": 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := it.Wait(ctx(t)); !errors.Is(err, ErrInteractionFailed) {
		t.Fatalf("a response Discord refuses: %v, want the interaction failed", err)
	}
	if st := srv.EndpointStats(); st.BadCallbacks != 1 || st.Answered != 0 {
		t.Errorf("stats %+v", st)
	}
	refused := false
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, "/callback") && r.Status == http.StatusBadRequest {
			refused = true
		}
	}
	if !refused {
		t.Error("the response was not refused as a callback")
	}
}

func TestEndpointModeMultipartResponseWithAFile(t *testing.T) {
	srv, ana := endpointServer(t)
	png := []byte("\x89PNG fake picture")
	srv.SetInteractionsEndpoint(endpointBot(t, srv, true, func(w http.ResponseWriter, _ []byte) {
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		pw, _ := mw.CreateFormField("payload_json")
		io.WriteString(pw, `{"type":4,"data":{"content":"sheet","attachments":[{"id":"0","filename":"sheet.png"}]}}`)
		fw, _ := mw.CreateFormFile("files[0]", "sheet.png")
		fw.Write(png)
		mw.Close()
		w.Header().Set("Content-Type", mw.FormDataContentType())
		w.Write(b.Bytes())
	}))
	it, err := ana.Command(srv.DefaultChannel(), "qwixx", "new", map[string]any{"players": 2})
	if err != nil {
		t.Fatal(err)
	}
	m, err := it.WaitResponse(ctx(t))
	if err != nil {
		for _, r := range srv.Requests() {
			t.Logf("%s %s %d %s", r.Method, r.Path, r.Status, r.Error)
		}
		t.Fatal(err)
	}
	if m.Content != "sheet" || len(m.Attachments) != 1 || m.Attachments[0].Filename != "sheet.png" {
		t.Errorf("answer %q with %+v", m.Content, m.Attachments)
	}
}

func TestEndpointModeUnsignedRefusalFailsTheInteraction(t *testing.T) {
	srv, ana := endpointServer(t)
	srv.SetInteractionsEndpoint(endpointBot(t, srv, true, func(w http.ResponseWriter, _ []byte) {
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	it, err := ana.Command(srv.DefaultChannel(), "qwixx", "new", map[string]any{"players": 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := it.Wait(ctx(t)); !errors.Is(err, ErrInteractionFailed) {
		t.Fatalf("%v, want the interaction failed", err)
	}
	if st := srv.EndpointStats(); st.Refused != 1 {
		t.Errorf("stats %+v", st)
	}
}

func TestVerifyEndpointSendsForgedSignatures(t *testing.T) {
	srv, _ := endpointServer(t)
	c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	good := endpointBot(t, srv, true, nil)
	if err := srv.VerifyEndpoint(c, good); err != nil {
		t.Errorf("an endpoint that checks signatures: %v", err)
	}
	// One that answers everything, forged or not, is refused as Discord
	// refuses to save it.
	lax := endpointBot(t, srv, false, nil)
	if err := srv.VerifyEndpoint(c, lax); err == nil || !strings.Contains(err.Error(), "forged") {
		t.Errorf("an endpoint that does not check signatures: %v, want refused", err)
	}
	if st, err := srv.PostForged(c, good, []byte(`{"type":2}`)); err != nil || st != http.StatusUnauthorized {
		t.Errorf("forged POST: %d %v, want 401", st, err)
	}
}

// Discord applies two endpoint responses to clicks on one message in no
// promised order: with SetEndpointReorder the fake applies responses that
// come within the window newest first, every time, and a request with a
// held interaction's token waits for its response.
func TestEndpointReorderAppliesConcurrentResponsesNewestFirst(t *testing.T) {
	h := newHarness(t, Options{InteractionDeadline: 3 * time.Second})
	m0, err := h.sess.ChannelMessageSendComplex(h.ch, &discordgo.MessageSend{Content: "board",
		Components: []discordgo.MessageComponent{row(button("a"))}})
	if err != nil {
		t.Fatal(err)
	}
	// The bot answers each click at once with the click's number, in the
	// order the clicks come (one at a time).
	var mu sync.Mutex
	answered := 0
	h.srv.SetInteractionsEndpoint(endpointBot(t, h.srv, true, func(w http.ResponseWriter, _ []byte) {
		mu.Lock()
		defer mu.Unlock()
		answered++
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"type":7,"data":{"content":"state %d"}}`, answered)
	}))
	h.srv.SetEndpointReorder(300 * time.Millisecond)
	m, _ := h.srv.Message(m0.ID)
	var its []*Interaction
	for k := 1; k <= 3; k++ {
		it, err := h.alice.Click(m, "a")
		if err != nil {
			t.Fatal(err)
		}
		its = append(its, it)
		// The next click comes once this one's response is held: the
		// responses come in the order of their numbers.
		if err := h.srv.waitLocked(ctx(t), func() bool {
			g := h.srv.reorder[m0.ID]
			return g != nil && len(g.held) == k
		}); err != nil {
			t.Fatalf("response %d not held: %v", k, err)
		}
	}
	for _, it := range its {
		if err := it.Wait(ctx(t)); err != nil {
			t.Fatal(err)
		}
	}
	if m, _ = h.srv.Message(m0.ID); m.Content != "state 1" {
		t.Errorf("after three responses applied newest first the message shows %q, want the oldest, \"state 1\"", m.Content)
	}
	// Without the window, the responses take effect as they come.
	h.srv.SetEndpointReorder(0)
	it, err := h.alice.Click(m, "a")
	if err != nil {
		t.Fatal(err)
	}
	if err := it.Wait(ctx(t)); err != nil {
		t.Fatal(err)
	}
	if m, _ = h.srv.Message(m0.ID); m.Content != "state 4" {
		t.Errorf("without reordering: %q, want \"state 4\"", m.Content)
	}
}

// A click answered late is deferred (type 6): the answer follows through
// the token, and WaitDeferred waits for it (EditedOriginal tells an edit
// of the clicked message from a follow-up).
func TestEndpointDeferredUpdateFollowedByAnEditOfTheOriginal(t *testing.T) {
	h := newHarness(t, Options{})
	m0, err := h.sess.ChannelMessageSendComplex(h.ch, &discordgo.MessageSend{Content: "board",
		Components: []discordgo.MessageComponent{row(button("a"))}})
	if err != nil {
		t.Fatal(err)
	}
	tokens := make(chan string, 1)
	h.srv.SetInteractionsEndpoint(endpointBot(t, h.srv, true, func(w http.ResponseWriter, body []byte) {
		var p struct {
			Token string `json:"token"`
		}
		json.Unmarshal(body, &p)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"type":6}`)
		tokens <- p.Token
	}))
	m, _ := h.srv.Message(m0.ID)
	it, err := h.alice.Click(m, "a")
	if err != nil {
		t.Fatal(err)
	}
	if err := it.Wait(ctx(t)); err != nil || it.CallbackType() != 6 {
		t.Fatalf("deferred update: %v, type %d", err, it.CallbackType())
	}
	if it.EditedOriginal() {
		t.Fatal("edited before any edit")
	}
	done := make(chan error, 1)
	go func() { done <- it.WaitDeferred(ctx(t)) }()
	content := "edited after the deferral"
	if _, err := h.sess.InteractionResponseEdit(&discordgo.Interaction{AppID: h.srv.ApplicationID(), Token: <-tokens},
		&discordgo.WebhookEdit{Content: &content}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("WaitDeferred: %v", err)
	}
	if m, _ := h.srv.Message(m0.ID); !it.EditedOriginal() || m.Content != content || len(it.Followups()) != 0 {
		t.Errorf("after the edit: edited %v, %q, %d follow-ups", it.EditedOriginal(), m.Content, len(it.Followups()))
	}
}
