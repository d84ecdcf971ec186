package discordtest

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// User is a simulated Discord user who can run commands, click buttons,
// pick select-menu values and see messages.
type User struct {
	s *Server
	// ID is the user's snowflake.
	ID string
	// Name is the user's name.
	Name string
}

// AddUser creates a user with a client locale (e.g. "en-US", "de"; empty
// means "en-US") who is a member of every guild with DefaultMemberPermissions.
func (s *Server) AddUser(name, locale string) *User {
	s.mu.Lock()
	defer s.mu.Unlock()
	if locale == "" {
		locale = "en-US"
	}
	u := &userRec{id: s.newID(), name: name, locale: locale}
	s.users[u.id] = u
	for _, g := range s.guilds {
		g.members[u.id] = DefaultMemberPermissions
	}
	s.logf("fake", "user %s %q (%s)", u.id, name, locale)
	return &User{s: s, ID: u.id, Name: name}
}

// SetLocale changes the user's client locale (interaction locale).
func (u *User) SetLocale(locale string) {
	u.s.mu.Lock()
	defer u.s.mu.Unlock()
	u.s.users[u.ID].locale = locale
}

// SetName renames the user: interactions from now on carry the new name
// (username and global_name), as after a rename in Discord. It updates
// u.Name too, which must then not be read concurrently.
func (u *User) SetName(name string) {
	u.s.mu.Lock()
	defer u.s.mu.Unlock()
	u.s.users[u.ID].name = name
	u.Name = name
	u.s.logf("fake", "user %s renamed %q", u.ID, name)
}

// SetPermissions sets the user's permissions in a guild, as sent in the
// interaction's member.permissions (e.g. add MANAGE_MESSAGES).
func (u *User) SetPermissions(guildID string, perms int64) {
	u.s.mu.Lock()
	defer u.s.mu.Unlock()
	if g := u.s.guilds[guildID]; g != nil {
		g.members[u.ID] = perms
	}
}

// channelLocked finds a channel the user can see.
func (u *User) channelLocked(channelID string) (*channel, error) {
	c := u.s.channels[channelID]
	if c == nil {
		return nil, fmt.Errorf("discordtest: unknown channel %s", channelID)
	}
	if c.typ == 1 && c.recipient != u.ID {
		return nil, fmt.Errorf("discordtest: %s cannot see DM channel %s", u.Name, channelID)
	}
	if c.typ == 3 && !slices.Contains(c.recipients, u.ID) {
		return nil, fmt.Errorf("discordtest: %s is not in group DM %s", u.Name, channelID)
	}
	if g := u.s.guilds[c.guildID]; g != nil {
		if _, ok := g.members[u.ID]; !ok {
			return nil, fmt.Errorf("discordtest: %s is not a member of guild %s", u.Name, g.id)
		}
	}
	return c, nil
}

// Command runs a slash command, e.g. Command(ch, "qwixx", "new",
// map[string]any{"players": 3}). sub names a subcommand ("" for none, or
// "group sub"). Option values are strings, integers, booleans, floats,
// *User or IDs; they are checked against the registered command, as the
// Discord client would. Subcommands and options may be named as the
// user's client shows them (their name_localizations for the user's
// locale: "/qwixx règles" for a French client); the interaction carries
// the registered names, as Discord sends them.
func (u *User) Command(channelID, name, sub string, opts map[string]any) (*Interaction, error) {
	s := u.s
	s.mu.Lock()
	defer s.mu.Unlock()
	c, data, err := u.commandDataLocked(channelID, name, sub, opts, "")
	if err != nil {
		return nil, err
	}
	s.logf(u.Name, "/%s %s %v", name, sub, opts)
	return &Interaction{s, s.newInteractionLocked(s.users[u.ID], c, InteractionApplicationCommand, data, nil)}, nil
}

// Autocomplete sends the APPLICATION_COMMAND_AUTOCOMPLETE interaction the
// Discord client sends while the user types into option focused of a
// command: opts are the options filled in so far (as for Command, named as
// the registered command or the user's client names them), and
// opts[focused] is the text typed, sent as a string whatever the option's
// type, with "focused": true. Required options may still be missing, and
// other options whose values fail validation are left out, as Discord's
// documentation says. The focused option must be registered with
// autocomplete. The bot must answer with callback type 8;
// Interaction.AutocompleteChoices returns its choices.
func (u *User) Autocomplete(channelID, name, sub string, opts map[string]any, focused string) (*Interaction, error) {
	if focused == "" {
		return nil, fmt.Errorf("discordtest: /%s %s: autocomplete needs a focused option", name, sub)
	}
	s := u.s
	s.mu.Lock()
	defer s.mu.Unlock()
	c, data, err := u.commandDataLocked(channelID, name, sub, opts, focused)
	if err != nil {
		return nil, err
	}
	return &Interaction{s, s.newInteractionLocked(s.users[u.ID], c, InteractionApplicationCommandAutocomplete, data, nil)}, nil
}

// commandDataLocked checks a command against the registered one and
// returns its channel and the interaction's data. With focused set, it is
// the data of an autocompletion of that option.
func (u *User) commandDataLocked(channelID, name, sub string, opts map[string]any, focused string) (*channel, map[string]any, error) {
	s := u.s
	c, err := u.channelLocked(channelID)
	if err != nil {
		return nil, nil, err
	}
	cmd, _ := s.findCommandLocked(s.users[u.ID], c, name)
	if cmd == nil {
		return nil, nil, fmt.Errorf("discordtest: no command /%s usable in channel %s", name, channelID)
	}
	locale := s.users[u.ID].locale
	named := func(o cmdOption, part string) bool {
		return o.Name == part || (part != "" && o.NameLocalizations[locale] == part)
	}
	res := map[string]map[string]any{}
	defs := cmd.def.Options
	var path []cmdOption
	if sub != "" {
		for _, part := range strings.Fields(sub) {
			i := slices.IndexFunc(defs, func(o cmdOption) bool { return named(o, part) && (o.Type == 1 || o.Type == 2) })
			if i < 0 {
				return nil, nil, fmt.Errorf("discordtest: /%s has no subcommand %q", name, sub)
			}
			path = append(path, defs[i])
			defs = defs[i].Options
		}
		if path[len(path)-1].Type != 1 {
			return nil, nil, fmt.Errorf("discordtest: /%s %s is a group; name a subcommand", name, sub)
		}
	} else if slices.ContainsFunc(defs, func(o cmdOption) bool { return o.Type == 1 || o.Type == 2 }) {
		return nil, nil, fmt.Errorf("discordtest: /%s needs a subcommand", name)
	}
	shown := opts
	opts = map[string]any{}
	for k, v := range shown {
		if i := slices.IndexFunc(defs, func(o cmdOption) bool { return named(o, k) }); i >= 0 {
			k = defs[i].Name
		}
		if _, dup := opts[k]; dup {
			return nil, nil, fmt.Errorf("discordtest: /%s %s: option %q given twice", name, sub, k)
		}
		opts[k] = v
	}
	if focused != "" {
		i := slices.IndexFunc(defs, func(o cmdOption) bool { return named(o, focused) })
		if i < 0 {
			return nil, nil, fmt.Errorf("discordtest: /%s %s: no option %q to autocomplete", name, sub, focused)
		}
		if !defs[i].Autocomplete {
			return nil, nil, fmt.Errorf("discordtest: /%s %s: option %q has no autocomplete (the client offers its choices itself)", name, sub, defs[i].Name)
		}
		focused = defs[i].Name
		if _, ok := opts[focused]; !ok {
			opts[focused] = ""
		}
	}
	leaf, err := s.optionValuesLocked(defs, opts, res, focused)
	if err != nil {
		return nil, nil, fmt.Errorf("discordtest: /%s %s: %w", name, sub, err)
	}
	for i := len(path) - 1; i >= 0; i-- {
		leaf = []any{map[string]any{"name": path[i].Name, "type": path[i].Type, "options": leaf}}
	}
	data := map[string]any{"id": cmd.id, "name": name, "type": 1, "options": leaf}
	if cmd.raw["guild_id"] != nil {
		data["guild_id"] = cmd.raw["guild_id"]
	}
	if len(res) > 0 {
		data["resolved"] = res
	}
	return c, data, nil
}

// optionValuesLocked converts option values by their definitions. With
// focused set (an autocompletion), required options may be missing and the
// focused one is the text typed so far.
func (s *Server) optionValuesLocked(defs []cmdOption, opts map[string]any, res map[string]map[string]any, focused string) ([]any, error) {
	for k := range opts {
		if !slices.ContainsFunc(defs, func(o cmdOption) bool { return o.Name == k }) {
			return nil, fmt.Errorf("unknown option %q", k)
		}
	}
	out := []any{}
	for _, d := range defs {
		v, ok := opts[d.Name]
		if d.Name == focused {
			typed, isStr := v.(string)
			if !isStr {
				return nil, fmt.Errorf("option %q: the text typed is a string, got %T", d.Name, v)
			}
			out = append(out, map[string]any{"name": d.Name, "type": d.Type, "value": typed, "focused": true})
			continue
		}
		if !ok {
			if d.Required && focused == "" {
				return nil, fmt.Errorf("required option %q missing", d.Name)
			}
			continue
		}
		val, err := s.optionValueLocked(d, v, res)
		if err == nil && len(d.Choices) > 0 && !slices.ContainsFunc(d.Choices, func(c cmdChoice) bool { return fmt.Sprint(c.Value) == fmt.Sprint(val) }) {
			err = fmt.Errorf("%v is not one of the choices", val)
		}
		if err != nil && focused != "" {
			// An autocompletion leaves out the other options that fail
			// validation, even required ones (Discord's documentation).
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("option %q: %w", d.Name, err)
		}
		out = append(out, map[string]any{"name": d.Name, "type": d.Type, "value": val})
	}
	return out, nil
}

func (s *Server) optionValueLocked(d cmdOption, v any, res map[string]map[string]any) (any, error) {
	addRes := func(kind, id string, val any) {
		if res[kind] == nil {
			res[kind] = map[string]any{}
		}
		res[kind][id] = val
	}
	switch d.Type {
	case 3:
		str, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("want a string, got %T", v)
		}
		if (d.MinLength != nil && n(str) < *d.MinLength) || (d.MaxLength != nil && n(str) > *d.MaxLength) {
			return nil, fmt.Errorf("length of %q out of range", str)
		}
		return str, nil
	case 4, 10:
		var f float64
		switch x := v.(type) {
		case int:
			f = float64(x)
		case int64:
			f = float64(x)
		case float64:
			f = x
		default:
			return nil, fmt.Errorf("want a number, got %T", v)
		}
		if d.Type == 4 && f != math.Trunc(f) {
			return nil, fmt.Errorf("want an integer, got %v", f)
		}
		if (d.MinValue != nil && f < *d.MinValue) || (d.MaxValue != nil && f > *d.MaxValue) {
			return nil, fmt.Errorf("%v out of range", f)
		}
		if d.Type == 4 {
			return int64(f), nil
		}
		return f, nil
	case 5:
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("want a bool, got %T", v)
		}
		return b, nil
	case 6, 9:
		id := fmt.Sprint(v)
		if u, ok := v.(*User); ok {
			id = u.ID
		}
		u := s.users[id]
		if u == nil {
			return nil, fmt.Errorf("unknown user %s", id)
		}
		addRes("users", id, u.json())
		for _, g := range s.guilds {
			if _, ok := g.members[id]; ok {
				m := s.memberJSON(g, u)
				delete(m, "user")
				addRes("members", id, m)
				break
			}
		}
		return id, nil
	case 7:
		id := fmt.Sprint(v)
		c := s.channels[id]
		if c == nil {
			return nil, fmt.Errorf("unknown channel %s", id)
		}
		addRes("channels", id, c.json())
		return id, nil
	case 8:
		return fmt.Sprint(v), nil
	}
	return nil, fmt.Errorf("option type %d not supported by the fake", d.Type)
}

// visibleMessageLocked returns the current state of m if the user can see it.
func (u *User) visibleMessageLocked(m *Message) (*Message, *channel, error) {
	if m == nil {
		return nil, nil, fmt.Errorf("discordtest: nil message")
	}
	cur := u.s.messages[m.ID]
	if cur == nil || cur.Deleted {
		return nil, nil, fmt.Errorf("discordtest: message %s does not exist", m.ID)
	}
	c, err := u.channelLocked(cur.ChannelID)
	if err != nil {
		return nil, nil, err
	}
	if !visibleTo(cur, u.ID) {
		return nil, nil, fmt.Errorf("discordtest: %s cannot see ephemeral message %s", u.Name, m.ID)
	}
	return cur, c, nil
}

// Click clicks the button with customID on message m (its current state).
// It fails, as a real client could not do it, if the message is not visible
// to the user, or has no such enabled, non-link button.
func (u *User) Click(m *Message, customID string) (*Interaction, error) {
	s := u.s
	s.mu.Lock()
	defer s.mu.Unlock()
	cur, c, err := u.visibleMessageLocked(m)
	if err != nil {
		return nil, err
	}
	b, ok := cur.Component(customID)
	switch {
	case !ok || b.Type != 2:
		return nil, fmt.Errorf("discordtest: message %s has no button %q (has %v)", m.ID, customID, cur.CustomIDs())
	case b.Disabled:
		return nil, fmt.Errorf("discordtest: button %q on message %s is disabled", customID, m.ID)
	case b.Style == 5 || b.Style == 6:
		return nil, fmt.Errorf("discordtest: button %q is a link/premium button", customID)
	}
	s.logf(u.Name, "clicks %q on message %s", b.Label, m.ID)
	data := map[string]any{"custom_id": customID, "component_type": 2}
	return &Interaction{s, s.newInteractionLocked(s.users[u.ID], c, 3, data, cur)}, nil
}

// Select picks values in the select menu with customID on message m. The
// values must be options of the menu and their number within min/max.
func (u *User) Select(m *Message, customID string, values ...string) (*Interaction, error) {
	s := u.s
	s.mu.Lock()
	defer s.mu.Unlock()
	cur, c, err := u.visibleMessageLocked(m)
	if err != nil {
		return nil, err
	}
	sel, ok := cur.Component(customID)
	if !ok || !isSelect(sel.Type) {
		return nil, fmt.Errorf("discordtest: message %s has no select menu %q", m.ID, customID)
	}
	if sel.Disabled {
		return nil, fmt.Errorf("discordtest: select menu %q is disabled", customID)
	}
	minV, maxV := 1, 1
	if sel.MinValues != nil {
		minV = *sel.MinValues
	}
	if sel.MaxValues != nil {
		maxV = *sel.MaxValues
	}
	if len(values) < minV || len(values) > maxV {
		return nil, fmt.Errorf("discordtest: select %q takes %d–%d values, got %d", customID, minV, maxV, len(values))
	}
	if sel.Type == 3 {
		for _, v := range values {
			if !slices.ContainsFunc(sel.Options, func(o SelectOption) bool { return o.Value == v }) {
				return nil, fmt.Errorf("discordtest: select %q has no option %q", customID, v)
			}
		}
	}
	s.logf(u.Name, "selects %v in %q on message %s", values, customID, m.ID)
	data := map[string]any{"custom_id": customID, "component_type": sel.Type, "values": values}
	return &Interaction{s, s.newInteractionLocked(s.users[u.ID], c, 3, data, cur)}, nil
}

// ForgeClick sends a button interaction with any custom_id for any message
// ID in a channel, skipping the checks a real client makes: for testing the
// bot's defences against forged or outdated custom_ids.
func (u *User) ForgeClick(channelID, messageID, customID string) (*Interaction, error) {
	return u.ForgeComponent(channelID, messageID, customID, 2, nil)
}

// ForgeComponent is ForgeClick for any component type and values.
func (u *User) ForgeComponent(channelID, messageID, customID string, componentType int, values []string) (*Interaction, error) {
	s := u.s
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.channels[channelID]
	if c == nil {
		return nil, fmt.Errorf("discordtest: unknown channel %s", channelID)
	}
	src := s.messages[messageID]
	if src == nil {
		src = &Message{ID: messageID, ChannelID: channelID, GuildID: c.guildID, AuthorID: s.botID, Timestamp: s.clock.Now()}
	}
	data := map[string]any{"custom_id": customID, "component_type": componentType}
	if values != nil {
		data["values"] = values
	}
	s.logf(u.Name, "forges component %q (type %d) on message %s", customID, componentType, messageID)
	return &Interaction{s, s.newInteractionLocked(s.users[u.ID], c, 3, data, src)}, nil
}

// SubmitModal fills in and submits the modal the bot opened in answer to
// from; values maps text-input custom_ids to text.
func (u *User) SubmitModal(from *Interaction, values map[string]string) (*Interaction, error) {
	s := u.s
	s.mu.Lock()
	defer s.mu.Unlock()
	md := from.it.modal
	if md == nil {
		return nil, fmt.Errorf("discordtest: interaction %s opened no modal", from.it.id)
	}
	c := s.channels[from.it.channelID]
	rows := []any{}
	for _, row := range md.Components {
		for _, ti := range row.Components {
			rows = append(rows, map[string]any{"type": 1, "components": []any{
				map[string]any{"type": 4, "custom_id": ti.CustomID, "value": values[ti.CustomID]}}})
		}
	}
	data := map[string]any{"custom_id": md.CustomID, "components": rows}
	src := s.messages[from.it.sourceID]
	s.logf(u.Name, "submits modal %q", md.Title)
	return &Interaction{s, s.newInteractionLocked(s.users[u.ID], c, 5, data, src)}, nil
}

// Messages returns what the user sees in a channel, oldest first: the
// public messages plus the ephemeral messages addressed to the user.
func (u *User) Messages(channelID string) []*Message {
	u.s.mu.Lock()
	_, err := u.channelLocked(channelID)
	u.s.mu.Unlock()
	if err != nil {
		return nil
	}
	return u.s.visibleMessages(channelID, u.ID)
}

// LastMessage returns the newest message the user sees in a channel; it is
// the same as Newest.
func (u *User) LastMessage(channelID string) (*Message, bool) {
	return u.Newest(channelID)
}

// Newest returns the newest message the user sees in a channel (public, or
// ephemeral for this user; not deleted): the last of Messages, without
// copying the channel. It takes amortised constant time.
func (u *User) Newest(channelID string) (*Message, bool) {
	u.s.mu.Lock()
	defer u.s.mu.Unlock()
	c, err := u.channelLocked(channelID)
	if err != nil {
		return nil, false
	}
	return u.s.newestLocked(c, u.ID)
}

// CanSee reports whether the user sees message id (exists, not deleted, not
// someone else's ephemeral message).
func (u *User) CanSee(id string) bool {
	u.s.mu.Lock()
	defer u.s.mu.Unlock()
	m := u.s.messages[id]
	if m == nil || m.Deleted || !visibleTo(m, u.ID) {
		return false
	}
	_, err := u.channelLocked(m.ChannelID)
	return err == nil
}

// Watch returns a Watcher for the events of a channel the user sees,
// including the user's ephemeral messages.
func (u *User) Watch(channelID string) *Watcher {
	w := u.s.Watch(channelID)
	w.userID = u.ID
	return w
}
