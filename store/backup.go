package store

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Backups.
//
// A running bot holds its database file's lock, and copying the file while
// bbolt writes it can copy half a transaction. Backup instead writes the
// database as one read transaction sees it (bbolt's Tx.WriteTo): a
// consistent copy of every committed write before it began, taken while
// the bot goes on writing. BackupFile puts such a copy into a folder under
// a name that sorts by time, PruneBackups keeps the newest few, Verify
// checks a copy value by value, and Restore puts a verified copy in place
// of a stopped bot's database.

// backupPrefix and backupSuffix frame the names BackupFile gives:
// qwixxbot-20261128T221500.123Z.db, so that names sort by time.
const (
	backupPrefix = "qwixxbot-"
	backupSuffix = ".db"
	backupLayout = "20060102T150405.000Z"
)

// Backup writes a consistent copy of the database, as of the moment it
// starts (the writes made later before it committed first: Flush), to w,
// and returns the bytes written. Writes go on meanwhile; they are not in
// the copy.
func (s *Store) Backup(w io.Writer) (int64, error) {
	var n int64
	if err := s.Flush(); err != nil {
		return 0, fmt.Errorf("store: backup: %w", err)
	}
	err := s.view(func(tx *bbolt.Tx) error {
		var err error
		n, err = tx.WriteTo(w)
		return err
	})
	if err != nil {
		return n, fmt.Errorf("store: backup: %w", err)
	}
	return n, nil
}

// BackupFile writes a consistent copy of the database into dir (made if
// missing) as qwixxbot-<UTC time>.db, and returns its path. The copy is
// written beside under a temporary name, synced and then renamed, so a
// file with a backup's name is always whole; it is verified (Verify)
// before BackupFile returns.
func (s *Store) BackupFile(dir string) (string, error) {
	if dir == "" {
		return "", fmt.Errorf("store: backup: %w: no folder", ErrEmptyKey)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("store: backup: %w", err)
	}
	at := s.now().UTC()
	name := filepath.Join(dir, backupPrefix+at.Format(backupLayout)+backupSuffix)
	for i := 1; fileExists(name); i++ {
		// Two backups in the same millisecond: the later one's name still
		// sorts after the earlier one's.
		name = filepath.Join(dir, backupPrefix+at.Format(backupLayout)+fmt.Sprintf("-%03d", i)+backupSuffix)
	}
	tmp, err := os.CreateTemp(dir, ".backup-*.tmp")
	if err != nil {
		return "", fmt.Errorf("store: backup: %w", err)
	}
	defer os.Remove(tmp.Name()) // gone after the rename; cleans up otherwise
	if _, err := s.Backup(tmp); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return "", fmt.Errorf("store: backup: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("store: backup: %w", err)
	}
	if _, err := Verify(tmp.Name()); err != nil {
		return "", fmt.Errorf("store: backup: the copy does not verify: %w", err)
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		return "", fmt.Errorf("store: backup: %w", err)
	}
	if err := syncDir(dir); err != nil {
		return "", fmt.Errorf("store: backup: %w", err)
	}
	return name, nil
}

// Backups lists the backups BackupFile wrote into dir, oldest first.
func Backups(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("store: backups: %w", err)
	}
	var out []string
	for _, e := range entries {
		if n := e.Name(); e.Type().IsRegular() && strings.HasPrefix(n, backupPrefix) && strings.HasSuffix(n, backupSuffix) {
			out = append(out, filepath.Join(dir, n))
		}
	}
	slices.Sort(out)
	return out, nil
}

// PruneBackups deletes the oldest backups in dir beyond the newest keep
// (keep < 1 keeps them all) and returns the paths it deleted. Files that
// BackupFile did not name are never touched.
func PruneBackups(dir string, keep int) ([]string, error) {
	all, err := Backups(dir)
	if err != nil || keep < 1 || len(all) <= keep {
		return nil, err
	}
	var gone []string
	for _, p := range all[:len(all)-keep] {
		if err := os.Remove(p); err != nil {
			return gone, fmt.Errorf("store: prune backups: %w", err)
		}
		gone = append(gone, p)
	}
	return gone, nil
}

// Summary is what Verify found in a database file.
type Summary struct {
	// Version is the schema version the file records.
	Version int
	// Games are the stored tables, Guilds the guilds with settings,
	// Results and Records the kept results and game records (all guilds),
	// Timers the pending timers, Quarantined the tables put aside.
	Games, Guilds, Results, Records, Timers, Quarantined int
	// Values counts every value read, in every bucket.
	Values int
}

// String is the summary as one line, for logs and the command line.
func (s Summary) String() string {
	return fmt.Sprintf("schema %d: %d tables, %d guild settings, %d results, %d records, %d timers, %d quarantined (%d values)",
		s.Version, s.Games, s.Guilds, s.Results, s.Records, s.Timers, s.Quarantined, s.Values)
}

// Verify opens the database file at path read-only and checks it whole:
// bbolt's own structure (Tx.Check), a schema version this code knows, and
// the checksum of every framed value (see the package documentation). It
// never writes to the file. A damaged or foreign file gives an error
// wrapping ErrCorrupt or ErrNotDatabase; a file of a newer schema wraps
// ErrSchemaTooNew. A file another process holds open for writing (a
// running bot) gives ErrLocked: back such a database up with Backup.
func Verify(path string) (sum Summary, err error) {
	fi, err := os.Stat(path)
	if err != nil {
		return sum, fmt.Errorf("store: verify: %w", err)
	}
	if !fi.Mode().IsRegular() || fi.Size() == 0 {
		return sum, fmt.Errorf("store: verify %s: %w: not a regular, non-empty file", path, ErrNotDatabase)
	}
	if err := checkHeader(path); err != nil {
		return sum, fmt.Errorf("store: verify %s: %w", path, err)
	}
	db, err := openBolt(path, &bbolt.Options{ReadOnly: true, Timeout: DefaultLockTimeout})
	if err != nil {
		if errors.Is(err, berrors.ErrTimeout) {
			return sum, fmt.Errorf("store: verify %s: %w", path, ErrLocked)
		}
		return sum, fmt.Errorf("store: verify %s: %w", path, err)
	}
	defer db.Close()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer recoverCorrupt(&err, "verify "+path)
	err = db.View(func(tx *bbolt.Tx) error {
		for cerr := range tx.Check() {
			return fmt.Errorf("%w: bbolt: %v", ErrCorrupt, cerr)
		}
		v, err := readVersion(tx)
		if err != nil {
			return err
		}
		if v > SchemaVersion {
			return fmt.Errorf("%w: the file is at version %d, this program knows %d", ErrSchemaTooNew, v, SchemaVersion)
		}
		sum.Version = v
		return tx.ForEach(func(name []byte, b *bbolt.Bucket) error {
			return verifyBucket(&sum, string(name), "", b, 0)
		})
	})
	if err != nil {
		return sum, fmt.Errorf("store: verify %s: %w", path, err)
	}
	return sum, nil
}

// framedBuckets are the top-level buckets whose values (at any depth) are
// frames; meta holds framed secrets beside its unframed version.
var framedBuckets = map[string]bool{
	string(bucketGames): true, string(bucketGuilds): true, string(bucketResults): true,
	string(bucketRecords): true, string(bucketQuarantine): true,
}

// verifyBucket counts and checks the values of b, the bucket called name
// under the top-level bucket top, depth levels down (b is top at 0).
func verifyBucket(sum *Summary, top, name string, b *bbolt.Bucket, depth int) error {
	c := b.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if v == nil { // a nested bucket
			if err := verifyBucket(sum, top, string(k), b.Bucket(k), depth+1); err != nil {
				return err
			}
			continue
		}
		sum.Values++
		framed := framedBuckets[top] || (top == string(bucketMeta) && bytes.HasPrefix(k, []byte(secretPrefix)))
		if framed {
			if _, err := decodeFrame(v); err != nil {
				return fmt.Errorf("%s/%s key %q: %w", top, name, k, err)
			}
		}
		switch {
		case top == string(bucketGames):
			sum.Games++
		case top == string(bucketGuilds):
			sum.Guilds++
		case top == string(bucketResults) && depth == 1:
			sum.Results++
		case top == string(bucketRecords) && depth == 1:
			sum.Records++
		case top == string(bucketTimers) && name == string(bucketKeys):
			sum.Timers++
		case top == string(bucketQuarantine):
			sum.Quarantined++
		}
	}
	return nil
}

// Restore replaces the database at target by the backup at from, for a
// bot that is stopped. It verifies the backup first and changes nothing if
// it does not verify; it refuses (ErrLocked) while another process holds
// target. The old database, if any, is kept beside as
// <target>.before-restore-<UTC time> and its path returned. The backup is
// copied under a temporary name, synced, and renamed over target in one
// step, so a crash at any moment leaves either the old database or the
// restored one at target, never a part of either; the backup itself is
// only read. The restored database is marked (Restored) so that the bot
// readies its tables for the channels, which may show later states.
func Restore(from, target string, now time.Time) (kept string, sum Summary, err error) {
	sum, err = Verify(from)
	if err != nil {
		return "", sum, fmt.Errorf("store: restore: the backup does not verify, nothing was changed: %w", err)
	}
	if target == "" {
		return "", sum, fmt.Errorf("store: restore: %w: no database path", ErrEmptyKey)
	}
	dir := filepath.Dir(target)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", sum, fmt.Errorf("store: restore: %w", err)
	}
	// Hold the target's lock while replacing it, so that a bot starting
	// meanwhile waits, and a running one is noticed.
	if fileExists(target) {
		db, err := openBolt(target, &bbolt.Options{Timeout: DefaultLockTimeout, ReadOnly: true})
		switch {
		case errors.Is(err, berrors.ErrTimeout):
			return "", sum, fmt.Errorf("store: restore %s: %w: stop the bot first", target, ErrLocked)
		case err == nil:
			defer db.Close()
		}
		// A damaged target is no reason not to restore over it.
		kept = fmt.Sprintf("%s.before-restore-%s", target, now.UTC().Format(backupLayout))
		if err := copyFile(target, kept); err != nil {
			return "", sum, fmt.Errorf("store: restore: keep the old database: %w", err)
		}
	}
	tmp := target + ".restore.tmp"
	os.Remove(tmp) // left by a restore that was killed: start it again
	if err := copyFile(from, tmp); err != nil {
		os.Remove(tmp)
		return "", sum, fmt.Errorf("store: restore: %w", err)
	}
	if err := markRestored(tmp, now); err != nil {
		os.Remove(tmp)
		return "", sum, fmt.Errorf("store: restore: mark the copy: %w", err)
	}
	if err := os.Rename(tmp, target); err != nil {
		os.Remove(tmp)
		return "", sum, fmt.Errorf("store: restore: %w", err)
	}
	if err := syncDir(dir); err != nil {
		return kept, sum, fmt.Errorf("store: restore: %w", err)
	}
	return kept, sum, nil
}

// copyFile copies the file from to a new file to (which must not exist)
// and syncs it.
func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// syncDir makes a rename or creation in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

func fileExists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// restoredKey, in the meta bucket, marks a database that Restore put in
// place and whose tables the bot has not yet readied (Restored,
// ClearRestored): a framed UTC time in RFC 3339, when the restore ran.
var restoredKey = []byte("restored")

// markRestored writes restoredKey into the bbolt file at path, opened
// directly (it is Restore's private copy, not yet in place).
func markRestored(path string, at time.Time) error {
	db, err := openBolt(path, &bbolt.Options{Timeout: DefaultLockTimeout})
	if err != nil {
		return err
	}
	err = db.Update(func(tx *bbolt.Tx) error {
		b, err := bucket(tx, bucketMeta)
		if err != nil {
			return err
		}
		return b.Put(restoredKey, encodeFrame([]byte(at.UTC().Format(time.RFC3339Nano))))
	})
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	return err
}

// Restored reports whether the database was put in place by Restore and
// its tables not yet readied for it, and when the restore ran. The bot
// readies them (a restored table's messages in the channel may show later
// states than the restored one) and then calls ClearRestored.
func (s *Store) Restored() (time.Time, bool, error) {
	var at time.Time
	var found bool
	err := s.view(func(tx *bbolt.Tx) error {
		b, err := bucket(tx, bucketMeta)
		if err != nil {
			return err
		}
		v, ok, err := readFramed(b, bucketMeta, restoredKey)
		if !ok {
			return nil
		}
		found = true
		if err == nil {
			at, _ = time.Parse(time.RFC3339Nano, string(v))
		}
		return nil // a damaged mark still marks
	})
	if err != nil {
		return time.Time{}, false, fmt.Errorf("store: restored: %w", err)
	}
	return at, found, nil
}

// ClearRestored removes Restored's mark.
func (s *Store) ClearRestored() error {
	err := s.update(func(tx *bbolt.Tx, _ func(func())) error {
		b, err := bucket(tx, bucketMeta)
		if err != nil {
			return err
		}
		return b.Delete(restoredKey)
	})
	if err != nil {
		return fmt.Errorf("store: clear restored: %w", err)
	}
	return nil
}
