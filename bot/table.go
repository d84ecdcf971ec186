package bot

import (
	"github.com/qwixxbot/qwixxbot/bot/session"
)

// The table and its parts are the session package's (bot/session): the
// bot stores them and shows them.
type (
	// Table is a channel's (or a private game's) table.
	Table = session.Table
	// Seat is a player at a table.
	Seat = session.Seat
	// Stage is where a table is in its life.
	Stage = session.Stage
	// News is one public event of a turn.
	News = session.News
	// Shown is what the channel shows of a table.
	Shown = session.Shown
	// PastTurn is a finished turn's message and its log line.
	PastTurn = session.PastTurn
)

// TableVersion is the version of a stored table.
const TableVersion = session.TableVersion

// The stages of a table.
const (
	StageLobby   = session.StageLobby
	StagePlaying = session.StagePlaying
	StageOver    = session.StageOver
)

// The events of News.
const (
	newsLock        = session.NewsLock
	newsMisthrow    = session.NewsMisthrow
	newsReshuffle   = session.NewsReshuffle
	newsPlayed      = session.NewsPlayed
	newsLeft        = session.NewsLeft
	newsLeftBot     = session.NewsLeftBot
	newsTimeout     = session.NewsTimeout
	newsTimeoutTake = session.NewsTimeoutTake
	newsTimeoutPlay = session.NewsTimeoutPlay
)
