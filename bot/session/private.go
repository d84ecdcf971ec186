package session

import (
	"fmt"
	"time"

	"github.com/qwixxbot/qwixxbot/game"
	"github.com/qwixxbot/qwixxbot/game/kept"
)

// A private game is a solo dice game (RULES' one-sheet setting) that one
// person plays alone: /qwixx solo, and the daily challenge. Its table is
// stored like a channel's, under a key that names the kind and the player
// (PrivateKey), so it is kept and resumed across restarts; it has no
// timer (nobody else waits) and no match.

// PrivateKey is the stored key of userID's private game of kind.
func PrivateKey(kind, userID string) string { return kind + ":" + userID }

// A game's place is where its history is kept and who, besides its
// players, may see it: a server (its guild ID), or a DM or group DM of its
// own (PlacePrefix and the channel ID; every DM and group DM is its own
// place, so no history is shared between them). A table game is its
// place's; a private game its player's alone, wherever it is kept
// (stats.Result.Private).

// PlacePrefix starts the place of a DM or group DM: "@dm:" and the
// channel ID.
const PlacePrefix = "@dm:"

// LegacyDMPlace is where versions before the places kept every DM's and
// group DM's games together. What is kept there is private (store
// migration 5): a request from any DM or group DM sees its own games
// there, and nobody else's.
const LegacyDMPlace = kept.LegacyDMPlace

// Place is the place of an interaction in guildID ("" outside servers)
// and channelID.
func Place(guildID, channelID string) string {
	if guildID == "" {
		return PlacePrefix + channelID
	}
	return guildID
}

// Places are the places whose history a request in guildID and channelID
// reads: its place, and outside servers also LegacyDMPlace.
func Places(guildID, channelID string) []string {
	if guildID == "" {
		return []string{Place(guildID, channelID), LegacyDMPlace}
	}
	return []string{guildID}
}

// SamePlace reports whether a table of place tablePlace may be acted on
// from guildID and channelID: the same server, or outside servers the
// same DM or group DM (a table kept before places, under LegacyDMPlace,
// from any of them).
func SamePlace(tablePlace, guildID, channelID string) bool {
	if guildID == "" && tablePlace == LegacyDMPlace {
		return true
	}
	return tablePlace == Place(guildID, channelID)
}

// Player is who starts a private game: their user ID, display name,
// language and the server and channel they started it in (GuildID ""
// outside servers).
type Player struct {
	UserID, Name, Lang, GuildID, ChannelID string
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
		ID: NewTableID(), GuildID: Place(p.GuildID, p.ChannelID), ChannelID: key, Host: p.UserID, Variant: game.Dice, Games: 1,
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
