package serve

import (
	"github.com/qwixxbot/qwixxbot/bot/session"
	"github.com/qwixxbot/qwixxbot/store/sessiondb"
)

// The session's storage on the bbolt store (store/sessiondb) implements
// the interfaces the session defines (bot/session); store/sessiondb
// cannot say so itself, as it imports no bot package, so the program that
// puts the two together does.
var _ interface {
	session.LaterTables
	session.History
	session.Secrets
	session.RestoreMark
} = (*sessiondb.OnDisk)(nil)
