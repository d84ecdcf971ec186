//go:build !unix

package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// lockOutDir takes the sandbox's folder for this process (see the unix
// version): here by creating sandbox.lock exclusively, removed at the end;
// a lock left by a process that was killed must be deleted by hand, as
// the error says.
func lockOutDir(dir string) (unlock func(), err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("sandbox folder: %w", err)
	}
	path := filepath.Join(dir, "sandbox.lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, &outDirBusyError{dir: dir, stale: " (if none is, delete " + path + ")"}
		}
		return nil, fmt.Errorf("sandbox folder: lock %s: %w", path, err)
	}
	f.Close()
	return func() { os.Remove(path) }, nil
}
