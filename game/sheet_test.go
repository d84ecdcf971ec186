package game

import (
	"errors"
	"testing"
)

// sheetWith builds a sheet with these numbers crossed (no lock unless the
// rightmost number is among them).
func sheetWith(t *testing.T, rows map[Color][]int) Sheet {
	t.Helper()
	var s Sheet
	for c, ns := range rows {
		for _, n := range ns {
			if err := s.Check(c, n); err != nil {
				t.Fatalf("setting up %s %d: %v", c, n, err)
			}
			s.cross(c, n)
		}
	}
	return s
}

func reason(err error) Reason {
	var me *MoveError
	if errors.As(err, &me) {
		return me.Reason
	}
	return 0
}

func TestS1RowLayout(t *testing.T) {
	tests := []struct {
		c          Color
		first, end int
	}{
		{Red, 2, 12}, {Yellow, 2, 12}, {Green, 12, 2}, {Blue, 12, 2},
	}
	for _, tt := range tests {
		if got := NumberAt(tt.c, 0); got != tt.first {
			t.Errorf("%s first number = %d, want %d", tt.c, got, tt.first)
		}
		if got := LastNumber(tt.c); got != tt.end {
			t.Errorf("%s last number = %d, want %d", tt.c, got, tt.end)
		}
		for pos := 0; pos <= LastPos; pos++ {
			if Position(tt.c, NumberAt(tt.c, pos)) != pos {
				t.Errorf("%s: position/number round trip fails at %d", tt.c, pos)
			}
		}
	}
}

// The rulebooks' example: red 5 then 7 crossed; yellow up to 10; green right
// of 6; blue right of 10 (seed 000 and 001–004).
func TestS2LeftToRightRulebookExample(t *testing.T) {
	s := sheetWith(t, map[Color][]int{
		Red:    {5, 7},
		Yellow: {2, 4, 5, 6, 8, 9, 10},
		Green:  {12, 6},
		Blue:   {11, 10},
	})
	tests := []struct {
		c    Color
		n    int
		want Reason
	}{
		{Red, 2, ReasonLeftOfLast}, {Red, 3, ReasonLeftOfLast}, {Red, 4, ReasonLeftOfLast},
		{Red, 6, ReasonLeftOfLast}, {Red, 5, ReasonAlreadyCrossed}, {Red, 7, ReasonAlreadyCrossed},
		{Red, 8, 0}, {Red, 11, 0}, {Red, 12, ReasonNeedFive},
		{Yellow, 9, ReasonAlreadyCrossed}, {Yellow, 7, ReasonLeftOfLast}, {Yellow, 11, 0}, {Yellow, 12, 0},
		{Green, 7, ReasonLeftOfLast}, {Green, 5, 0}, {Green, 3, 0}, {Green, 2, ReasonNeedFive},
		{Blue, 12, ReasonLeftOfLast}, {Blue, 9, 0}, {Blue, 2, ReasonNeedFive},
		{Red, 13, ReasonNoSuchNumber}, {Red, 1, ReasonNoSuchNumber},
	}
	for _, tt := range tests {
		if got := reason(s.Check(tt.c, tt.n)); got != tt.want {
			t.Errorf("%s %d: got reason %d, want %d (%v)", tt.c, tt.n, got, tt.want, s.Check(tt.c, tt.n))
		}
	}
	// Passed-over numbers are derivable for striking through.
	for _, n := range []int{2, 3, 4, 6} {
		if !s.Rows[Red].Passed(Position(Red, n)) {
			t.Errorf("red %d should show as passed over", n)
		}
	}
	if s.Rows[Red].Passed(Position(Red, 8)) || s.Rows[Red].Passed(Position(Red, 5)) {
		t.Error("red 8 (open) and red 5 (crossed) are not passed over")
	}
}

func TestS2ErrorSaysWhy(t *testing.T) {
	s := sheetWith(t, map[Color][]int{Yellow: {9}})
	err := s.Check(Yellow, 7)
	want := "yellow 7 is left of your last yellow cross (9)"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
}

func TestS3FiveCrossesBeforeRightmost(t *testing.T) {
	for _, c := range Colors {
		var four, five Sheet
		for pos := 0; pos < 4; pos++ {
			four.cross(c, NumberAt(c, pos))
		}
		for pos := 0; pos < 5; pos++ {
			five.cross(c, NumberAt(c, pos))
		}
		if r := reason(four.Check(c, LastNumber(c))); r != ReasonNeedFive {
			t.Errorf("%s: 4 crosses may not lock (got reason %d)", c, r)
		}
		if err := five.Check(c, LastNumber(c)); err != nil {
			t.Errorf("%s: 5 crosses may cross the rightmost number: %v", c, err)
		}
		if !five.cross(c, LastNumber(c)) {
			t.Errorf("%s: crossing the rightmost number must lock", c)
		}
		// S3: the lock cross counts: 5 + last number + lock = 7 crosses = 28.
		if got := five.Rows[c].Count(); got != 7 {
			t.Errorf("%s: %d crosses after locking, want 7", c, got)
		}
		if got := five.Rows[c].Score(); got != 28 {
			t.Errorf("%s: locked row with 6 numbers scores %d, want 28 (lock counts as a cross, no bonus)", c, got)
		}
		if r := reason(five.Check(c, NumberAt(c, 9))); r != ReasonRowLockedOwn {
			t.Errorf("%s: locked row must refuse crosses, got reason %d", c, r)
		}
	}
}

func TestS4ScoreTable(t *testing.T) {
	want := []int{0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78}
	for n, w := range want {
		if got := RowScore(n); got != w {
			t.Errorf("RowScore(%d) = %d, want %d", n, got, w)
		}
	}
}

// Laura's 70 points, the worked example of every rulebook.
func TestS4LauraScores70(t *testing.T) {
	s := sheetWith(t, map[Color][]int{
		Red:    {2, 3, 4, 5},
		Yellow: {2, 3, 4},
		Green:  {12, 11, 10, 9, 8, 7, 6},
		Blue:   {12, 11, 10, 9, 8, 7, 6, 5},
	})
	s.Misthrows = 2
	wantRows := []int{10, 6, 28, 36}
	for i, c := range Colors {
		if got := s.Rows[c].Score(); got != wantRows[i] {
			t.Errorf("%s scores %d, want %d", c, got, wantRows[i])
		}
	}
	if got := s.Score(); got != 70 {
		t.Errorf("total = %d, want 70", got)
	}
}

func TestS5SheetCapacity(t *testing.T) {
	var s Sheet
	for _, c := range Colors {
		for pos := 0; pos <= LastPos; pos++ {
			if err := s.Check(c, NumberAt(c, pos)); err != nil {
				t.Fatalf("%s pos %d: %v", c, pos, err)
			}
			s.cross(c, NumberAt(c, pos))
		}
		if got := s.Rows[c].Count(); got != 12 {
			t.Errorf("%s full row has %d crosses, want 12 (11 numbers + lock)", c, got)
		}
	}
	if got := s.Score(); got != 4*78 {
		t.Errorf("full sheet = %d, want %d", got, 4*78)
	}
}

// CanCross is the fast path of Check: they must always agree.
func TestS2S3CanCrossAgreesWithCheck(t *testing.T) {
	for rows := 0; rows < 1<<12; rows += 7 {
		for _, c := range Colors {
			var s Sheet
			r := Row(rows)
			if r.Crossed(LastPos) != r.Locked() {
				continue
			}
			s.Rows[c] = r
			for n := 0; n <= 14; n++ {
				if got, want := s.CanCross(c, n), s.Check(c, n) == nil; got != want {
					t.Fatalf("row %b %s %d: CanCross %v, Check allows %v", r, c, n, got, want)
				}
			}
		}
	}
}
