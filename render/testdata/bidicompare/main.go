// Command bidicompare measures bidi implementations against Unicode's
// BidiTest.txt and BidiCharacterTest.txt: the hand-written reordering
// render had before (old.go), golang.org/x/text/unicode/bidi and
// go-text/typesetting's bidi through their exported APIs, and render's
// bidiLevels (go-text with per-character levels). It is kept in testdata so
// that go build ./... leaves it out; run it from the repository root:
//
//	go run ./render/testdata/bidicompare DIR...
//
// where each DIR holds the two files: the go-text module's bidi/test
// (Unicode 17; `go list -m -f '{{.Dir}}' github.com/go-text/typesetting`)
// or Debian's unicode-data /usr/share/unicode (Unicode 15).
//
// A case is a line of BidiCharacterTest.txt, or a line of BidiTest.txt with
// one of its paragraph directions. It passes when the resolved levels and
// the visual order are the file's (x/text only reports each run's
// direction: its levels are compared by parity). The old code only handled
// text without explicit formatting characters in the paragraph direction
// of the first strong character: it is measured on those cases (the
// "applicable" ones), comparing the string it drew with the file's order.
package main

import (
	"bufio"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"

	gtbidi "github.com/go-text/typesetting/bidi"
	xbidi "golang.org/x/text/unicode/bidi"
)

type tcase struct {
	rs     []rune
	dir    int   // 0 LTR, 1 RTL, 2 auto
	levels []int // -1 removed by X9
	order  []int
}

var classChar = map[string]rune{"L": 'a', "R": 0x05D0, "AL": 0x0627, "EN": '1', "ES": '+', "ET": '$', "AN": 0x0660,
	"CS": ',', "NSM": 0x0300, "BN": 0x00AD, "B": 0x2029, "S": '\t', "WS": ' ', "ON": '!', "LRE": 0x202A,
	"LRO": 0x202D, "RLE": 0x202B, "RLO": 0x202E, "PDF": 0x202C, "LRI": 0x2066, "RLI": 0x2067, "FSI": 0x2068, "PDI": 0x2069}

func ints(s string) []int {
	var out []int
	for _, f := range strings.Fields(s) {
		if f == "x" {
			out = append(out, -1)
			continue
		}
		n, _ := strconv.Atoi(f)
		out = append(out, n)
	}
	return out
}

func lines(path string, each func(string)) {
	f, err := os.Open(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if l := sc.Text(); l != "" && l[0] != '#' {
			each(l)
		}
	}
}

func charTests(path string) (out []tcase) {
	lines(path, func(l string) {
		fs := strings.Split(l, ";")
		var rs []rune
		for _, h := range strings.Fields(fs[0]) {
			n, _ := strconv.ParseUint(h, 16, 32)
			rs = append(rs, rune(n))
		}
		d, _ := strconv.Atoi(fs[1])
		out = append(out, tcase{rs, d, ints(fs[3]), ints(fs[4])})
	})
	return out
}

func bidiTests(path string) (out []tcase) {
	var lv, ord []int
	lines(path, func(l string) {
		switch {
		case strings.HasPrefix(l, "@Levels:"):
			lv = ints(l[8:])
			return
		case strings.HasPrefix(l, "@Reorder:"):
			ord = ints(l[9:])
			return
		case l[0] == '@':
			return
		}
		fs := strings.Split(l, ";")
		var rs []rune
		for _, c := range strings.Fields(fs[0]) {
			rs = append(rs, classChar[c])
		}
		bits, _ := strconv.Atoi(strings.TrimSpace(fs[1]))
		for _, b := range []struct{ bit, dir int }{{1, 2}, {2, 0}, {4, 1}} {
			if bits&b.bit != 0 {
				out = append(out, tcase{rs, b.dir, lv, ord})
			}
		}
	})
	return out
}

// l2 is the visual order (rule L2) of the indices whose level is not -1.
func l2(levels []int) []int {
	var idx []int
	hi, loOdd := 0, 1000
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
			slices.Reverse(idx[i:j])
			i = j
		}
	}
	return idx
}

// masked is got with the levels the file leaves out set to -1.
func masked(got, want []int) []int {
	out := slices.Clone(got)
	for i := range out {
		if i < len(want) && want[i] < 0 {
			out[i] = -1
		}
	}
	return out
}

func levelsMatch(got, want []int, parity bool) bool {
	for i, w := range want {
		switch {
		case w < 0:
		case i >= len(got) || got[i] < 0:
			return false
		case parity && got[i]%2 != w%2, !parity && got[i] != w:
			return false
		}
	}
	return true
}

func gtDir(d int) gtbidi.Direction {
	return [...]gtbidi.Direction{gtbidi.LeftToRight, gtbidi.RightToLeft, gtbidi.Neutral}[d]
}

// gotextRuns: go-text's exported API, a level per run of one direction.
func gotextRuns(t tcase) []int {
	var p gtbidi.Paragraph
	runs := p.Segment(t.rs, gtDir(t.dir))
	levels := make([]int, len(t.rs))
	for i := range levels {
		levels[i] = -2
	}
	for i := 0; i < runs.NumRuns(); i++ {
		r := runs.Run(i)
		for k := r.Start; k < r.End; k++ {
			levels[k] = int(r.Level)
		}
	}
	return levels
}

// gotextChars: each character's level, read from go-text's Runs as
// render's bidiLevels does (paragraphs split at B).
func gotextChars(t tcase) []int {
	levels := make([]int, len(t.rs))
	for start := 0; start <= len(t.rs); {
		end := start
		for end < len(t.rs) && t.rs[end] != 0x2029 {
			end++
		}
		var p gtbidi.Paragraph
		lv := reflect.ValueOf(p.Segment(t.rs[start:end], gtDir(t.dir))).FieldByName("levels")
		for i := 0; i < lv.Len(); i++ {
			levels[start+i] = int(lv.Index(i).Int())
		}
		if end < len(t.rs) {
			levels[end] = t.levels[end] // B: the paragraph level (none in these files)
		}
		start = end + 1
	}
	return levels
}

// xtext: x/text's exported API, a direction per run.
func xtext(t tcase) []int {
	var p xbidi.Paragraph
	var opts []xbidi.Option
	switch t.dir {
	case 0:
		opts = append(opts, xbidi.DefaultDirection(xbidi.LeftToRight))
	case 1:
		opts = append(opts, xbidi.DefaultDirection(xbidi.RightToLeft))
	}
	if _, err := p.SetString(string(t.rs), opts...); err != nil {
		return nil
	}
	o, err := p.Order()
	if err != nil {
		return nil
	}
	levels := make([]int, len(t.rs))
	for i := range levels {
		levels[i] = -2
	}
	for i := 0; i < o.NumRuns(); i++ {
		r := o.Run(i)
		s, e := r.Pos()
		lv := 0
		if r.Direction() == xbidi.RightToLeft {
			lv = 1
		}
		for k := s; k <= e && k < len(levels); k++ {
			levels[k] = lv
		}
	}
	return levels
}

// oldPasses reports whether the old visual() draws the case as the file
// orders it, and whether the case is one it handles.
func oldPasses(t tcase) (applicable, ok bool) {
	para := 0
	for _, r := range t.rs {
		if r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069 {
			return false, false
		}
	}
	for _, r := range t.rs {
		if d := direction(r); d == dirL || d == dirR {
			if d == dirR {
				para = 1
			}
			break
		}
	}
	if t.dir != 2 && t.dir != para {
		return false, false
	}
	var in, want []rune
	for i, r := range t.rs {
		if t.levels[i] >= 0 {
			in = append(in, r)
		}
	}
	for _, i := range t.order {
		r := t.rs[i]
		if m, ok := mirror[r]; ok && t.levels[i]%2 == 1 {
			r = m
		}
		want = append(want, r)
	}
	return true, visual(string(in)) == string(want)
}

func main() {
	for _, dir := range os.Args[1:] {
		for _, file := range []string{"BidiTest.txt", "BidiCharacterTest.txt"} {
			var cases []tcase
			if file == "BidiTest.txt" {
				cases = bidiTests(dir + "/" + file)
			} else {
				cases = charTests(dir + "/" + file)
			}
			var app, oldOK, runsOK, charsOK, xOK, xParity int
			for _, t := range cases {
				if a, ok := oldPasses(t); a {
					app++
					if ok {
						oldOK++
					}
				}
				pass := func(got []int, parity bool) bool {
					return got != nil && levelsMatch(got, t.levels, parity) && slices.Equal(l2(masked(got, t.levels)), t.order)
				}
				if pass(gotextRuns(t), false) {
					runsOK++
				}
				if pass(gotextChars(t), false) {
					charsOK++
				}
				if pass(xtext(t), true) {
					xOK++
				}
				if x := xtext(t); x != nil && levelsMatch(x, t.levels, true) {
					xParity++
				}
			}
			fmt.Printf("%s/%s: %d cases\n", dir, file, len(cases))
			fmt.Printf("  old hand-written reordering: %d of %d applicable pass (%d fail)\n", oldOK, app, app-oldOK)
			fmt.Printf("  golang.org/x/text/unicode/bidi: %d pass (run directions right in %d)\n", xOK, xParity)
			fmt.Printf("  go-text bidi, a level per run: %d pass\n", runsOK)
			fmt.Printf("  go-text bidi, per-character levels (render): %d pass\n", charsOK)
		}
	}
}
