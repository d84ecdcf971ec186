//go:build unix

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// lockOutDir takes the sandbox's folder for this process: a second
// sandbox started on the same folder stops here, before it deletes or
// truncates anything of the running one's (sandbox.db, transcript.txt,
// images). The lock is the kernel's (flock), so it goes with the process,
// however it ends.
func lockOutDir(dir string) (unlock func(), err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("sandbox folder: %w", err)
	}
	path := filepath.Join(dir, "sandbox.lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("sandbox folder: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		owner, _ := os.ReadFile(path)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, &outDirBusyError{dir: dir, owner: strings.TrimSpace(string(owner))}
		}
		return nil, fmt.Errorf("sandbox folder: lock %s: %w", path, err)
	}
	f.Truncate(0)
	f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return func() { f.Close() }, nil
}
