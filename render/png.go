package render

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/adler32"
	"hash/crc32"
	"image"
	"image/color"
	"io"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/klauspost/compress/flate"
	"github.com/zeebo/xxh3"

	"github.com/qwixxbot/qwixxbot/render/lru"
)

// Our images are paletted and flat colour: written as 8-bit paletted PNGs,
// rows unfiltered (filters do not help palette indices), compressed with
// klauspost/compress's deflate at pngLevel. Measured on the 4-player dice
// table (go test ./render -run '^$' -bench Table): level 1 draws and
// encodes in about 2/3 of level 5's time, for files about 19 % larger.
//
// A table changes little from one state to the next (a few crosses, the
// dice, who is active), so the rows are compressed in bands of bandRows,
// each a run of deflate blocks of its own that ends on a byte boundary (a
// sync flush), and a band's compressed bytes are kept (bands) under a hash
// of its pixels: the next picture compresses only the bands that changed
// and copies the others. Concatenated, the bands with a final empty block
// are one valid deflate stream; matches do not reach across bands, which
// costs a few per cent of size. The table, the sheet and the hand choose
// their own bands (sections.go); other pictures are cut every bandRows.
//
// Compressing the bands that changed is most of a picture's cost, and
// klauspost's level 1 is as fast as what was tried instead, on the bands
// of the 4-player table and a hand: levels 2 and 3 are slower for 2–5 %
// fewer bytes, HuffmanOnly no faster for 4 times the bytes, and a deflate
// written for these pictures (only runs and copies of the row above,
// greedy, one dynamic Huffman block a band) took 20–30 µs a 16-row band
// against 25–30 µs, for tables 10 % larger (hands 16 % smaller).
const pngLevel = 1

// bandRows is the height of a band: 16 rows of an 800-pixel picture are
// 12.5 KiB of pixels, about 1 KiB compressed. Measured over 800 pictures
// of 10 games, one move apart: 16 rows compress 2/3 of the bytes 32 rows
// do (a cross changes about 30 rows, a new turn the dice and two header
// lines) for pictures 1.4 % larger; 8 rows cost more in per-band work
// than they save.
const bandRows = 16

var flatePool = sync.Pool{New: func() any {
	w, err := flate.NewWriter(io.Discard, pngLevel)
	if err != nil {
		panic(err) // pngLevel is a valid level
	}
	return w
}}

var scratchPool = sync.Pool{New: func() any { return new([]byte) }}

// bandKey names a band's pixels: a randomly seeded 128-bit XXH3 and the
// CRC-32 of its pixels, their width and their number, two independent
// hashes, so a mix-up of two bands is practically impossible, even for
// somebody who chooses what a band shows (a player's name) without
// knowing the seed. (XXH3 hashes a band about eight times as fast as
// hash/maphash did here, which took 8 % of BenchmarkGameThroughClicks.)
type bandKey struct {
	h     xxh3.Uint128
	crc   uint32
	w, px int
}

type band struct {
	z     []byte // deflate blocks ending in a sync flush
	adler uint32 // Adler-32 of the raw bytes
	n     int    // the number of raw bytes (scanlines with their filter bytes)
}

// bandBudget bounds the compressed bands kept: those of sections
// (sectionBands, sections.go) take it all, those kept by their pixels
// (bands) a quarter of it, and the two share most of their bands. A
// table's bands take about its PNG's size (40–100 KiB at 3–5 players);
// 48 MiB keeps the last picture of about 500 tables, and a table that
// falls out only costs one picture compressed whole.
const bandBudget = 48 << 20

// pixelBandShare is the share (1/pixelBandShare) of the budget for bands
// kept by their pixels alone: once the table and the sheet reuse their
// sections' bands, these serve a section drawn again to find its bands
// that did not change, soon after it last was.
const pixelBandShare = 4

// bands holds compressed bands by the hash of their pixels, least
// recently used out first once they take more than their budget.
var (
	bands    = lru.New[bandKey](bandBudget/pixelBandShare, func(b *band) int { return len(b.z) })
	bandSeed = rand.Uint64() // math/rand/v2's generator, seeded by the runtime
)

// SetBandBudget bounds the caches of compressed PNG bands, shared by every
// picture the process draws, to about budget bytes together (48 MiB by
// default: the last picture of about 500 tables); a process that shows a
// few tables (the sandbox) needs far less.
func SetBandBudget(budget int) {
	bands.SetBudget(budget / pixelBandShare)
	sectionBands.SetBudget(budget)
}

// compressBand returns the deflate blocks, ending in a sync flush, of the
// scanlines (a filter byte 0 and the pixels) of pix, rows of w pixels one
// after the other, and their Adler-32: from the cache, or compressed with
// raw as scratch space. Only a band not in the cache is copied.
func compressBand(pix []byte, w int, raw *[]byte) (*band, error) {
	k := bandKey{xxh3.Hash128Seed(pix, bandSeed), crc32.ChecksumIEEE(pix), w, len(pix)}
	return bands.GetOrLoad(k, func() (*band, error) {
		rows := len(pix) / w
		n := rows * (w + 1)
		if cap(*raw) < n {
			*raw = make([]byte, n)
		}
		r := (*raw)[:n]
		for y := range rows {
			r[y*(w+1)] = 0
			copy(r[y*(w+1)+1:(y+1)*(w+1)], pix[y*w:(y+1)*w])
		}
		return deflateBand(r)
	})
}

// bufPool recycles the buffers bands are compressed into.
var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// deflateBand compresses a band's scanlines.
func deflateBand(raw []byte) (*band, error) {
	buf := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(buf)
	buf.Reset()
	fw := flatePool.Get().(*flate.Writer)
	defer flatePool.Put(fw)
	fw.Reset(buf)
	if _, err := fw.Write(raw); err != nil {
		return nil, err
	}
	if err := fw.Flush(); err != nil {
		return nil, err
	}
	fw.Reset(io.Discard) // keeps no reference to buf
	return &band{z: bytes.Clone(buf.Bytes()), adler: adler32.Checksum(raw), n: len(raw)}, nil
}

// adler32Combine is the Adler-32 of two byte strings one after the other,
// from their checksums and the second's length (zlib's adler32_combine).
func adler32Combine(a1, a2 uint32, len2 int) uint32 {
	const base = 65521
	rem := uint64(len2 % base)
	s1 := uint64(a1 & 0xffff)
	s2 := rem * s1 % base
	s1 += uint64(a2&0xffff) + base - 1
	s2 += uint64(a1>>16) + uint64(a2>>16) + base - rem
	s1 %= base
	s2 %= base
	return uint32(s1 | s2<<16)
}

// encodePNG writes img as an 8-bit paletted PNG.
func encodePNG(w io.Writer, img *image.Paletted) error {
	out, err := appendPNG(nil, img)
	if err != nil {
		return err
	}
	if _, err := w.Write(out); err != nil {
		return fmt.Errorf("render: write png: %w", err)
	}
	return nil
}

// appendPNG appends img as an 8-bit paletted PNG to out.
func appendPNG(out []byte, img *image.Paletted) ([]byte, error) {
	b := img.Bounds()
	wd, ht := b.Dx(), b.Dy()
	if wd <= 0 || ht <= 0 || len(img.Palette) == 0 || len(img.Palette) > 256 {
		return nil, fmt.Errorf("render: cannot encode a %dx%d image with %d colours", wd, ht, len(img.Palette))
	}
	// A band's pixels, contiguous: straight from img when its rows are,
	// otherwise copied.
	sp, rp := scratchPool.Get().(*[]byte), scratchPool.Get().(*[]byte)
	defer scratchPool.Put(sp)
	defer scratchPool.Put(rp)
	contiguous := img.Stride == wd
	bandPix := func(y, rows int) []byte {
		off := (y+b.Min.Y-img.Rect.Min.Y)*img.Stride + b.Min.X - img.Rect.Min.X
		if contiguous {
			return img.Pix[off : off+rows*wd]
		}
		if cap(*sp) < rows*wd {
			*sp = make([]byte, rows*wd)
		}
		p := (*sp)[:rows*wd]
		for r := range rows {
			copy(p[r*wd:(r+1)*wd], img.Pix[off+r*img.Stride:])
		}
		return p
	}

	var zs [64]*band
	bs := zs[:0]
	for y := 0; y < ht; y += bandRows {
		rows := min(bandRows, ht-y)
		bd, err := compressBand(bandPix(y, rows), wd, rp)
		if err != nil {
			return nil, fmt.Errorf("render: compress png: %w", err)
		}
		bs = append(bs, bd)
	}
	return writePNG(out, wd, ht, img.Palette, bs), nil
}

// writePNG appends to out the 8-bit paletted PNG of a wd×ht picture whose
// rows, compressed, are bs.
func writePNG(out []byte, wd, ht int, palette color.Palette, bs []*band) []byte {
	size := 8 + 25 + 12 + 3*len(palette) + 12 + 2 + 2 + 4 + 12
	adler := uint32(1) // of nothing
	for _, bd := range bs {
		size += len(bd.z)
		adler = adler32Combine(adler, bd.adler, bd.n)
	}
	out = slices.Grow(out, size)

	out = append(out, "\x89PNG\r\n\x1a\n"...)
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(wd))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(ht))
	ihdr[8], ihdr[9] = 8, 3 // 8 bits, paletted
	out = chunk(out, "IHDR", ihdr[:])
	start := len(out)
	out = binary.BigEndian.AppendUint32(out, uint32(3*len(palette)))
	out = append(out, "PLTE"...)
	for _, c := range palette {
		r, g, bl, _ := c.RGBA()
		out = append(out, byte(r>>8), byte(g>>8), byte(bl>>8))
	}
	out = binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[start+4:]))

	// IDAT: a zlib stream (header, the bands' deflate blocks, a final
	// empty block, the Adler-32 of the raw rows), written straight after
	// the chunk's header.
	start = len(out)
	out = append(out, 0, 0, 0, 0, 'I', 'D', 'A', 'T', 0x78, 0x01)
	for _, bd := range bs {
		out = append(out, bd.z...)
	}
	out = append(out, 0x03, 0x00) // a final fixed-Huffman block with no data
	out = binary.BigEndian.AppendUint32(out, adler)
	binary.BigEndian.PutUint32(out[start:], uint32(len(out)-start-8))
	out = binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[start+4:]))
	return chunk(out, "IEND", nil)
}

// chunk appends a PNG chunk.
func chunk(out []byte, typ string, data []byte) []byte {
	out = binary.BigEndian.AppendUint32(out, uint32(len(data)))
	start := len(out)
	out = append(out, typ...)
	out = append(out, data...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[start:]))
}
