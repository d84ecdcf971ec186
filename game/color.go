package game

import (
	"fmt"
	"strings"
)

// Color is one of the four coloured rows of a score sheet (and, in the
// dice game, the coloured die of that row).
type Color uint8

// The four row colours, in the order the sheet prints them (S1).
const (
	Red Color = iota
	Yellow
	Green
	Blue
)

// NumColors is the number of coloured rows on a sheet.
const NumColors = 4

// Colors lists the row colours in sheet order.
var Colors = [NumColors]Color{Red, Yellow, Green, Blue}

var colorNames = [NumColors]string{"red", "yellow", "green", "blue"}

// String returns the English lower-case name ("red", …), used in records.
func (c Color) String() string {
	if int(c) < NumColors {
		return colorNames[c]
	}
	return fmt.Sprintf("color(%d)", uint8(c))
}

// Letter returns the one-letter code used in card names: R, Y, G or B.
func (c Color) Letter() byte {
	return "RYGB?"[min(int(c), NumColors)]
}

// Valid reports whether c is one of the four colours.
func (c Color) Valid() bool { return int(c) < NumColors }

// ParseColor reads a colour name or its first letter, case-insensitively.
func ParseColor(s string) (Color, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	for i, n := range colorNames {
		if s == n || (len(s) == 1 && s[0] == n[0]) {
			return Color(i), nil
		}
	}
	return 0, fmt.Errorf("unknown colour %q (want red, yellow, green or blue)", s)
}

// Ascending reports whether the row of colour c runs 2→12 (red, yellow);
// green and blue run 12→2 (S1).
func (c Color) Ascending() bool { return c == Red || c == Yellow }

// Position is the index 0…10 of number n (2…12) in row c, counted from the
// left; -1 if n is not on the row.
func Position(c Color, n int) int {
	if n < 2 || n > 12 {
		return -1
	}
	if c.Ascending() {
		return n - 2
	}
	return 12 - n
}

// NumberAt is the number printed at position pos (0…10) of row c.
func NumberAt(c Color, pos int) int {
	if c.Ascending() {
		return pos + 2
	}
	return 12 - pos
}

// LastNumber is the rightmost number of row c: 12 for red and yellow,
// 2 for green and blue (S3).
func LastNumber(c Color) int { return NumberAt(c, LastPos) }
