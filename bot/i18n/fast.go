package i18n

import (
	"strconv"
	"strings"

	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"
)

// maxFast bounds the numbers fastMsg writes itself: below a thousand no
// language groups digits, so x/text writes them as strconv does.
const maxFast = 1000

// fastMsg is a message parsed once for formatting without x/text's
// printer: its literal text, its %s and %d verbs and its counted words
// (${name}), in order. It formats as the printer does (TestFastFormatting
// compares every message in every language) or declines: slow marks a
// message it cannot parse (another verb, a flag, a macro), and format
// declines an argument it does not know.
type fastMsg struct {
	parts []fastPart
	// size is the literal text's length (the string's first capacity).
	size int
	// implicit is the number of arguments a piece of the message without
	// indexed verbs takes (0: none such): x/text complains of extra
	// arguments after those, which format leaves to it.
	implicit int
	slow     bool
}

// fastPart is literal text (arg 0) or argument arg (1-based) written by
// verb ('s' or 'd', with plus a sign always) or, for a counted word, the
// word's forms chosen by the argument.
type fastPart struct {
	lit  string
	arg  int
	verb byte
	plus bool
	word *Plural
}

// parseFast parses message key of language l as the catalogue holds it
// (compile: the commands written out).
func parseFast(l *Language, key msg.Key) *fastMsg {
	text, err := commandText(l, key)
	if err != nil {
		return &fastMsg{slow: true}
	}
	m := &fastMsg{}
	// x/text formats the text between counted words piece by piece,
	// each piece's verbs numbered afresh.
	for {
		i := strings.Index(text, "${")
		piece := text
		if i >= 0 {
			piece = text[:i]
		}
		if !m.parsePiece(piece) {
			return &fastMsg{slow: true}
		}
		if i < 0 {
			break
		}
		text = text[i+2:]
		j := strings.IndexByte(text, '}')
		if j < 0 {
			return &fastMsg{slow: true}
		}
		name := strings.TrimSpace(text[:j])
		text = text[j+1:]
		p, ok := l.Plurals[key][name]
		if !ok || p.Arg < 1 || strings.ContainsAny(p.One+p.Other, "%$") {
			return &fastMsg{slow: true}
		}
		m.parts = append(m.parts, fastPart{arg: p.Arg, word: &p})
	}
	if len(m.parts) == 0 {
		m.parts = []fastPart{{}}
	}
	return m
}

// parsePiece parses a piece of text without counted words: literal text
// and the verbs %s, %d, %+d, each with or without an index, and %%.
func (m *fastMsg) parsePiece(t string) bool {
	next, used, indexed := 1, 0, false
	lit := func(s string) {
		if s == "" {
			return
		}
		m.size += len(s)
		if n := len(m.parts); n > 0 && m.parts[n-1].arg == 0 {
			m.parts[n-1].lit += s
			return
		}
		m.parts = append(m.parts, fastPart{lit: s})
	}
	for {
		i := strings.IndexByte(t, '%')
		if i < 0 {
			lit(t)
			break
		}
		lit(t[:i])
		t = t[i+1:]
		if t == "" {
			return false
		}
		if t[0] == '%' {
			lit("%")
			t = t[1:]
			continue
		}
		plus := t[0] == '+'
		if plus {
			t = t[1:]
		}
		arg := next
		if t != "" && t[0] == '[' {
			j := strings.IndexByte(t, ']')
			if j < 0 {
				return false
			}
			n, err := strconv.Atoi(t[1:j])
			if err != nil || n < 1 {
				return false
			}
			arg, indexed, t = n, true, t[j+1:]
		}
		if t == "" || (t[0] != 's' && t[0] != 'd') || (plus && t[0] != 'd') {
			return false
		}
		m.parts = append(m.parts, fastPart{arg: arg, verb: t[0], plus: plus})
		t = t[1:]
		next = arg + 1
		used++
	}
	if !indexed && used > 0 {
		m.implicit = max(m.implicit, next-1)
	}
	return true
}

// format writes the message with args in c's language, or declines (false)
// where x/text's printer would write something else than fastMsg does: an
// argument missing or of another type than string (%s) or int (%d, a
// counted word), a number of a thousand or more (grouped digits), extra
// arguments x/text complains of.
func (m *fastMsg) format(c *compiled, args []any) (string, bool) {
	if len(m.parts) == 1 && m.parts[0].arg == 0 {
		return m.parts[0].lit, true // the text as it is
	}
	if m.implicit > 0 && m.implicit < len(args) {
		return "", false
	}
	var b strings.Builder
	b.Grow(m.size + 8*len(args))
	var num [24]byte
	for i := range m.parts {
		p := &m.parts[i]
		if p.arg == 0 {
			b.WriteString(p.lit)
			continue
		}
		if p.arg > len(args) {
			return "", false
		}
		a := args[p.arg-1]
		if p.verb == 's' {
			s, ok := a.(string)
			if !ok {
				return "", false
			}
			b.WriteString(s)
			continue
		}
		n, ok := a.(int)
		if !ok || n <= -maxFast || n >= maxFast {
			return "", false
		}
		if p.word != nil {
			if c.one[abs(n)] {
				b.WriteString(p.word.One)
			} else {
				b.WriteString(p.word.Other)
			}
			continue
		}
		out := num[:0]
		if p.plus && n >= 0 {
			out = append(out, '+')
		}
		b.Write(strconv.AppendInt(out, int64(n), 10))
	}
	return b.String(), true
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
