package sandbox

import (
	"bufio"
	"context"
	"io"
	"net"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/config"
)

// Issue: a second sandbox started in the same folder as a running one
// first said only that the address was taken, and once given another
// address, that the folder was taken. The first error now says both
// changes, and the sandbox started as it says runs.
func TestSecondSandboxSameFolderFirstErrorSaysTheWholeFix(t *testing.T) {
	dir := t.TempDir()
	unlock, err := lockOutDir(dir) // the running sandbox's folder...
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	ln := listenWithFreeNext(t) // ...and its address
	defer ln.Close()

	cfg := config.Default()
	cfg.Sandbox.OutDir, cfg.Sandbox.Addr = dir, ln.Addr().String()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err = ServePage(ctx, cfg, zerolog.Nop(), io.Discard)
	if err == nil {
		t.Fatal("a second sandbox on the same folder and address started")
	}
	msg := err.Error()
	m := regexp.MustCompile(`QWIXXBOT_SANDBOX_ADDR=(\S+) QWIXXBOT_SANDBOX_OUT_DIR=(\S+) go run ./cmd/qwixxbot`).FindStringSubmatch(msg)
	if m == nil || !strings.Contains(msg, "another sandbox") || !strings.Contains(msg, ln.Addr().String()) {
		t.Fatalf("the first error does not say both changes: %s", msg)
	}
	if m[1] == cfg.Sandbox.Addr || m[2] == dir {
		t.Fatalf("the error proposes the address or folder in use: %s", msg)
	}

	// Following the advice is enough.
	cfg.Sandbox.Addr, cfg.Sandbox.OutDir = m[1], m[2]
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- ServePage(ctx, cfg, zerolog.Nop(), pw); pw.Close() }()
	line, _ := bufio.NewReader(pr).ReadString('\n')
	if !strings.HasPrefix(line, "open http://"+m[1]) {
		cancel()
		t.Fatalf("the sandbox started as the error says: %q, %v", line, <-done)
	}
	go io.Copy(io.Discard, pr)
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("stopping it: %v", err)
	}
}

// Only the address taken (another program): the error names the address
// setting alone.
func TestSandboxAddressTakenFolderFree(t *testing.T) {
	ln := listenWithFreeNext(t)
	defer ln.Close()
	cfg := config.Default()
	cfg.Sandbox.OutDir, cfg.Sandbox.Addr = t.TempDir(), ln.Addr().String()
	err := ServePage(context.Background(), cfg, zerolog.Nop(), io.Discard)
	if err == nil || !strings.Contains(err.Error(), "QWIXXBOT_SANDBOX_ADDR=") || strings.Contains(err.Error(), "QWIXXBOT_SANDBOX_OUT_DIR") {
		t.Fatalf("error %v, want the address setting alone", err)
	}
	// The check did not keep the folder.
	unlock, err := lockOutDir(cfg.Sandbox.OutDir)
	if err != nil {
		t.Fatalf("the folder stayed locked: %v", err)
	}
	unlock()
}

// listenWithFreeNext listens on a loopback port whose next port is free
// (the one the errors propose).
func listenWithFreeNext(t *testing.T) net.Listener {
	t.Helper()
	for range 20 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		if next, err := net.Listen("tcp", otherAddr(ln.Addr().String())); err == nil {
			next.Close()
			return ln
		}
		ln.Close()
	}
	t.Fatal("no loopback port with a free next one")
	return nil
}
