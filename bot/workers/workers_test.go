package workers

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// waitFor waits for done to close, or fails the test after a minute.
func waitFor(t *testing.T, done <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatalf("%s: not within a minute", what)
	}
}

// Every unit handed to Go runs, exactly once, also when many goroutines
// hand work at the same time (go test -race).
func TestGoRunsEveryUnitOnce(t *testing.T) {
	const submitters, each = 8, 500
	var ran [submitters * each]atomic.Int32
	var wg sync.WaitGroup
	wg.Add(submitters * each)
	for s := range submitters {
		go func() {
			for k := range each {
				Go(func() {
					ran[s*each+k].Add(1)
					wg.Done()
				})
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	waitFor(t, done, "every unit run")
	for k := range ran {
		if n := ran[k].Load(); n != 1 {
			t.Fatalf("unit %d ran %d times", k, n)
		}
	}
}

// Go does not wait for a worker to be free: units that wait for units
// handed over after them all run (a bounded pool would deadlock here),
// and Go returns while every worker is busy.
func TestGoNeverWaitsForBusyWorkers(t *testing.T) {
	const n = 300
	release := make(chan struct{})
	var started sync.WaitGroup
	started.Add(n)
	var ended sync.WaitGroup
	ended.Add(n)
	for range n {
		Go(func() {
			started.Done()
			<-release // held until the last unit has started
			ended.Done()
		})
	}
	allStarted := make(chan struct{})
	go func() { started.Wait(); close(allStarted) }()
	waitFor(t, allStarted, "all units started while the earlier ones wait")
	close(release)
	allEnded := make(chan struct{})
	go func() { ended.Wait(); close(allEnded) }()
	waitFor(t, allEnded, "all units ended")
}

// A worker that finished its unit takes the next one: units handed over
// one after another run on a worker or two (the next unit may come before
// the worker is back among the idle ones), not on a goroutine each.
func TestGoReusesAnIdleWorker(t *testing.T) {
	p := newPool(time.Minute)
	defer p.Release()
	const n = 200
	seen := map[string]int{}
	for range n {
		id := make(chan string, 1)
		goOn(p, func() { id <- goroutineID() })
		select {
		case g := <-id:
			seen[g]++
		case <-time.After(time.Minute):
			t.Fatal("a unit did not run within a minute")
		}
	}
	if len(seen) > 8 {
		t.Fatalf("%d units one after another ran on %d goroutines: idle workers not reused", n, len(seen))
	}
}

// goroutineID is the running goroutine's number, as its stack trace shows it.
func goroutineID() string {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	f := strings.Fields(string(buf))
	if len(f) < 2 || f[0] != "goroutine" {
		return ""
	}
	return f[1]
}

// Workers idle for the pool's idle time end; the pool then starts new
// ones for new work.
func TestGoIdleWorkersEnd(t *testing.T) {
	p := newPool(20 * time.Millisecond)
	defer p.Release()
	const n = 16
	release := make(chan struct{})
	var started sync.WaitGroup
	started.Add(n)
	for range n {
		goOn(p, func() { started.Done(); <-release })
	}
	started.Wait()
	if r := p.Running(); r != n {
		t.Fatalf("%d workers for %d units at once, want %d", r, n, n)
	}
	close(release)
	deadline := time.Now().Add(time.Minute)
	for p.Running() > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d workers still there a minute after their work", p.Running())
		}
		time.Sleep(5 * time.Millisecond)
	}
	done := make(chan struct{})
	goOn(p, func() { close(done) })
	waitFor(t, done, "a unit after the workers ended")
}

// A unit's stack stays with its worker: a goroutine's stack grown by one
// unit is the next unit's on that worker (measured as the growth the
// second unit does not need: the stack in use by the process,
// runtime.MemStats.StackInuse, barely moves for it). The collector is off
// meanwhile: it halves the stacks of idle goroutines.
func TestGoKeepsAGrownStack(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	p := newPool(time.Minute)
	defer p.Release()
	run := func() string {
		id := make(chan string, 1)
		goOn(p, func() { deep(64 << 10); id <- goroutineID() })
		select {
		case g := <-id:
			return g
		case <-time.After(time.Minute):
			t.Fatal("a deep unit did not run within a minute")
		}
		return ""
	}
	// The second unit may come before the first one's worker is idle
	// again, and go to a new worker: then try again.
	for range 20 {
		first := run()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		second := run()
		runtime.ReadMemStats(&after)
		if first != second {
			continue
		}
		if grew := int64(after.StackInuse) - int64(before.StackInuse); grew >= 32<<10 {
			t.Fatalf("the second deep unit on worker %s grew the stacks in use by %d bytes: its stack was not kept", first, grew)
		}
		return
	}
	t.Fatal("no two deep units one after another ran on one worker in 20 tries")
}

// deep uses about n bytes of stack.
//
//go:noinline
func deep(n int) byte {
	var pad [1 << 10]byte
	pad[n%len(pad)] = byte(n)
	if n <= len(pad) {
		return pad[0]
	}
	return deep(n-len(pad)) + pad[n%len(pad)]
}

// A panic in a unit ends the process, printing the panic's value and the
// function that panicked, as a panic on a goroutine of its own does (run
// in a child process).
func TestGoPanicEndsTheProcess(t *testing.T) {
	if os.Getenv("WORKERS_PANIC_CHILD") == "1" {
		Go(panickingUnit)
		time.Sleep(time.Minute) // the panic ends the process first
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestGoPanicEndsTheProcess$")
	cmd.Env = append(os.Environ(), "WORKERS_PANIC_CHILD=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if err == nil {
		t.Fatal("the process survived a panic in a unit of work")
	}
	out := stderr.String()
	if !strings.Contains(out, "panic: unit of work went wrong") {
		t.Fatalf("no panic message in the child's output:\n%s", out)
	}
	if !strings.Contains(out, "workers.panickingUnit") {
		t.Fatalf("the printed stack does not show the panicking function:\n%s", out)
	}
}

func panickingUnit() { panic("unit of work went wrong") }

// BenchmarkGo runs a unit of work on a go statement each and on the
// pool, one after another (the submitter waits for it, as the endpoint's
// handler waits for the bot's answer): "shallow" uses next to no stack
// (the cost of handing work over), "64KiB" about 64 KiB (a fresh
// goroutine's stack grows three doublings from 8 KiB).
func BenchmarkGo(b *testing.B) {
	for _, depth := range []int{0, 64 << 10} {
		for _, how := range []string{"go", "pool"} {
			name := "shallow/" + how
			if depth > 0 {
				name = fmt.Sprintf("%dKiB/%s", depth>>10, how)
			}
			b.Run(name, func(b *testing.B) {
				done := make(chan struct{}, 1)
				unit := func() { deep(depth); done <- struct{}{} }
				b.ReportAllocs()
				for b.Loop() {
					if how == "go" {
						go unit()
					} else {
						Go(unit)
					}
					<-done
				}
			})
		}
	}
}
