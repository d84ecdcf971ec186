package game

import (
	"fmt"
	"strconv"
	"strings"
)

// Card is one card of Qwixx – Das Kartenspiel (C1): a colour card 2–12 in one
// of the four colours, or (joker variant) a joker 2–12 without a colour.
// The zero value is the red 2. Card values are small and comparable.
type Card uint8

const (
	colorCards = 44 // 2..12 in four colours
	jokerCards = 11 // jokers 2..12
	maxCard    = colorCards + jokerCards
)

// ColorCard returns the card of colour c and number n.
func ColorCard(c Color, n int) Card { return Card(int(c)*11 + n - 2) }

// JokerCard returns the joker with number n.
func JokerCard(n int) Card { return Card(colorCards + n - 2) }

// Joker reports whether the card is a joker.
func (k Card) Joker() bool { return k >= colorCards }

// Number is the card's number, 2…12.
func (k Card) Number() int {
	if k.Joker() {
		return int(k-colorCards) + 2
	}
	return int(k)%11 + 2
}

// Color is the card's colour; meaningless for a joker (check Joker first).
func (k Card) Color() Color {
	if k.Joker() {
		return 0
	}
	return Color(k / 11)
}

// Valid reports whether k is one of the 55 cards.
func (k Card) Valid() bool { return k < maxCard }

// String names a card as records write it: "R5", "Y12", "G3", "B7", "J9".
func (k Card) String() string {
	if !k.Valid() {
		return fmt.Sprintf("card(%d)", uint8(k))
	}
	if k.Joker() {
		return "J" + strconv.Itoa(k.Number())
	}
	return string(k.Color().Letter()) + strconv.Itoa(k.Number())
}

// ParseCard reads a card name as String writes it (case-insensitive).
func ParseCard(s string) (Card, error) {
	s = strings.ToUpper(strings.TrimSpace(s))
	if len(s) < 2 {
		return 0, fmt.Errorf("bad card %q (want a letter R, Y, G, B or J and a number 2-12, e.g. R5)", s)
	}
	n, err := strconv.Atoi(s[1:])
	if err != nil || n < 2 || n > 12 {
		return 0, fmt.Errorf("bad card %q: number must be 2-12", s)
	}
	switch s[0] {
	case 'J':
		return JokerCard(n), nil
	case 'R':
		return ColorCard(Red, n), nil
	case 'Y':
		return ColorCard(Yellow, n), nil
	case 'G':
		return ColorCard(Green, n), nil
	case 'B':
		return ColorCard(Blue, n), nil
	}
	return 0, fmt.Errorf("bad card %q (want a letter R, Y, G, B or J)", s)
}

// MarshalText writes the card's name.
func (k Card) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a card's name.
func (k *Card) UnmarshalText(b []byte) error {
	c, err := ParseCard(string(b))
	if err != nil {
		return err
	}
	*k = c
	return nil
}

// deckSize is the number of cards in a deck (C1).
func deckSize(jokers bool) int {
	if jokers {
		return maxCard
	}
	return colorCards
}

// FullDeck returns the cards of a new deck in canonical order: the 44 colour
// cards, plus the 11 jokers when jokers is true (C1).
func FullDeck(jokers bool) []Card {
	d := make([]Card, deckSize(jokers))
	for i := range d {
		d[i] = Card(i)
	}
	return d
}
