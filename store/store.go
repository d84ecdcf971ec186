package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// DefaultLockTimeout is how long Open waits for another process to release
// the database file before giving up with ErrLocked.
const DefaultLockTimeout = time.Second

var (
	// ErrLocked is returned by Open when another process (or another Store
	// in this one) holds the database file.
	ErrLocked = errors.New("database is locked by another process")
	// ErrNotDatabase is returned by Open when the file exists but is not a
	// qwixxbot database: not a bbolt file at all, a damaged one, or a bbolt
	// file that belongs to another program. The file is left untouched.
	ErrNotDatabase = errors.New("not a qwixxbot database")
	// ErrSchemaTooNew is returned by Open when the file was written by a
	// newer qwixxbot whose schema this code does not know.
	ErrSchemaTooNew = errors.New("database schema is newer than this program")
	// ErrEmptyKey is returned when a channel, guild or timer key is empty.
	ErrEmptyKey = errors.New("empty key")
)

// Store is a qwixxbot database. It is safe for concurrent use. Every write
// but PutLater returns only once it is committed and fsync'd; concurrent
// writes share a transaction and its fsync (group commit, see update), and
// a write that finds nothing to change costs no fsync.
type Store struct {
	db   *bbolt.DB
	path string
	log  zerolog.Logger
	now  func() time.Time // the clock of Quarantine and retention; tests replace it
	keep Retention        // how long results and records are kept (history.go)

	// Group commit (group.go). mu guards leading, closed and queue;
	// idle is signalled when leading becomes false.
	mu      sync.Mutex
	idle    sync.Cond
	leading bool         // a goroutine is running a group of writes
	closed  bool         // Close was called: no new writes
	queue   []*writeCall // writes waiting for the next group
	solo    bool         // one transaction per write, no grouping (benchmarks)
	// Writes made later (later.go): the overlay of those not yet
	// committed, by key (*laterPut), and the timer that commits them
	// when no other write does (armed: laterArmed, under mu).
	later      sync.Map
	laterTimer *time.Timer
	laterArmed bool
	// lastStart and lastSize are when the last group's commit started
	// and how many calls it had (linger); touched only by the leader.
	lastStart time.Time
	lastSize  int
	// txFrames are the pooled frames of the group transaction in flight
	// (frameInTx), touched only by the goroutine running it.
	txFrames []*[]byte
	stats    stats
	// onCommit, if set, is told how long each group's commit (and its
	// fsync) took and how many writes it carried (WithCommitObserver).
	onCommit func(took time.Duration, writes int)

	closeOnce sync.Once
	closeErr  error
}

// Option configures Open.
type Option func(*options)

type options struct {
	lockTimeout time.Duration
	log         zerolog.Logger
	keep        Retention
	onCommit    func(took time.Duration, writes int)
}

// WithCommitObserver has fn told, after every committed group of writes,
// how long its commit and fsync took and how many writes it carried (for
// metrics). fn runs in the committing goroutine: it must be quick.
func WithCommitObserver(fn func(took time.Duration, writes int)) Option {
	return func(o *options) { o.onCommit = fn }
}

// WithLockTimeout sets how long Open waits for the file lock held by another
// process; the default is DefaultLockTimeout. A value <= 0 means the default,
// never "wait forever".
func WithLockTimeout(d time.Duration) Option {
	return func(o *options) {
		if d > 0 {
			o.lockTimeout = d
		}
	}
}

// WithLogger sets the logger that reports migrations. The default discards.
func WithLogger(log zerolog.Logger) Option {
	return func(o *options) { o.log = log }
}

// Open opens the database at path, creating it (mode 0600) and its parent
// directories if needed, and brings its schema up to SchemaVersion by running
// the missing migrations in one transaction.
//
// An empty (zero-length) file is treated as a new database. Any other file
// that is not a qwixxbot bbolt database is refused with ErrNotDatabase, a
// file with a newer schema with ErrSchemaTooNew, and a file locked by another
// process, after the lock timeout, with ErrLocked; in these cases nothing is
// written to the file.
func Open(path string, opts ...Option) (*Store, error) {
	return open(path, migrations, opts...)
}

// open is Open with a migration list of the caller's choosing, so tests can
// stop at any version.
func open(path string, migs []Migration, opts ...Option) (*Store, error) {
	o := options{lockTimeout: DefaultLockTimeout, log: zerolog.Nop(), keep: DefaultRetention()}
	for _, opt := range opts {
		opt(&o)
	}
	if path == "" {
		return nil, fmt.Errorf("store: open: empty path")
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("store: open %s: %w", path, err)
		}
	}
	existed := false
	if fi, err := os.Stat(path); err == nil {
		if !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("store: open %s: not a regular file: %w", path, ErrNotDatabase)
		}
		existed = fi.Size() > 0
	}
	if existed {
		if err := checkHeader(path); err != nil {
			return nil, fmt.Errorf("store: open %s: %w", path, err)
		}
	}

	db, err := openBolt(path, &bbolt.Options{Timeout: o.lockTimeout})
	if err != nil {
		switch {
		case errors.Is(err, berrors.ErrTimeout):
			return nil, fmt.Errorf("store: open %s: gave up after %v: %w", path, o.lockTimeout, ErrLocked)
		case errors.Is(err, ErrNotDatabase), errors.Is(err, fs.ErrPermission), errors.Is(err, fs.ErrNotExist):
			var pe *fs.PathError
			if errors.As(err, &pe) && pe.Path == path {
				err = pe.Err // say the path once: "store: open x.db: permission denied"
			}
			return nil, fmt.Errorf("store: open %s: %w", path, err)
		case existed:
			// bbolt validated the meta pages and found no usable one: the
			// file is not a bbolt database or is damaged beyond its checks.
			return nil, fmt.Errorf("store: open %s: %w (bbolt: %v)", path, ErrNotDatabase, err)
		default:
			return nil, fmt.Errorf("store: open %s: %w", path, err)
		}
	}
	s := &Store{db: db, path: path, log: o.log, now: time.Now, keep: o.keep, onCommit: o.onCommit}
	s.idle.L = &s.mu
	if err := safeMigrate(db, migs, o.log); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	return s, nil
}

// safeMigrate is migrate that reports a panic of bbolt's on a damaged page
// (migration 3 reads every value) as ErrCorrupt; bbolt rolls the
// transaction back.
func safeMigrate(db *bbolt.DB, migs []Migration, log zerolog.Logger) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer recoverCorrupt(&err, "migrate")
	return migrate(db, migs, log)
}

// Close closes the database, waiting for running transactions and for
// every write already waiting for its group to be committed, and commits
// the writes made later (PutLater) first; writes that come after it fail.
// Calling it again returns the first call's result.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closed = true
		for s.leading {
			s.idle.Wait()
		}
		if len(s.queue) > 0 {
			// Writes made later, waiting for a commit: now.
			s.leading = true
			group := s.takeGroup()
			s.mu.Unlock()
			s.lead(group, nil)
			s.mu.Lock()
			for s.leading {
				s.idle.Wait()
			}
		}
		if s.laterTimer != nil {
			s.laterTimer.Stop()
		}
		s.mu.Unlock()
		if err := s.db.Close(); err != nil {
			s.closeErr = fmt.Errorf("store: close %s: %w", s.path, err)
		}
	})
	return s.closeErr
}

// Path is the file the store was opened from.
func (s *Store) Path() string { return s.path }

// Version reads the schema version recorded in the file; after a successful
// Open it is SchemaVersion.
func (s *Store) Version() (int, error) {
	var v int
	err := s.view(func(tx *bbolt.Tx) error {
		var err error
		v, err = readVersion(tx)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("store: version: %w", err)
	}
	return v, nil
}

// copyBytes returns a copy of b that outlives the transaction b came from;
// nil stays nil.
func copyBytes(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append(make([]byte, 0, len(b)), b...)
}
