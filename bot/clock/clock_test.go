package clock

import (
	"sync"
	"testing"
	"time"
)

func TestFakeMovesOnlyWhenTold(t *testing.T) {
	start := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	c := NewFake(start)
	if got := c.Now(); !got.Equal(start) {
		t.Fatalf("Now() = %v, want %v", got, start)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Advance(time.Second)
			_ = c.Now()
		}()
	}
	wg.Wait()
	if got, want := c.Now(), start.Add(8*time.Second); !got.Equal(want) {
		t.Errorf("after 8 concurrent Advance(1s): Now() = %v, want %v", got, want)
	}
}

func TestNewFakeZeroIsAFixedDate(t *testing.T) {
	a, b := NewFake(time.Time{}).Now(), NewFake(time.Time{}).Now()
	if a.IsZero() || !a.Equal(b) {
		t.Errorf("NewFake(zero) = %v and %v, want one fixed non-zero date", a, b)
	}
}

func TestRealFollowsTheWallClock(t *testing.T) {
	var c Clock = Real{}
	before := time.Now()
	got := c.Now()
	if got.Before(before) || got.After(time.Now()) {
		t.Errorf("Real.Now() = %v, not between the wall clock's readings around it", got)
	}
}
