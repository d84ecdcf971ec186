package sandbox

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"runtime"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/qwixxbot/qwixxbot/cmd/qwixxbot/internal/config"
)

// pageUnderTest serves the sandbox page as runWebSandbox does (guard,
// connection limit) on a loopback port, with limits lim.
func pageUnderTest(t *testing.T, lim pageLimits) (*webTable, string) {
	t.Helper()
	cfg := config.Default()
	cfg.Sandbox.OutDir = t.TempDir()
	fw, err := startFake(context.Background(), cfg, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fw.close)
	wt := newWebTable(fw.srv, []string{"Anna", "Ben"})
	wt.limits = lim
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := wt.server("")
	go hs.Serve(wt.listener(hs, ln))
	t.Cleanup(func() { hs.Close() })
	return wt, ln.Addr().String()
}

// rawRequest sends req on a new connection and returns the connection and
// a reader of its answer.
func rawRequest(t *testing.T, addr, req string) (net.Conn, *bufio.Reader) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Write([]byte(req)); err != nil {
		t.Fatal(err)
	}
	return c, bufio.NewReader(c)
}

// status sends req and returns the answer's status code.
func status(t *testing.T, addr, req string) int {
	t.Helper()
	c, br := rawRequest(t, addr, req)
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("%q: %v", req, err)
	}
	res.Body.Close()
	return res.StatusCode
}

// Issue: DNS rebinding worked (neither Host nor Origin was checked), so a
// web page on another site whose name resolves to 127.0.0.1 could act as
// any sandbox user and read every private message. Now a foreign Host is
// refused, and so is anything that acts from a foreign origin.
func TestWebPageRefusesRebindingHostAndForeignOrigin(t *testing.T) {
	wt, addr := pageUnderTest(t, defaultPageLimits)
	_, port, _ := net.SplitHostPort(addr)
	get := func(host string) string {
		return "GET /api/world HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n"
	}
	for host, want := range map[string]int{
		"evil.example:" + port: 403, "evil.example": 403, "127.0.0.1.evil.example:" + port: 403, "localhost.evil.example:" + port: 403,
		"127.0.0.1:" + port: 200, "localhost:" + port: 200, "[::1]:" + port: 200, "LOCALHOST:" + port: 200,
	} {
		if got := status(t, addr, get(host)); got != want {
			t.Errorf("GET with Host %s: %d, want %d", host, got, want)
		}
	}
	body := fmt.Sprintf(`{"user":%q,"name":"qwixx","sub":"rules"}`, wt.users[0].ID)
	post := func(headers string) string {
		return "POST /api/command HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nContent-Type: application/json\r\nConnection: close\r\n" + headers +
			fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
	}
	for _, tc := range []struct {
		headers string
		want    int
	}{
		{"Origin: http://evil.example\r\n", 403},
		{"Origin: http://127.0.0.1:" + port + ".evil.example\r\n", 403},
		{"Origin: null\r\n", 403},
		{"Sec-Fetch-Site: cross-site\r\n", 403},
		{"Origin: http://127.0.0.1:" + port + "\r\nSec-Fetch-Site: same-origin\r\n", 200},
		{"", 200}, // no browser: curl, the tests
	} {
		if got := status(t, addr, post(tc.headers)); got != tc.want {
			t.Errorf("POST with %q: %d, want %d", tc.headers, got, tc.want)
		}
	}
}

// goroutinesSettle waits until the number of goroutines is at most n, or
// a deadline passes; it returns the last count.
func goroutinesSettle(n int, d time.Duration) int {
	end := time.Now().Add(d)
	for {
		g := runtime.NumGoroutine()
		if g <= n || time.Now().After(end) {
			return g
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func heapNow() int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// Issue: event streams and request bodies were unbounded: 2,000 event
// streams cost 4,018 goroutines and +53 MB; 2,000 POSTs whose bodies never
// arrive were all still open after 60 s. Now 3,000 of each keep the process
// within the connection limit (a goroutine or two each, the rest waiting
// to be accepted), streams within their count, and a stalled body ends at
// its deadline.
func TestWebPageBoundsEventStreamsAndStalledBodies(t *testing.T) {
	lim := defaultPageLimits
	lim.bodyTimeout = 300 * time.Millisecond
	wt, addr := pageUnderTest(t, lim)
	const n = 3000
	// What the process may hold at most beyond its start: per accepted
	// connection its goroutine and a background read, and about 64 KiB of
	// buffers and state; the waiting connections are the kernel's.
	goroutineBound := 2*lim.maxConns + 50
	const heapBound = 24 << 20
	base := runtime.NumGoroutine()
	baseHeap := heapNow()

	conns := make([]net.Conn, 0, n)
	for i := range n {
		user := wt.users[i%2].ID
		c, _ := rawRequest(t, addr, "GET /api/events?user="+user+" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
		conns = append(conns, c)
	}
	// The first streams are served; then the server holds its limits.
	if err := waitFor(10*time.Second, func() bool { return wt.streams.open() == 2*lim.streamsPerUser }); err != nil {
		t.Fatalf("%d streams open, want %d (per user %d)", wt.streams.open(), 2*lim.streamsPerUser, lim.streamsPerUser)
	}
	time.Sleep(200 * time.Millisecond) // let the accepted rest show themselves
	t.Logf("%d event streams asked for: +%d goroutines, +%d KB heap, %d streams open", n, runtime.NumGoroutine()-base, (heapNow()-baseHeap)>>10, wt.streams.open())
	if g := runtime.NumGoroutine() - base; g > goroutineBound {
		t.Errorf("%d event-stream connections: +%d goroutines, bound %d", n, g, goroutineBound)
	}
	if h := heapNow() - baseHeap; h > heapBound {
		t.Errorf("%d event-stream connections: +%d MB of heap, bound %d MB", n, h>>20, heapBound>>20)
	}
	if open := wt.streams.open(); open > lim.streams || open > 2*lim.streamsPerUser {
		t.Errorf("%d streams open over the limits", open)
	}
	for _, c := range conns {
		c.Close()
	}
	if g := goroutinesSettle(base+20, 15*time.Second); g > base+20 {
		t.Errorf("%d goroutines after the streams closed, %d before", g, base)
	}

	// Bodies that never arrive: each is answered (408 or 400) at its
	// deadline, a limited number at a time.
	conns = conns[:0]
	readers := make([]*bufio.Reader, 0, n)
	for range n {
		c, br := rawRequest(t, addr, "POST /api/click HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
		conns = append(conns, c)
		readers = append(readers, br)
	}
	time.Sleep(100 * time.Millisecond)
	t.Logf("%d stalled bodies: +%d goroutines, +%d KB heap", n, runtime.NumGoroutine()-base, (heapNow()-baseHeap)>>10)
	if g := runtime.NumGoroutine() - base; g > goroutineBound {
		t.Errorf("%d stalled bodies: +%d goroutines, bound %d", n, g, goroutineBound)
	}
	if h := heapNow() - baseHeap; h > heapBound {
		t.Errorf("%d stalled bodies: +%d MB of heap, bound %d MB", n, h>>20, heapBound>>20)
	}
	// Each is answered, or the read's deadline (100 times the body's)
	// fails the test: no wall-clock limit on the whole, which a busy
	// machine stretches.
	start := time.Now()
	for i, c := range conns {
		c.SetReadDeadline(time.Now().Add(100 * lim.bodyTimeout))
		res, err := http.ReadResponse(readers[i], nil)
		if err != nil {
			t.Fatalf("stalled body %d: no answer: %v", i, err)
		}
		res.Body.Close()
		if res.StatusCode < 400 {
			t.Fatalf("stalled body %d: %s", i, res.Status)
		}
		c.Close()
	}
	t.Logf("%d stalled bodies answered in %v (%d at a time, %v each)", n, time.Since(start), lim.maxConns, lim.bodyTimeout)
	if g := goroutinesSettle(base+20, 15*time.Second); g > base+20 {
		t.Errorf("%d goroutines after the stalled bodies, %d before", g, base)
	}
}

// waitFor polls cond (every 10 ms) until it holds or d passes.
func waitFor(d time.Duration, cond func() bool) error {
	end := time.Now().Add(d)
	for !cond() {
		if time.Now().After(end) {
			return fmt.Errorf("not within %v", d)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return nil
}

// open is the number of open streams.
func (s *streamSlots) open() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total
}

// Issue: the page could be starved by connections that wait for nothing:
// 400 keep-alive connections that each made one GET and then sat idle
// held every connection slot, so that a new GET /api/world waited for the
// 2-minute idle timeout; connections stuck in the middle of their request's
// header cost a new visitor the header timeout. Now a connection beyond
// the limit takes the place of an idle one, else of one stuck in its
// header, and the new visitor is answered.
func TestWebPageVisitorGetsPastIdleAndStalledConnections(t *testing.T) {
	for _, tc := range []struct {
		name          string
		idle, stalled int
	}{
		{"400 idle keep-alives and 100 stalled headers", 400, 100},
		{"300 stalled headers", 0, 300},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lim := defaultPageLimits
			_, addr := pageUnderTest(t, lim)
			var conns []net.Conn
			t.Cleanup(func() {
				for _, c := range conns {
					c.Close()
				}
			})
			// The keep-alives: each asks once (the server keeps the
			// connection open after the answer) and then sits.
			answered := make(chan struct{}, tc.idle)
			for range tc.idle {
				c, br := rawRequest(t, addr, "GET /api/world HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
				conns = append(conns, c)
				go func() {
					c.SetReadDeadline(time.Now().Add(time.Minute))
					if res, err := http.ReadResponse(br, nil); err == nil {
						res.Body.Close()
						answered <- struct{}{}
					}
				}()
			}
			// At least as many as the server serves at once were
			// answered and are idle now.
			deadline := time.After(30 * time.Second)
			for n := 0; n < min(tc.idle, lim.maxConns); n++ {
				select {
				case <-answered:
				case <-deadline:
					t.Fatalf("only %d of %d keep-alive requests answered", n, tc.idle)
				}
			}
			// Connections stuck in the middle of their request's header.
			for range tc.stalled {
				c, _ := rawRequest(t, addr, "GET /api/world HTTP/1.1\r\nHost: 127.0.0.1\r\n")
				conns = append(conns, c)
			}
			// A new visitor is answered (the deadline is generous: it is
			// not a measure of speed, the old server never answered
			// within it).
			start := time.Now()
			c, br := rawRequest(t, addr, "GET /api/world HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
			defer c.Close()
			c.SetReadDeadline(time.Now().Add(5 * time.Second))
			res, err := http.ReadResponse(br, nil)
			if err != nil {
				t.Fatalf("a new GET /api/world with %d idle keep-alives and %d stalled headers: no answer: %v", tc.idle, tc.stalled, err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				t.Fatalf("a new GET /api/world: %s", res.Status)
			}
			t.Logf("a new GET /api/world answered in %v", time.Since(start).Round(time.Millisecond))
		})
	}
}
