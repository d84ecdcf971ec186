package main

import (
	"bufio"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// lineReader hands over r's lines one at a time: next returns false
// when r ends or a minute passes without a line (a process that prints
// less than expected must not hang the test).
func lineReader(r io.Reader) (next func() (string, bool)) {
	got := make(chan string)
	go func() {
		defer close(got)
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			got <- sc.Text()
		}
	}()
	return func() (string, bool) {
		select {
		case l, ok := <-got:
			return l, ok
		case <-time.After(time.Minute):
			return "", false
		}
	}
}

// Issue: started without a token, the program's only output was the
// sandbox page's address, so someone who meant to run the real bot got a
// local page and no word why. The binary's first line, with the token
// unset and with it empty, says that no token was found, that this is
// the local sandbox, and how to run the real bot; the address follows.
func TestNoTokenFirstLineSaysSandbox(t *testing.T) {
	bin := botBinary(t)
	for _, tc := range []struct {
		name string
		env  []string
	}{
		{"unset", nil},
		{"empty", []string{"QWIXXBOT_TOKEN="}},
		{"blank in the config's place", []string{"QWIXXBOT_DISCORD_TOKEN="}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin)
			cmd.Env = append(sandboxEnv(t.TempDir()), tc.env...)
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
			next := lineReader(stdout)
			first, ok := next()
			if !ok {
				t.Fatal("no output")
			}
			for _, want := range []string{"no Discord bot token found", "sandbox", "QWIXXBOT_TOKEN", "discord.token", "real bot"} {
				if !strings.Contains(first, want) {
					t.Errorf("first line %q does not say %q", first, want)
				}
			}
			if t.Failed() {
				return
			}
			if second, _ := next(); !strings.HasPrefix(second, "open http://") {
				t.Errorf("second line %q, want the page's address", second)
			}
		})
	}
}

// Asked for explicitly, the sandbox needs no explanation: with -sandbox
// the first line is the page's address.
func TestSandboxFlagStartsWithTheAddress(t *testing.T) {
	bin := botBinary(t)
	cmd := exec.Command(bin, "-sandbox")
	cmd.Env = sandboxEnv(t.TempDir())
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	if first, _ := lineReader(stdout)(); !strings.HasPrefix(first, "open http://") {
		t.Fatalf("first line %q, want the page's address", first)
	}
}
