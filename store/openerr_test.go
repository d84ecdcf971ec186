package store

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 40: a file the database could not be opened at was named twice
// ("store: open x.db: open x.db: …"). It is named once, and the cause is
// still there for errors.Is.
func TestOpenErrorNamesThePathOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "qwixxbot.db")
	// A link to a file in a folder that does not exist: the folder of
	// the link is there, the file cannot be made (even by root).
	if err := os.Symlink(filepath.Join(t.TempDir(), "gone", "x.db"), path); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	_, err := Open(path)
	if err == nil {
		t.Fatal("Open succeeded")
	}
	if n := strings.Count(err.Error(), path); n != 1 {
		t.Errorf("error %q names the path %d times", err, n)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("error %q is not fs.ErrNotExist", err)
	}
}
