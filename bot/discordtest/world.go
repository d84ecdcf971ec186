package discordtest

import (
	"context"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"
)

// AddGuild creates a guild with the given preferred locale (e.g. "de") and
// returns its ID. Every existing user becomes a member with
// DefaultMemberPermissions. A connected bot receives GUILD_CREATE.
func (s *Server) AddGuild(name, locale string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if locale == "" {
		locale = "en-US"
	}
	g := &guild{id: s.newID(), name: name, locale: locale, members: map[string]int64{}}
	for id, u := range s.users {
		if !u.bot {
			g.members[id] = DefaultMemberPermissions
		}
	}
	g.ownerID = s.botID
	s.guilds[g.id] = g
	s.guildOrder = append(s.guildOrder, g.id)
	s.logf("fake", "guild %s %q (%s)", g.id, name, locale)
	s.dispatchLocked("GUILD_CREATE", s.guildJSON(g), g.id)
	s.notifyLocked()
	return g.id
}

// GuildDelete sends GUILD_DELETE for a guild to the connected bot: with
// unavailable, as Discord does while the guild is in an outage; without,
// as when the bot is removed from the guild. The guild stays in the fake
// world either way (the bot may be added back).
func (s *Server) GuildDelete(guildID string, unavailable bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := map[string]any{"id": guildID}
	if unavailable {
		d["unavailable"] = true
	}
	s.logf("fake", "GUILD_DELETE %s (unavailable: %v)", guildID, unavailable)
	s.dispatchLocked("GUILD_DELETE", d, guildID)
	s.notifyLocked()
}

// AddChannel creates a text channel in a guild, where the bot has
// DefaultBotPermissions, and returns its ID.
func (s *Server) AddChannel(guildID, name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.addChannelLocked(guildID, name, 0, "")
	return c.id
}

// AddThread creates a public thread under a text channel and returns its ID.
func (s *Server) AddThread(parentID, name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.channels[parentID]
	if p == nil {
		return ""
	}
	return s.addChannelLocked(p.guildID, name, 11, parentID).id
}

func (s *Server) addChannelLocked(guildID, name string, typ int, parentID string) *channel {
	c := &channel{id: s.newID(), guildID: guildID, name: name, typ: typ, parentID: parentID, botPerms: DefaultBotPermissions}
	if g := s.guilds[guildID]; g != nil {
		g.channels = append(g.channels, c.id)
	}
	s.channels[c.id] = c
	s.logf("fake", "channel %s #%s (type %d)", c.id, name, typ)
	ev := "CHANNEL_CREATE"
	if c.isThread() {
		ev = "THREAD_CREATE"
	}
	s.dispatchLocked(ev, c.json(), guildID)
	s.notifyLocked()
	return c
}

// DMChannel returns the ID of the direct-message channel between a user and
// the bot, creating it if needed.
func (s *Server) DMChannel(userID string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dmLocked(userID).id
}

func (s *Server) dmLocked(userID string) *channel {
	for _, c := range s.channels {
		if c.typ == 1 && c.recipient == userID {
			return c
		}
	}
	c := &channel{id: s.newID(), typ: 1, recipient: userID,
		botPerms: DefaultBotPermissions &^ (discordgo.PermissionCreatePublicThreads | discordgo.PermissionSendMessagesInThreads)}
	s.channels[c.id] = c
	return c
}

// SetGuildLocale changes a guild's preferred locale (interaction guild_locale).
func (s *Server) SetGuildLocale(guildID, locale string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if g := s.guilds[guildID]; g != nil {
		g.locale = locale
	}
}

// SetBotPermissions sets the bot's permissions in a channel (threads use
// their parent's). Interactions carry them as app_permissions, and REST calls
// that lack a needed one get 403.
func (s *Server) SetBotPermissions(channelID string, perms int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.channels[channelID]; c != nil {
		c.botPerms = perms
		s.logf("fake", "bot permissions in %s = %d", channelID, perms)
	}
}

// RevokeBotPermissions removes permission bits from the bot in a channel.
func (s *Server) RevokeBotPermissions(channelID string, perms int64) {
	s.SetBotPermissions(channelID, s.BotPermissions(channelID)&^perms)
}

// BotPermissions returns the bot's effective permissions in a channel.
func (s *Server) BotPermissions(channelID string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.botPermsLocked(s.channels[channelID])
}

func (s *Server) botPermsLocked(c *channel) int64 {
	if c == nil {
		return 0
	}
	if c.isThread() {
		if p := s.channels[c.parentID]; p != nil {
			return p.botPerms
		}
	}
	return c.botPerms
}

// Message returns the latest state of a message (deleted ones included).
func (s *Server) Message(id string) (*Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.messages[id]
	if m == nil {
		return nil, false
	}
	return m.clone(), true
}

// Messages returns the public (non-ephemeral, not deleted) messages of a
// channel, oldest first: what every member sees.
func (s *Server) Messages(channelID string) []*Message {
	return s.visibleMessages(channelID, "")
}

// Newest returns the newest public (non-ephemeral, not deleted) message of
// a channel: the last of Messages, without copying the channel. It takes
// amortised constant time.
func (s *Server) Newest(channelID string) (*Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.newestLocked(s.channels[channelID], "")
}

// newestLocked returns a copy of the newest message of c that userID ("" =
// everyone) sees. Deleted messages at the tails of the indexes are dropped
// from them for good, so every message is skipped at most once.
func (s *Server) newestLocked(c *channel, userID string) (*Message, bool) {
	if c == nil {
		return nil, false
	}
	m := s.tailLocked(&c.public)
	if userID != "" && c.ephemeral != nil {
		own := c.ephemeral[userID]
		e := s.tailLocked(&own)
		c.ephemeral[userID] = own
		if e != nil && (m == nil || idLess(m.ID, e.ID)) {
			m = e
		}
	}
	if m == nil {
		return nil, false
	}
	return m.clone(), true
}

// tailLocked returns the last message of ids that is not deleted, first
// cutting deleted messages off the end of ids.
func (s *Server) tailLocked(ids *[]string) *Message {
	l := *ids
	for len(l) > 0 {
		if m := s.messages[l[len(l)-1]]; m != nil && !m.Deleted {
			*ids = l
			return m
		}
		l = l[:len(l)-1]
	}
	*ids = l
	return nil
}

func (s *Server) visibleMessages(channelID, userID string) []*Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.channels[channelID]
	if c == nil {
		return nil
	}
	var out []*Message
	for _, id := range c.messages {
		m := s.messages[id]
		if m.Deleted || !visibleTo(m, userID) {
			continue
		}
		out = append(out, m.clone())
	}
	return out
}

func visibleTo(m *Message, userID string) bool {
	return !m.Ephemeral() || (userID != "" && m.VisibleTo == userID)
}

// EventKind says what happened to a message.
type EventKind string

// Message event kinds.
const (
	Created EventKind = "create"
	Updated EventKind = "update"
	Deleted EventKind = "delete"
)

// MessageEvent is one change to a message, with the message as it was right
// after the change.
type MessageEvent struct {
	Kind    EventKind
	Message *Message
}

type msgEvent struct {
	MessageEvent
	channelID string
}

// recordLocked appends a message event and wakes waiters.
func (s *Server) recordLocked(kind EventKind, m *Message) {
	ev := MessageEvent{kind, m.clone()}
	if !s.opts.Lean {
		s.events = append(s.events, msgEvent{ev, m.ChannelID})
		s.keepHistoryLocked()
	}
	if s.opts.OnMessage != nil {
		s.opts.OnMessage(ev)
	}
	if t := map[EventKind]string{Created: "MESSAGE_CREATE", Updated: "MESSAGE_UPDATE", Deleted: "MESSAGE_DELETE"}[kind]; !m.Ephemeral() && s.wantsLocked(t, m.GuildID) {
		d := s.messageJSON(m)
		if kind == Deleted {
			d = map[string]any{"id": m.ID, "channel_id": m.ChannelID}
			if m.GuildID != "" {
				d["guild_id"] = m.GuildID
			}
		}
		s.dispatchLocked(t, d, m.GuildID)
	}
	s.notifyLocked()
}

// Watcher follows the message events of one channel from the moment it was
// created, as seen by one user (or by everyone).
type Watcher struct {
	s         *Server
	channelID string
	userID    string
	pos       int
}

// Watch returns a Watcher for the public message events of a channel.
func (s *Server) Watch(channelID string) *Watcher {
	s.mu.Lock()
	defer s.mu.Unlock()
	return &Watcher{s: s, channelID: channelID, pos: s.eventBase + len(s.events)}
}

// Next waits for the next event in the channel visible to the watcher.
// A watcher that fell behind the events the server keeps (Options.History)
// gets ErrMissedEvents.
func (w *Watcher) Next(ctx context.Context) (MessageEvent, error) {
	var ev MessageEvent
	missed := false
	err := w.s.waitLocked(ctx, func() bool {
		if w.pos < w.s.eventBase {
			missed = true
			return true
		}
		for ; w.pos < w.s.eventBase+len(w.s.events); w.pos++ {
			e := w.s.events[w.pos-w.s.eventBase]
			if e.channelID == w.channelID && visibleTo(e.Message, w.userID) {
				ev = e.MessageEvent
				w.pos++
				return true
			}
		}
		return false
	})
	if missed && err == nil {
		return ev, ErrMissedEvents
	}
	return ev, err
}

// NextTimeout is Next with a timeout.
func (w *Watcher) NextTimeout(d time.Duration) (MessageEvent, error) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	return w.Next(ctx)
}

// TokenUse records one request made with an interaction token.
type TokenUse struct {
	InteractionID string
	Method, Route string
	// Age is the token's age (by the server's Clock) when it was used.
	Age time.Duration
	// Rejected is true when the token had expired and the request got 401.
	Rejected bool
}

// TokenUses lists every request made with an interaction token.
func (s *Server) TokenUses() []TokenUse {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.tokenUses)
}

// MaxTokenAge is the age of the oldest interaction token ever used.
func (s *Server) MaxTokenAge() time.Duration {
	var max time.Duration
	for _, u := range s.TokenUses() {
		max = maxDur(max, u.Age)
	}
	return max
}

func maxDur(a, b time.Duration) time.Duration {
	if a > b {
		return a
	}
	return b
}

func (s *Server) guildJSON(g *guild) map[string]any {
	chans := []any{}
	threads := []any{}
	for _, id := range g.channels {
		c := s.channels[id]
		if c.isThread() {
			threads = append(threads, c.json())
		} else {
			chans = append(chans, c.json())
		}
	}
	bot := s.users[s.botID]
	return map[string]any{
		"id": g.id, "name": g.name, "icon": nil, "owner_id": g.ownerID, "unavailable": false,
		"preferred_locale": g.locale, "member_count": len(g.members) + 1, "large": false,
		"channels": chans, "threads": threads, "joined_at": s.clock.Now().UTC().Format(time.RFC3339),
		"roles": []any{map[string]any{"id": g.id, "name": "@everyone", "permissions": itoa64(DefaultMemberPermissions),
			"position": 0, "color": 0, "hoist": false, "managed": false, "mentionable": false}},
		"members": []any{map[string]any{"user": bot.json(), "roles": []any{}, "joined_at": s.clock.Now().UTC().Format(time.RFC3339),
			"deaf": false, "mute": false}},
		"emojis": []any{}, "features": []any{}, "voice_states": []any{}, "presences": []any{},
		"stage_instances": []any{}, "guild_scheduled_events": []any{}, "stickers": []any{},
	}
}
