package discordtest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
)

// ErrInteractionFailed is returned by Interaction.Wait when the bot did not
// answer within the deadline: the user sees "This interaction failed".
var ErrInteractionFailed = errors.New("discordtest: this interaction failed (no response within the deadline)")

type modalData struct {
	CustomID   string      `json:"custom_id"`
	Title      string      `json:"title"`
	Components []Component `json:"components"`
}

// interaction is the server's record of one interaction.
type interaction struct {
	id, token    string
	typ          int    // 2 command, 3 component, 4 autocomplete, 5 modal submit
	name         string // custom_id or command path, for diagnostics
	userID       string
	channelID    string
	guildID      string
	sourceID     string // component/modal: the message it came from
	created      time.Time
	sent, answer time.Time // real time: dispatched to the bot, answered
	timer        *time.Timer
	acked        bool
	failed       bool
	callbackType int
	responseID   string // the message @original refers to
	followups    []string
	modal        *modalData
	payload      map[string]any
	choices      []map[string]any // autocomplete answer
	duplicates   int              // callbacks refused as already answered
	late         int              // callbacks refused after the deadline
	done         chan struct{}
	// posted is closed once the interactions endpoint's response to it
	// was taken (or failed); nil when it went on the gateway.
	posted chan struct{}
	// answered is the message @original referred to as the callback left
	// it (not kept in Lean mode).
	answered *Message
	// owners are the installations that authorized it
	// (authorizing_integration_owners).
	owners map[string]any
	// originalEdits counts the edits of @original made with its token.
	originalEdits int
}

// newInteractionLocked creates an interaction, sends INTERACTION_CREATE (or
// POSTs it to the interactions endpoint, when one is set) and starts the
// deadline.
func (s *Server) newInteractionLocked(u *userRec, c *channel, typ int, data map[string]any, src *Message) *interaction {
	it := &interaction{id: s.newID(), token: "aW50ZXJhY3Rpb246" + randomHex(40), typ: typ, userID: u.id,
		name: interactionName(typ, data), channelID: c.id, guildID: c.guildID, created: s.clock.Now(), done: make(chan struct{})}
	perms := s.botPermsLocked(c)
	p := map[string]any{
		"id": it.id, "application_id": s.appID, "type": typ, "data": data, "token": it.token, "version": 1,
		"channel_id": c.id, "channel": c.json(), "locale": u.locale, "app_permissions": itoa64(perms),
		"entitlements": []any{}, "attachment_size_limit": s.opts.AttachmentSizeLimit,
	}
	it.owners = s.interactionOwnersLocked(u, c, typ, data, src)
	p["context"] = contextOf(c)
	p["authorizing_integration_owners"] = ownersOrEmpty(it.owners)
	if g := s.guilds[c.guildID]; g != nil {
		p["guild_id"] = g.id
		p["guild_locale"] = g.locale
		p["guild"] = map[string]any{"id": g.id, "locale": g.locale, "features": []any{}}
		p["member"] = s.memberJSON(g, u)
	} else {
		p["user"] = u.json()
	}
	if src != nil {
		it.sourceID = src.ID
		mj := s.messageJSON(src)
		if s.omitAttachments {
			delete(mj, "attachments")
		}
		p["message"] = mj
	}
	it.payload = p
	s.interactions[it.id] = it
	s.byToken[it.token] = it
	if s.opts.Lean {
		s.pruneInteractionsLocked()
	}
	if s.opts.Lean || s.opts.History > 0 {
		s.itOrder = append(s.itOrder, it)
		s.forgetInteractionsLocked()
	}
	it.sent = time.Now()
	if s.endpoint != "" {
		s.postInteractionLocked(it, p)
	} else {
		s.dispatchLocked("INTERACTION_CREATE", p, c.guildID)
	}
	if s.opts.Lean {
		it.payload = nil
	}
	it.timer = time.AfterFunc(s.opts.InteractionDeadline, func() { s.expire(it) })
	s.notifyLocked()
	return it
}

func (s *Server) memberJSON(g *guild, u *userRec) map[string]any {
	return map[string]any{"user": u.json(), "roles": []any{}, "joined_at": s.clock.Now().UTC().Format(time.RFC3339),
		"deaf": false, "mute": false, "nick": nil, "avatar": nil, "flags": 0, "pending": false,
		"permissions": itoa64(g.members[u.id])}
}

// expire marks an unanswered interaction as failed.
func (s *Server) expire(it *interaction) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if it.acked || it.failed {
		return
	}
	it.failed = true
	close(it.done)
	s.logf(s.users[it.userID].name, "sees \"This interaction failed\" (no answer within %v)", s.opts.InteractionDeadline)
	s.notifyLocked()
}

// ackLocked records the interaction's callback.
func (s *Server) ackLocked(it *interaction, typ int) {
	it.acked = true
	it.answer = time.Now()
	it.callbackType = typ
	if m := s.messages[it.responseID]; m != nil && !s.opts.Lean {
		it.answered = m.clone()
	}
	if it.timer != nil {
		it.timer.Stop()
	}
	close(it.done)
	s.logf("bot", "answers interaction %s with type %d after %v", it.id, typ, s.clock.Now().Sub(it.created).Round(time.Millisecond))
	s.notifyLocked()
}

// pruneInteractionsLocked forgets (Lean) the interactions whose tokens
// expired more than a minute ago.
func (s *Server) pruneInteractionsLocked() {
	now := s.clock.Now()
	n := 0
	for _, it := range s.itOrder {
		if now.Sub(it.created) <= TokenLifetime+time.Minute || !(it.acked || it.failed) {
			break
		}
		delete(s.interactions, it.id)
		delete(s.byToken, it.token)
		n++
	}
	if n > 0 {
		s.itOrder = slices.Delete(s.itOrder, 0, n)
	}
}

// Latency is how long (real time) the bot took from the interaction's
// dispatch on the gateway to its answer, and whether it answered.
func (i *Interaction) Latency() (time.Duration, bool) {
	i.s.mu.Lock()
	defer i.s.mu.Unlock()
	if !i.it.acked {
		return 0, false
	}
	return i.it.answer.Sub(i.it.sent), true
}

// Interaction is a handle on an interaction a simulated user started.
type Interaction struct {
	s  *Server
	it *interaction
}

// ID returns the interaction ID.
func (i *Interaction) ID() string { return i.it.id }

// Token returns the interaction token.
func (i *Interaction) Token() string { return i.it.token }

// Wait blocks until the bot acknowledged the interaction (nil) or it failed
// (ErrInteractionFailed), or ctx ends.
func (i *Interaction) Wait(ctx context.Context) error {
	select {
	case <-i.it.done:
	case <-ctx.Done():
		return fmt.Errorf("discordtest: waiting for interaction %s: %w", i.it.id, ctx.Err())
	}
	if i.Failed() {
		return ErrInteractionFailed
	}
	return nil
}

// WaitTimeout is Wait with a timeout.
func (i *Interaction) WaitTimeout(d time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	return i.Wait(ctx)
}

// Failed reports whether the deadline passed without an answer.
func (i *Interaction) Failed() bool {
	i.s.mu.Lock()
	defer i.s.mu.Unlock()
	return i.it.failed
}

// CallbackType is the interaction response type the bot answered with
// (4, 5, 6, 7, 8 or 9), or 0 if none yet.
func (i *Interaction) CallbackType() int {
	i.s.mu.Lock()
	defer i.s.mu.Unlock()
	return i.it.callbackType
}

// Response returns the latest state of the message @original refers to: the
// reply for types 4/5, the clicked message for types 6/7.
func (i *Interaction) Response() (*Message, bool) {
	i.s.mu.Lock()
	defer i.s.mu.Unlock()
	m := i.s.messages[i.it.responseID]
	if m == nil {
		return nil, false
	}
	return m.clone(), true
}

// Answered returns the message @original referred to as the callback
// left it, before any later edit: what the user saw as the answer (the
// reply for types 4/5, the clicked message for types 6/7). Not kept in
// Lean mode.
func (i *Interaction) Answered() (*Message, bool) {
	i.s.mu.Lock()
	defer i.s.mu.Unlock()
	if i.it.answered == nil {
		return nil, false
	}
	return i.it.answered.clone(), true
}

// WaitResponse waits for the acknowledgement and, after a deferred reply
// (type 5), for the "thinking…" placeholder to be filled in; it returns the
// @original message.
func (i *Interaction) WaitResponse(ctx context.Context) (*Message, error) {
	if err := i.Wait(ctx); err != nil {
		return nil, err
	}
	err := i.s.waitLocked(ctx, func() bool {
		m := i.s.messages[i.it.responseID]
		return m != nil && (!m.Loading() || m.Deleted)
	})
	if err != nil {
		return nil, err
	}
	m, _ := i.Response()
	return m, nil
}

// Ephemeral reports whether the response message is ephemeral.
func (i *Interaction) Ephemeral() bool {
	m, ok := i.Response()
	return ok && m.Ephemeral()
}

// Followups returns the follow-up messages sent with the interaction's token.
func (i *Interaction) Followups() []*Message {
	i.s.mu.Lock()
	defer i.s.mu.Unlock()
	var out []*Message
	for _, id := range i.it.followups {
		out = append(out, i.s.messages[id].clone())
	}
	return out
}

// Modal returns the modal the bot opened (callback type 9), if any.
func (i *Interaction) Modal() (customID, title string, ok bool) {
	i.s.mu.Lock()
	defer i.s.mu.Unlock()
	if i.it.modal == nil {
		return "", "", false
	}
	return i.it.modal.CustomID, i.it.modal.Title, true
}

// Payload returns the INTERACTION_CREATE data sent to the bot.
func (i *Interaction) Payload() map[string]any {
	i.s.mu.Lock()
	defer i.s.mu.Unlock()
	return cloneJSON(i.it.payload)
}

// EditedOriginal reports whether @original (the clicked message, after a
// click's type 6 or 7) was edited with the interaction's token: after a
// deferred update (type 6) that edit is the answer.
func (i *Interaction) EditedOriginal() bool {
	i.s.mu.Lock()
	defer i.s.mu.Unlock()
	return i.it.originalEdits > 0
}

// WaitDeferred waits, after a deferred update (callback type 6), until
// the answer that follows it came through the interaction's token: an
// edit of @original or a follow-up message (or ctx ends).
func (i *Interaction) WaitDeferred(ctx context.Context) error {
	return i.s.waitLocked(ctx, func() bool { return i.it.originalEdits > 0 || len(i.it.followups) > 0 })
}
