package render

import (
	"reflect"
	"sync"

	"github.com/go-text/typesetting/bidi"
)

// The bidirectional algorithm is go-text/typesetting's bidi package, which
// passes every line of Unicode's BidiTest.txt and BidiCharacterTest.txt
// (bidi_test.go). golang.org/x/text/unicode/bidi was measured too and left:
// its Order does not reorder (the runs come back in logical order) and it
// gets the run directions of 1 in 3 BidiCharacterTest lines wrong.
// testdata/bidicompare measures both, and the reordering render had before.

// bidiPool holds Paragraphs (their buffers are reused).
var bidiPool = sync.Pool{New: func() any { return new(bidi.Paragraph) }}

// bidiLevels returns the resolved embedding level of each rune of rs
// (UAX #9 rules P2 to L1; a paragraph separator ends the paragraph, the
// runes after it are in the next one). dir is the paragraph direction:
// bidi.Neutral takes it from the first strong character, left to right if
// there is none. Characters rule X9 removes get the level of the character
// before them.
func bidiLevels(rs []rune, dir bidi.Direction) []int8 {
	levels := make([]int8, len(rs))
	p := bidiPool.Get().(*bidi.Paragraph)
	defer bidiPool.Put(p)
	for start := 0; start < len(rs); {
		end := start
		for end < len(rs) && !isParaSep(rs[end]) {
			end++
		}
		runs := p.Segment(rs[start:end], dir)
		para := paragraphLevel(rs[start:end], dir)
		if lv, ok := runLevels(runs); ok && len(lv) == end-start {
			copy(levels[start:end], lv)
		} else {
			for i := 0; i < runs.NumRuns(); i++ {
				r := runs.Run(i)
				for k := r.Start; k < r.End; k++ {
					levels[start+k] = int8(r.Level)
				}
			}
		}
		if end < len(rs) {
			levels[end] = para // rule L1: a paragraph separator has the paragraph level
		}
		start = end + 1
	}
	return levels
}

// isParaSep reports whether r has bidi class B.
func isParaSep(r rune) bool {
	switch r {
	case '\n', '\r', 0x1c, 0x1d, 0x1e, 0x85, 0x2029:
		return true
	}
	return false
}

// paragraphLevel is the embedding level of paragraph rs in direction dir
// (the bidi package resolves it but does not export it).
func paragraphLevel(rs []rune, dir bidi.Direction) int8 {
	switch dir {
	case bidi.LeftToRight:
		return 0
	case bidi.RightToLeft:
		return 1
	}
	if firstStrongRTL(rs) {
		return 1
	}
	return 0
}

// firstStrongRTL applies rules P2 and P3 to rs: whether its first strong
// character outside isolates is right to left (classes from
// golang.org/x/text/unicode/bidi, Unicode 15; only a paragraph separator's
// level depends on it, and clean removes those).
func firstStrongRTL(rs []rune) bool {
	depth := 0
	for _, r := range rs {
		switch {
		case r >= 0x2066 && r <= 0x2068:
			depth++
		case r == 0x2069:
			if depth > 0 {
				depth--
			}
		case depth > 0:
		default:
			switch d := direction(r); d {
			case dirL:
				return false
			case dirR:
				return true
			}
		}
	}
	return false
}

// runLevels reads the level of every character from runs. The bidi package
// only exports a level per run of one direction, which merges the levels 0
// and 2 of a left-to-right paragraph (a number after right-to-left text
// next to left-to-right text) and so cannot reorder such lines right;
// its Runs keep the levels in an unexported field, read here through
// reflect (reading is allowed, nothing is written). ok is false if a new
// version renames it; bidi_test.go would then fail.
func runLevels(runs bidi.Runs) (levels []int8, ok bool) {
	v := reflect.ValueOf(runs).FieldByName("levels")
	if !v.IsValid() || v.Kind() != reflect.Slice || v.Type().Elem().Kind() != reflect.Int8 {
		return nil, false
	}
	levels = make([]int8, v.Len())
	for i := range levels {
		levels[i] = int8(v.Index(i).Int())
	}
	return levels, true
}

// visualOrder returns the indices of levels in the order rule L2 draws
// them from left to right: from the highest level down to the lowest odd
// one, every run of characters at that level or higher is reversed. Indices
// whose level is negative (removed by rule X9) are left out.
func visualOrder(levels []int8) []int {
	idx := make([]int, 0, len(levels))
	var hi, loOdd int8 = 0, 127
	for i, l := range levels {
		if l < 0 {
			continue
		}
		idx = append(idx, i)
		hi = max(hi, l)
		if l%2 == 1 {
			loOdd = min(loOdd, l)
		}
	}
	for lv := hi; lv >= loOdd && lv >= 1; lv-- {
		for i := 0; i < len(idx); {
			if levels[idx[i]] < lv {
				i++
				continue
			}
			j := i
			for j < len(idx) && levels[idx[j]] >= lv {
				j++
			}
			for a, z := i, j-1; a < z; a, z = a+1, z-1 {
				idx[a], idx[z] = idx[z], idx[a]
			}
			i = j
		}
	}
	return idx
}
