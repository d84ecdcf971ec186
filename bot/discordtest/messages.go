package discordtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

type attRef struct {
	ID          json.RawMessage `json:"id"`
	Filename    string          `json:"filename"`
	Description string          `json:"description"`
}

// msgPayload is a message body (create, edit or callback data). has tells
// which fields were present and not null: absent or null fields are kept on
// edit, present ones replace (so "components": [] removes all components).
type msgPayload struct {
	has         map[string]bool
	Content     string
	Embeds      []*discordgo.MessageEmbed
	Components  []Component
	Attachments []attRef
	Flags       int
}

func parsePayload(raw []byte, prefix string) (*msgPayload, fieldErrors) {
	p := &msgPayload{has: map[string]bool{}}
	fe := fieldErrors{}
	if len(raw) == 0 {
		return p, fe
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		fe.add(prefix, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
		return p, fe
	}
	for key, dst := range map[string]any{"content": &p.Content, "embeds": &p.Embeds,
		"components": &p.Components, "attachments": &p.Attachments, "flags": &p.Flags} {
		v, ok := fields[key]
		if !ok || string(v) == "null" {
			continue
		}
		if err := json.Unmarshal(v, dst); err != nil {
			fe.add(join(prefix, key), "BASE_TYPE_INVALID", "Invalid value: "+err.Error())
			continue
		}
		p.has[key] = true
	}
	return p, fe
}

const (
	flagSuppressEmbeds        = 1 << 2
	flagSuppressNotifications = 1 << 12
	createFlags               = flagSuppressEmbeds | flagSuppressNotifications | FlagComponentsV2
)

// compose applies a payload and uploaded files to base (nil for a new
// message). It returns the new message state or an error answer.
func (s *Server) compose(base *Message, p *msgPayload, files []upload, prefix string) (*Message, int, any) {
	fe := fieldErrors{}
	validateContent(fe, prefix, p)
	m := &Message{}
	if base != nil {
		m = base.clone()
	}
	if p.has["content"] {
		m.Content = p.Content
	}
	if p.has["embeds"] {
		m.Embeds = p.Embeds
	}
	if p.has["components"] {
		m.Components = p.Components
	}
	// Discord's rules for "attachments" (reference: Uploading Files,
	// Editing Message Attachments): each entry names an attachment the
	// message has (kept, the others removed) or, by its upload index n, a
	// file sent as files[n] in this request; any other id is refused. On
	// an edit that lists attachments only the files listed are appended;
	// a new message gets every file sent. Without "attachments" an edit
	// keeps what the message has.
	editing := base != nil && base.ID != ""
	kept := m.Attachments
	meta := map[int]attRef{}
	if p.has["attachments"] {
		kept = nil
		for i, a := range p.Attachments {
			id := strings.Trim(string(a.ID), `"`)
			if j := slices.IndexFunc(m.Attachments, func(x Attachment) bool { return x.ID == id }); editing && j >= 0 {
				ex := m.Attachments[j]
				if a.Description != "" {
					ex.Description = a.Description
				}
				kept = append(kept, ex)
				continue
			}
			idx, err := strconv.Atoi(id)
			if err == nil && slices.ContainsFunc(files, func(f upload) bool { return f.index == idx }) {
				meta[idx] = a
				continue
			}
			fe.add(join(prefix, "attachments."+strconv.Itoa(i)+".id"), "ATTACHMENT_NOT_FOUND",
				"Unknown attachment: neither one of the message's attachments nor the index of a file in this request.")
		}
	}
	for _, f := range files {
		md, listed := meta[f.index]
		if editing && p.has["attachments"] && !listed {
			continue // not appended
		}
		att := Attachment{Filename: f.filename, ContentType: f.contentType, Data: f.data}
		if listed {
			if md.Filename != "" {
				att.Filename = md.Filename
			}
			att.Description = md.Description
		}
		kept = append(kept, att)
	}
	if len(kept) > maxAttachments {
		fe.add(join(prefix, "attachments"), "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", maxAttachments))
	}
	m.Attachments = kept
	if len(fe) > 0 {
		st, body := invalidForm(fe)
		return nil, st, body
	}
	if m.Content == "" && len(m.Embeds) == 0 && len(m.Components) == 0 && len(m.Attachments) == 0 && m.Flags&FlagLoading == 0 {
		st, body := apiError(http.StatusBadRequest, 50006, "Cannot send an empty message")
		return nil, st, body
	}
	return m, 0, nil
}

func (s *Server) finishAttachments(m *Message) {
	for i := range m.Attachments {
		a := &m.Attachments[i]
		if a.ID == "" {
			a.ID = s.newID()
			a.URL = "https://cdn.discordapp.com/attachments/" + m.ChannelID + "/" + a.ID + "/" + a.Filename
			s.saveAttachment(m.ID, *a)
		}
	}
}

// insertLocked stores a new message and announces it.
func (s *Server) insertLocked(m *Message) {
	m.ID = s.newID()
	m.Timestamp = s.clock.Now()
	m.AuthorID = s.botID
	s.finishAttachments(m)
	s.messages[m.ID] = m
	if c := s.channels[m.ChannelID]; c != nil {
		c.messages = append(c.messages, m.ID)
		if !m.Ephemeral() {
			c.public = append(c.public, m.ID)
		} else {
			if c.ephemeral == nil {
				c.ephemeral = map[string][]string{}
			}
			c.ephemeral[m.VisibleTo] = append(c.ephemeral[m.VisibleTo], m.ID)
		}
	}
	s.logf("bot", "posts %s", s.describe(m))
	s.recordLocked(Created, m)
	if c := s.channels[m.ChannelID]; s.opts.Lean && c != nil && len(c.messages) > 64 && len(c.messages)%32 == 0 {
		s.pruneMessagesLocked(c)
	} else if c != nil {
		s.forgetMessagesLocked(c)
	}
}

// pruneMessagesLocked forgets (Lean) the channel's messages nobody will
// touch again: ephemeral ones whose tokens have expired, public ones
// without components after a minute (finished turns' lines), and any
// message deleted; the newest 16 are always kept.
func (s *Server) pruneMessagesLocked(c *channel) {
	now := s.clock.Now()
	gone := map[string]bool{}
	for _, id := range c.messages[:len(c.messages)-16] {
		m := s.messages[id]
		if m == nil {
			gone[id] = true
			continue
		}
		age := now.Sub(m.Timestamp)
		if m.Deleted || (m.Ephemeral() && age > TokenLifetime+time.Minute) || (!m.Ephemeral() && len(m.Components) == 0 && age > time.Minute) {
			gone[id] = true
			delete(s.messages, id)
		}
	}
	if len(gone) == 0 {
		return
	}
	keep := func(ids []string) []string { return slices.DeleteFunc(ids, func(id string) bool { return gone[id] }) }
	c.messages, c.public = keep(c.messages), keep(c.public)
	for u, ids := range c.ephemeral {
		c.ephemeral[u] = keep(ids)
	}
}

// replaceLocked stores an edited message and announces it.
func (s *Server) replaceLocked(m *Message) {
	m.Version++
	m.Edited = s.clock.Now()
	s.finishAttachments(m)
	s.messages[m.ID] = m
	s.logf("bot", "edits %s", s.describe(m))
	s.recordLocked(Updated, m)
}

func (s *Server) deleteLocked(m *Message) {
	m.Deleted = true
	s.logf("bot", "deletes message %s", m.ID)
	s.recordLocked(Deleted, m)
}

// describe renders a message as one transcript line.
func (s *Server) describe(m *Message) string {
	var b strings.Builder
	fmt.Fprintf(&b, "message %s in %s", m.ID, m.ChannelID)
	if m.Ephemeral() {
		name := m.VisibleTo
		if u := s.users[m.VisibleTo]; u != nil {
			name = u.name
		}
		fmt.Fprintf(&b, " (ephemeral, only %s)", name)
	}
	if m.Loading() {
		b.WriteString(" [thinking…]")
	}
	if m.Content != "" {
		fmt.Fprintf(&b, " %q", m.Content)
	}
	for _, e := range m.Embeds {
		fmt.Fprintf(&b, " [embed %q]", e.Title)
	}
	var comps []string
	for _, c := range m.AllComponents() {
		switch {
		case c.Type == 2:
			label := c.Label
			if c.Disabled {
				label += " (disabled)"
			}
			comps = append(comps, fmt.Sprintf("%s{%s}", label, c.CustomID))
		case isSelect(c.Type):
			comps = append(comps, fmt.Sprintf("select{%s}×%d", c.CustomID, len(c.Options)))
		}
	}
	if len(comps) > 0 {
		fmt.Fprintf(&b, " [%s]", strings.Join(comps, " | "))
	}
	for _, a := range m.Attachments {
		fmt.Fprintf(&b, " <%s %d B>", a.Filename, len(a.Data))
	}
	return b.String()
}

// ---- channel endpoints ----

// channelFor finds the channel of the request and checks the bot has the
// needed permissions there.
func (s *Server) channelFor(rq *req, need int64) (*channel, int, any) {
	c := s.channels[rq.param("cid")]
	if c == nil {
		st, body := apiError(http.StatusNotFound, 10003, "Unknown Channel")
		return nil, st, body
	}
	if c.typ == 1 {
		return c, 0, nil
	}
	perms := s.botPermsLocked(c)
	if perms&discordgo.PermissionViewChannel == 0 {
		st, body := apiError(http.StatusForbidden, 50001, "Missing Access")
		return nil, st, body
	}
	if perms&need != need {
		st, body := apiError(http.StatusForbidden, 50013, "Missing Permissions")
		return nil, st, body
	}
	return c, 0, nil
}

func (s *Server) getChannel(rq *req) (int, any) {
	c, st, body := s.channelFor(rq, 0)
	if c == nil {
		return st, body
	}
	j := c.json()
	if c.typ == 1 {
		j["recipients"] = []any{s.users[c.recipient].json()}
	}
	return http.StatusOK, j
}

func (s *Server) listMessages(rq *req) (int, any) {
	c, st, body := s.channelFor(rq, discordgo.PermissionReadMessageHistory)
	if c == nil {
		return st, body
	}
	q := rq.r.URL.Query()
	limit := 50
	if l := q.Get("limit"); l != "" {
		v, err := strconv.Atoi(l)
		if err != nil || v < 1 || v > 100 {
			fe := fieldErrors{}
			fe.add("limit", "NUMBER_TYPE_MAX", "int value should be less than or equal to 100.")
			return invalidForm(fe)
		}
		limit = v
	}
	before, after := q.Get("before"), q.Get("after")
	var list []any
	for i := len(c.messages) - 1; i >= 0 && len(list) < limit; i-- {
		m := s.messages[c.messages[i]]
		if m.Deleted || m.Ephemeral() || (before != "" && !idLess(m.ID, before)) || (after != "" && !idLess(after, m.ID)) {
			continue
		}
		list = append(list, s.messageJSON(m))
	}
	if list == nil {
		list = []any{}
	}
	return http.StatusOK, list
}

func idLess(a, b string) bool {
	x, _ := strconv.ParseUint(a, 10, 64)
	y, _ := strconv.ParseUint(b, 10, 64)
	return x < y
}

// channelMessage finds a non-ephemeral, non-deleted message in channel c.
func (s *Server) channelMessage(c *channel, mid string) (*Message, int, any) {
	m := s.messages[mid]
	if m == nil || m.Deleted || m.Ephemeral() || m.ChannelID != c.id {
		st, body := apiError(http.StatusNotFound, 10008, "Unknown Message")
		return nil, st, body
	}
	return m, 0, nil
}

func (s *Server) getMessage(rq *req) (int, any) {
	c, st, body := s.channelFor(rq, discordgo.PermissionReadMessageHistory)
	if c == nil {
		return st, body
	}
	m, st, body := s.channelMessage(c, rq.param("mid"))
	if m == nil {
		return st, body
	}
	return http.StatusOK, s.messageJSON(m)
}

func (s *Server) createMessage(rq *req) (int, any) {
	p, fe := parsePayload(rq.raw, "")
	if len(fe) > 0 {
		return invalidForm(fe)
	}
	var need int64 = discordgo.PermissionSendMessages
	if ch := s.channels[rq.param("cid")]; ch != nil && ch.isThread() {
		need = discordgo.PermissionSendMessagesInThreads
	}
	c, st, body := s.channelFor(rq, need|contentPerms(p, rq))
	if c == nil {
		return st, body
	}
	m, st, body := s.compose(nil, p, rq.files, "")
	if m == nil {
		return st, body
	}
	m.ChannelID, m.GuildID, m.Flags = c.id, c.guildID, p.Flags&createFlags
	s.insertLocked(m)
	return http.StatusOK, s.messageJSON(m)
}

// contentPerms are the permissions a message's content needs: files need
// Attach Files, embeds Embed Links.
func contentPerms(p *msgPayload, rq *req) int64 {
	var need int64
	if len(rq.files) > 0 {
		need |= discordgo.PermissionAttachFiles
	}
	if len(p.Embeds) > 0 {
		need |= discordgo.PermissionEmbedLinks
	}
	return need
}

func (s *Server) editMessage(rq *req) (int, any) {
	p, fe := parsePayload(rq.raw, "")
	if len(fe) > 0 {
		return invalidForm(fe)
	}
	c, st, body := s.channelFor(rq, contentPerms(p, rq))
	if c == nil {
		return st, body
	}
	old, st, body := s.channelMessage(c, rq.param("mid"))
	if old == nil {
		return st, body
	}
	if old.AuthorID != s.botID {
		return apiError(http.StatusForbidden, 50005, "Cannot edit a message authored by another user")
	}
	m, st, body := s.compose(old, p, rq.files, "")
	if m == nil {
		return st, body
	}
	if p.has["flags"] {
		m.Flags = m.Flags&^flagSuppressEmbeds | p.Flags&flagSuppressEmbeds
	}
	s.replaceLocked(m)
	return http.StatusOK, s.messageJSON(m)
}

func (s *Server) deleteMessage(rq *req) (int, any) {
	c, st, body := s.channelFor(rq, 0)
	if c == nil {
		return st, body
	}
	m, st, body := s.channelMessage(c, rq.param("mid"))
	if m == nil {
		return st, body
	}
	if m.AuthorID != s.botID && s.botPermsLocked(c)&discordgo.PermissionManageMessages == 0 {
		return apiError(http.StatusForbidden, 50013, "Missing Permissions")
	}
	s.deleteLocked(m)
	return http.StatusNoContent, nil
}

func (s *Server) startThread(rq *req) (int, any) {
	var body struct {
		Name string `json:"name"`
		Type int    `json:"type"`
	}
	if err := rq.decode(&body); err != nil {
		return apiError(http.StatusBadRequest, 50109, "The request body contains invalid JSON.")
	}
	fromMsg := rq.param("mid") != ""
	if fromMsg || body.Type == 0 {
		body.Type = 11
		if !fromMsg {
			body.Type = 12
		}
	}
	need := int64(discordgo.PermissionCreatePublicThreads)
	if body.Type == 12 {
		need = discordgo.PermissionCreatePrivateThreads
	}
	c, st, resp := s.channelFor(rq, need)
	if c == nil {
		return st, resp
	}
	fe := fieldErrors{}
	lenBetween(fe, "name", body.Name, 1, 100)
	if c.typ != 0 {
		fe.add("", "CHANNEL_TYPE_INVALID", "Threads can only be created in text channels")
	}
	if len(fe) > 0 {
		return invalidForm(fe)
	}
	th := &channel{guildID: c.guildID, name: body.Name, typ: body.Type, parentID: c.id}
	if fromMsg {
		m, st, resp := s.channelMessage(c, rq.param("mid"))
		if m == nil {
			return st, resp
		}
		if s.channels[m.ID] != nil {
			return apiError(http.StatusBadRequest, 160004, "A thread has already been created for this message")
		}
		th.id = m.ID
	} else {
		th.id = s.newID()
	}
	s.channels[th.id] = th
	if g := s.guilds[c.guildID]; g != nil {
		g.channels = append(g.channels, th.id)
	}
	s.logf("bot", "starts thread %s %q in %s", th.id, th.name, c.id)
	s.dispatchLocked("THREAD_CREATE", th.json(), c.guildID)
	s.notifyLocked()
	return http.StatusCreated, th.json()
}
