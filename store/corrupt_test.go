package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.etcd.io/bbolt"
)

// gameBlob is a plausible stored game: JSON of a few hundred bytes.
var gameBlob = []byte(`{"v":3,"players":["111","222","333"],"turn":7,"sheets":[` +
	`{"red":[2,3,5],"yellow":[2,4],"green":[12,10],"blue":[],"penalties":1},` +
	`{"red":[],"yellow":[3],"green":[12],"blue":[12,11,9],"penalties":0},` +
	`{"red":[4],"yellow":[],"green":[],"blue":[10],"penalties":2}],"dice":[3,5,1,6,2,4],"rng":"AAECAwQFBgc="}`)

// putRaw writes v under bucket/key with bbolt directly, bypassing the
// frame: it is how the tests damage a stored value. bucket may name a
// nested bucket as "results/<guild>".
func putRaw(t *testing.T, s *Store, bucketPath, key string, v []byte) {
	t.Helper()
	err := s.db.Update(func(tx *bbolt.Tx) error {
		b, err := rawBucket(tx, bucketPath)
		if err != nil {
			return err
		}
		return b.Put([]byte(key), v)
	})
	if err != nil {
		t.Fatalf("put raw %s/%q: %v", bucketPath, key, err)
	}
}

// getRaw reads bucket/key with bbolt directly: the bytes on disk.
func getRaw(t *testing.T, s *Store, bucketPath, key string) []byte {
	t.Helper()
	var v []byte
	err := s.db.View(func(tx *bbolt.Tx) error {
		b, err := rawBucket(tx, bucketPath)
		if err != nil {
			return err
		}
		v = copyBytes(b.Get([]byte(key)))
		return nil
	})
	if err != nil {
		t.Fatalf("get raw %s/%q: %v", bucketPath, key, err)
	}
	return v
}

func rawBucket(tx *bbolt.Tx, path string) (*bbolt.Bucket, error) {
	parts := strings.Split(path, "/")
	b := tx.Bucket([]byte(parts[0]))
	for _, p := range parts[1:] {
		if b == nil {
			break
		}
		b = b.Bucket([]byte(p))
	}
	if b == nil {
		return nil, fmt.Errorf("no bucket %s", path)
	}
	return b, nil
}

func seqKey(n uint64) string {
	var k [8]byte
	binary.BigEndian.PutUint64(k[:], n)
	return string(k[:])
}

// wantCorrupt checks that a read of key gave ErrCorrupt, named the key and
// returned no payload.
func wantCorrupt(t *testing.T, what string, blob []byte, err error, key string) {
	t.Helper()
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("%s: error = %v, want ErrCorrupt", what, err)
	}
	if !strings.Contains(err.Error(), key) {
		t.Errorf("%s: error %q does not name %s", what, err, key)
	}
	if blob != nil {
		t.Fatalf("%s returned %d bytes %q along with ErrCorrupt, want nil", what, len(blob), trunc(blob))
	}
}

func TestFrameLayout(t *testing.T) {
	s := newStore(t)
	if err := s.Put("ch", gameBlob); err != nil {
		t.Fatal(err)
	}
	raw := getRaw(t, s, "games", "ch")
	// Checked against the documented layout, not against encodeFrame.
	if len(raw) != 6+len(gameBlob) || raw[0] != 0x51 || raw[1] != 1 ||
		binary.BigEndian.Uint32(raw[2:6]) != crc32.Checksum(gameBlob, crc32.MakeTable(crc32.Castagnoli)) ||
		!bytes.Equal(raw[6:], gameBlob) {
		t.Errorf("stored value = %x, want 51 01, CRC-32C big-endian, payload", trunc(raw))
	}
}

// TestGetEveryBitFlip flips each bit of a stored game value in turn: every
// one must be reported as ErrCorrupt, never read as another game.
func TestGetEveryBitFlip(t *testing.T) {
	s := newStore(t)
	s.db.NoSync = true // thousands of writes; durability is not under test
	if err := s.Put("ch", gameBlob); err != nil {
		t.Fatal(err)
	}
	good := getRaw(t, s, "games", "ch")
	for bit := range len(good) * 8 {
		bad := bytes.Clone(good)
		bad[bit/8] ^= 1 << (bit % 8)
		putRaw(t, s, "games", "ch", bad)
		blob, exists, err := s.Get("ch")
		if !exists {
			t.Errorf("bit %d: exists = false, want true", bit)
		}
		wantCorrupt(t, fmt.Sprintf("Get with bit %d flipped", bit), blob, err, "games/ch")
	}
	// And the good value still reads back.
	putRaw(t, s, "games", "ch", good)
	if got, _ := mustGet(t, s, "ch"); !bytes.Equal(got, gameBlob) {
		t.Errorf("Get after restoring the value = %q, want the game", trunc(got))
	}
}

// TestGetEveryBitFlipInFile flips each bit of a stored game where it lies
// in the database file and reopens it: the read through bbolt's memory map
// must report ErrCorrupt every time.
func TestGetEveryBitFlipInFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "q.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	blob := []byte(`{"v":3,"turn":7,"dice":[3,5,1,6,2,4]}`)
	for _, ch := range []string{"a", "ch", "z"} {
		if err := s.Put(ch, append([]byte(ch+":"), blob...)); err != nil {
			t.Fatal(err)
		}
	}
	framed := getRaw(t, s, "games", "ch")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	file := mustRead(t, path)
	// Copy-on-write leaves older copies of the page in free pages: flip
	// the bit in every copy, so the live one is surely among them.
	var offs []int
	for i := 0; ; {
		j := bytes.Index(file[i:], framed)
		if j < 0 {
			break
		}
		offs = append(offs, i+j)
		i += j + 1
	}
	if len(offs) == 0 {
		t.Fatal("the stored value is not in the file")
	}
	damaged := filepath.Join(t.TempDir(), "damaged.db")
	for bit := range len(framed) * 8 {
		b := bytes.Clone(file)
		for _, off := range offs {
			b[off+bit/8] ^= 1 << (bit % 8)
		}
		if err := os.WriteFile(damaged, b, 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := Open(damaged)
		if err != nil {
			t.Fatalf("bit %d: Open: %v", bit, err)
		}
		got, exists, err := s.Get("ch")
		if !exists {
			t.Errorf("bit %d: exists = false, want true", bit)
		}
		wantCorrupt(t, fmt.Sprintf("Get with bit %d flipped in the file", bit), got, err, "games/ch")
		// The neighbours are unharmed.
		if got, _, err := s.Get("z"); err != nil || !bytes.Equal(got, append([]byte("z:"), blob...)) {
			t.Errorf("bit %d: Get(z) = %q, %v; want its game", bit, got, err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestGetDamagedValues covers damage bigger than one bit: bursts, random
// multi-bit flips, truncation, extension, foreign and unframed values.
func TestGetDamagedValues(t *testing.T) {
	s := newStore(t)
	s.db.NoSync = true
	if err := s.Put("ch", gameBlob); err != nil {
		t.Fatal(err)
	}
	good := getRaw(t, s, "games", "ch")
	otherFrame := encodeFrame([]byte(`{"v":3,"players":["999"]}`))
	sameCRCOtherVersion := bytes.Clone(good)
	sameCRCOtherVersion[1] = 2
	tests := []struct {
		name string
		v    []byte
	}{
		{"empty value", []byte{}},
		{"header only", good[:6]},
		{"truncated by one byte", good[:len(good)-1]},
		{"truncated to half", good[:len(good)/2]},
		{"truncated inside the header", good[:3]},
		{"one zero byte appended", append(bytes.Clone(good), 0)},
		{"garbage appended", append(bytes.Clone(good), "garbage"...)},
		{"payload of another game, this checksum", append(bytes.Clone(good[:6]), otherFrame[6:]...)},
		{"checksum of another game, this payload", append(append(bytes.Clone(good[:2]), otherFrame[2:6]...), good[6:]...)},
		{"unframed payload (version 2 value)", gameBlob},
		{"unknown frame version, checksum fine", sameCRCOtherVersion},
		{"payload zeroed", append(bytes.Clone(good[:6]), make([]byte, len(good)-6)...)},
		{"checksum zeroed", append(append(bytes.Clone(good[:2]), 0, 0, 0, 0), good[6:]...)},
		{"all 0xff", bytes.Repeat([]byte{0xff}, len(good))},
		{"two adjacent bytes swapped", func() []byte {
			b := bytes.Clone(good)
			b[20], b[21] = b[21], b[20]
			return b
		}()},
		{"digit changed", bytes.Replace(good, []byte(`"turn":7`), []byte(`"turn":8`), 1)},
	}
	// Bursts: a run of 2 to 32 flipped bits at several places.
	for _, n := range []int{2, 3, 8, 17, 32} {
		for _, at := range []int{0, 13, 48, len(good)*8 - n} {
			b := bytes.Clone(good)
			for i := at; i < at+n; i++ {
				b[i/8] ^= 1 << (i % 8)
			}
			tests = append(tests, struct {
				name string
				v    []byte
			}{fmt.Sprintf("burst of %d bits at bit %d", n, at), b})
		}
	}
	// Random damage: 2 to 8 bits anywhere (a fixed seed: reproducible).
	rnd := rand.New(rand.NewPCG(3, 4))
	for i := range 300 {
		b := bytes.Clone(good)
		flips := map[int]bool{}
		for len(flips) < 2+i%7 {
			flips[rnd.IntN(len(b)*8)] = true
		}
		for f := range flips {
			b[f/8] ^= 1 << (f % 8)
		}
		tests = append(tests, struct {
			name string
			v    []byte
		}{fmt.Sprintf("random %d bits #%d", len(flips), i), b})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if bytes.Equal(tt.v, good) {
				t.Fatal("test case is the good value")
			}
			putRaw(t, s, "games", "ch", tt.v)
			blob, exists, err := s.Get("ch")
			if !exists {
				t.Errorf("exists = false, want true")
			}
			wantCorrupt(t, "Get", blob, err, "games/ch")
		})
	}
}

func TestForEachReportsCorruptAndGoesOn(t *testing.T) {
	s := newStore(t)
	for _, ch := range []string{"1", "2", "3", "4"} {
		if err := s.Put(ch, []byte("game-"+ch)); err != nil {
			t.Fatal(err)
		}
	}
	putRaw(t, s, "games", "2", []byte("game-2")) // unframed
	bad := getRaw(t, s, "games", "4")
	bad[len(bad)-1] ^= 0x10
	putRaw(t, s, "games", "4", bad)

	var seen []string
	err := s.ForEach(func(ch string, blob []byte, err error) error {
		switch {
		case err != nil:
			wantCorrupt(t, "ForEach game "+ch, blob, err, "games/"+ch)
			seen = append(seen, ch+":corrupt")
		default:
			seen = append(seen, ch+":"+string(blob))
		}
		return nil
	})
	if err != nil {
		t.Fatalf("ForEach: %v", err)
	}
	if got, want := strings.Join(seen, " "), "1:game-1 2:corrupt 3:game-3 4:corrupt"; got != want {
		t.Errorf("ForEach saw %s, want %s", got, want)
	}

	t.Run("fn's error on a corrupt game stops the walk", func(t *testing.T) {
		calls := 0
		err := s.ForEach(func(_ string, _ []byte, err error) error {
			calls++
			return err
		})
		if !errors.Is(err, ErrCorrupt) || calls != 2 {
			t.Errorf("ForEach = %v after %d calls, want ErrCorrupt after 2", err, calls)
		}
	})
}

func TestUpdateRefusesCorrupt(t *testing.T) {
	s := newStore(t)
	if err := s.Put("ch", gameBlob); err != nil {
		t.Fatal(err)
	}
	bad := getRaw(t, s, "games", "ch")
	bad[40] ^= 1
	putRaw(t, s, "games", "ch", bad)
	for _, del := range []bool{false, true} {
		called := false
		err := s.Update("ch", func([]byte, bool) ([]byte, bool, error) {
			called = true
			return []byte("new game"), del, nil
		})
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "games/ch") {
			t.Errorf("Update(del=%v) on a corrupt game = %v, want ErrCorrupt naming games/ch", del, err)
		}
		if called {
			t.Errorf("Update(del=%v) called fn with a corrupt game", del)
		}
		if got := getRaw(t, s, "games", "ch"); !bytes.Equal(got, bad) {
			t.Errorf("Update(del=%v) wrote over the corrupt value", del)
		}
	}
	// Put and Delete do not read the old value and clear the way.
	if err := s.Put("ch", []byte("fresh")); err != nil {
		t.Fatalf("Put over a corrupt game: %v", err)
	}
	if got, _ := mustGet(t, s, "ch"); string(got) != "fresh" {
		t.Errorf("Get after Put = %q, want fresh", got)
	}
}

func TestGuildSettingsCorrupt(t *testing.T) {
	s := newStore(t)
	if err := s.PutGuildSettings("g", []byte(`{"lang":"de"}`)); err != nil {
		t.Fatal(err)
	}
	bad := getRaw(t, s, "guilds", "g")
	bad[len(bad)-2] ^= 0x80
	putRaw(t, s, "guilds", "g", bad)
	blob, exists, err := s.GuildSettings("g")
	if !exists {
		t.Errorf("exists = false, want true")
	}
	wantCorrupt(t, "GuildSettings", blob, err, "guilds/g")
}

func TestResultsSkipCorrupt(t *testing.T) {
	s := newStore(t)
	for i := 1; i <= 5; i++ {
		if err := s.appendRaw("g", []byte(fmt.Sprintf("match%d", i))); err != nil {
			t.Fatal(err)
		}
	}
	for _, seq := range []uint64{2, 4} {
		bad := getRaw(t, s, "results/g", seqKey(seq))
		bad[7] ^= 4
		putRaw(t, s, "results/g", seqKey(seq), bad)
	}
	tests := []struct {
		limit       int
		want        string
		wantCorrupt []string // keys named
	}{
		{0, "[match5 match3 match1]", []string{"results/g/4", "results/g/2"}},
		{1, "[match5]", nil},
		{2, "[match5 match3]", []string{"results/g/4"}},
		{3, "[match5 match3 match1]", []string{"results/g/4", "results/g/2"}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("limit=%d", tt.limit), func(t *testing.T) {
			rs, err := s.rawResults("g", tt.limit)
			if got := fmt.Sprintf("%s", rs); got != tt.want {
				t.Errorf("Results = %s, want %s", got, tt.want)
			}
			if len(tt.wantCorrupt) == 0 {
				if err != nil {
					t.Errorf("error = %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error = %v, want ErrCorrupt", err)
			}
			for _, k := range tt.wantCorrupt {
				if !strings.Contains(err.Error(), k) {
					t.Errorf("error %q does not name %s", err, k)
				}
			}
		})
	}
}

func TestQuarantine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "q.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2025, 6, 1, 12, 0, 0, 0, time.FixedZone("CEST", 2*3600))
	s.now = func() time.Time { return t0 }
	for _, ch := range []string{"bad", "good", "other"} {
		if err := s.Put(ch, []byte("game-"+ch)); err != nil {
			t.Fatal(err)
		}
	}
	bad := getRaw(t, s, "games", "bad")
	bad[8] ^= 1
	putRaw(t, s, "games", "bad", bad)
	goodRaw := getRaw(t, s, "games", "good")

	if moved, err := s.Quarantine("bad", "checksum mismatch at start-up"); err != nil || !moved {
		t.Fatalf("Quarantine(bad) = %v, %v; want true, nil", moved, err)
	}
	if moved, err := s.Quarantine("good", "operator"); err != nil || !moved {
		t.Fatalf("Quarantine(good) = %v, %v; want true, nil", moved, err)
	}
	// The same channel again at the same instant: a second entry.
	if err := s.Put("good", []byte("game-good-2")); err != nil {
		t.Fatal(err)
	}
	goodRaw2 := getRaw(t, s, "games", "good")
	if moved, err := s.Quarantine("good", "again"); err != nil || !moved {
		t.Fatalf("second Quarantine(good) = %v, %v; want true, nil", moved, err)
	}
	if moved, err := s.Quarantine("missing", "x"); err != nil || moved {
		t.Errorf("Quarantine(missing) = %v, %v; want false, nil", moved, err)
	}
	if _, err := s.Quarantine("", "x"); !errors.Is(err, ErrEmptyKey) {
		t.Errorf("Quarantine(\"\") = %v, want ErrEmptyKey", err)
	}
	for _, ch := range []string{"bad", "good"} {
		if b, ok, err := s.Get(ch); ok || b != nil || err != nil {
			t.Errorf("Get(%s) after Quarantine = %q, %v, %v; want nil, false, nil", ch, b, ok, err)
		}
	}
	if got, _ := mustGet(t, s, "other"); string(got) != "game-other" {
		t.Errorf("Get(other) = %q: Quarantine touched another game", got)
	}

	check := func(t *testing.T, s *Store) {
		t.Helper()
		qs, err := s.Quarantined()
		if err != nil {
			t.Fatalf("Quarantined: %v", err)
		}
		want := []QuarantineEntry{
			{"bad", t0.UTC(), "checksum mismatch at start-up", bad},
			{"good", t0.UTC(), "operator", goodRaw},
			{"good", t0.UTC().Add(time.Nanosecond), "again", goodRaw2},
		}
		if len(qs) != len(want) {
			t.Fatalf("Quarantined = %d entries %+v, want %d", len(qs), qs, len(want))
		}
		for i, q := range qs {
			w := want[i]
			if q.ChannelID != w.ChannelID || !q.Time.Equal(w.Time) || q.Time.Location() != time.UTC ||
				q.Reason != w.Reason || !bytes.Equal(q.Raw, w.Raw) {
				t.Errorf("entry %d = {%s %v %q %x}, want {%s %v %q %x}", i,
					q.ChannelID, q.Time, q.Reason, q.Raw, w.ChannelID, w.Time, w.Reason, w.Raw)
			}
		}
	}
	check(t, s)
	// The documented key format.
	if v := getRaw(t, s, "quarantine", "bad/2025-06-01T10:00:00.000000000Z"); v == nil {
		t.Errorf("no quarantine key bad/2025-06-01T10:00:00.000000000Z")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	t.Run("survives reopen", func(t *testing.T) {
		s, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		check(t, s)
	})

	t.Run("corrupt quarantine entry reported, others listed", func(t *testing.T) {
		s, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		key := "good/2025-06-01T10:00:00.000000000Z"
		v := getRaw(t, s, "quarantine", key)
		v[len(v)-3] ^= 1
		putRaw(t, s, "quarantine", key, v)
		qs, err := s.Quarantined()
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), key) {
			t.Errorf("Quarantined error = %v, want ErrCorrupt naming %s", err, key)
		}
		if len(qs) != 2 || qs[0].Reason != "checksum mismatch at start-up" || qs[1].Reason != "again" {
			t.Errorf("Quarantined = %+v, want the two intact entries", qs)
		}
	})
}

// TestDamagedPage damages the bbolt leaf page that holds a game, so that
// bbolt itself panics reading it: the Store reports ErrCorrupt instead of
// crashing, and a panic in Update's fn still reaches the caller.
func TestDamagedPage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "q.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s.db.NoSync = true
	for i := range 200 {
		if err := s.Put(fmt.Sprintf("chan-%03d", i), bytes.Repeat([]byte{byte('a' + i%26)}, 100)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Put("chan-100", []byte("TARGET-GAME")); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	file := mustRead(t, path)
	m, _ := parseMeta(file)
	ps := int(m.pageSize)
	at := bytes.Index(file, []byte("TARGET-GAME"))
	page := file[at/ps*ps:][:ps]
	if flags := binary.NativeEndian.Uint16(page[8:]); flags != 0x02 {
		t.Fatalf("the game lies in a page with flags %#x, want a leaf page (0x02)", flags)
	}

	pageOff := at / ps * ps
	// A damage changes the file, which holds the game's leaf page at
	// pageOff: a 16-byte header (flags at 8, count at 10), then 16-byte
	// elements (flags, pos, ksize, vsize; pos counts from the element).
	type damage func(file []byte) []byte
	// elemPos points the first elements' keys at file offset target(file).
	elemPos := func(target func(file []byte) int) damage {
		return func(b []byte) []byte {
			to := target(b)
			for e := pageOff + 16; e < pageOff+16+16*8; e += 16 {
				binary.NativeEndian.PutUint32(b[e+4:], uint32(to-e))
			}
			return b
		}
	}
	tests := []struct {
		name   string
		damage damage
		// strict: bbolt is sure to fail reading the page, so every read
		// must report ErrCorrupt. Otherwise bbolt may read the damaged
		// page as a different, valid-looking one (the frame guards the
		// values, not bbolt's own structures): only no crash, and no
		// error other than ErrCorrupt, is required.
		strict bool
	}{
		{"page type", func(b []byte) []byte {
			binary.NativeEndian.PutUint16(b[pageOff+8:], 0x04) // a meta page
			return b
		}, true},
		{"element offsets far out", func(b []byte) []byte {
			for e := pageOff + 16; e < pageOff+16+16*8; e += 16 {
				binary.NativeEndian.PutUint32(b[e+4:], 0x7fffffff)
			}
			return b
		}, true},
		{"element offsets past the end of the file", elemPos(func(b []byte) int {
			// bbolt maps the file in a region of the next power of two
			// (at least 32 KiB); reading the mapped region past the end
			// of the file is a memory fault (SIGBUS), which only
			// debug.SetPanicOnFault turns into a recoverable panic.
			return len(b)
		}), true},
		{"element count", func(b []byte) []byte {
			binary.NativeEndian.PutUint16(b[pageOff+10:], 0xffff)
			return b
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := bytes.Clone(file)
			if mmap := max(32<<10, 1<<bits.Len(uint(len(b)-1))); mmap == len(b) {
				// No unfilled mapped region: make one.
				b = append(b, make([]byte, ps)...)
			}
			b = tt.damage(b)
			p := filepath.Join(t.TempDir(), "damaged.db")
			if err := os.WriteFile(p, b, 0o600); err != nil {
				t.Fatal(err)
			}
			s, err := Open(p)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			defer s.Close()
			check := func(what string, err error) {
				t.Helper()
				if (tt.strict || err != nil) && !errors.Is(err, ErrCorrupt) {
					t.Errorf("%s = %v, want ErrCorrupt", what, err)
				}
			}
			blob, _, err := s.Get("chan-100")
			check("Get", err)
			if blob != nil && string(blob) != "TARGET-GAME" {
				t.Errorf("Get = %q, neither the game nor nothing", blob)
			}
			check("ForEach", s.ForEach(func(string, []byte, error) error { return nil }))
			called := false
			err = s.Update("chan-100", func([]byte, bool) ([]byte, bool, error) {
				called = true
				return []byte("x"), false, nil
			})
			check("Update", err)
			if tt.strict && called {
				t.Errorf("Update called fn on an unreadable page")
			}
			// The process goes on: other parts of the file still work.
			if err := s.PutGuildSettings("g", []byte("s")); err != nil {
				t.Errorf("PutGuildSettings after the damage: %v", err)
			}
			if b, _, err := s.GuildSettings("g"); err != nil || string(b) != "s" {
				t.Errorf("GuildSettings after the damage = %q, %v", b, err)
			}
		})
	}
}

// FuzzDecodeFrame feeds arbitrary bytes to the frame decoder: it never
// panics, and either accepts them as a frame whose payload re-encodes to
// exactly the input, or reports ErrCorrupt. Any input, taken as a payload,
// survives a round trip.
func FuzzDecodeFrame(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0x51})
	f.Add([]byte{0x51, 0x01, 0, 0, 0, 0})
	f.Add(encodeFrame(nil))
	f.Add(encodeFrame([]byte("x")))
	f.Add(encodeFrame(gameBlob))
	f.Add(gameBlob)
	f.Fuzz(func(t *testing.T, v []byte) {
		payload, err := decodeFrame(v)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("decodeFrame(%x) error %v does not wrap ErrCorrupt", v, err)
			}
			if payload != nil {
				t.Fatalf("decodeFrame(%x) returned a payload with its error", v)
			}
		} else if again := encodeFrame(payload); !bytes.Equal(again, v) {
			t.Fatalf("decodeFrame(%x) accepted payload %x that re-encodes to %x", v, payload, again)
		}
		round, err := decodeFrame(encodeFrame(v))
		if err != nil || !bytes.Equal(round, v) {
			t.Fatalf("round trip of %x = %x, %v", v, round, err)
		}
	})
}

// TestGetUnless: asked with the bytes read last, GetUnless only says they
// are still the stored ones; any other stored game is read, checked and
// copied as Get does (a damaged one is an error), and a missing one is
// missing.
func TestGetUnless(t *testing.T) {
	s := newStore(t)
	if _, exists, same, err := s.GetUnless("c1", gameBlob); exists || same || err != nil {
		t.Fatalf("missing game: exists %v, same %v, %v", exists, same, err)
	}
	if err := s.Put("c1", gameBlob); err != nil {
		t.Fatal(err)
	}
	blob, exists, same, err := s.GetUnless("c1", bytes.Clone(gameBlob))
	if blob != nil || !exists || !same || err != nil {
		t.Fatalf("unchanged game: %q, exists %v, same %v, %v", blob, exists, same, err)
	}
	older := append(bytes.Clone(gameBlob), ' ')
	blob, exists, same, err = s.GetUnless("c1", older)
	if !bytes.Equal(blob, gameBlob) || !exists || same || err != nil {
		t.Fatalf("changed game: %q, exists %v, same %v, %v", blob, exists, same, err)
	}
	blob[0] = 'X' // a copy: the store's bytes are not the caller's
	if again, _, _ := s.Get("c1"); !bytes.Equal(again, gameBlob) {
		t.Fatal("the returned blob shares the stored bytes")
	}
	if blob, exists, same, err = s.GetUnless("c1", nil); !bytes.Equal(blob, gameBlob) || !exists || same || err != nil {
		t.Fatalf("without bytes read before: %q, exists %v, same %v, %v", blob, exists, same, err)
	}
	raw := getRaw(t, s, "games", "c1")
	raw[len(raw)-1] ^= 1 // the payload damaged: its checksum fails
	putRaw(t, s, "games", "c1", raw)
	if _, exists, same, err = s.GetUnless("c1", gameBlob); !exists || same || !errors.Is(err, ErrCorrupt) {
		t.Fatalf("damaged game: exists %v, same %v, %v; want ErrCorrupt", exists, same, err)
	}
}
