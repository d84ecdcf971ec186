package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Turn timer limits for /qwixx settings.
const (
	MinTurnTimeout = 15 * time.Second
	MaxTurnTimeout = 24 * time.Hour
)

// guildSettings are a server's own settings, stored per guild.
type guildSettings struct {
	TurnTimeout time.Duration `json:"turn_timeout,omitempty"`
}

// settingsFor reads a guild's settings; a missing or unreadable blob means
// the defaults.
func (b *Bot) settingsFor(ctx context.Context, guildID string) guildSettings {
	var gs guildSettings
	data, ok, err := b.st.GuildSettings(ctx, guildID)
	if err != nil || !ok || json.Unmarshal(data, &gs) != nil {
		return guildSettings{}
	}
	return gs
}

// turnTimeout is the guild's turn timer, or the configured default.
func (b *Bot) turnTimeout(ctx context.Context, guildID string) time.Duration {
	if d := b.settingsFor(ctx, guildID).TurnTimeout; d >= MinTurnTimeout && d <= MaxTurnTimeout {
		return d
	}
	return b.opt.TurnTimeout
}

// cmdSettings shows the server's settings, or changes the turn timer
// (members with Manage Server only).
func (b *Bot) cmdSettings(r *request, seconds int64) {
	if seconds != 0 {
		if r.perms&discordgo.PermissionManageGuild == 0 {
			r.ephemeral(r.lang.T("settings.perm"))
			return
		}
		d := time.Duration(seconds) * time.Second
		if d < MinTurnTimeout || d > MaxTurnTimeout {
			r.ephemeral(r.lang.T("settings.range", formatDuration(r.lang, MinTurnTimeout), formatDuration(r.lang, MaxTurnTimeout)))
			return
		}
		gs := b.settingsFor(r.ctx, r.i.GuildID)
		gs.TurnTimeout = d
		data, _ := json.Marshal(gs)
		if err := b.st.PutGuildSettings(r.ctx, r.i.GuildID, data); err != nil {
			r.fail(fmt.Errorf("bot: save settings: %w", err))
			return
		}
		r.log.Info().Str("guild", r.i.GuildID).Dur("turn_timeout", d).Msg("settings changed")
	}
	r.ephemeral(r.lang.T("settings.show", formatDuration(r.lang, b.turnTimeout(r.ctx, r.i.GuildID))))
}
