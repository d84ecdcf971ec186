package discordtest

import (
	"encoding/json"
	"net/http"
)

// command is a registered application command.
type command struct {
	id  string
	def cmdDef
	raw map[string]any // as returned by the API
}

func (s *Server) commandScope(rq *req) (string, int, any) {
	if rq.param("app") != s.appID {
		st, body := apiError(http.StatusForbidden, 50001, "Missing Access")
		return "", st, body
	}
	g := rq.param("guild")
	if g != "" && s.guilds[g] == nil {
		st, body := apiError(http.StatusNotFound, 10004, "Unknown Guild")
		return "", st, body
	}
	return g, 0, nil
}

func (s *Server) getCommands(rq *req) (int, any) {
	scope, st, body := s.commandScope(rq)
	if st != 0 {
		return st, body
	}
	list := []any{}
	for _, c := range s.commands[scope] {
		list = append(list, c.raw)
	}
	return http.StatusOK, list
}

func (s *Server) putCommands(rq *req) (int, any) {
	scope, st, body := s.commandScope(rq)
	if st != 0 {
		return st, body
	}
	var defs []cmdDef
	var raws []map[string]any
	if err := rq.decode(&defs); err != nil {
		return apiError(http.StatusBadRequest, 50109, "The request body contains invalid JSON.")
	}
	if err := json.Unmarshal(rq.raw, &raws); err != nil {
		return apiError(http.StatusBadRequest, 50109, "The request body contains invalid JSON.")
	}
	if fe := validateCommands(defs); len(fe) > 0 {
		return invalidForm(fe)
	}
	old := map[string]string{}
	for _, c := range s.commands[scope] {
		old[itoa(c.def.Type)+" "+c.def.Name] = c.id
	}
	var cmds []*command
	out := []any{}
	for i, d := range defs {
		if d.Type == 0 {
			d.Type = 1
		}
		id := old[itoa(d.Type)+" "+d.Name]
		if id == "" {
			id = s.newID()
		}
		raw := raws[i]
		raw["id"], raw["application_id"], raw["version"], raw["type"] = id, s.appID, s.newID(), d.Type
		if scope != "" {
			raw["guild_id"] = scope
		}
		for k, v := range map[string]any{"default_member_permissions": nil, "nsfw": false,
			"description": "", "integration_types": []int{0}, "contexts": nil} {
			if _, ok := raw[k]; !ok {
				raw[k] = v
			}
		}
		if scope == "" {
			if _, ok := raw["dm_permission"]; !ok {
				raw["dm_permission"] = true
			}
		}
		cmds = append(cmds, &command{id: id, def: d, raw: raw})
		out = append(out, raw)
	}
	s.commands[scope] = cmds
	where := "globally"
	if scope != "" {
		where = "in guild " + scope
	}
	s.logf("bot", "registers %d command(s) %s", len(cmds), where)
	s.notifyLocked()
	return http.StatusOK, out
}

// Commands returns the names of the commands registered for a guild ("" =
// global commands).
func (s *Server) Commands(guildID string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var names []string
	for _, c := range s.commands[guildID] {
		names = append(names, c.def.Name)
	}
	return names
}

// CommandJSON returns a registered command as the API returned it.
func (s *Server) CommandJSON(guildID, name string) (map[string]any, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.commands[guildID] {
		if c.def.Name == name {
			return cloneJSON(c.raw), true
		}
	}
	return nil, false
}

// findCommandLocked finds a chat command u may use in a channel, with the
// installations that authorize it (userinstall.go): guild commands first
// (where the bot is a member), then global ones (in DMs only global ones
// allowed in DMs).
func (s *Server) findCommandLocked(u *userRec, c *channel, name string) (*command, map[string]any) {
	if c.guildID != "" && s.botMemberLocked(c) {
		for _, cmd := range s.commands[c.guildID] {
			if cmd.def.Name == name && cmd.def.Type == 1 {
				return cmd, map[string]any{"0": c.guildID}
			}
		}
	}
	for _, cmd := range s.commands[""] {
		if cmd.def.Name != name || cmd.def.Type != 1 {
			continue
		}
		if c.typ == 1 {
			if cmd.def.DMPermission != nil && !*cmd.def.DMPermission {
				return nil, nil
			}
			if cmd.def.Contexts != nil && !containsInt(*cmd.def.Contexts, 1) {
				return nil, nil
			}
		}
		owners, ok := s.commandUsableLocked(u, c, cmd)
		if !ok {
			return nil, nil
		}
		return cmd, owners
	}
	return nil, nil
}

func containsInt(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
