package bot

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/qwixxbot/qwixxbot/bot/i18n"
	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"

	"github.com/qwixxbot/qwixxbot/game"
)

// colorWord is a colour as a word in a sentence: "red", "Rot", "rouge".
func colorWord(l Lang, c game.Color) string { return l.T(i18n.ColorWord[c]) }

// rowName is a row as subject or object: "the red row", "die rote Reihe".
func rowName(l Lang, c game.Color) string { return l.T(i18n.Row[c]) }

// rowIn is a row after "in": "in the red row", "in der roten Reihe".
func rowIn(l Lang, c game.Color) string { return l.T(i18n.RowIn[c]) }

// cellName is a number of a row: "red 5", "die rote 5", "le 5 rouge".
func cellName(l Lang, c game.Color, n int) string {
	return l.T(msg.Cell, l.T(i18n.Adj[c]), n)
}

// listAnd joins words as a list: "a", "a and b", "a, b and c".
func listAnd(l Lang, words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + l.T(msg.WordAnd) + " " + words[len(words)-1]
}

// upperFirst writes a text's first letter in upper case, for a phrase that
// starts a sentence.
func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// formatDuration words a duration as people write it, rounded to the
// second: one unit in words ("10 minutes", "10 Minuten", "1 heure"),
// several with symbols ("1 h 30 min", "1 Std. 30 Min.").
func formatDuration(l Lang, d time.Duration) string {
	secs := int((d + time.Second/2) / time.Second)
	if secs < 0 {
		secs = 0
	}
	h, m, s := secs/3600, secs/60%60, secs%60
	var parts []string
	if h > 0 {
		parts = append(parts, l.T(msg.DurH, h))
	}
	if m > 0 {
		parts = append(parts, l.T(msg.DurMin, m))
	}
	if s > 0 {
		parts = append(parts, l.T(msg.DurS, s))
	}
	switch {
	case len(parts) > 1:
		return strings.Join(parts, " ")
	case h > 0:
		return l.T(msg.DurHours, h)
	case m > 0:
		return l.T(msg.DurMinutes, m)
	}
	return l.T(msg.DurSeconds, s)
}
