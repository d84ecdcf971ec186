package bot

import (
	"errors"

	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"
	"github.com/qwixxbot/qwixxbot/bot/session"
)

// refusal says why an intent was refused (session's errors: the lobby's,
// the game's, the click intents' and the settings'), in the user's words. t is the
// table the intent was refused at (nil where there is none: no refusal
// that names the table's seats or host comes without one).
func refusal(l Lang, t *Table, err error) string {
	switch {
	case errors.Is(err, session.ErrStale):
		return l.T(msg.ErrStale)
	case errors.Is(err, session.ErrGameOver):
		return l.T(msg.ErrOvergame)
	case errors.Is(err, session.ErrPrivateGone):
		return l.T(msg.SoloGone)
	case errors.Is(err, session.ErrPrivateStale):
		return l.T(msg.SoloStale)
	case errors.Is(err, session.ErrBadChoice):
		return l.T(msg.ErrForged)
	case errors.Is(err, session.ErrNotNow):
		return l.T(msg.ErrNotnow)
	case errors.Is(err, session.ErrHintsOff):
		return l.T(msg.HintOff)
	case errors.Is(err, session.ErrNothingToHint):
		return l.T(msg.HintNothing)
	case errors.Is(err, session.ErrReviewNotOver):
		return l.T(msg.ReviewNotover)
	case errors.Is(err, session.ErrNotInGame):
		return l.T(msg.ReviewNotplayer)
	case errors.Is(err, session.ErrNoHand):
		return l.T(msg.HandNone)
	case errors.Is(err, session.ErrHandOver):
		return l.T(msg.HandOver)
	case errors.Is(err, session.ErrNotAsker):
		return l.T(msg.ErrForged)
	case errors.Is(err, session.ErrBusy), errors.Is(err, session.ErrLobbyOpen):
		return l.T(msg.ErrBusy, variantName(l, t.Variant))
	case errors.Is(err, session.ErrNoGame):
		return l.T(msg.ErrNogame)
	case errors.Is(err, session.ErrRemoveHost):
		return l.T(msg.ErrRemovehost)
	case errors.Is(err, session.ErrEndPerm):
		return l.T(msg.ErrEndperm)
	case errors.Is(err, session.ErrNotPlaying):
		return l.T(msg.ErrNotplaying)
	case errors.Is(err, session.ErrLeftMatch):
		return l.T(msg.ErrLeft)
	case errors.Is(err, session.ErrSeated):
		return l.T(msg.ErrJoined)
	case errors.Is(err, session.ErrFull):
		return l.T(msg.ErrFull, t.SeatLimit())
	case errors.Is(err, session.ErrNotSeated):
		return l.T(msg.ErrNotseated)
	case errors.Is(err, session.ErrHostLeaves):
		return l.T(msg.ErrHostleave)
	case errors.Is(err, session.ErrHostOnly):
		return l.T(msg.ErrHostonly, "<@"+t.Host+">")
	case errors.Is(err, session.ErrFewPlayers):
		return l.T(msg.ErrFewplayers)
	case errors.Is(err, session.ErrManageServer):
		return l.T(msg.SettingsPerm)
	case errors.Is(err, session.ErrTimeoutRange):
		return l.T(msg.SettingsRange, formatDuration(l, MinTurnTimeout), formatDuration(l, MaxTurnTimeout))
	}
	return l.T(msg.ErrInternal)
}

// refuse answers the clicker why their intent was refused at t, and
// returns errRefused for the table change it ends (nothing is saved).
func (r *request) refuse(t *Table, err error) error {
	r.ephemeral(refusal(r.lang, t, err))
	return errRefused
}

// click is what the request's component names, as a session intent's
// click: the table and state of action a, and the clicker.
func (r *request) click(a Action) session.Click {
	return session.Click{Table: a.Table, Stamp: a.Stamp, User: r.userID}
}
