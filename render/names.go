package render

import (
	"slices"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/bidi"
	"golang.org/x/text/unicode/norm"

	"github.com/qwixxbot/qwixxbot/game"
)

// CleanName returns name as the pictures draw it: NFC-normalised, with
// every character that no embedded font can draw left out, emoji sequences
// reduced to their first emoji (variation selectors, skin tones, keycap
// marks, tags and everything after a zero-width joiner dropped), control
// and zero-width characters removed, runs of spaces (and of the blank
// characters used for "invisible" names) collapsed to one and trimmed, and
// at most two combining marks on a letter; mathematical and fullwidth
// letters become plain ones. The order stays logical: drawing puts
// right-to-left text in visual order and shapes it (shape.go). The result
// may be "": the
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
	return b.String()
}

// trimSpace removes the spaces at the end of s.
func trimSpace(s string) string { return strings.TrimRight(s, " ") }

// Directions of characters for firstStrongRTL.
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
