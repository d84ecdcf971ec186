package store

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"os"

	"go.etcd.io/bbolt"
)

// bbolt's meta page, as it lies in the file (go.etcd.io/bbolt/internal/
// common): a 16-byte page header, then magic, version, page size, flags,
// root bucket (page, sequence), freelist page, high-water page id, txid and
// an FNV-64a checksum of the fields before it, all in native byte order.
const (
	boltMagic      = 0xED0CDAED
	boltVersion    = 2
	pageHeaderSize = 16
	metaSize       = 64
)

type boltMeta struct {
	pageSize uint32
	pgid     uint64 // high-water mark: pages in use
	txid     uint64
}

// parseMeta decodes the meta page at the start of p, reporting whether it
// is a valid one.
func parseMeta(p []byte) (boltMeta, bool) {
	if len(p) < pageHeaderSize+metaSize {
		return boltMeta{}, false
	}
	m := p[pageHeaderSize : pageHeaderSize+metaSize]
	e := binary.NativeEndian
	h := fnv.New64a()
	h.Write(m[:56])
	if e.Uint32(m[0:]) != boltMagic || e.Uint32(m[4:]) != boltVersion || e.Uint64(m[56:]) != h.Sum64() {
		return boltMeta{}, false
	}
	return boltMeta{pageSize: e.Uint32(m[8:]), pgid: e.Uint64(m[40:]), txid: e.Uint64(m[48:])}, true
}

// checkHeader looks at an existing, non-empty file before bbolt maps it.
// bbolt checks the meta pages' checksums but not that the file holds the
// pages they claim: a truncated file makes it panic, or read past the end
// of the file. checkHeader refuses such files, and files with no valid meta
// page, with ErrNotDatabase.
func checkHeader(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	size := fi.Size()

	// Meta page 0 is at offset 0 and gives the page size, hence where
	// meta page 1 is; if page 0 is damaged, try every page size bbolt
	// supports, as bbolt does.
	read := func(off int64) (boltMeta, bool) {
		buf := make([]byte, pageHeaderSize+metaSize)
		if _, err := f.ReadAt(buf, off); err != nil && err != io.EOF {
			return boltMeta{}, false
		}
		return parseMeta(buf)
	}
	var metas []boltMeta
	if m, ok := read(0); ok {
		metas = append(metas, m)
		if m1, ok := read(int64(m.pageSize)); ok {
			metas = append(metas, m1)
		}
	} else {
		for i := range 15 {
			if m1, ok := read(1024 << i); ok {
				metas = append(metas, m1)
				break
			}
		}
	}
	if len(metas) == 0 {
		return fmt.Errorf("%w: no valid bbolt meta page", ErrNotDatabase)
	}
	// bbolt uses the valid meta page with the higher transaction id.
	m := metas[0]
	for _, o := range metas[1:] {
		if o.txid > m.txid {
			m = o
		}
	}
	if m.pageSize < 512 || m.pageSize > 1<<24 {
		return fmt.Errorf("%w: implausible page size %d", ErrNotDatabase, m.pageSize)
	}
	if need := int64(m.pgid) * int64(m.pageSize); m.pgid > 1<<40 || size < need {
		return fmt.Errorf("%w: truncated: the file is %d bytes, its header says %d", ErrNotDatabase, size, need)
	}
	return nil
}

// openBolt is bbolt.Open that turns a panic on a damaged file into an error.
// The panicking open's file descriptor and lock are leaked: bbolt gives no
// handle to release them, so a later Open of the same file in this process
// reports ErrLocked.
func openBolt(path string, opts *bbolt.Options) (db *bbolt.DB, err error) {
	defer func() {
		if r := recover(); r != nil {
			db, err = nil, fmt.Errorf("%w: bbolt failed reading it: %v", ErrNotDatabase, r)
		}
	}()
	return bbolt.Open(path, 0o600, opts)
}
