package discordtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
)

// ---- interaction responses ----

// interactionByID finds the interaction of a callback and records the token use.
func (s *Server) interactionByID(rq *req) (*interaction, int, any) {
	it := s.interactions[rq.param("iid")]
	if it == nil || it.token != rq.param("token") {
		st, body := apiError(http.StatusNotFound, 10062, "Unknown interaction")
		return nil, st, body
	}
	if !s.useTokenLocked(it, rq) || it.failed {
		st, body := apiError(http.StatusNotFound, 10062, "Unknown interaction")
		return nil, st, body
	}
	return it, 0, nil
}

// useTokenLocked records a use of it's token and reports whether the token
// is still valid.
func (s *Server) useTokenLocked(it *interaction, rq *req) bool {
	age := s.clock.Now().Sub(it.created)
	ok := age <= TokenLifetime
	if !s.opts.Lean || !ok {
		s.tokenUses = append(s.tokenUses, TokenUse{InteractionID: it.id, Method: rq.r.Method,
			Route: rq.r.URL.Path, Age: age, Rejected: !ok})
		s.keepHistoryLocked()
	}
	return ok
}

// interactionByToken finds the interaction of a webhook request.
func (s *Server) interactionByToken(rq *req) (*interaction, int, any) {
	if rq.param("app") != s.appID {
		st, body := apiError(http.StatusNotFound, 10015, "Unknown Webhook")
		return nil, st, body
	}
	it := s.byToken[rq.param("token")]
	if it == nil || !s.useTokenLocked(it, rq) {
		st, body := apiError(http.StatusUnauthorized, 50027, "Invalid Webhook Token")
		return nil, st, body
	}
	return it, 0, nil
}

func (s *Server) callback(rq *req) (int, any) {
	it, st, body := s.interactionByID(rq)
	if it == nil {
		if x := s.interactions[rq.param("iid")]; x != nil && x.token == rq.param("token") && x.failed {
			x.late++
			s.notifyLocked()
		}
		return st, body
	}
	if it.acked {
		it.duplicates++
		s.notifyLocked()
		return apiError(http.StatusBadRequest, 40060, "Interaction has already been acknowledged.")
	}
	var cb struct {
		Type int             `json:"type"`
		Data json.RawMessage `json:"data"`
	}
	if err := rq.decode(&cb); err != nil {
		return apiError(http.StatusBadRequest, 50109, "The request body contains invalid JSON.")
	}
	badType := func() (int, any) {
		fe := fieldErrors{}
		fe.add("type", "INTERACTION_RESPONSE_TYPE_INVALID", fmt.Sprintf("Interaction response type %d is not valid for this interaction", cb.Type))
		return invalidForm(fe)
	}
	var data []byte
	if string(cb.Data) != "null" {
		data = cb.Data
	}
	p, fe := parsePayload(data, "data")
	if len(fe) > 0 {
		return invalidForm(fe)
	}
	if (it.typ == InteractionApplicationCommandAutocomplete) != (cb.Type == 8) {
		return badType()
	}
	switch cb.Type {
	case 8:
		var ac struct {
			Choices []map[string]any `json:"choices"`
		}
		// choices may be absent or null: no choices ("No options match
		// your search"), as discordgo sends an empty list (omitempty).
		if err := json.Unmarshal(data, &ac); err != nil {
			fe := fieldErrors{}
			fe.add("data.choices", "BASE_TYPE_ARRAY", "Must be an array.")
			return invalidForm(fe)
		}
		if ac.Choices == nil {
			ac.Choices = []map[string]any{}
		}
		if len(ac.Choices) > 25 {
			fe := fieldErrors{}
			fe.add("data.choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
			return invalidForm(fe)
		}
		it.choices = ac.Choices
	case 4, 5:
		base := &Message{}
		if cb.Type == 5 {
			base.Flags = FlagLoading
			p = &msgPayload{has: map[string]bool{}, Flags: p.Flags}
		}
		m, st, body := s.compose(base, p, rq.files, "data")
		if m == nil {
			return st, body
		}
		m.Flags = m.Flags | p.Flags&(createFlags|FlagEphemeral)
		s.interactionMessage(it, m)
		s.insertLocked(m)
		it.responseID = m.ID
	case 6, 7:
		if it.typ != 3 && !(it.typ == 5 && it.sourceID != "") {
			return badType()
		}
		src := s.messages[it.sourceID]
		if src == nil || src.Deleted {
			return apiError(http.StatusNotFound, 10008, "Unknown Message")
		}
		it.responseID = src.ID
		if cb.Type == 7 {
			m, st, body := s.compose(src, p, rq.files, "data")
			if m == nil {
				return st, body
			}
			s.replaceLocked(m)
		}
	case 9:
		if it.typ == 5 {
			return badType()
		}
		var md modalData
		if err := json.Unmarshal(data, &md); err != nil {
			fe := fieldErrors{}
			fe.add("data", "BASE_TYPE_INVALID", err.Error())
			return invalidForm(fe)
		}
		fe := fieldErrors{}
		validateModal(fe, "data", &md)
		if len(fe) > 0 {
			return invalidForm(fe)
		}
		it.modal = &md
		s.logf("bot", "opens modal %q {%s} for %s", md.Title, md.CustomID, s.users[it.userID].name)
	default:
		return badType()
	}
	s.ackLocked(it, cb.Type)
	return http.StatusNoContent, nil
}

// interactionMessage fills in the fields of a message sent through it.
func (s *Server) interactionMessage(it *interaction, m *Message) {
	m.ChannelID, m.GuildID = it.channelID, it.guildID
	m.WebhookID, m.InteractionID = s.appID, it.id
	if it.typ == 2 {
		m.Type = 20
	}
	if m.Ephemeral() {
		m.VisibleTo = it.userID
	}
}

func (s *Server) followup(rq *req) (int, any) {
	it, st, body := s.interactionByToken(rq)
	if it == nil {
		return st, body
	}
	if !it.acked {
		return apiError(http.StatusNotFound, 10015, "Unknown Webhook")
	}
	if _, guildInstall := it.owners["0"]; it.owners != nil && !guildInstall && len(it.followups) >= UserInstallFollowups {
		// Discord's changelog (27 June 2024): user-installed apps may make
		// at most 5 follow-ups per interaction; its error code is not
		// documented, so the fake's is none in particular.
		return apiError(http.StatusBadRequest, 0, "Maximum number of follow-up messages reached")
	}
	p, fe := parsePayload(rq.raw, "")
	if len(fe) > 0 {
		return invalidForm(fe)
	}
	if orig := s.messages[it.responseID]; it.callbackType == 5 && len(it.followups) == 0 && orig != nil && !orig.Deleted && orig.Loading() {
		// Discord: "When using this endpoint directly after responding to
		// an interaction with DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE, this
		// endpoint will function as Edit Original Interaction Response
		// for backwards compatibility": no new message, the loading one
		// is edited (its ephemeral flag kept).
		m, st, body := s.compose(orig, p, rq.files, "")
		if m == nil {
			return st, body
		}
		m.Flags = orig.Flags &^ FlagLoading
		s.replaceLocked(m)
		s.notifyLocked()
		return http.StatusOK, s.messageJSON(m)
	}
	m, st, body := s.compose(nil, p, rq.files, "")
	if m == nil {
		return st, body
	}
	m.Flags = p.Flags & (createFlags | FlagEphemeral)
	s.interactionMessage(it, m)
	m.Type = 0
	s.insertLocked(m)
	it.followups = append(it.followups, m.ID)
	s.notifyLocked()
	return http.StatusOK, s.messageJSON(m)
}

// webhookTarget resolves @original or a message ID for an interaction token.
func (s *Server) webhookTarget(it *interaction, mid string) (*Message, int, any) {
	id := mid
	if mid == "@original" {
		id = it.responseID
	}
	m := s.messages[id]
	// Only the interaction's own messages: its response (for a click
	// answered by an update, the clicked message) and its follow-ups.
	// Discord documents edits of "a followup message for an Interaction";
	// another interaction's messages are refused (strict where the
	// documentation says no more).
	own := id != "" && (id == it.responseID || id == it.sourceID || slices.Contains(it.followups, id))
	if m == nil || m.Deleted || !own {
		st, body := apiError(http.StatusNotFound, 10008, "Unknown Message")
		return nil, st, body
	}
	return m, 0, nil
}

// webhookMessage finds the message a webhook route addresses through its
// interaction token.
func (s *Server) webhookMessage(rq *req) (*Message, int, any) {
	it, st, body := s.interactionByToken(rq)
	if it == nil {
		return nil, st, body
	}
	return s.webhookTarget(it, rq.param("mid"))
}

func (s *Server) webhookGet(rq *req) (int, any) {
	m, st, body := s.webhookMessage(rq)
	if m == nil {
		return st, body
	}
	return http.StatusOK, s.messageJSON(m)
}

func (s *Server) webhookEdit(rq *req) (int, any) {
	it, st, body := s.interactionByToken(rq)
	if it == nil {
		return st, body
	}
	old, st, body := s.webhookTarget(it, rq.param("mid"))
	if old == nil {
		return st, body
	}
	p, fe := parsePayload(rq.raw, "")
	if len(fe) > 0 {
		return invalidForm(fe)
	}
	base := old.clone()
	base.Flags &^= FlagLoading
	m, st, body := s.compose(base, p, rq.files, "")
	if m == nil {
		return st, body
	}
	s.replaceLocked(m)
	if m.ID == it.responseID {
		it.originalEdits++
	}
	return http.StatusOK, s.messageJSON(m)
}

func (s *Server) webhookDelete(rq *req) (int, any) {
	m, st, body := s.webhookMessage(rq)
	if m == nil {
		return st, body
	}
	s.deleteLocked(m)
	return http.StatusNoContent, nil
}
