package discordtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Interaction types the fake can send (Discord's InteractionType).
const (
	InteractionApplicationCommand             = 2
	InteractionMessageComponent               = 3
	InteractionApplicationCommandAutocomplete = 4
	InteractionModalSubmit                    = 5
)

// ForgeCommand sends an APPLICATION_COMMAND interaction whose data object is
// exactly data (any name, any options tree, values of the wrong type,
// missing required options, unknown subcommands), skipping the checks
// against the registered commands that Command makes. Everything around
// data (id, token, member or user, locale, guild_locale, channel,
// app_permissions, …) is filled in as for a real command. The channel must
// exist; the user need not be able to see it. data must survive JSON
// encoding; nil sends {}.
func (u *User) ForgeCommand(channelID string, data map[string]any) (*Interaction, error) {
	return u.ForgeInteraction(channelID, InteractionApplicationCommand, data, nil)
}

// ForgeInteraction sends an interaction of any type a user can cause (2
// command, 3 component, 4 autocomplete, 5 modal submit) with exactly data
// and, if msg is not nil, msg as its source message ("message" field). msg
// is sent as given, so a stale snapshot stays stale; pass the result of
// Server.Message for the current state. Empty ChannelID, GuildID, AuthorID
// or Timestamp of msg are filled in from the channel, the bot and the
// clock. Answer obligations are those of every interaction: one callback
// within the deadline (autocomplete: type 8 only).
func (u *User) ForgeInteraction(channelID string, typ int, data map[string]any, msg *Message) (*Interaction, error) {
	if typ < InteractionApplicationCommand || typ > InteractionModalSubmit {
		return nil, fmt.Errorf("discordtest: forging interaction type %d: users can only cause types 2–5", typ)
	}
	own, err := ownJSON(data)
	if err != nil {
		return nil, fmt.Errorf("discordtest: forging interaction type %d: %w", typ, err)
	}
	s := u.s
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.channels[channelID]
	if c == nil {
		return nil, fmt.Errorf("discordtest: forging interaction: unknown channel %s", channelID)
	}
	var src *Message
	if msg != nil {
		src = msg.clone()
		if src.ChannelID == "" {
			src.ChannelID = c.id
		}
		if src.GuildID == "" {
			src.GuildID = c.guildID
		}
		if src.AuthorID == "" {
			src.AuthorID = s.botID
		}
		if src.Timestamp.IsZero() {
			src.Timestamp = s.clock.Now()
		}
	}
	s.logf(u.Name, "forges interaction type %d %q in %s", typ, interactionName(typ, own), channelID)
	return &Interaction{s, s.newInteractionLocked(s.users[u.ID], c, typ, own, src)}, nil
}

// ownJSON returns a private copy of data through JSON (numbers kept exact),
// so that later changes by the caller do not reach the fake.
func ownJSON(data map[string]any) (map[string]any, error) {
	if data == nil {
		return map[string]any{}, nil
	}
	b, err := json.Marshal(data)
	if err != nil {
		return nil, fmt.Errorf("data is not JSON: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out map[string]any
	if err := dec.Decode(&out); err != nil {
		return nil, fmt.Errorf("data does not decode as an object: %w", err)
	}
	return out, nil
}

// interactionName names an interaction for diagnostics: the custom_id of a
// component or modal, or the command with its subcommand path.
func interactionName(typ int, data map[string]any) string {
	if typ == InteractionMessageComponent || typ == InteractionModalSubmit {
		id, _ := data["custom_id"].(string)
		return id
	}
	parts := []string{fmt.Sprint(data["name"])}
	if data["name"] == nil {
		parts[0] = "?"
	}
	opts, _ := data["options"].([]any)
	for len(opts) > 0 {
		o, _ := opts[0].(map[string]any)
		if o == nil {
			break
		}
		if t := fmt.Sprint(o["type"]); t != "1" && t != "2" {
			break
		}
		parts = append(parts, fmt.Sprint(o["name"]))
		opts, _ = o["options"].([]any)
	}
	return strings.Join(parts, " ")
}

// DMChannel returns the ID of the user's direct-message channel with the
// bot, creating it if needed (Server.DMChannel for this user).
func (u *User) DMChannel() string { return u.s.DMChannel(u.ID) }

// SetOmitInteractionAttachments turns on or off (see
// Options.OmitInteractionAttachments) leaving the "attachments" field out of
// the message object of component and modal interactions sent from now on.
func (s *Server) SetOmitInteractionAttachments(omit bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.omitAttachments = omit
}

// InteractionStats counts interactions and the bot's answers to them.
type InteractionStats struct {
	// Sent is the number of interactions users started (forged ones too).
	Sent int
	// Answered is the number answered by a callback within the deadline.
	Answered int
	// Failed is the number whose deadline passed without a callback: the
	// user saw "This interaction failed".
	Failed int
	// Pending is the number neither answered nor failed yet.
	Pending int
	// Duplicate counts callbacks refused because the interaction had
	// already been answered (400, code 40060).
	Duplicate int
	// Late counts callbacks refused because the deadline had passed
	// (404, code 10062).
	Late int
}

// InteractionStats returns the interaction counters.
func (s *Server) InteractionStats() InteractionStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	var st InteractionStats
	for _, it := range s.interactions {
		st.Sent++
		switch {
		case it.acked:
			st.Answered++
		case it.failed:
			st.Failed++
		default:
			st.Pending++
		}
		st.Duplicate += it.duplicates
		st.Late += it.late
	}
	return st
}

// UnansweredInteraction describes an interaction the bot has not answered,
// for test diagnostics.
type UnansweredInteraction struct {
	ID string
	// Type is the interaction type (2 command, 3 component, 4
	// autocomplete, 5 modal submit).
	Type int
	// Name is the custom_id of a component or modal submit, or the
	// command name with its subcommands ("qwixx new").
	Name              string
	UserID, ChannelID string
	// Failed is true once the deadline has passed; false means the bot
	// may still answer.
	Failed bool
	// Created is when the user started it (by the server's Clock).
	Created time.Time
}

// String renders the interaction as "type 3 "join" (id 123, failed)".
func (u UnansweredInteraction) String() string {
	state := "pending"
	if u.Failed {
		state = "failed"
	}
	return fmt.Sprintf("type %d %q (id %s, %s)", u.Type, u.Name, u.ID, state)
}

// Unanswered lists the interactions without an accepted callback, failed
// or still pending, oldest first.
func (s *Server) Unanswered() []UnansweredInteraction {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []UnansweredInteraction
	for _, it := range s.interactions {
		if it.acked {
			continue
		}
		out = append(out, UnansweredInteraction{ID: it.id, Type: it.typ, Name: it.name, UserID: it.userID,
			ChannelID: it.channelID, Failed: it.failed, Created: it.created})
	}
	slices.SortFunc(out, func(a, b UnansweredInteraction) int {
		switch {
		case idLess(a.ID, b.ID):
			return -1
		case idLess(b.ID, a.ID):
			return 1
		}
		return 0
	})
	return out
}

// AutocompleteChoices returns the choices the bot answered an autocomplete
// interaction with (callback type 8), or nil.
func (i *Interaction) AutocompleteChoices() []map[string]any {
	i.s.mu.Lock()
	defer i.s.mu.Unlock()
	return cloneJSON(i.it.choices)
}
