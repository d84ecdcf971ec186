package i18n

import (
	"fmt"
	"testing"

	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"
)

// argKinds are the arguments message key takes, as its English text
// uses them: 's' a string, 'd' a number (a %d or a counted word).
func argKinds(t *testing.T, key msg.Key) []byte {
	t.Helper()
	m := english().msgs[key]
	kinds := make([]byte, args(All()[0].Messages[key]))
	for _, p := range m.parts {
		if p.arg == 0 || p.arg > len(kinds) {
			continue
		}
		k := p.verb
		if p.word != nil {
			k = 'd'
		}
		kinds[p.arg-1] = k
	}
	for i := range kinds {
		if kinds[i] == 0 {
			kinds[i] = 'd' // counted only in another language
		}
	}
	return kinds
}

// stringer is an argument T leaves to x/text's printer.
type stringer struct{}

func (stringer) String() string { return "a Stringer" }

// TestFastFormattingMatchesPrinter: T writes every message in every
// language as x/text's printer over the catalogue does, with strings and
// numbers (small, grouped, negative, one and other forms of counted
// words), with an argument of another type and with an extra argument.
func TestFastFormattingMatchesPrinter(t *testing.T) {
	nums := []int{0, 1, 2, 3, 5, 11, 21, 100, 101, 999, -1, -2, -17, -999, 1000, 1001, 12345, -4321, 1000000}
	strs := []string{"Anna", "", "Ben 100%", "€ 5 ${x}", "<@123>"}
	checked := 0
	for _, tag := range Languages() {
		l := For(tag.String())
		for key := range All()[0].Messages {
			kinds := argKinds(t, key)
			trials := len(nums)
			if len(kinds) == 0 {
				trials = 1
			}
			for trial := range trials + 2 {
				args := make([]any, len(kinds))
				for i, k := range kinds {
					if k == 's' {
						args[i] = strs[(trial+i)%len(strs)]
					} else {
						args[i] = nums[(trial+3*i)%len(nums)]
					}
				}
				switch {
				case trial == trials && len(args) > 0:
					args[len(args)-1] = stringer{}
				case trial == trials+1:
					args = append(args, 7)
				}
				got, want := l.T(key, args...), l.c.p.Sprintf(string(key), args...)
				if got != want {
					t.Errorf("%s %s%v: %q, x/text %q", tag, key, args, got, want)
				}
				checked++
			}
		}
	}
	if checked < 3000 {
		t.Errorf("only %d formattings compared", checked)
	}
}

// TestEveryMessageFormatsFast: every message of every language parses for
// T's own formatting (fastMsg); one that does not is still right, through
// x/text's printer, but costs a click a printer's garbage.
func TestEveryMessageFormatsFast(t *testing.T) {
	for tag, c := range languages() {
		for key, m := range c.msgs {
			if m.slow {
				t.Errorf("%s %s is formatted by x/text's printer: %q", tag, key, Of(tag).Messages[key])
			}
		}
	}
}

// TestFastFormattingAllocatesOnlyItsString: a message with numbers,
// strings and a counted word costs one allocation, its string; a message
// without arguments none.
func TestFastFormattingAllocatesOnlyItsString(t *testing.T) {
	de, fr := For("de"), For("fr")
	name := "Anna"
	if n := testing.AllocsPerRun(100, func() { _ = de.T(msg.LobbySeats, 2, 5) }); n > 1 {
		t.Errorf("lobby.seats: %.1f allocations", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = fr.T(msg.BoardMeasure, 3, 1) }); n > 1 {
		t.Errorf("board.measure: %.1f allocations", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = fr.T(msg.LobbyTitle, name) }); n > 1 {
		t.Errorf("lobby.title: %.1f allocations", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = de.T(msg.BtnJoin) }); n != 0 {
		t.Errorf("btn.join: %.1f allocations", n)
	}
	if got := fmt.Sprint(de.T(msg.LobbySeats, 2, 5)); got != "Spieler (2/5)" {
		t.Errorf("lobby.seats: %q", got)
	}
}

// BenchmarkT formats a message with two numbers, as a click does a few
// dozen times.
func BenchmarkT(b *testing.B) {
	de := For("de")
	b.ReportAllocs()
	for b.Loop() {
		_ = de.T(msg.BoardMeasure, 3, 1)
	}
}
