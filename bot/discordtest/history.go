package discordtest

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
)

// ErrMissedEvents is returned by Watcher.Next when the watcher fell so far
// behind that the events it had not read yet were forgotten (Options.History):
// read the channel afresh (Messages) and watch again.
var ErrMissedEvents = errors.New("discordtest: watcher fell behind the kept message events")

// trimmed keeps the newest keep entries of xs once it holds an eighth more
// (so that trimming costs little per append), reporting how many it
// dropped; keep 0 keeps everything.
func trimmed[T any](xs []T, keep int) ([]T, int) {
	if keep <= 0 || len(xs) <= keep+keep/8 {
		return xs, 0
	}
	drop := len(xs) - keep
	return slices.Delete(xs, 0, drop), drop
}

// keepHistoryLocked trims the histories to Options.History after an
// append: the request log, the token uses and the message events (a
// watcher behind the kept events gets ErrMissedEvents).
func (s *Server) keepHistoryLocked() {
	h := s.opts.History
	s.requests, _ = trimmed(s.requests, h)
	s.tokenUses, _ = trimmed(s.tokenUses, h)
	var dropped int
	s.events, dropped = trimmed(s.events, h)
	s.eventBase += dropped
}

// forgetInteractionsLocked forgets the oldest answered or failed
// interactions beyond Options.History (their tokens stop working, as if
// expired). An interaction still pending is kept, and so are the newer.
func (s *Server) forgetInteractionsLocked() {
	h := s.opts.History
	if h <= 0 || len(s.itOrder) <= h+h/8 {
		return
	}
	n := 0
	for _, it := range s.itOrder[:len(s.itOrder)-h] {
		if !(it.acked || it.failed) {
			break
		}
		delete(s.interactions, it.id)
		delete(s.byToken, it.token)
		n++
	}
	s.itOrder = slices.Delete(s.itOrder, 0, n)
}

// forgetMessagesLocked forgets the channel's oldest messages beyond
// Options.History.
func (s *Server) forgetMessagesLocked(c *channel) {
	h := s.opts.History
	if h <= 0 || len(c.messages) <= h+h/8 {
		return
	}
	gone := map[string]bool{}
	for _, id := range c.messages[:len(c.messages)-h] {
		gone[id] = true
		delete(s.messages, id)
	}
	keep := func(ids []string) []string { return slices.DeleteFunc(ids, func(id string) bool { return gone[id] }) }
	c.messages, c.public = keep(c.messages), keep(c.public)
	for u, ids := range c.ephemeral {
		if c.ephemeral[u] = keep(ids); len(c.ephemeral[u]) == 0 {
			delete(c.ephemeral, u)
		}
	}
}

// forgetFilesLocked deletes the oldest files written to AttachmentDir
// beyond Options.History.
func (s *Server) forgetFilesLocked() {
	var drop int
	old := slices.Clone(s.files)
	if s.files, drop = trimmed(s.files, s.opts.History); drop > 0 {
		for _, name := range old[:drop] {
			os.Remove(filepath.Join(s.opts.AttachmentDir, name))
		}
	}
}
