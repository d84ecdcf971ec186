package sandbox

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// The sandbox page is a local client of the fake Discord: whoever reaches
// it plays as any of its users and reads every user's private messages
// (the sandbox is one person trying every seat). It must not be reachable
// by other web sites through the browser of the person running it:
//
//   - DNS rebinding: a page on evil.example whose name is made to resolve
//     to 127.0.0.1 is same-origin with itself, so the browser lets it read
//     the answers. Its requests carry Host: evil.example, so only Host
//     names this server answers to are served: localhost and IP literals
//     (rebinding needs a DNS name), and the host of the configured address.
//   - Cross-site requests: a foreign page can make the browser send a POST
//     (it cannot read the answer, but the request would act). Requests that
//     act need an Origin of the page's own; a browser always sends Origin
//     on such requests, and a client without one (curl, a test) is taken
//     only when it also sends no Sec-Fetch-Site (which browsers send).
//
// Its resources are bounded too: connections (pageLimits.maxConns, see
// connCap: a connection beyond the limit takes the place of one that
// waits for nothing, so idle keep-alives and stalled headers cannot keep a
// visitor out), event streams in all and per user (the newest replaces the oldest), streams'
// lifetime without news and their writes (a client that does not read),
// and request bodies (size and time to arrive).

// pageLimits bounds what the page's clients can hold.
type pageLimits struct {
	maxConns       int           // connections held at once; more replace idle ones (connCap) or wait
	headerGrace    time.Duration // a connection without a whole request header for this long may be replaced
	headerTimeout  time.Duration // a request's header must arrive within this
	streams        int           // event streams at once, in all
	streamsPerUser int           // event streams per user; a newer one ends the oldest
	streamIdle     time.Duration // a stream with no message for this long ends (the page reconnects)
	heartbeat      time.Duration // a comment line keeps a quiet stream's connection checked
	writeTimeout   time.Duration // a write to a stream that takes longer ends it
	bodyTimeout    time.Duration // a request body must arrive within this
	bodyBytes      int64         // and be no larger
}

// defaultPageLimits serve a few people with a handful of tabs each.
var defaultPageLimits = pageLimits{
	maxConns: 256, headerGrace: time.Second, headerTimeout: 5 * time.Second,
	streams: 64, streamsPerUser: 8,
	streamIdle: 30 * time.Minute, heartbeat: 25 * time.Second, writeTimeout: 10 * time.Second,
	bodyTimeout: 10 * time.Second, bodyBytes: 64 << 10,
}

// hostAllowed reports whether a request's Host names this server: localhost,
// an IP literal, or host (the configured address's host name), with any port.
func hostAllowed(hostport, host string) bool {
	h := hostport
	if hh, _, err := net.SplitHostPort(hostport); err == nil {
		h = hh
	}
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	if h == "" {
		return false
	}
	if strings.EqualFold(h, "localhost") || net.ParseIP(h) != nil {
		return true
	}
	return host != "" && strings.EqualFold(h, host)
}

// sameOrigin reports whether a request that acts comes from the page itself.
func sameOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		switch r.Header.Get("Sec-Fetch-Site") {
		case "", "same-origin", "none":
			return true // not a browser, or the page itself
		}
		return false
	}
	u, err := url.Parse(origin)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && strings.EqualFold(u.Host, r.Host)
}

// guard refuses, with 403, requests for another host name and requests
// that act (anything but GET and HEAD) from another origin.
func guard(configuredHost string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !hostAllowed(r.Host, configuredHost) {
			w.Header().Set("Connection", "close")
			http.Error(w, "this sandbox answers only to its own address (localhost or an IP)", http.StatusForbidden)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead && !sameOrigin(r) {
			w.Header().Set("Connection", "close")
			http.Error(w, "requests from other sites are refused", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// streamSlots counts the open event streams, in all and per user; a user's
// newest stream ends the oldest when the user has too many.
type streamSlots struct {
	mu     sync.Mutex
	total  int
	byUser map[string][]*streamSlot
}

// streamSlot is one open stream, ended by cancel; ended is set when a
// newer stream of its user took its slot.
type streamSlot struct {
	cancel context.CancelFunc
	ended  bool
}

// take reserves a slot for user's new stream, ended by cancel; nil when
// every slot is taken. release must follow.
func (s *streamSlots) take(user string, lim pageLimits, cancel context.CancelFunc) *streamSlot {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byUser == nil {
		s.byUser = map[string][]*streamSlot{}
	}
	mine := s.byUser[user]
	if len(mine) >= lim.streamsPerUser {
		old := mine[0] // the oldest ends and gives its slot
		old.cancel()
		old.ended = true
		mine = slices.Delete(mine, 0, 1)
		s.total--
	} else if s.total >= lim.streams {
		return nil
	}
	slot := &streamSlot{cancel: cancel}
	s.total++
	s.byUser[user] = append(mine, slot)
	return slot
}

// release frees a stream's slot.
func (s *streamSlots) release(user string, slot *streamSlot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if slot.ended {
		return
	}
	s.total--
	mine := slices.DeleteFunc(s.byUser[user], func(x *streamSlot) bool { return x == slot })
	if len(mine) == 0 {
		delete(s.byUser, user)
	} else {
		s.byUser[user] = mine
	}
}

// readBodyWithin limits the request's body to lim.bodyBytes, arriving
// within lim.bodyTimeout.
func readBodyWithin(w http.ResponseWriter, r *http.Request, lim pageLimits) {
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(lim.bodyTimeout))
	r.Body = http.MaxBytesReader(w, r.Body, lim.bodyBytes)
}

// connCap is a listener that holds at most max connections at once
// (Server.ConnState must be its track). A connection beyond the limit
// takes the place of one that waits for nothing: the keep-alive idle the
// longest, else the one that has waited the longest (more than grace) for
// its request's header (stuck in the middle of it, or opened and never
// used, as browsers' preconnects are). When every connection is busy with
// a request (an event stream, a request body on its way) the new one
// waits to be accepted, as with a plain limit. Closing an idle keep-alive
// is what HTTP/1.1 allows a server at any time; the client asks again on a
// new connection.
type connCap struct {
	net.Listener
	max   int
	grace time.Duration

	mu      sync.Mutex
	conns   map[*cappedConn]struct{}
	changed chan struct{} // closed (and replaced) when a connection's state changes
	closed  chan struct{} // closed by Close
	once    sync.Once
}

// cappedConn is a connection connCap holds: its state and since when.
type cappedConn struct {
	net.Conn
	l     *connCap
	state http.ConnState
	since time.Time
}

// Close forgets the connection and closes it.
func (c *cappedConn) Close() error {
	c.l.forget(c)
	return c.Conn.Close()
}

// capConns returns ln holding at most max connections for hs (whose
// ConnState it sets), replacing those that wait for nothing (connCap).
func capConns(hs *http.Server, ln net.Listener, max int, grace time.Duration) net.Listener {
	l := &connCap{Listener: ln, max: max, grace: grace, conns: map[*cappedConn]struct{}{},
		changed: make(chan struct{}), closed: make(chan struct{})}
	hs.ConnState = l.track
	return l
}

// Accept accepts the next connection, making room for it first.
func (l *connCap) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	if err := l.makeRoom(); err != nil {
		c.Close()
		return nil, err
	}
	cc := &cappedConn{Conn: c, l: l, state: http.StateNew, since: time.Now()}
	l.mu.Lock()
	l.conns[cc] = struct{}{}
	l.mu.Unlock()
	return cc, nil
}

// Close closes the listener and ends a wait for room.
func (l *connCap) Close() error {
	l.once.Do(func() { close(l.closed) })
	return l.Listener.Close()
}

// makeRoom returns when fewer than max connections are held, closing
// one that waits for nothing if need be, or an error when the listener
// closes meanwhile.
func (l *connCap) makeRoom() error {
	for {
		l.mu.Lock()
		if len(l.conns) < l.max {
			l.mu.Unlock()
			return nil
		}
		victim, wake := l.victimLocked(time.Now())
		if victim != nil {
			delete(l.conns, victim)
			l.mu.Unlock()
			victim.Conn.Close() // its server goroutine ends on the closed connection
			continue
		}
		changed := l.changed
		l.mu.Unlock()
		if err := l.wait(changed, wake); err != nil {
			return err
		}
	}
}

// wait blocks until changed is closed, wake passes (if not 0) or the
// listener closes (an error).
func (l *connCap) wait(changed <-chan struct{}, wake time.Duration) error {
	var timer <-chan time.Time
	if wake > 0 {
		t := time.NewTimer(wake)
		defer t.Stop()
		timer = t.C
	}
	select {
	case <-changed:
	case <-timer:
	case <-l.closed:
		return errors.New("sandbox page: listener closed")
	}
	return nil
}

// victimLocked is the held connection that waits for nothing the
// longest: an idle keep-alive first, else one without its request header
// for more than grace. Without one, wake is how long until a connection
// waiting for its header passes grace (0: none waits); l.mu is held.
func (l *connCap) victimLocked(now time.Time) (victim *cappedConn, wake time.Duration) {
	var idle, stalled *cappedConn
	for c := range l.conns {
		switch c.state {
		case http.StateIdle:
			if idle == nil || c.since.Before(idle.since) {
				idle = c
			}
		case http.StateNew:
			if stalled == nil || c.since.Before(stalled.since) {
				stalled = c
			}
		}
	}
	switch {
	case idle != nil:
		return idle, 0
	case stalled == nil:
		return nil, 0
	case now.Sub(stalled.since) >= l.grace:
		return stalled, 0
	}
	return nil, stalled.since.Add(l.grace).Sub(now)
}

// track follows the connections' states (http.Server.ConnState).
func (l *connCap) track(c net.Conn, s http.ConnState) {
	cc, ok := c.(*cappedConn)
	if !ok {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, held := l.conns[cc]; !held {
		return
	}
	switch s {
	case http.StateClosed, http.StateHijacked:
		delete(l.conns, cc)
	default:
		cc.state, cc.since = s, time.Now()
	}
	l.signalLocked()
}

// forget stops holding c (closed).
func (l *connCap) forget(c *cappedConn) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, held := l.conns[c]; held {
		delete(l.conns, c)
		l.signalLocked()
	}
}

// signalLocked wakes a wait for room; l.mu is held.
func (l *connCap) signalLocked() {
	close(l.changed)
	l.changed = make(chan struct{})
}
