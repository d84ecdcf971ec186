package discordtest

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Permission sets used when nothing else is configured.
const (
	// DefaultBotPermissions is what the bot may do in a new channel: see it,
	// read its history, send messages (also in threads), embed links, attach
	// files, add reactions and create public threads.
	DefaultBotPermissions int64 = discordgo.PermissionViewChannel | discordgo.PermissionSendMessages |
		discordgo.PermissionSendMessagesInThreads | discordgo.PermissionEmbedLinks |
		discordgo.PermissionAttachFiles | discordgo.PermissionReadMessageHistory |
		discordgo.PermissionAddReactions | discordgo.PermissionUseExternalEmojis |
		discordgo.PermissionCreatePublicThreads
	// DefaultMemberPermissions is what an ordinary member may do (no
	// MANAGE_MESSAGES).
	DefaultMemberPermissions int64 = DefaultBotPermissions | discordgo.PermissionUseApplicationCommands
)

// Message flags and limits the fake enforces.
const (
	FlagEphemeral    = 1 << 6  // MessageFlags EPHEMERAL
	FlagLoading      = 1 << 7  // MessageFlags LOADING ("Bot is thinking…")
	FlagComponentsV2 = 1 << 15 // MessageFlags IS_COMPONENTS_V2

	// DefaultAttachmentSizeLimit is the per-file upload limit (10 MiB).
	DefaultAttachmentSizeLimit = 10 << 20
	// TokenLifetime is how long an interaction token may be used.
	TokenLifetime = 15 * time.Minute
)

// Component is one message component (action row, button or select menu) as
// Discord encodes it. Rows hold their children in Components.
type Component struct {
	Type        int             `json:"type"`
	ID          int             `json:"id,omitempty"`
	CustomID    string          `json:"custom_id,omitempty"`
	Label       string          `json:"label,omitempty"`
	Style       int             `json:"style,omitempty"`
	URL         string          `json:"url,omitempty"`
	SKUID       string          `json:"sku_id,omitempty"`
	Disabled    bool            `json:"disabled,omitempty"`
	Emoji       json.RawMessage `json:"emoji,omitempty"`
	Placeholder string          `json:"placeholder,omitempty"`
	MinValues   *int            `json:"min_values,omitempty"`
	MaxValues   *int            `json:"max_values,omitempty"`
	Options     []SelectOption  `json:"options,omitempty"`
	Components  []Component     `json:"components,omitempty"`
	Content     string          `json:"content,omitempty"`
}

// SelectOption is one choice of a string select menu.
type SelectOption struct {
	Label       string          `json:"label"`
	Value       string          `json:"value"`
	Description string          `json:"description,omitempty"`
	Emoji       json.RawMessage `json:"emoji,omitempty"`
	Default     bool            `json:"default,omitempty"`
}

// Attachment is a file on a message, with its bytes.
type Attachment struct {
	ID          string
	Filename    string
	ContentType string
	Description string
	Data        []byte
	// URL is the CDN address Discord would give; Server.Client can fetch it.
	URL string
}

// Message is a snapshot of a message as stored by the fake.
type Message struct {
	ID        string
	ChannelID string
	GuildID   string
	AuthorID  string
	Content   string
	Embeds    []*discordgo.MessageEmbed
	// Components are the top-level components (action rows).
	Components  []Component
	Attachments []Attachment
	Flags       int
	// VisibleTo is the only user who sees an ephemeral message.
	VisibleTo string
	// InteractionID is the interaction whose token created the message.
	InteractionID string
	WebhookID     string
	Type          int
	Timestamp     time.Time
	// Edited is the time of the last edit (zero if never edited).
	Edited time.Time
	// Version counts edits: 0 when created.
	Version int
	Deleted bool
}

// Ephemeral reports whether the message carries the EPHEMERAL flag.
func (m *Message) Ephemeral() bool { return m.Flags&FlagEphemeral != 0 }

// Loading reports whether the message is a deferred "thinking…" placeholder.
func (m *Message) Loading() bool { return m.Flags&FlagLoading != 0 }

// AllComponents returns every component, rows first followed by their
// children, depth first.
func (m *Message) AllComponents() []Component {
	var out []Component
	var walk func([]Component)
	walk = func(cs []Component) {
		for _, c := range cs {
			out = append(out, c)
			walk(c.Components)
		}
	}
	walk(m.Components)
	return out
}

// Component returns the component with the given custom_id, if any.
func (m *Message) Component(customID string) (Component, bool) {
	for _, c := range m.AllComponents() {
		if c.CustomID == customID && c.Type != 1 {
			return c, true
		}
	}
	return Component{}, false
}

// CustomIDs lists the custom_ids of all interactive components, in order.
func (m *Message) CustomIDs() []string {
	var ids []string
	for _, c := range m.AllComponents() {
		if c.CustomID != "" {
			ids = append(ids, c.CustomID)
		}
	}
	return ids
}

// Attachment returns the attachment with the given file name, if any.
func (m *Message) Attachment(filename string) (Attachment, bool) {
	for _, a := range m.Attachments {
		if a.Filename == filename {
			return a, true
		}
	}
	return Attachment{}, false
}

func (m *Message) clone() *Message {
	c := *m
	if m.Embeds != nil {
		c.Embeds = cloneJSON(m.Embeds)
	}
	c.Components = cloneComponents(m.Components)
	c.Attachments = slices.Clone(m.Attachments)
	return &c
}

// cloneComponents deep-copies components (a message is cloned at every
// read and write, and going through JSON was a fifth of the fake's time
// under load).
func cloneComponents(cs []Component) []Component {
	if cs == nil {
		return nil
	}
	out := make([]Component, len(cs))
	for i, c := range cs {
		c.Emoji = bytes.Clone(c.Emoji)
		if c.MinValues != nil {
			v := *c.MinValues
			c.MinValues = &v
		}
		if c.MaxValues != nil {
			v := *c.MaxValues
			c.MaxValues = &v
		}
		if c.Options != nil {
			opts := slices.Clone(c.Options)
			for j := range opts {
				opts[j].Emoji = bytes.Clone(opts[j].Emoji)
			}
			c.Options = opts
		}
		c.Components = cloneComponents(c.Components)
		out[i] = c
	}
	return out
}

func cloneJSON[T any](v T) T {
	var out T
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return v
	}
	return out
}

type guild struct {
	id, name, locale string
	ownerID          string
	channels         []string
	members          map[string]int64 // user ID -> permissions
	// noBot marks a server the bot is not a member of (userinstall.go).
	noBot bool
}

type channel struct {
	id, guildID, name string
	typ               int // 0 text, 1 DM, 3 group DM, 11 public thread, 12 private thread
	parentID          string
	recipient         string   // DM: the user
	recipients        []string // group DM: its members (the bot is none)
	botPerms          int64
	messages          []string // message IDs in creation order
	// public and ephemeral (by the user who sees them) index the same
	// messages for Newest; deleted ones are pruned from the tail lazily.
	public    []string
	ephemeral map[string][]string
}

type userRec struct {
	id, name, locale string
	bot              bool
	installed        bool // the user installed the app (USER_INSTALL)
}

func (u *userRec) json() map[string]any {
	m := map[string]any{
		"id": u.id, "username": u.name, "global_name": u.name, "discriminator": "0",
		"avatar": nil, "bot": u.bot, "public_flags": 0,
	}
	return m
}

func (c *channel) json() map[string]any {
	m := map[string]any{"id": c.id, "type": c.typ, "name": c.name, "flags": 0}
	if c.guildID != "" {
		m["guild_id"] = c.guildID
		m["permission_overwrites"] = []any{}
		m["position"] = 0
		m["nsfw"] = false
	}
	if c.typ == 3 {
		var rs []any
		for _, id := range c.recipients {
			rs = append(rs, map[string]any{"id": id})
		}
		m["recipients"] = rs
	}
	if c.parentID != "" {
		m["parent_id"] = c.parentID
		m["thread_metadata"] = map[string]any{"archived": false, "auto_archive_duration": 1440, "locked": false}
	}
	if c.lastMessage() != "" {
		m["last_message_id"] = c.lastMessage()
	}
	return m
}

func (c *channel) lastMessage() string {
	if len(c.messages) == 0 {
		return ""
	}
	return c.messages[len(c.messages)-1]
}

func (c *channel) isThread() bool { return c.typ == 11 || c.typ == 12 }

func (a Attachment) json() map[string]any {
	m := map[string]any{
		"id": a.ID, "filename": a.Filename, "size": len(a.Data), "url": a.URL, "proxy_url": a.URL,
	}
	if a.ContentType != "" {
		m["content_type"] = a.ContentType
	}
	if a.Description != "" {
		m["description"] = a.Description
	}
	return m
}

// messageJSON renders m the way Discord returns messages.
func (s *Server) messageJSON(m *Message) map[string]any {
	atts := make([]any, 0, len(m.Attachments))
	for _, a := range m.Attachments {
		atts = append(atts, a.json())
	}
	embeds := m.Embeds
	if embeds == nil {
		embeds = []*discordgo.MessageEmbed{}
	}
	comps := m.Components
	if comps == nil {
		comps = []Component{}
	}
	out := map[string]any{
		"id": m.ID, "channel_id": m.ChannelID, "content": m.Content,
		"timestamp": m.Timestamp.UTC().Format(time.RFC3339Nano), "edited_timestamp": nil,
		"tts": false, "mention_everyone": false, "mentions": []any{}, "mention_roles": []any{},
		"attachments": atts, "embeds": embeds, "components": comps, "pinned": false,
		"type": m.Type, "flags": m.Flags,
	}
	if !m.Edited.IsZero() {
		out["edited_timestamp"] = m.Edited.UTC().Format(time.RFC3339Nano)
	}
	if m.GuildID != "" {
		out["guild_id"] = m.GuildID
	}
	if u := s.users[m.AuthorID]; u != nil {
		out["author"] = u.json()
	}
	if m.WebhookID != "" {
		out["webhook_id"] = m.WebhookID
		out["application_id"] = s.appID
	}
	if it := s.interactions[m.InteractionID]; it != nil {
		out["interaction_metadata"] = map[string]any{
			"id": it.id, "type": it.typ, "user": s.users[it.userID].json(),
			"authorizing_integration_owners": ownersOrEmpty(it.owners),
		}
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }
