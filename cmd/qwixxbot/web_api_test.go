package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// lineWriter collects output and hands over each line.
type lineWriter struct {
	mu    sync.Mutex
	buf   []byte
	lines chan string
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		select {
		case w.lines <- string(w.buf[:i]):
		default: // nobody reads that many lines
		}
		w.buf = w.buf[i+1:]
	}
}

// TestRunWithoutTokenServesThePage runs the program as `go run
// ./cmd/qwixxbot` does without a token: it says it found no token,
// prints the page's address,
// serves the page and the bot's commands there, and exits cleanly when
// stopped.
func TestRunWithoutTokenServesThePage(t *testing.T) {
	t.Setenv("QWIXXBOT_TOKEN", "")
	dir := t.TempDir()
	cfgFile := dir + "/qwixxbot.toml"
	if err := os.WriteFile(cfgFile, []byte("[log]\nlevel = \"error\"\n[sandbox]\naddr = \"127.0.0.1:0\"\nout_dir = \""+dir+"/out\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &lineWriter{lines: make(chan string, 16)}
	code := make(chan int, 1)
	go func() { code <- run(ctx, []string{"-config", cfgFile}, out, io.Discard) }()
	var addr string
	select {
	case line := <-out.lines:
		if line != noTokenNotice {
			t.Fatalf("first line %q, want the no-token notice", line)
		}
	case c := <-code:
		t.Fatalf("run exited with %d before serving the page", c)
	case <-time.After(30 * time.Second):
		t.Fatal("nothing printed")
	}
	select {
	case line := <-out.lines:
		var ok bool
		if addr, ok = strings.CutPrefix(line, "open http://"); !ok {
			t.Fatalf("first line %q, want open http://…", line)
		}
	case c := <-code:
		t.Fatalf("run exited with %d before serving the page", c)
	case <-time.After(30 * time.Second):
		t.Fatal("no address printed")
	}
	for _, path := range []string{"/", "/app.js", "/style.css", "/api/world"} {
		res, err := http.Get("http://" + addr + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || len(body) == 0 {
			t.Errorf("GET %s: %s", path, res.Status)
		}
		if path == "/api/world" && !strings.Contains(string(body), `"name":"qwixx"`) {
			t.Errorf("the page does not offer the bot's commands: %s", body)
		}
	}
	if _, err := os.Stat(dir + "/out/transcript.txt"); err != nil {
		t.Errorf("no transcript: %v", err)
	}
	cancel()
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("run exited with %d", c)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("run did not stop")
	}
}

// TestRunSandboxAuto runs `qwixxbot -sandbox-auto`: the automatic game of
// before the page, for demos and CI. It plays one whole game, writes its
// transcript and pictures and exits 0 with the results.
func TestRunSandboxAuto(t *testing.T) {
	t.Setenv("QWIXXBOT_TOKEN", "")
	dir := t.TempDir()
	cfgFile := dir + "/qwixxbot.toml"
	if err := os.WriteFile(cfgFile, []byte("[log]\nlevel = \"error\"\n[sandbox]\nplayers = 2\nseed = 3\nout_dir = \""+dir+"/out\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out, errOut bytes.Buffer
	if code := run(ctx, []string{"-config", cfgFile, "-sandbox-auto"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "Game over") || !strings.Contains(out.String(), "sandbox: ") {
		t.Errorf("output:\n%s", out.String())
	}
	if strings.Contains(out.String(), "open http://") {
		t.Error("-sandbox-auto served the page")
	}
	imgs, err := os.ReadDir(dir + "/out/images")
	if err != nil || len(imgs) == 0 {
		t.Errorf("no pictures written (%v)", err)
	}
}
