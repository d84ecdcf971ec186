package sandbox

import (
	"net"
	"path/filepath"
	"strconv"
)

// outDirBusyError is lockOutDir's error when another sandbox holds the
// folder.
type outDirBusyError struct {
	dir   string
	owner string // the running sandbox's process ID, if known
	// stale says how to clear a lock that may have outlived its sandbox
	// (where the lock is not the kernel's), or "".
	stale string
}

// running says who holds the folder: "another sandbox (process 12) is
// running in sandbox-out".
func (e *outDirBusyError) running() string {
	who := "another sandbox"
	if e.owner != "" {
		who += " (process " + e.owner + ")"
	}
	if e.stale != "" {
		return who + " may be running in " + e.dir
	}
	return who + " is running in " + e.dir
}

func (e *outDirBusyError) Error() string {
	return e.running() + ": stop it, or give this one a folder of its own, e.g. QWIXXBOT_SANDBOX_OUT_DIR=" + otherDir(e.dir) + " go run ./cmd/qwixxbot" + e.stale
}

// otherDir proposes a folder for a second sandbox beside dir: dir-2.
func otherDir(dir string) string {
	return filepath.Clean(dir) + "-2"
}

// otherAddr proposes an address for a second sandbox: the next port on
// the same host (127.0.0.1:8081 beside 127.0.0.1:8080).
func otherAddr(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	p, perr := strconv.Atoi(port)
	if err != nil || perr != nil || p <= 0 || p >= 65535 {
		return "127.0.0.1:8081"
	}
	return net.JoinHostPort(host, strconv.Itoa(p+1))
}
