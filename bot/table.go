package bot

import (
	"strconv"

	"github.com/qwixxbot/qwixxbot/bot/i18n/msg"

	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/game"
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

// newsWords puts the news into words in l, naming the seats' players.
func newsWords(n News, l Lang, seats []Seat) string {
	name := "#" + strconv.Itoa(n.Seat+1)
	if n.Seat >= 0 && n.Seat < len(seats) {
		name = seats[n.Seat].Name
	}
	switch n.Event {
	case newsLock:
		return l.T(msg.EventLock, name, rowName(l, n.Color))
	case newsMisthrow:
		return l.T(msg.EventMisthrow, name, n.N)
	case newsReshuffle:
		return l.T(msg.EventReshuffle, n.N)
	case newsPlayed:
		cards := make([]game.Card, 0, len(n.Cards))
		for _, s := range n.Cards {
			if c, err := game.ParseCard(s); err == nil {
				cards = append(cards, c)
			}
		}
		return l.T(msg.TurnPlayed, name, playedList(l, cards, n.Color, true))
	case newsLeft:
		return l.T(msg.EventLeft, name)
	case newsLeftBot:
		return l.T(msg.EventLeftComputer, name)
	case newsTimeout:
		return l.T(msg.TurnTimeout, name)
	case newsTimeoutTake:
		return l.T(msg.TurnTimeoutTake, name, joinInts(n.Nums, " + "))
	case newsTimeoutPlay:
		return l.T(msg.TurnTimeoutPlay, name)
	}
	return n.Text
}

// actionID makes the custom_id of a component in t's view for its current
// state.
func actionID(t *Table, view View, verb, arg string) string {
	return Action{Table: t.ID, Stamp: t.Stamp(), View: view, Verb: verb, Arg: arg}.Encode()
}
