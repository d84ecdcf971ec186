package game

import "math/bits"

// LastPos is the position of a row's rightmost number (S3); LockPos is the
// lock field after it (S1).
const (
	LastPos      = 10
	LockPos      = 11
	MaxMisthrows = 4 // S5
	// MisthrowPenalty is the score of one misthrow (S4).
	MisthrowPenalty = 5
)

// Row is the state of one coloured row of a sheet: bit p (0…10) is set when
// the number at position p is crossed, bit 11 when the lock is crossed.
type Row uint16

// Crossed reports whether position pos (0…11) is crossed.
func (r Row) Crossed(pos int) bool { return r&(1<<pos) != 0 }

// Count is the number of crosses in the row, the lock cross included (S3, S4).
func (r Row) Count() int { return bits.OnesCount16(uint16(r)) }

// Last is the position of the rightmost crossed number (0…10), or -1.
func (r Row) Last() int { return bits.Len16(uint16(r)&0x7ff) - 1 }

// Locked reports whether the lock field is crossed.
func (r Row) Locked() bool { return r.Crossed(LockPos) }

// Passed reports whether the number at pos was passed over: not crossed but
// left of a cross, so it can never be crossed (S2). Sheets show it struck.
func (r Row) Passed(pos int) bool { return pos < r.Last() && !r.Crossed(pos) }

// Score is the row's score, n(n+1)/2 for n crosses (S4).
func (r Row) Score() int { return RowScore(r.Count()) }

// RowScore is the score of a row with n crosses: 1, 3, 6, … 78 (S4).
func RowScore(n int) int { return n * (n + 1) / 2 }

// Sheet is one player's score sheet (S1–S5).
type Sheet struct {
	Rows      [NumColors]Row `json:"rows"`
	Misthrows int            `json:"misthrows"`
}

// Check reports whether number n may be crossed in row c of this sheet,
// considering the sheet alone (S2, S3 and the player's own lock). Rows closed
// for everybody in the dice game are checked by the game, not here.
func (s Sheet) Check(c Color, n int) error { return s.problem(c, n).err() }

// CanCross reports whether Check would allow crossing n in row c; it is the
// fast path for listing legal moves.
func (s Sheet) CanCross(c Color, n int) bool {
	pos := Position(c, n)
	if pos < 0 || !c.Valid() {
		return false
	}
	r := s.Rows[c]
	return !r.Locked() && pos > r.Last() && (pos != LastPos || r.Count() >= 5)
}

// problem is Check without allocating: a zero Reason means allowed.
func (s Sheet) problem(c Color, n int) MoveError {
	if !c.Valid() {
		return MoveError{Reason: ReasonBadColor, Color: c}
	}
	pos := Position(c, n)
	if pos < 0 {
		return MoveError{Reason: ReasonNoSuchNumber, Color: c, Number: n}
	}
	r := s.Rows[c]
	if r.Locked() {
		return MoveError{Reason: ReasonRowLockedOwn, Color: c, Number: n}
	}
	if r.Crossed(pos) {
		return MoveError{Reason: ReasonAlreadyCrossed, Color: c, Number: n}
	}
	if last := r.Last(); pos < last {
		return MoveError{Reason: ReasonLeftOfLast, Color: c, Number: n, Last: NumberAt(c, last)}
	}
	if pos == LastPos && r.Count() < 5 {
		return MoveError{Reason: ReasonNeedFive, Color: c, Number: n, Count: r.Count()}
	}
	return MoveError{}
}

// cross crosses n in row c, which Check must have allowed, and reports
// whether this locked the row (crossing the rightmost number crosses the lock
// too, S3).
func (s *Sheet) cross(c Color, n int) (locked bool) {
	pos := Position(c, n)
	s.Rows[c] |= 1 << pos
	if pos == LastPos {
		s.Rows[c] |= 1 << LockPos
		return true
	}
	return false
}

// Locks counts the rows this player has locked.
func (s Sheet) Locks() int {
	n := 0
	for _, r := range s.Rows {
		if r.Locked() {
			n++
		}
	}
	return n
}

// Crosses counts all crosses on the sheet, locks included.
func (s Sheet) Crosses() int {
	n := 0
	for _, r := range s.Rows {
		n += r.Count()
	}
	return n
}

// Score is the sheet's total: the four rows minus 5 per misthrow (S4).
func (s Sheet) Score() int {
	t := -MisthrowPenalty * s.Misthrows
	for _, r := range s.Rows {
		t += r.Score()
	}
	return t
}
