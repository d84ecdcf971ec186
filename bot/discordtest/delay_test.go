package discordtest

import (
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// long is a hold no test waits out: holds end by ReleaseHeld, a client that
// goes away, or Close.
const long = time.Hour

func TestInjectDelayPhases(t *testing.T) {
	h := newHarness(t, Options{})
	type result struct {
		m   *discordgo.Message
		err error
	}
	send := func(content string) chan result {
		ch := make(chan result, 1)
		go func() {
			m, err := h.sess.ChannelMessageSend(h.ch, content)
			ch <- result{m, err}
		}()
		return ch
	}
	// Only POSTs match "POST /messages"; the GET before is not held.
	h.srv.InjectDelay(1, "POST /messages", long, DelayBefore)
	if _, err := h.sess.ChannelMessages(h.ch, 10, "", "", ""); err != nil {
		t.Fatal(err)
	}
	done := send("before")
	if err := h.srv.WaitHeld(ctx(t), 1); err != nil {
		t.Fatal(err)
	}
	held := h.srv.HeldRequests()
	if len(held) != 1 || held[0].Method != "POST" || !strings.HasSuffix(held[0].Path, "/channels/"+h.ch+"/messages") || held[0].Phase != DelayBefore {
		t.Fatalf("held %+v, want the POST, before", held)
	}
	if _, ok := h.srv.Newest(h.ch); ok {
		t.Error("a request held before taking effect took effect")
	}
	if n := h.srv.ReleaseHeld(); n != 1 {
		t.Errorf("released %d, want 1", n)
	}
	r := recv(t, done)
	if r.err != nil {
		t.Fatal(r.err)
	}
	if m, ok := h.srv.Newest(h.ch); !ok || m.ID != r.m.ID {
		t.Errorf("after release: newest %v, want %s", m, r.m.ID)
	}

	h.srv.InjectDelay(1, "/messages", long, DelayAfter)
	done = send("after")
	if err := h.srv.WaitHeld(ctx(t), 1); err != nil {
		t.Fatal(err)
	}
	m, ok := h.srv.Newest(h.ch)
	if !ok || m.Content != "after" {
		t.Fatalf("a request held after taking effect: newest %+v, want the message", m)
	}
	select {
	case r := <-done:
		t.Fatalf("the client heard back while the answer was held: %+v", r)
	default:
	}
	h.srv.ReleaseHeld()
	if r := recv(t, done); r.err != nil || r.m.ID != m.ID {
		t.Errorf("after release: %+v, want message %s", r, m.ID)
	}
	if h.srv.Held() != 0 || h.srv.HeldTotal() != 2 {
		t.Errorf("held %d total %d, want 0 and 2", h.srv.Held(), h.srv.HeldTotal())
	}
	if n := len(h.srv.Messages(h.ch)); n != 2 {
		t.Errorf("%d messages, want 2", n)
	}
}

// TestHelperClientProcess is not a test: TestInjectDelayKilledClient runs
// the test binary as a client process that it kills while its request is
// held.
func TestHelperClientProcess(t *testing.T) {
	url := os.Getenv("DISCORDTEST_HELPER_URL")
	if url == "" {
		t.Skip("helper process only")
	}
	req, _ := http.NewRequest("POST", url, strings.NewReader(`{"content":"from the doomed client"}`))
	req.Header.Set("Authorization", os.Getenv("DISCORDTEST_HELPER_AUTH"))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err == nil {
		resp.Body.Close()
	}
	os.Exit(3) // never reached when killed in time
}

func TestInjectDelayKilledClient(t *testing.T) {
	t.Parallel()
	for _, phase := range []DelayPhase{DelayBefore, DelayAfter} {
		t.Run(phase.String(), func(t *testing.T) {
			t.Parallel()
			srv := NewTestServer(t, Options{})
			srv.InjectDelay(1, "/messages", long, phase)
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperClientProcess$")
			cmd.Env = append(os.Environ(), "DISCORDTEST_HELPER_URL="+srv.URL+"/api/v10/channels/"+srv.DefaultChannel()+"/messages",
				"DISCORDTEST_HELPER_AUTH=Bot "+srv.Token())
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if err := srv.WaitHeld(ctx(t), 1); err != nil {
				_ = cmd.Process.Kill()
				t.Fatal(err)
			}
			if err := cmd.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			// The fake notices the client is gone and ends the hold.
			if err := srv.Wait(ctx(t), func() bool { return srv.Held() == 0 }); err != nil {
				t.Fatal(err)
			}
			_, exists := srv.Newest(srv.DefaultChannel())
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("requests %+v, want the held one", reqs)
			}
			switch phase {
			case DelayBefore:
				if exists || reqs[0].Status != 0 || !strings.Contains(reqs[0].Error, "abandoned") {
					t.Errorf("killed before effect: message exists %v, request %+v; want nothing applied, abandoned", exists, reqs[0])
				}
			case DelayAfter:
				if !exists || reqs[0].Status != 200 {
					t.Errorf("killed after effect: message exists %v, request %+v; want the message and 200", exists, reqs[0])
				}
			}
			// The fake still works.
			u := srv.AddUser("alice", "")
			if _, err := u.ForgeCommand(srv.DefaultChannel(), map[string]any{"name": "x"}); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestCloseWithHeldRequests(t *testing.T) {
	t.Parallel()
	srv, err := NewServer(Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv.InjectDelay(2, "/messages", long, DelayBefore)
	type answer struct {
		status int
		err    error
	}
	answers := make(chan answer, 2)
	for range 2 {
		go func() {
			req, _ := http.NewRequest("POST", srv.URL+"/api/v10/channels/"+srv.DefaultChannel()+"/messages", strings.NewReader(`{"content":"x"}`))
			req.Header.Set("Authorization", "Bot "+srv.Token())
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			a := answer{err: err}
			if err == nil {
				a.status = resp.StatusCode
				resp.Body.Close()
			}
			answers <- a
		}()
	}
	if err := srv.WaitHeld(ctx(t), 2); err != nil {
		t.Fatal(err)
	}
	closed := make(chan struct{})
	go func() { srv.Close(); close(closed) }()
	select {
	case <-closed:
	case <-ctx(t).Done():
		t.Fatal("Close hangs on held requests")
	}
	// Close returns only once every hold has ended.
	if n := srv.Held(); n != 0 {
		t.Errorf("%d requests still held after Close", n)
	}
	// Answered 503 (or cut off), never 200.
	for range 2 {
		if a := recv(t, answers); a.err == nil && a.status != http.StatusServiceUnavailable {
			t.Errorf("a request held before effect during Close got %d", a.status)
		}
	}
	if ms := srv.Messages(srv.DefaultChannel()); len(ms) != 0 {
		t.Errorf("requests held before effect took effect on Close: %d messages", len(ms))
	}
}
