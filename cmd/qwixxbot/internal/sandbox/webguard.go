package sandbox

import (
	"context"
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
// Its resources are bounded too: connections (pageLimits.maxConns), event
// streams in all and per user (the newest replaces the oldest), streams'
// lifetime without news and their writes (a client that does not read),
// and request bodies (size and time to arrive).

// pageLimits bounds what the page's clients can hold.
type pageLimits struct {
	maxConns       int           // connections served at once; more wait to be accepted
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
	maxConns: 256, streams: 64, streamsPerUser: 8,
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
