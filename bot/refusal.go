package bot

import (
	"github.com/qwixxbot/qwixxbot/bot/customid"
	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/bot/view"
)

// refuse answers the clicker why their intent was refused at t, and
// returns errRefused for the table change it ends (nothing is saved).
func (r *request) refuse(t *Table, err error) error {
	r.ephemeral(view.Refusal(r.lang, t, err))
	return errRefused
}

// click is what the request's component names, as a session intent's
// click: the table and state of action a, and the clicker.
func (r *request) click(a customid.Action) session.Click {
	return session.Click{Table: a.Table, Stamp: a.Stamp, User: r.userID}
}
