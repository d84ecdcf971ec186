package bot

import (
	"context"
	"errors"
	"time"

	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"
	"github.com/qwixxbot/qwixxbot/bot/view"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/session"
)

// Turn timer limits for /qwixx settings (session's).
const (
	MinTurnTimeout = session.MinTurnTimeout
	MaxTurnTimeout = session.MaxTurnTimeout
)

// turnTimeout is the guild's turn timer, or the configured default.
func (b *Bot) turnTimeout(ctx context.Context, guildID string) time.Duration {
	return session.LoadSettings(ctx, b.st, guildID).TurnTimeoutOr(b.opt.TurnTimeout)
}

// cmdSettings shows the server's settings, or changes the turn timer
// (members with Manage Server only: session.SetTurnTimeout).
func (b *Bot) cmdSettings(r *request, seconds int64) {
	if seconds != 0 {
		d := time.Duration(seconds) * time.Second
		_, err := session.SetTurnTimeout(r.ctx, b.st, r.i.GuildID, d, r.perms&discordgo.PermissionManageGuild != 0)
		switch {
		case errors.Is(err, session.ErrManageServer), errors.Is(err, session.ErrTimeoutRange):
			r.refuse(nil, err)
			return
		case err != nil:
			r.fail(err)
			return
		}
		r.log.Info().Str("guild", r.i.GuildID).Dur("turn_timeout", d).Msg("settings changed")
	}
	r.ephemeral(r.lang.T(msg.SettingsShow, view.FormatDuration(r.lang, b.turnTimeout(r.ctx, r.i.GuildID))))
}
