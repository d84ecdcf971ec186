package discordtest

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"
)

// DelayPhase says when InjectDelay holds a request.
type DelayPhase int

const (
	// DelayBefore holds a request before it takes effect: while it is
	// held nothing has changed on the server. If the client goes away (its
	// process is killed, its connection closed) meanwhile, the request is
	// abandoned and never takes effect, like a request lost in transit; it
	// is listed by Requests with Status 0. Close ends the hold with 503
	// and the request never takes effect either.
	DelayBefore DelayPhase = iota
	// DelayAfter holds a request after it took effect (the message exists,
	// the edit is applied, the interaction is answered, watchers and the
	// gateway were told) but before the response is written: the client
	// has not heard back. If the client goes away meanwhile the effect
	// stays and the response is simply never delivered; Close ends the
	// hold and the response is written if the connection is still open.
	DelayAfter
)

// String returns "before" or "after".
func (p DelayPhase) String() string {
	if p == DelayAfter {
		return "after"
	}
	return "before"
}

type delay struct {
	n     int
	route string
	d     time.Duration
	phase DelayPhase
}

type heldReq struct {
	HeldRequest
	release chan struct{}
}

// HeldRequest is a REST request that InjectDelay is holding right now.
type HeldRequest struct {
	Method, Path string
	Phase        DelayPhase
	// Since is when the hold began (real time).
	Since time.Time
}

// InjectDelay holds the next n REST requests matching route for d (real
// time), in the given phase: DelayBefore holds them before they take
// effect, DelayAfter after they took effect but before the response is
// written. route has the syntax of InjectServerErrors: a substring of the
// path ("" = any), optionally after a method ("POST /messages"). While a
// request is held it is listed by HeldRequests and every srv.Wait condition
// is re-evaluated when a hold begins or ends, so a test can wait for the
// window (WaitHeld) and, say, kill the bot process in it. ReleaseHeld ends
// holds early; Close ends them all without hanging.
func (s *Server) InjectDelay(n int, route string, d time.Duration, phase DelayPhase) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.delays = append(s.delays, &delay{n: n, route: route, d: d, phase: phase})
}

// HeldRequests lists the requests being held by InjectDelay right now,
// oldest first.
func (s *Server) HeldRequests() []HeldRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []HeldRequest
	for h := range s.held {
		out = append(out, h.HeldRequest)
	}
	slices.SortFunc(out, func(a, b HeldRequest) int { return a.Since.Compare(b.Since) })
	return out
}

// Held returns how many requests are being held right now.
func (s *Server) Held() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.held)
}

// HeldTotal returns how many requests have been held so far, including
// those held now.
func (s *Server) HeldTotal() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.heldTotal
}

// WaitHeld waits until at least n requests are being held at once.
func (s *Server) WaitHeld(ctx context.Context, n int) error {
	return s.waitLocked(ctx, func() bool { return len(s.held) >= n })
}

// ReleaseHeld ends every current hold now, as if its delay had passed, and
// returns how many it released.
func (s *Server) ReleaseHeld() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for h := range s.held {
		select {
		case <-h.release:
		default:
			close(h.release)
			n++
		}
	}
	return n
}

// routeMatches reports whether r matches a fault-injection route: a
// substring of the path ("" = any), optionally preceded by a method and a
// space ("POST /messages").
func routeMatches(route string, r *http.Request) bool {
	if method, rest, ok := strings.Cut(route, " "); ok && method != "" && strings.ToUpper(method) == method && !strings.Contains(method, "/") {
		if r.Method != method {
			return false
		}
		route = rest
	}
	return strings.Contains(r.URL.Path, route)
}

// takeDelay consumes and returns the first delay matching r, if any.
func (s *Server) takeDelay(r *http.Request) *delay {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, d := range s.delays {
		if d.n <= 0 || !routeMatches(d.route, r) {
			continue
		}
		d.n--
		if d.n == 0 {
			s.delays = slices.Delete(s.delays, i, i+1)
		}
		return d
	}
	return nil
}

// preread reads the request body into memory, so that the HTTP server
// notices a client that goes away while the request is held.
func (s *Server) preread(r *http.Request) {
	limit := int64(s.opts.AttachmentSizeLimit)*maxAttachments + 1<<20
	data, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	if err != nil {
		s.logf("fault", "%s %s: reading held body: %v", r.Method, r.URL.Path, err)
	}
	_ = r.Body.Close()
	r.Body = io.NopCloser(bytes.NewReader(data))
}

// Why a hold ended early.
const (
	holdClientGone   = "client gone"
	holdServerClosed = "server closed"
)

// hold blocks for d.d, until released, or until the client or the server
// goes away. It returns "" when the request may go on, else why not.
func (s *Server) hold(r *http.Request, d *delay) string {
	// An abandoned request is logged as the hold ends (abandonedLocked),
	// so that a test that sees the hold end also sees the request.
	h := &heldReq{HeldRequest{Method: r.Method, Path: r.URL.Path, Phase: d.phase, Since: time.Now()}, make(chan struct{})}
	s.mu.Lock()
	if s.closed {
		s.abandonedLocked(r, d, holdServerClosed)
		s.mu.Unlock()
		return holdServerClosed
	}
	s.held[h] = struct{}{}
	s.heldTotal++
	s.holds.Add(1)
	defer s.holds.Done()
	s.notifyLocked()
	s.mu.Unlock()
	s.logf("fault", "%s %s held %s taking effect for %v", r.Method, r.URL.Path, d.phase, d.d)

	t := time.NewTimer(d.d)
	defer t.Stop()
	why := ""
	select {
	case <-t.C:
	case <-h.release:
	case <-r.Context().Done():
		why = holdClientGone
	case <-s.done:
		why = holdServerClosed
	}
	s.mu.Lock()
	delete(s.held, h)
	s.abandonedLocked(r, d, why)
	s.notifyLocked()
	s.mu.Unlock()
	if why != "" {
		s.logf("fault", "%s %s: hold ended early: %s", r.Method, r.URL.Path, why)
	} else {
		s.logf("fault", "%s %s released", r.Method, r.URL.Path)
	}
	return why
}

// abandonedLocked logs r as abandoned for why when a hold before its
// effect ends early (why not ""); s.mu is held.
func (s *Server) abandonedLocked(r *http.Request, d *delay, why string) {
	if why == "" || d.phase != DelayBefore {
		return
	}
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Held: true, Time: s.clock.Now(),
		BodySize: max(r.ContentLength, 0), Error: "abandoned while held before taking effect: " + why})
	s.keepHistoryLocked()
}
