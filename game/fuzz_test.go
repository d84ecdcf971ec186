package game

import (
	"bytes"
	"testing"
)

// FuzzGame plays a game whose every decision comes from the fuzzer's bytes:
// which seat tries to move and which move it tries, legal or not (forged
// moves included). After every step it checks: an illegal move is refused
// with a *MoveError and changes nothing; crosses only move right; locked
// rows never reopen; scores recompute from the sheets; the game ends within
// the turn bound; save-then-restore gives an equal game; hidden colours
// never change the public view.
func FuzzGame(f *testing.F) {
	f.Add(uint8(0), uint8(2), uint64(1), []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add(uint8(1), uint8(3), uint64(2), bytes.Repeat([]byte{7, 200, 13}, 50))
	f.Add(uint8(2), uint8(5), uint64(3), bytes.Repeat([]byte{255, 0, 128, 64}, 100))
	f.Fuzz(func(t *testing.T, variant, players uint8, s uint64, data []byte) {
		v := Variant(1 + variant%3)
		n := MinPlayers + int(players)%(MaxPlayers-MinPlayers+1)
		g, err := New(Config{Variant: v, Players: names[:n], Seed: seed(s)})
		if err != nil {
			t.Fatal(err)
		}
		var buf []Move
		next := func() int {
			if len(data) == 0 {
				return 0
			}
			b := int(data[0])
			data = data[1:]
			return b
		}
		for step := 0; len(data) > 0 && !g.Over(); step++ {
			p := next() % (n + 1) // seat n does not exist
			// What p may do: a move of the action, or once decided in an
			// action everybody decides, a change of that choice (P4): the
			// same choice again is refused.
			buf = buf[:0]
			cur, decided := g.Decision(p)
			for _, c := range g.Choices(p) {
				if !decided || c != cur {
					buf = append(buf, c)
				}
			}
			var m Move
			if k := next(); k < 192 && len(buf) > 0 {
				m = buf[k%len(buf)]
			} else {
				m = forgeMove(p, next)
			}
			before := observe(g)
			saved, _ := g.MarshalBinary()
			err := g.Apply(m)
			legal := false
			for _, lm := range buf {
				if lm == m.Canonical() {
					legal = true
				}
			}
			if err != nil {
				if _, ok := err.(*MoveError); !ok {
					t.Fatalf("refusal of %v is not a *MoveError: %v", m, err)
				}
				if legal {
					t.Fatalf("listed legal move %v refused: %v", m, err)
				}
				after, _ := g.MarshalBinary()
				if !bytes.Equal(saved, after) {
					t.Fatalf("illegal move %v changed the game", m)
				}
				continue
			}
			if !legal {
				t.Fatalf("accepted move %v was not among the legal moves %v", m, buf)
			}
			checkInvariants(t, before, g, m)
			if step%8 == 0 {
				checkRoundTrip(t, g)
				checkHiddenColours(t, g)
			}
		}
		checkRoundTrip(t, g)
		checkRecord(t, g)
	})
}

// forgeMove makes an arbitrary move from the fuzzer's bytes.
func forgeMove(p int, next func() int) Move {
	m := Move{
		Player: p,
		Kind:   Kind(next() % 8),
		Color:  Color(next() % 6),
		White:  uint8(next() % 4),
		N:      uint8(next() % 5),
		Cross:  uint16(next())<<8 | uint16(next()),
	}
	for i := range m.Take {
		m.Take[i] = int8(next() % 14)
		m.Cards[i] = Card(next() % 60)
	}
	if m.N > 3 {
		m.N = 3
	}
	return m
}
