package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 40: a database path the bot could not use failed with
// "store: open qwixxbot.db: open qwixxbot.db: …", naming neither
// store.path nor QWIXXBOT_STORE_PATH. The bot, quarantine and forget
// each say which settings name the file, and where a relative path
// leads, and exit non-zero.
func TestStorePathErrorSaysWhatToChange(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	bad := filepath.Join("file", "qwixxbot.db") // its folder is a file: root cannot create it either
	t.Setenv("QWIXXBOT_TOKEN", "not-a-real-token")
	t.Setenv("QWIXXBOT_STORE_PATH", bad)
	for _, args := range [][]string{nil, {"quarantine"}, {"forget", "123"}} {
		var stderr strings.Builder
		code := run(context.Background(), args, io.Discard, &stderr)
		msg := stderr.String()
		if code == 0 {
			t.Errorf("%v: exit 0", args)
		}
		for _, want := range []string{"store.path", "QWIXXBOT_STORE_PATH", filepath.Join(dir, bad), "not a directory"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%v: error %q does not say %q", args, msg, want)
			}
		}
		if strings.Contains(msg, "not-a-real-token") {
			t.Errorf("%v: the token is in the error", args)
		}
	}
}

// Issue 40: a misspelt QWIXXBOT_ variable's warning says which variable
// was most likely meant.
func TestUnknownEnvWarningDidYouMean(t *testing.T) {
	t.Setenv("QWIXXBOT_STORE_PTH", "x.db")
	var stderr strings.Builder
	if _, err := loadConfig("", &stderr); err != nil {
		t.Fatal(err)
	}
	if want := "environment variable QWIXXBOT_STORE_PTH matches no configuration key (did you mean QWIXXBOT_STORE_PATH?)"; !strings.Contains(stderr.String(), want) {
		t.Errorf("warning %q, want %q", stderr.String(), want)
	}
}
