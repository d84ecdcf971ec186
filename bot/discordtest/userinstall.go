package discordtest

import (
	"fmt"
	"slices"
)

// User-installed apps (Discord's integration type USER_INSTALL). A user
// who installed the application (User.InstallApp) can run its global
// commands registered for that integration type in any context the
// command allows (its contexts): a server the bot is a member of or not
// (GUILD, 0), the DM with the bot (BOT_DM, 1), and DMs and group DMs
// between users (PRIVATE_CHANNEL, 2). Where the bot is not a member the
// app reaches the channel only through interactions: the bot's channel
// REST there answers 403 Missing Access (50001), as Discord does for a
// channel the bot cannot see. An interaction says which installation
// authorized it (authorizing_integration_owners: "0" the guild's install,
// by guild ID; "1" the user's, by user ID) and its context.
//
// Strictness first: a command without integration type 1 is not usable in
// a group DM or a server without the bot, whatever its contexts; contexts
// left out (null) allow every context of the command's integration types,
// as for commands registered before contexts existed.

// UserInstallFollowups is how many follow-up messages an interaction
// authorized by a user's install alone may create (Discord's changelog,
// "User-Installed Apps General Availability", 27 June 2024: "User-installed
// apps are now limited to creating a maximum of 5 follow-ups when
// responding to interactions"; apps installed to the server are not).
const UserInstallFollowups = 5

// Interaction context types.
const (
	ContextGuild          = 0
	ContextBotDM          = 1
	ContextPrivateChannel = 2
)

// Integration types (where an app is installed).
const (
	GuildInstall = 0
	UserInstall  = 1
)

// AddGroupDM creates a group DM (channel type 3) of the users, where the
// bot is no member, and returns its ID. Only its members see it.
func (s *Server) AddGroupDM(name string, members ...*User) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := &channel{id: s.newID(), name: name, typ: 3}
	for _, u := range members {
		c.recipients = append(c.recipients, u.ID)
	}
	s.channels[c.id] = c
	s.logf("fake", "group DM %s %q of %d users", c.id, name, len(members))
	s.notifyLocked()
	return c.id
}

// AddGuildWithoutBot creates a server the bot is not a member of (every
// user is), with one text channel, and returns both IDs. The bot gets no
// event of it and cannot see its channels.
func (s *Server) AddGuildWithoutBot(name, locale string) (guildID, channelID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if locale == "" {
		locale = "en-US"
	}
	g := &guild{id: s.newID(), name: name, locale: locale, members: map[string]int64{}, noBot: true}
	for id, u := range s.users {
		if !u.bot {
			g.members[id] = DefaultMemberPermissions
		}
	}
	s.guilds[g.id] = g
	c := &channel{id: s.newID(), guildID: g.id, name: "general", typ: 0}
	g.channels = append(g.channels, c.id)
	s.channels[c.id] = c
	s.logf("fake", "guild %s %q without the bot, channel %s", g.id, name, c.id)
	s.notifyLocked()
	return g.id, c.id
}

// InstallApp installs the application for the user (USER_INSTALL).
func (u *User) InstallApp() {
	s := u.s
	s.mu.Lock()
	defer s.mu.Unlock()
	s.users[u.ID].installed = true
	s.logf(u.Name, "installs the app")
	s.notifyLocked()
}

// botMemberLocked reports whether the bot is in the channel: a server's
// channel where the bot is a member, or its DM.
func (s *Server) botMemberLocked(c *channel) bool {
	switch {
	case c.typ == 1:
		return true
	case c.typ == 3:
		return false
	}
	g := s.guilds[c.guildID]
	return g != nil && !g.noBot
}

// contextOf is the interaction context of a channel.
func contextOf(c *channel) int {
	switch c.typ {
	case 1:
		return ContextBotDM
	case 3:
		return ContextPrivateChannel
	}
	return ContextGuild
}

// owners says which installations authorize u's interaction in c for a
// command of the integration types given (nil: guild install only, the
// default), or nil when none may: the guild's install where the bot is a
// member (or in its DM), the user's own where they installed the app.
func (s *Server) ownersLocked(u *userRec, c *channel, types []int) map[string]any {
	if types == nil {
		types = []int{GuildInstall}
	}
	out := map[string]any{}
	if slices.Contains(types, GuildInstall) && s.botMemberLocked(c) {
		if c.guildID != "" {
			out[fmt.Sprint(GuildInstall)] = c.guildID
		} else {
			out[fmt.Sprint(GuildInstall)] = "0" // the bot's DM
		}
	}
	if slices.Contains(types, UserInstall) && u.installed {
		out[fmt.Sprint(UserInstall)] = u.id
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// commandUsableLocked reports whether u may run cmd in c: its contexts
// allow the channel's, and an installation of one of its integration
// types authorizes it there; it returns the authorizing owners.
func (s *Server) commandUsableLocked(u *userRec, c *channel, cmd *command) (map[string]any, bool) {
	if cmd.def.Contexts != nil && !slices.Contains(*cmd.def.Contexts, contextOf(c)) {
		return nil, false
	}
	owners := s.ownersLocked(u, c, cmd.def.IntegrationTypes)
	return owners, owners != nil
}

// interactionOwnersLocked are the installations that authorize u's
// interaction in c: a command's (findCommandLocked), or for a component
// or modal those of the interaction that made its message (a click on a
// user-installed app's message in a group DM is authorized by the user
// who ran the command, whoever clicks), else the channel's own.
func (s *Server) interactionOwnersLocked(u *userRec, c *channel, typ int, data map[string]any, src *Message) map[string]any {
	if typ == InteractionApplicationCommand || typ == InteractionApplicationCommandAutocomplete {
		name, _ := data["name"].(string)
		if _, owners := s.findCommandLocked(u, c, name); owners != nil {
			return owners
		}
	}
	if src != nil {
		if it := s.interactions[src.InteractionID]; it != nil && it.owners != nil {
			return it.owners
		}
	}
	return s.ownersLocked(u, c, []int{GuildInstall, UserInstall})
}

// ownersOrEmpty is owners as the JSON object Discord sends ({} for none).
func ownersOrEmpty(owners map[string]any) map[string]any {
	if owners == nil {
		return map[string]any{}
	}
	return owners
}
