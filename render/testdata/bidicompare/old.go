package main

// The reordering render used before go-text's bidi (render/names.go at
// commit e65044e), copied unchanged to measure it.

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/bidi"
)

func isMark(r rune) bool { return unicode.In(r, unicode.Mn, unicode.Me) }

// Directions of characters for visual.
const (
	dirL = iota
	dirR
	dirNum
	dirNeutral
)

func direction(r rune) int {
	p, _ := bidi.LookupRune(r)
	switch p.Class() {
	case bidi.L:
		return dirL
	case bidi.R, bidi.AL:
		return dirR
	case bidi.EN, bidi.AN:
		return dirNum
	}
	return dirNeutral
}

// mirror is the mirrored form of the brackets in right-to-left runs.
var mirror = map[rune]rune{'(': ')', ')': '(', '[': ']', ']': '[', '{': '}', '}': '{', '<': '>', '>': '<', '«': '»', '»': '«'}

// visual puts a cleaned string in the order its characters are drawn from
// left to right: a simplified Unicode bidirectional algorithm for one line
// without explicit embeddings. The paragraph direction is that of the first
// strong character; neutrals between two characters of one direction take
// it, other neutrals the paragraph's; digits stay left to right; runs are
// reversed by level (rule L2) with combining marks kept after their base
// and brackets mirrored. Beyond Arabic's joining forms (clean) nothing is
// shaped: Indic vowel signs are not reordered nor conjuncts formed.
func visual(s string) string {
	rtl := false
	for _, r := range s {
		if d := direction(r); d == dirL || d == dirR {
			rtl = d == dirR
			break
		}
	}
	hasR := rtl
	if !hasR {
		for _, r := range s {
			if direction(r) == dirR {
				hasR = true
				break
			}
		}
	}
	if !hasR {
		return s
	}
	// Clusters: a base and its marks.
	type cluster struct {
		start, end int // bytes in s
		dir, level int
	}
	var cs []cluster
	for i, r := range s {
		if isMark(r) && len(cs) > 0 {
			cs[len(cs)-1].end = i + utf8.RuneLen(r)
			continue
		}
		cs = append(cs, cluster{start: i, end: i + utf8.RuneLen(r), dir: direction(r)})
	}
	base := dirL
	if rtl {
		base = dirR
	}
	// Rule W7: a number after left-to-right text (or at the start of a
	// left-to-right paragraph) is left to right.
	prev := base
	for i := range cs {
		switch cs[i].dir {
		case dirL, dirR:
			prev = cs[i].dir
		case dirNum:
			if prev == dirL {
				cs[i].dir = dirL
			}
		}
	}
	// strong is the direction neutrals see: digits count as right to left.
	strong := func(d int) int {
		if d == dirNum {
			return dirR
		}
		return d
	}
	for i := 0; i < len(cs); {
		if cs[i].dir != dirNeutral {
			i++
			continue
		}
		j := i
		for j < len(cs) && cs[j].dir == dirNeutral {
			j++
		}
		before, after := base, base
		if i > 0 {
			before = strong(cs[i-1].dir)
		}
		if j < len(cs) {
			after = strong(cs[j].dir)
		}
		d := base
		if before == after {
			d = before
		}
		for k := i; k < j; k++ {
			cs[k].dir = d
		}
		i = j
	}
	maxLevel := 0
	for i := range cs {
		switch {
		case !rtl && cs[i].dir == dirR:
			cs[i].level = 1
		case !rtl && cs[i].dir == dirNum:
			cs[i].level = 2
		case rtl && cs[i].dir != dirR:
			cs[i].level = 2
		case rtl:
			cs[i].level = 1
		}
		maxLevel = max(maxLevel, cs[i].level)
	}
	for lv := maxLevel; lv >= 1; lv-- {
		for i := 0; i < len(cs); {
			if cs[i].level < lv {
				i++
				continue
			}
			j := i
			for j < len(cs) && cs[j].level >= lv {
				j++
			}
			for a, z := i, j-1; a < z; a, z = a+1, z-1 {
				cs[a], cs[z] = cs[z], cs[a]
			}
			i = j
		}
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, c := range cs {
		for _, r := range s[c.start:c.end] {
			if c.level%2 == 1 {
				if m, ok := mirror[r]; ok {
					r = m
				}
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}
