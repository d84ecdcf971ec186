package game

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
)

// Kind is the kind of a move.
type Kind uint8

// The kinds of moves. Pass declines an optional action.
const (
	Pass    Kind = iota + 1 // decline: dice actions 1 and 2, card action 2
	White                   // dice action 1: cross the white sum in Color (D4)
	Colored                 // dice action 2: white die White + the Color die (D5)
	Take                    // card action 1: take display cards by number (C4)
	Number                  // card action 2: cross the number for everyone in Color (C5)
	Play                    // card action 3: play 1–3 cards as Color, crossing Cross (C6)
)

var kindNames = [...]string{"", "pass", "white", "color", "take", "number", "play"}

// String names the kind as records write it.
func (k Kind) String() string {
	if int(k) < len(kindNames) && k != 0 {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Move is one decision by one player. It is a small comparable value; build
// it with the constructors (PassMove, WhiteMove, …).
type Move struct {
	Player int   `json:"player"`
	Kind   Kind  `json:"kind"`
	Color  Color `json:"color"`
	// White is the white die (1 or 2) of a Colored move.
	White uint8 `json:"white,omitempty"`
	// N is how many entries of Take (Take moves) or Cards (Play moves) count.
	N     uint8   `json:"n,omitempty"`
	Take  [3]int8 `json:"take"`
	Cards [3]Card `json:"cards"`
	// Cross has bit n set for every number n a Play move crosses.
	Cross uint16 `json:"cross,omitempty"`
}

// PassMove declines the current optional action.
func PassMove(p int) Move { return Move{Player: p, Kind: Pass} }

// WhiteMove crosses the white dice's sum in row c (dice game, action 1).
func WhiteMove(p int, c Color) Move { return Move{Player: p, Kind: White, Color: c} }

// ColoredMove crosses white die w (1 or 2) plus the die of colour c in row c
// (dice game, action 2).
func ColoredMove(p int, w int, c Color) Move {
	return Move{Player: p, Kind: Colored, Color: c, White: uint8(w)}
}

// TakeMove takes display cards showing these numbers (card game, action 1).
// The numbers are kept in ascending order, so equal choices are equal
// values. More than three numbers make an invalid move.
func TakeMove(p int, numbers ...int) Move {
	m := Move{Player: p, Kind: Take, N: uint8(len(numbers))}
	if len(numbers) > len(m.Take) {
		m.N = 255
		return m
	}
	for i, n := range numbers {
		m.Take[i] = int8(n)
	}
	slices.Sort(m.Take[:m.N])
	return m
}

// NumberMove crosses the number for everyone in row c (card game, action 2).
func NumberMove(p int, c Color) Move { return Move{Player: p, Kind: Number, Color: c} }

// PlayMove plays cards counting as colour c and crosses the given numbers
// (card game, action 3). The cards are kept in canonical order, so equal
// plays are equal values. More than three cards make an invalid move.
func PlayMove(p int, c Color, cards []Card, cross ...int) Move {
	m := Move{Player: p, Kind: Play, Color: c, N: uint8(len(cards))}
	if len(cards) > len(m.Cards) {
		m.N = 255
		return m
	}
	copy(m.Cards[:], cards)
	slices.Sort(m.Cards[:m.N])
	for _, n := range cross {
		if n >= 0 && n < 16 {
			m.Cross |= 1 << n
		}
	}
	return m
}

// Canonical returns the move with every field that its kind does not use
// zeroed and its cards or numbers in canonical order, so that two moves that
// mean the same are equal values. Apply logs moves in this form.
func (m Move) Canonical() Move {
	c := Move{Player: m.Player, Kind: m.Kind}
	switch m.Kind {
	case White, Number:
		c.Color = m.Color
	case Colored:
		c.Color, c.White = m.Color, m.White
	case Take:
		c.N = m.N
		if int(m.N) <= len(m.Take) {
			copy(c.Take[:m.N], m.Take[:m.N])
			slices.Sort(c.Take[:m.N])
		}
	case Play:
		c.Color, c.N, c.Cross = m.Color, m.N, m.Cross
		if int(m.N) <= len(m.Cards) {
			copy(c.Cards[:m.N], m.Cards[:m.N])
			slices.Sort(c.Cards[:m.N])
		}
	}
	return c
}

// TakeNumbers lists the numbers of a Take move.
func (m Move) TakeNumbers() []int {
	out := make([]int, 0, 3)
	for i := 0; i < int(m.N) && i < len(m.Take); i++ {
		out = append(out, int(m.Take[i]))
	}
	return out
}

// CardList lists the cards of a Play move.
func (m Move) CardList() []Card {
	n := min(int(m.N), len(m.Cards))
	return append([]Card(nil), m.Cards[:n]...)
}

// CrossNumbers lists the numbers a Play move crosses, ascending.
func (m Move) CrossNumbers() []int {
	out := make([]int, 0, bits.OnesCount16(m.Cross))
	for n := 0; n < 16; n++ {
		if m.Cross&(1<<n) != 0 {
			out = append(out, n)
		}
	}
	return out
}

// String describes the move for logs and error reports. It names the cards
// of a Play move, which are public once played; it never names anything else
// that is private.
func (m Move) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "p%d %s", m.Player, m.Kind)
	switch m.Kind {
	case White, Number:
		fmt.Fprintf(&b, " %s", m.Color)
	case Colored:
		fmt.Fprintf(&b, " white%d+%s", m.White, m.Color)
	case Take:
		fmt.Fprintf(&b, " %v", m.TakeNumbers())
	case Play:
		fmt.Fprintf(&b, " %v as %s cross %v", m.CardList(), m.Color, m.CrossNumbers())
	}
	return b.String()
}
