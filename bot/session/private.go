package session

import (
	"fmt"
	"time"

	"github.com/qwixxbot/qwixxbot/game"
)

// A private game is a solo dice game (RULES' one-sheet setting) that one
// person plays alone: /qwixx solo, and the daily challenge. Its table is
// stored like a channel's, under a key that names the kind and the player
// (PrivateKey), so it is kept and resumed across restarts; it has no
// timer (nobody else waits) and no match.

// PrivateKey is the stored key of userID's private game of kind.
func PrivateKey(kind, userID string) string { return kind + ":" + userID }

// PrivateResults is the history's guild of the private games played
// outside a server (DMs, group DMs): their results are kept like any
// others (retention, forget-me).
const PrivateResults = "@dm"

// PrivateGuild is where a private game's result is kept: its server, or
// PrivateResults.
func PrivateGuild(guildID string) string {
	if guildID == "" {
		return PrivateResults
	}
	return guildID
}

// Player is who starts a private game: their user ID, display name,
// language and the server they started it in ("" outside servers).
type Player struct {
	UserID, Name, Lang, GuildID string
}

// NewPrivate deals the private game of kind for the player and starts it
// at time now: one seat, no timer, no hints in the daily challenge. g is
// its game, made for the one name NewPrivate gives (PrivateName).
func NewPrivate(kind string, p Player, g func(name string) (*game.Game, error), now time.Time) (*Table, error) {
	if kind != PrivateSolo && kind != PrivateDaily {
		return nil, fmt.Errorf("session: private game of kind %q", kind)
	}
	key := PrivateKey(kind, p.UserID)
	t := &Table{
		ID: NewTableID(), GuildID: PrivateGuild(p.GuildID), ChannelID: key, Host: p.UserID, Variant: game.Dice, Games: 1,
		Stage: StageLobby, Lang: p.Lang, Created: now.UTC(), Private: kind, NoHints: kind == PrivateDaily,
	}
	t.Seats = []Seat{{UserID: p.UserID, Name: t.UniqueName(p.Name)}}
	gm, err := g(t.Seats[0].Name)
	if err != nil {
		return nil, fmt.Errorf("session: start solo game: %w", err)
	}
	if gm.NumPlayers() != 1 || gm.Variant() != game.Dice {
		return nil, fmt.Errorf("session: a private game is the solo dice game, not %s for %d", gm.Variant(), gm.NumPlayers())
	}
	if err := t.Begin(gm, Timing{Now: now}); err != nil { // no match, no timer
		return nil, err
	}
	return t, nil
}

// DailyChoice is what asking for daily challenge n does with the player's
// stored daily table.
type DailyChoice int

const (
	// DailyDeal deals challenge n (none stored, or an older one).
	DailyDeal DailyChoice = iota
	// DailyResume shows challenge n, still being played.
	DailyResume
	// DailyDone shows challenge n, played: once a day.
	DailyDone
)

// Daily decides what asking for daily challenge n does with the stored
// daily table old (nil: none): n again is shown as it is (being played,
// or done for the day); anything else deals n, and streak is the streak
// the new table starts from: old's when old was challenge n-1 played to
// its end (the day before), else 0 (a missed day restarts it). An
// unfinished older challenge is replaced.
func Daily(old *Table, n int) (choice DailyChoice, streak int) {
	switch {
	case old != nil && old.Daily == n && old.Stage == StagePlaying:
		return DailyResume, 0
	case old != nil && old.Daily == n:
		return DailyDone, 0
	case old != nil && old.Daily == n-1 && old.Stage == StageOver:
		return DailyDeal, old.Streak
	}
	return DailyDeal, 0
}

// NextDaily is when the next daily challenge starts: the next UTC midnight.
func NextDaily(now time.Time) time.Time {
	u := now.UTC()
	return time.Date(u.Year(), u.Month(), u.Day()+1, 0, 0, 0, 0, time.UTC)
}
