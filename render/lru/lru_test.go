package lru

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func byteLen(b []byte) int { return len(b) }

func TestLeastRecentlyUsedGoesFirst(t *testing.T) {
	c := New[string](10, byteLen)
	c.Add("a", make([]byte, 4))
	c.Add("b", make([]byte, 4))
	if _, ok := c.Get("a"); !ok { // a is now the most recent
		t.Fatal("a missing")
	}
	c.Add("c", make([]byte, 4)) // 12 > 10: b goes
	if _, ok := c.Get("b"); ok {
		t.Error("b, the least recently used, is still cached")
	}
	for _, k := range []string{"a", "c"} {
		if _, ok := c.Get(k); !ok {
			t.Errorf("%s was dropped", k)
		}
	}
	if _, _, used := c.Stats(); used != 8 {
		t.Errorf("holds %d, want 8", used)
	}
	c.Add("huge", make([]byte, 11)) // alone over the budget: not kept, nothing dropped
	if _, ok := c.Get("huge"); ok {
		t.Error("a value over the budget was kept")
	}
	if _, _, used := c.Stats(); used != 8 {
		t.Errorf("holds %d after an oversized add, want 8", used)
	}
}

// Two callers asking for the same new value at once load it once.
func TestGetOrLoadLoadsOnceForConcurrentCallers(t *testing.T) {
	c := New[string](1<<20, byteLen)
	var loads atomic.Int32
	release := make(chan struct{})
	started := make(chan struct{})
	const callers = 8
	var wg sync.WaitGroup
	results := make([][]byte, callers)
	for i := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := c.GetOrLoad("k", func() ([]byte, error) {
				if loads.Add(1) == 1 {
					close(started)
				}
				<-release
				return []byte("picture"), nil
			})
			if err != nil {
				t.Error(err)
			}
			results[i] = v
		}()
	}
	<-started
	// Every other caller is waiting on the load in flight or will find the
	// value cached: release the load only once all are inside GetOrLoad.
	for deadline := time.Now().Add(10 * time.Second); ; {
		c.mu.Lock()
		waiting := c.loading["k"] != nil
		c.mu.Unlock()
		hits, misses, _ := c.Stats()
		if waiting && hits+misses == callers {
			break
		}
		if !waiting {
			t.Fatal("the load ended before it was released")
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 10 s, %d of %d callers are inside GetOrLoad", hits+misses, callers)
		}
		runtime.Gosched()
	}
	close(release)
	wg.Wait()
	if n := loads.Load(); n != 1 {
		t.Fatalf("%d loads, want 1", n)
	}
	for i, r := range results {
		if string(r) != "picture" {
			t.Errorf("caller %d got %q", i, r)
		}
	}
	if hits, misses, _ := c.Stats(); hits != callers-1 || misses != 1 {
		t.Errorf("hits %d misses %d, want %d and 1", hits, misses, callers-1)
	}
}

// A failed load is not cached: the next caller loads again.
func TestGetOrLoadKeepsNoError(t *testing.T) {
	c := New[string](100, byteLen)
	boom := errors.New("boom")
	if _, err := c.GetOrLoad("k", func() ([]byte, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Fatalf("err %v", err)
	}
	v, err := c.GetOrLoad("k", func() ([]byte, error) { return []byte("ok"), nil })
	if err != nil || string(v) != "ok" {
		t.Fatalf("second load: %q %v", v, err)
	}
}
