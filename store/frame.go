package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"runtime/debug"
	"sync"

	"go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// ErrCorrupt is wrapped by every error that reports damaged stored data: a
// value whose frame is malformed or whose checksum does not match its
// payload (see the package documentation), or a database page that bbolt
// could not read. The error names the bucket and key concerned. A corrupt
// value is never returned as if it were good.
var ErrCorrupt = errors.New("stored data is corrupt")

// The frame around every value in games, guilds, results/<guild> and
// quarantine (since schema version 3):
//
//	byte 0     frameMagic 0x51 ('Q')
//	byte 1     frameVersion 1
//	bytes 2-5  CRC-32C (Castagnoli) of the payload, big-endian
//	bytes 6-   the payload
const (
	frameMagic     = 0x51
	frameVersion   = 1
	frameHeaderLen = 6
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// encodeFrame returns payload framed: header, checksum, payload. It always
// returns a new slice; nil and empty payloads give the same frame.
func encodeFrame(payload []byte) []byte {
	f := make([]byte, frameHeaderLen+len(payload))
	f[0], f[1] = frameMagic, frameVersion
	binary.BigEndian.PutUint32(f[2:], crc32.Checksum(payload, castagnoli))
	copy(f[frameHeaderLen:], payload)
	return f
}

// framePool keeps the buffers of framed values written in group commits
// (frameInTx) for the next transactions: a table is saved at every move,
// and its frame is garbage once its transaction has ended.
var framePool sync.Pool

// frameInTx is encodeFrame for a value Put in the write transaction in
// flight: the frame is a buffer of framePool's, which bbolt may read until
// the transaction ends (Put keeps the value it is given, not a copy) and
// which returns to the pool then (releaseFrames, by tryGroup). Only the
// goroutine running a group's transaction calls it; without group commit
// (solo), transactions may overlap the release and it frames as
// encodeFrame does.
func (s *Store) frameInTx(payload []byte) []byte {
	if s.solo {
		return encodeFrame(payload)
	}
	n := frameHeaderLen + len(payload)
	p, _ := framePool.Get().(*[]byte)
	if p == nil || cap(*p) < n {
		b := make([]byte, n, n+n/8) // room for the table to grow
		p = &b
	}
	f := (*p)[:n]
	f[0], f[1] = frameMagic, frameVersion
	binary.BigEndian.PutUint32(f[2:], crc32.Checksum(payload, castagnoli))
	copy(f[frameHeaderLen:], payload)
	*p = f
	s.txFrames = append(s.txFrames, p)
	return f
}

// releaseFrames returns the frames of the transaction that has just ended
// (committed or rolled back) to the pool.
func (s *Store) releaseFrames() {
	for i, p := range s.txFrames {
		framePool.Put(p)
		s.txFrames[i] = nil
	}
	s.txFrames = s.txFrames[:0]
}

// decodeFrame verifies a framed value and returns its payload, a sub-slice
// of v (not a copy). Anything but a well-formed frame whose checksum matches
// gives an error wrapping ErrCorrupt and a nil payload.
func decodeFrame(v []byte) ([]byte, error) {
	switch {
	case v == nil:
		// A cursor gives a nil value for a nested bucket.
		return nil, fmt.Errorf("%w: a bucket where a value should be", ErrCorrupt)
	case len(v) < frameHeaderLen:
		return nil, fmt.Errorf("%w: %d bytes, shorter than the %d-byte frame header", ErrCorrupt, len(v), frameHeaderLen)
	case v[0] != frameMagic:
		return nil, fmt.Errorf("%w: frame starts with %#02x, want %#02x", ErrCorrupt, v[0], frameMagic)
	case v[1] != frameVersion:
		return nil, fmt.Errorf("%w: unknown frame version %d, want %d", ErrCorrupt, v[1], frameVersion)
	}
	payload := v[frameHeaderLen:]
	stored, computed := binary.BigEndian.Uint32(v[2:]), crc32.Checksum(payload, castagnoli)
	if stored != computed {
		return nil, fmt.Errorf("%w: checksum mismatch: stored %08x, payload of %d bytes has %08x", ErrCorrupt, stored, len(payload), computed)
	}
	return payload, nil
}

// readFramed returns a verified copy of the payload stored under key in b,
// and whether the key exists. A corrupt value gives (nil, true, error
// wrapping ErrCorrupt) with the error naming name/key. It seeks with a
// cursor so that an empty stored value is told apart from a missing key.
func readFramed(b *bbolt.Bucket, name, key []byte) ([]byte, bool, error) {
	v, exists := rawValue(b, key)
	if !exists {
		return nil, false, nil
	}
	payload, err := decodeFrame(v)
	if err != nil {
		// Copies, so that name and key do not escape: Get's key stays
		// on the stack.
		err = fmt.Errorf("value %s/%s: %w", string(name), string(key), err)
		if len(v) > frameHeaderLen {
			err = &DamagedError{Bytes: bytes.Clone(v[frameHeaderLen:]), err: err}
		}
		return nil, true, err
	}
	return append(make([]byte, 0, len(payload)), payload...), true, nil
}

// DamagedError is a corrupt value (it wraps ErrCorrupt) with the bytes
// that are stored for it, damage included: never to be used as data, but
// a reader may look in them for what it needs to tell people (the bot
// names a damaged table's host, who may clear it).
type DamagedError struct {
	Bytes []byte
	err   error
}

func (e *DamagedError) Error() string { return e.err.Error() }

// Unwrap returns the error wrapping ErrCorrupt.
func (e *DamagedError) Unwrap() error { return e.err }

// DamagedBytes returns the stored bytes of the damaged value err reports,
// if it carries them.
func DamagedBytes(err error) ([]byte, bool) {
	var de *DamagedError
	if errors.As(err, &de) {
		return de.Bytes, true
	}
	return nil, false
}

// recoverCorrupt turns a panic (or, with debug.SetPanicOnFault, a memory
// fault) inside bbolt into an error wrapping ErrCorrupt: bbolt panics when
// it meets a damaged page. It must be deferred directly, for recover only
// works there.
func recoverCorrupt(err *error, what string) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%s: %w: bbolt failed reading the database: %v", what, ErrCorrupt, r)
	}
}

// view runs fn in a read transaction. A panic inside it, or a fault reading
// the memory map, becomes an error wrapping ErrCorrupt instead of crashing
// the process; the transaction is rolled back by bbolt. fn must only read
// the database: it must not call code whose panics should propagate.
func (s *Store) view(fn func(tx *bbolt.Tx) error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer recoverCorrupt(&err, "read transaction")
	return s.db.View(fn)
}

// update runs fn in a write transaction and returns once that transaction
// is committed and fsync'd (or has failed). Concurrent calls are grouped:
// see group.go. Like view, a panic of bbolt's becomes an error wrapping
// ErrCorrupt and fn's writes are rolled back. fn receives a guard to call
// caller-supplied code with: a panic in that code is not recovered but
// propagates unchanged to the goroutine that called update, as if update
// were not there.
//
// fn must do all its reads and writes through tx and must be safe to call
// more than once: when another member of its group fails, the group's
// transaction is rolled back and fn runs again in a new one. It may run on
// another goroutine than update's caller, which waits meanwhile. fn
// returning errNoChange has written nothing; update then returns
// errNoChange, and a group whose members all wrote nothing commits nothing.
func (s *Store) update(fn func(tx *bbolt.Tx, guard func(func())) error) error {
	if s.solo {
		return s.updateSolo(fn)
	}
	c := &writeCall{fn: fn}
	s.mu.Lock()
	switch {
	case s.closed:
		s.mu.Unlock()
		return berrors.ErrDatabaseNotOpen
	case s.leading:
		// A commit is in flight: wait for the next group.
		c.ready = make(chan struct{})
		s.queue = append(s.queue, c)
		s.mu.Unlock()
		<-c.ready
		if c.group != nil {
			s.lead(c.group, c)
		}
	default:
		// Nothing in flight: commit at once, with the writes made later
		// that wait for a commit (PutLater) first.
		s.leading = true
		group := append(s.queue[:len(s.queue):len(s.queue)], c)
		s.queue = nil
		s.mu.Unlock()
		s.lead(group, c)
	}
	if c.panicked {
		panic(c.panicVal)
	}
	return c.err
}

// updateSolo is update without grouping: one bbolt transaction and one
// fsync per call, as before group commit. Benchmarks compare the two.
func (s *Store) updateSolo(fn func(tx *bbolt.Tx, guard func(func())) error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	inCaller := false
	defer func() {
		if inCaller {
			return // not recovered: the caller's panic goes on up
		}
		if r := recover(); r != nil {
			err = fmt.Errorf("write transaction: %w: bbolt failed: %v", ErrCorrupt, r)
		}
	}()
	err = s.db.Update(func(tx *bbolt.Tx) error { return fn(tx, callerGuard(&inCaller)) })
	if err == nil {
		s.stats.commits.Add(1)
		s.stats.writes.Add(1)
		s.stats.groupSize(1)
	}
	return err
}

// callerGuard makes the guard a write function gets: it runs caller code
// with faults not turned into panics, and with *inCaller set, so that a
// panic there is told from one of bbolt's.
func callerGuard(inCaller *bool) func(func()) {
	return func(call func()) {
		*inCaller = true
		prev := debug.SetPanicOnFault(false)
		call()
		debug.SetPanicOnFault(prev)
		*inCaller = false
	}
}
