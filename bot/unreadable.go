package bot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"

	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"

	"github.com/bwmarrin/discordgo"

	"github.com/qwixxbot/qwixxbot/bot/session"
)

// unreadableError is a channel's stored table that cannot be read: its
// checksum failed (session.ErrCorrupt) or it does not decode into a valid
// table (an unknown version, a game that breaks the rules' invariants). It
// is never played on. The host, when still legible, or anyone who may
// manage messages can put it aside (Store.Quarantine) with /qwixx end or
// /qwixx new; everybody else is told so.
type unreadableError struct {
	channelID string
	host      string // the table's host if the bytes still say so
	cause     error
}

func (e *unreadableError) Error() string {
	return fmt.Sprintf("bot: stored table of channel %s unreadable: %v", e.channelID, e.cause)
}

func (e *unreadableError) Unwrap() error { return e.cause }

// unreadable makes the error for channelID's unreadable table (raw is what
// could be read of it, if anything), logs it once per process and stops its
// timer.
func (b *Bot) unreadable(channelID string, raw []byte, cause error) error {
	e := &unreadableError{channelID: channelID, host: hostIn(raw), cause: cause}
	if _, seen := b.unreadableSeen.LoadOrStore(channelID, true); !seen {
		b.log.Error().Err(cause).Str("channel", channelID).Msg("stored table unreadable: not played on; the host or a moderator can clear it with /qwixx end")
	}
	b.timers.set(channelID, nil)
	return e
}

// hostRE finds the host's user ID in a stored table whose JSON may be
// damaged elsewhere.
var hostRE = regexp.MustCompile(`"host":"([0-9]{1,20})"`)

// hostIn is the host a stored table names, if its bytes still say so.
func hostIn(raw []byte) string {
	var peek struct {
		Host string `json:"host"`
	}
	head, _, _ := bytes.Cut(raw, []byte{'\n'}) // the table, before its game
	if json.Unmarshal(head, &peek) == nil && userID(peek.Host) {
		return peek.Host
	}
	if m := hostRE.FindSubmatch(raw); m != nil {
		return string(m[1])
	}
	return ""
}

// unreadableText tells a user why the channel's table cannot be played and
// who may clear it: its host, when the bytes still say who that is, and
// members who may manage messages.
func unreadableText(l Lang, ue *unreadableError) string {
	if ue.host != "" {
		return l.T(msg.ErrUnreadable, "<@"+ue.host+">")
	}
	return l.T(msg.ErrUnreadableNohost)
}

// asUnreadable reports whether err is an unreadable table.
func asUnreadable(err error) (*unreadableError, bool) {
	if err == nil {
		return nil, false // without errors.As's target on the heap
	}
	var ue *unreadableError
	ok := errors.As(err, &ue)
	return ue, ok
}

// isCorrupt reports whether a store error means damaged bytes.
func isCorrupt(err error) bool { return session.IsCorrupt(err) }

// clearUnreadable puts the channel's unreadable table aside if the user may
// (its host, or a member who may manage messages), keeping its bytes in the
// store's quarantine. It answers the user itself when they may not, and
// reports whether the table was cleared.
func (b *Bot) clearUnreadable(r *request, ue *unreadableError) bool {
	if (ue.host == "" || r.userID != ue.host) && r.perms&discordgo.PermissionManageMessages == 0 {
		r.ephemeral(unreadableText(r.lang, ue))
		return false
	}
	unlock := b.locks.Lock(ue.channelID)
	moved, err := b.st.Quarantine(r.ctx, ue.channelID, ue.cause.Error())
	unlock()
	if err != nil {
		r.fail(fmt.Errorf("bot: quarantine table: %w", err))
		return false
	}
	b.unreadableSeen.Delete(ue.channelID)
	r.log.Warn().Bool("moved", moved).Msg("unreadable table put aside (quarantine)")
	return true
}
