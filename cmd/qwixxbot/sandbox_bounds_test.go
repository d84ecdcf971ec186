package main

import (
	"bufio"
	"context"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// sandboxEnv is an environment that runs the binary as a sandbox (no token)
// with its page on a free loopback port and its folder in dir.
func sandboxEnv(dir string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "QWIXXBOT_") && !strings.HasPrefix(kv, "QWIXXTEST_") {
			env = append(env, kv)
		}
	}
	return append(env, "QWIXXBOT_SANDBOX_ADDR=127.0.0.1:0", "QWIXXBOT_SANDBOX_OUT_DIR="+dir)
}

// Issue: a second sandbox started from the same folder on another port
// deleted the running one's sandbox.db and truncated its transcript. Now
// it stops with a clear error before touching anything, and the first
// plays on.
func TestSandboxSecondProcessLeavesTheFirstAlone(t *testing.T) {
	bin := botBinary(t)
	dir := t.TempDir()
	first := exec.Command(bin)
	first.Env = sandboxEnv(dir)
	stdout, err := first.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	first.Stderr = io.Discard
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { first.Process.Kill(); first.Wait() })
	lines := bufio.NewScanner(stdout)
	if !lines.Scan() || lines.Text() != noTokenNotice || !lines.Scan() || !strings.HasPrefix(lines.Text(), "open http://") {
		t.Fatalf("first sandbox: %q, want the no-token notice, then its address", lines.Text())
	}
	db, transcript := filepath.Join(dir, "sandbox.db"), filepath.Join(dir, "transcript.txt")
	dbBefore, err1 := os.Stat(db)
	trBefore, err2 := os.ReadFile(transcript)
	if err1 != nil || err2 != nil || len(trBefore) == 0 {
		t.Fatalf("the first sandbox has no database or transcript: %v %v", err1, err2)
	}

	second := exec.Command(bin)
	second.Env = sandboxEnv(dir)
	out, err := second.CombinedOutput()
	if err == nil {
		t.Fatalf("the second sandbox on the same folder ran: %s", out)
	}
	if !strings.Contains(string(out), "another sandbox") || !strings.Contains(string(out), "QWIXXBOT_SANDBOX_OUT_DIR") {
		t.Errorf("the second sandbox's error does not say what to do: %s", out)
	}
	dbAfter, err1 := os.Stat(db)
	trAfter, err2 := os.ReadFile(transcript)
	if err1 != nil || err2 != nil || !os.SameFile(dbBefore, dbAfter) || len(trAfter) < len(trBefore) || string(trAfter[:len(trBefore)]) != string(trBefore) {
		t.Fatalf("the second sandbox touched the first one's files (db: %v, transcript %d → %d bytes)", err1, len(trBefore), len(trAfter))
	}
}

// Issue: the first run on a machine where 8080 is taken failed with a bare
// "bind: address already in use". It names the address and the setting.
func TestSandboxPortTakenSaysWhatToDo(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	t.Setenv("QWIXXBOT_TOKEN", "")
	t.Setenv("QWIXXBOT_SANDBOX_ADDR", ln.Addr().String())
	t.Setenv("QWIXXBOT_SANDBOX_OUT_DIR", t.TempDir())
	var stderr strings.Builder
	code := run(context.Background(), nil, io.Discard, &stderr)
	if code == 0 || !strings.Contains(stderr.String(), ln.Addr().String()+" is already in use") || !strings.Contains(stderr.String(), "QWIXXBOT_SANDBOX_ADDR=") {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
}

// Issue: the sandbox's first console lines were migration logs and an
// invite link for the fake application. Started without a token, the
// first line says so (TestNoTokenFirstLineSaysSandbox) and the second is
// the page's address, with nothing logged before them at the default
// level.
func TestSandboxFirstLineIsTheAddress(t *testing.T) {
	t.Setenv("QWIXXBOT_TOKEN", "")
	t.Setenv("QWIXXBOT_SANDBOX_ADDR", "127.0.0.1:0")
	t.Setenv("QWIXXBOT_SANDBOX_OUT_DIR", t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &lineWriter{lines: make(chan string, 16)}
	logs := &lineWriter{lines: make(chan string, 64)}
	code := make(chan int, 1)
	go func() { code <- run(ctx, nil, out, logs) }()
	for i, want := range []string{noTokenNotice, "open http://"} {
		select {
		case line := <-out.lines:
			if !strings.HasPrefix(line, want) {
				t.Fatalf("line %d %q, want %q", i+1, line, want)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("no address printed")
		}
	}
	select {
	case l := <-logs.lines:
		t.Fatalf("logged before the address: %s", l)
	default:
	}
	cancel()
	<-code
}
