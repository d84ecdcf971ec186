package logbuf

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

func TestBufferKeepsEveryConcurrentWrite(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := fmt.Fprintf(&b, "line %02d\n", i); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	got := b.String()
	for i := range 20 {
		if !strings.Contains(got, fmt.Sprintf("line %02d\n", i)) {
			t.Errorf("line %02d missing from %q", i, got)
		}
	}
	if n := strings.Count(got, "\n"); n != 20 {
		t.Errorf("%d lines, want 20 (a write was torn or lost)", n)
	}
}
