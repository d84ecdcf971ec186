package render

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/qwixxbot/qwixxbot/game"
	"golang.org/x/text/unicode/bidi"
	"golang.org/x/text/unicode/norm"
)

// CleanName returns name as the pictures draw it: NFC-normalised, with
// every character that no embedded font can draw left out, emoji sequences
// reduced to their first emoji (variation selectors, skin tones, keycap
// marks, tags and everything after a zero-width joiner dropped), control
// and zero-width characters removed, runs of spaces (and of the blank
// characters used for "invisible" names) collapsed to one and trimmed, and
// at most two combining marks on a letter; mathematical and fullwidth
// letters become plain ones, Arabic letters take their contextual
// presentation forms (see shapeArabic). The result may be "": the
// pictures then show the seat ("Player 2") instead. The bot need not call
// it; every text the pictures draw goes through it.
func CleanName(name string) string {
	return clean(name)
}

// playerName is the name drawn for seat (0-based): the cleaned name, or
// the Player label and the seat number when nothing drawable is left.
func playerName(name string, seat int, l Labels) string {
	if s := clean(name); s != "" {
		return s
	}
	p := clean(l.Player)
	if p == "" {
		p = "Player"
	}
	return p + " " + strconv.Itoa(seat+1)
}

// plainASCII reports whether s is printable ASCII without leading,
// trailing or double spaces, which clean leaves as it is.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		b := s[i]
		if b < ' ' || b > '~' {
			return false
		}
		if b == ' ' && (i == 0 || i == len(s)-1 || s[i-1] == ' ') {
			return false
		}
	}
	return true
}

// Characters clean treats specially.
const (
	zwj    = '\u200d'
	keycap = '\u20e3'
)

// isBlank reports whether r is a space or one of the blank letters used
// for invisible names (Hangul fillers, Braille blank).
func isBlank(r rune) bool {
	switch r {
	case '\u115f', '\u1160', '\u3164', '\uffa0', '\u2800':
		return true
	}
	return unicode.IsSpace(r) || unicode.Is(unicode.Zs, r) || r == '\u2028' || r == '\u2029'
}

// isMark reports whether r is a combining mark drawn over the character
// before it (no advance of its own).
func isMark(r rune) bool { return unicode.In(r, unicode.Mn, unicode.Me) }

// isEmojiPart reports whether r only modifies the emoji before it.
func isEmojiPart(r rune) bool {
	return (r >= 0xfe00 && r <= 0xfe0f) || (r >= 0xe0100 && r <= 0xe01ef) || // variation selectors
		(r >= 0x1f3fb && r <= 0x1f3ff) || // skin tones
		(r >= 0xe0000 && r <= 0xe007f) || // tags
		r == keycap
}

// isEmoji reports whether r is a pictograph that starts emoji sequences.
func isEmoji(r rune) bool {
	return unicode.Is(unicode.So, r) || (r >= 0x1f000 && r <= 0x1faff)
}

// clean is CleanName. It is idempotent, keeps the logical order and
// returns only runes every face can draw.
func clean(s string) string {
	if plainASCII(s) {
		return s
	}
	s = norm.NFC.String(s)
	var b strings.Builder
	b.Grow(len(s))
	space := true      // at the start or after a space: no mark, no space
	pendSpace := false // a space to write before the next character
	marks := 0         // marks on the current letter
	afterZWJ := false  // drop the next character (a joined emoji)
	var last rune      // the last character written
	write := func(r rune) {
		if pendSpace {
			b.WriteByte(' ')
			pendSpace = false
		}
		b.WriteRune(r)
		last = r
	}
	for _, r := range s {
		switch {
		case isEmojiPart(r):
			continue
		case r == zwj:
			afterZWJ = isEmoji(last)
			continue
		case afterZWJ:
			afterZWJ = false
			if !isBlank(r) && !isMark(r) {
				continue // the joined part of an emoji sequence (in scripts, a ZWJ joins nothing visible here)
			}
		}
		switch {
		case isBlank(r):
			if !space {
				pendSpace = true
			}
			space, marks = true, 0
		case isMark(r):
			if space || marks >= 2 || !drawable(r) {
				continue
			}
			marks++
			write(r)
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Co, r):
			continue
		case r >= 0xff01 && r <= 0xff5e:
			// Fullwidth ASCII: as wide as two letters, drawn narrow.
			write(r - 0xff01 + '!')
			space, marks = false, 0
		case drawable(r):
			write(r)
			space, marks = false, 0
		default:
			// A compatibility form (mathematical or fullwidth letters,
			// ligatures) may be drawable as its plain letters.
			k := norm.NFKC.String(string(r))
			if k == string(r) {
				continue
			}
			ok := k != ""
			for _, kr := range k {
				ok = ok && !isBlank(kr) && !isMark(kr) && drawable(kr)
			}
			if ok {
				for _, kr := range k {
					write(kr)
				}
				space, marks = false, 0
			}
		}
	}
	if hasArabic(b.String()) {
		return shapeArabic(b.String())
	}
	return b.String()
}

// trimSpace removes the spaces at the end of s.
func trimSpace(s string) string { return strings.TrimRight(s, " ") }

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

// withNames returns v with the name of every player whose name has nothing
// drawable replaced by playerName's fallback; v itself is not changed.
func withNames(v game.PublicView, l Labels) game.PublicView {
	var ps []game.PlayerView
	for p, pv := range v.Players {
		if clean(pv.Name) != "" {
			continue
		}
		if ps == nil {
			ps = slices.Clone(v.Players)
		}
		ps[p].Name = playerName(pv.Name, p, l)
	}
	if ps != nil {
		v.Players = ps
	}
	return v
}
