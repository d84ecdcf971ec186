package render

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"io"
	"math/bits"
	"slices"
	"sync"
)

// A PNG writer for our paletted images, faster than image/png at its
// fastest setting. The images are flat colour: most bytes repeat the byte
// before them (runs) or the byte one row up. The compressor therefore only
// looks for those two matches (distance 1 and distance stride), greedily, with
// no hash table, and writes one deflate block with Huffman codes built for
// its tokens. Rows are written unfiltered.

// The race detector does not instrument the compressor's inner loops
// (go:norace on tokenize, matchLen, deflateBlock and adler): they only read
// and write this call's own buffers, and every byte of those is first
// written by instrumented code (the scanlines are copied from the image
// with copy, the pooled slices are handed over by sync.Pool), so a race on
// the image or a pooled buffer is still reported there. Instrumented, these
// loops were about half the CPU time of the bot's end-to-end tests under
// -race.

var lengthBase = [29]uint16{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
var lengthExtra = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
var distBase = [30]uint16{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
var distExtra = [30]uint8{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}

func reverse(code uint16, n uint8) uint16 { return bits.Reverse16(code) >> (16 - n) }

// bitWriter writes LSB-first bits into a byte slice.
type bitWriter struct {
	out  []byte
	acc  uint64
	nacc uint
}

func (w *bitWriter) put(v uint32, n uint8) {
	w.acc |= uint64(v) << w.nacc
	w.nacc += uint(n)
	if w.nacc >= 32 {
		w.out = binary.LittleEndian.AppendUint32(w.out, uint32(w.acc))
		w.acc >>= 32
		w.nacc -= 32
	}
}

func (w *bitWriter) flush() {
	for w.nacc > 0 {
		w.out = append(w.out, byte(w.acc))
		w.acc >>= 8
		if w.nacc >= 8 {
			w.nacc -= 8
		} else {
			w.nacc = 0
		}
	}
	w.acc, w.nacc = 0, 0
}

var scratchPool = sync.Pool{New: func() any { return new([]byte) }}

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
	stride := wd + 1
	// The raw scanlines: a filter byte (0, none) and the pixels.
	sp := scratchPool.Get().(*[]byte)
	defer scratchPool.Put(sp)
	n := stride * ht
	if cap(*sp) < n+8 {
		*sp = make([]byte, n+8)
	}
	raw := (*sp)[:n]
	for y := range ht {
		row := raw[y*stride : (y+1)*stride]
		row[0] = 0
		copy(row[1:], img.Pix[(y+b.Min.Y-img.Rect.Min.Y)*img.Stride+b.Min.X-img.Rect.Min.X:])
	}

	out = append(out, "\x89PNG\r\n\x1a\n"...)
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(wd))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(ht))
	ihdr[8], ihdr[9] = 8, 3 // 8 bits, paletted
	out = chunk(out, "IHDR", ihdr[:])
	pal := make([]byte, 0, 3*len(img.Palette))
	for _, c := range img.Palette {
		r, g, bl, _ := c.RGBA()
		pal = append(pal, byte(r>>8), byte(g>>8), byte(bl>>8))
	}
	out = chunk(out, "PLTE", pal)

	// IDAT: a zlib stream with one deflate block.
	tp := tokenPool.Get().(*[]uint32)
	defer tokenPool.Put(tp)
	*tp = tokenize((*tp)[:0], raw, stride)
	start := len(out)
	out = append(out, 0, 0, 0, 0, 'I', 'D', 'A', 'T', 0x78, 0x01)
	out = deflateBlock(out, *tp, stride)
	out = binary.BigEndian.AppendUint32(out, adler(raw))
	binary.BigEndian.PutUint32(out[start:], uint32(len(out)-start-8))
	out = binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[start+4:]))
	return chunk(out, "IEND", nil), nil
}

var tokenPool = sync.Pool{New: func() any { return new([]uint32) }}

// Tokens: a literal byte, or a match (tokMatch) of a length (low 16 bits)
// at one of four distances (kind in bits 28–29): the byte before, or the
// row above straight up, up-right or up-left (diagonal edges, the crosses).
const (
	tokMatch  = 1 << 31
	kindShift = 28
)

func distances(stride int) [4]int { return [4]int{1, stride, stride - 1, stride + 1} }

// tokenize splits raw into literals and matches, greedily taking the
// longest match among the four distances at each position.
//
//go:norace
func tokenize(toks []uint32, raw []byte, stride int) []uint32 {
	n := len(raw)
	dist := distances(stride)
	if stride+1 > 32768 {
		dist = [4]int{1, 1, 1, 1}
	}
	for i := 0; i < n; {
		c := raw[i]
		best, kind := 0, 0
		for k, d := range dist {
			if i >= d && raw[i-d] == c {
				if l := matchLen(raw, i, i-d, n); l > best {
					best, kind = l, k
					if l == 258 {
						break
					}
				}
			}
		}
		if best >= 3 {
			toks = append(toks, uint32(tokMatch|kind<<kindShift|best))
			i += best
			continue
		}
		toks = append(toks, uint32(c))
		i++
	}
	return toks
}

// lengthSym maps a match length (3…258) to its symbol (257…285) and the
// value of its extra bits.
var lengthSym, lengthVal [259]uint16

func init() {
	for l := 3; l <= 258; l++ {
		i := 0
		for i+1 < len(lengthBase) && int(lengthBase[i+1]) <= l {
			i++
		}
		lengthSym[l], lengthVal[l] = uint16(257+i), uint16(l-int(lengthBase[i]))
	}
}

// distSym is the distance symbol of d and the value of its extra bits.
func distSym(d int) (int, uint32) {
	i := 0
	for i+1 < len(distBase) && int(distBase[i+1]) <= d {
		i++
	}
	return i, uint32(d - int(distBase[i]))
}

// deflateBlock writes the tokens as one final deflate block with Huffman
// codes made for them.
//
//go:norace
func deflateBlock(out []byte, toks []uint32, stride int) []byte {
	var lf [286]int32
	var df [30]int32
	var dsym [4]int
	var dextra [4]uint32
	for k, d := range distances(stride) {
		dsym[k], dextra[k] = distSym(min(max(d, 1), 32768))
	}
	for _, t := range toks {
		if t&tokMatch == 0 {
			lf[t]++
			continue
		}
		lf[lengthSym[t&0xffff]]++
		df[dsym[t>>kindShift&3]]++
	}
	lf[256] = 1
	ll := huffLengths(lf[:], 15)
	dl := huffLengths(df[:], 15)
	lc, dc := canonical(ll), canonical(dl)
	nlit, ndist := 286, 30
	for nlit > 257 && ll[nlit-1] == 0 {
		nlit--
	}
	for ndist > 1 && dl[ndist-1] == 0 {
		ndist--
	}
	// The code lengths, run-length coded with 16, 17, 18.
	lens := append(append(make([]uint8, 0, nlit+ndist), ll[:nlit]...), dl[:ndist]...)
	type clTok struct{ sym, extra, nextra uint8 }
	var cls []clTok
	for i := 0; i < len(lens); {
		v := lens[i]
		j := i + 1
		for j < len(lens) && lens[j] == v {
			j++
		}
		run := j - i
		for run > 0 {
			switch {
			case v == 0 && run >= 11:
				k := min(run, 138)
				cls = append(cls, clTok{18, uint8(k - 11), 7})
				run -= k
			case v == 0 && run >= 3:
				k := min(run, 10)
				cls = append(cls, clTok{17, uint8(k - 3), 3})
				run -= k
			case v != 0 && run >= 4:
				cls = append(cls, clTok{v, 0, 0})
				run--
				for run >= 3 {
					k := min(run, 6)
					cls = append(cls, clTok{16, uint8(k - 3), 2})
					run -= k
				}
			default:
				cls = append(cls, clTok{v, 0, 0})
				run--
			}
		}
		i = j
	}
	var cf [19]int32
	for _, t := range cls {
		cf[t.sym]++
	}
	cl := huffLengths(cf[:], 7)
	cc := canonical(cl)
	order := [19]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}
	nclen := 19
	for nclen > 4 && cl[order[nclen-1]] == 0 {
		nclen--
	}

	bw := bitWriter{out: out}
	bw.put(1|2<<1, 3) // BFINAL, BTYPE=10
	bw.put(uint32(nlit-257), 5)
	bw.put(uint32(ndist-1), 5)
	bw.put(uint32(nclen-4), 4)
	for _, s := range order[:nclen] {
		bw.put(uint32(cl[s]), 3)
	}
	for _, t := range cls {
		bw.put(uint32(cc[t.sym]), cl[t.sym])
		if t.nextra > 0 {
			bw.put(uint32(t.extra), t.nextra)
		}
	}
	// Precomputed token bits: a match is its length code, extra bits and
	// distance code in one go.
	var dbits [4]uint32
	var dn [4]uint8
	for k, sym := range dsym {
		dbits[k] = uint32(dc[sym]) | dextra[k]<<dl[sym]
		dn[k] = dl[sym] + distExtra[sym]
	}
	for _, t := range toks {
		if t&tokMatch == 0 {
			bw.put(uint32(lc[t]), ll[t])
			continue
		}
		l := t & 0xffff
		s := lengthSym[l]
		bw.put(uint32(lc[s])|uint32(lengthVal[l])<<ll[s], ll[s]+lengthExtra[s-257])
		k := t >> kindShift & 3
		bw.put(dbits[k], dn[k])
	}
	bw.put(uint32(lc[256]), ll[256])
	bw.flush()
	return bw.out
}

// huffLengths returns Huffman code lengths (at most limit bits) for the
// frequencies; unused symbols get 0. At least two symbols get a code.
func huffLengths(freq []int32, limit int) []uint8 {
	type leaf struct {
		sym int
		f   int32
	}
	var leaves []leaf
	for s, f := range freq {
		if f > 0 {
			leaves = append(leaves, leaf{s, f})
		}
	}
	for s := 0; len(leaves) < 2; s++ {
		if freq[s] == 0 {
			leaves = append(leaves, leaf{s, 1})
		}
	}
	slices.SortFunc(leaves, func(a, b leaf) int {
		if a.f != b.f {
			return int(a.f - b.f)
		}
		return a.sym - b.sym
	})
	// Two-queue Huffman: leaves in order, internal nodes in creation order.
	n := len(leaves)
	type node struct {
		f           int64
		left, right int // child indices: < n a leaf, else internal n+k
	}
	nodes := make([]node, 0, n-1)
	li, ni := 0, 0
	pick := func() (int, int64) {
		if li < n && (ni >= len(nodes) || int64(leaves[li].f) <= nodes[ni].f) {
			li++
			return li - 1, int64(leaves[li-1].f)
		}
		ni++
		return n + ni - 1, nodes[ni-1].f
	}
	for len(nodes) < n-1 {
		a, fa := pick()
		b, fb := pick()
		nodes = append(nodes, node{fa + fb, a, b})
	}
	// Depths from the root (the last node).
	depth := make([]int, n+len(nodes))
	for k := len(nodes) - 1; k >= 0; k-- {
		d := depth[n+k] + 1
		depth[nodes[k].left], depth[nodes[k].right] = d, d
	}
	// Count leaves per length and limit them (JPEG K.3), then hand the
	// shortest lengths to the most frequent symbols.
	count := make([]int, max(limit, n)+2)
	maxLen := 0
	for i := range n {
		d := max(depth[i], 1)
		if d >= len(count) {
			count = append(count, make([]int, d-len(count)+1)...)
		}
		count[d]++
		maxLen = max(maxLen, d)
	}
	for b := maxLen; b > limit; b-- {
		for count[b] > 0 {
			j := b - 2
			for count[j] == 0 {
				j--
			}
			count[b] -= 2
			count[b-1]++
			count[j+1] += 2
			count[j]--
		}
	}
	lens := make([]uint8, len(freq))
	i := n - 1 // most frequent first
	for b := 1; b <= min(maxLen, limit); b++ {
		for k := 0; k < count[b]; k++ {
			lens[leaves[i].sym] = uint8(b)
			i--
		}
	}
	return lens
}

// canonical assigns the canonical codes of RFC 1951 3.2.2 to the lengths,
// bit-reversed for LSB-first output.
func canonical(lens []uint8) []uint16 {
	var blCount [16]int
	for _, l := range lens {
		blCount[l]++
	}
	blCount[0] = 0
	var next [16]int
	code := 0
	for b := 1; b < 16; b++ {
		code = (code + blCount[b-1]) << 1
		next[b] = code
	}
	codes := make([]uint16, len(lens))
	for s, l := range lens {
		if l > 0 {
			codes[s] = reverse(uint16(next[l]), l)
			next[l]++
		}
	}
	return codes
}

// matchLen is how many bytes (≤ 258) at i repeat those at j < i.
//
//go:norace
func matchLen(s []byte, i, j, n int) int {
	limit := min(258, n-i)
	k := 0
	for k+8 <= limit {
		x := binary.LittleEndian.Uint64(s[i+k:]) ^ binary.LittleEndian.Uint64(s[j+k:])
		if x != 0 {
			return k + bits.TrailingZeros64(x)/8
		}
		k += 8
	}
	for k < limit && s[i+k] == s[j+k] {
		k++
	}
	return k
}

// runLen is how many bytes (≤ 258) at i equal the byte before i.
func runLen(s []byte, i, n int) int {
	limit := min(258, n-i)
	pat := uint64(s[i-1]) * 0x0101010101010101
	k := 0
	for k+8 <= limit {
		x := binary.LittleEndian.Uint64(s[i+k:]) ^ pat
		if x != 0 {
			return k + bits.TrailingZeros64(x)/8
		}
		k += 8
	}
	for k < limit && s[i+k] == s[i-1] {
		k++
	}
	return k
}

func chunk(out []byte, typ string, data []byte) []byte {
	start := len(out)
	out = binary.BigEndian.AppendUint32(out, uint32(len(data)))
	out = append(out, typ...)
	out = append(out, data...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[start+4:]))
}

// adler is the Adler-32 checksum of s. It works on blocks of 8-byte words:
// over a block of M words the bytes' weights in s2 are 8(M−w) − j for byte j
// of word w, so s2 grows by 8·M·s1 + 8·Σ(M−w)·W_w − Σ j·L_j, where W_w is a
// word's byte sum and L_j the sum of byte lane j. Lane sums are kept in
// 16-bit SWAR lanes (255 words at most per block, so they cannot overflow).
//
//go:norace
func adler(s []byte) uint32 {
	const mod = 65521
	const lo = 0x00ff00ff00ff00ff
	s1, s2 := uint64(1), uint64(0)
	for len(s) >= 8 {
		m := min(len(s)/8, 255)
		var even, odd, a, b uint64
		for w := range m {
			v := binary.LittleEndian.Uint64(s[8*w:])
			e, o := v&lo, v>>8&lo
			even += e
			odd += o
			a += ((e + o) * 0x0001000100010001) >> 48
			b += a
		}
		s = s[8*m:]
		var lanes uint64 // Σ j·L_j
		for k := range 4 {
			lanes += uint64(2*k) * (even >> (16 * k) & 0xffff)
			lanes += uint64(2*k+1) * (odd >> (16 * k) & 0xffff)
		}
		s2 = (s2 + 8*uint64(m)*s1 + 8*b - lanes) % mod
		s1 = (s1 + a) % mod
	}
	for _, c := range s {
		s1 += uint64(c)
		s2 += s1
	}
	return uint32((s2%mod)<<16 | s1%mod)
}
