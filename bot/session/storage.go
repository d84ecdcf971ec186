package session

import (
	"context"
	"time"

	"github.com/qwixxbot/qwixxbot/game/kept"
	"github.com/qwixxbot/qwixxbot/game/stats"
)

// The session's storage, in its own terms. Every call takes a context: a
// call whose context has ended (the bot shutting down, an interaction's
// life over) starts no transaction and returns the context's error. A
// transaction once begun is finished: a move is on disk whole or not at
// all. store/sessiondb implements all three interfaces, and RestoreMark,
// on the bbolt store.

// Tables keeps one blob per key: a channel's table (the channel's ID), a
// private game ("solo:<user>", "daily:<user>"), a guild's settings.
// Update must run fn and write its result in one durable transaction.
type Tables interface {
	Get(ctx context.Context, key string) ([]byte, bool, error)
	// GetUnless is Get, but when the stored table is have (bytes read
	// earlier, not nil) it only says so (same), without reading it again.
	GetUnless(ctx context.Context, key string, have []byte) (blob []byte, exists, same bool, err error)
	Update(ctx context.Context, key string, fn func(old []byte, exists bool) (blob []byte, del bool, err error)) error
	// ForEach calls fn with every stored table; a damaged one comes with
	// an error for which IsCorrupt holds.
	ForEach(ctx context.Context, fn func(key string, blob []byte, err error) error) error
	// Quarantine moves the key's stored table aside, bytes kept as they
	// are, and deletes it (an unreadable table, cleared by its host).
	Quarantine(ctx context.Context, key, reason string) (moved bool, err error)
	GuildSettings(ctx context.Context, guildID string) ([]byte, bool, error)
	PutGuildSettings(ctx context.Context, guildID string, blob []byte) error
}

// LaterTables is Tables that can also write a table without waiting for
// it to be on disk: PutLater stores blob under key with the next durable
// write (soon in any case), and reads see it at once; a crash before then
// loses it, and only it. It is for what a restart makes again anyway (the
// record that a message now shows a state, which the first pass after a
// start redoes), never for a move. Writes of one key keep their order.
type LaterTables interface {
	Tables
	PutLater(ctx context.Context, key string, blob []byte) error
}

// History keeps the finished games: their results (statistics,
// leaderboards) and records (replays, reviews), and applies the retention
// and the forgetting of a user.
type History interface {
	// UpdateSaving is Tables.Update that also saves the games, in the
	// same transaction, when fn writes.
	UpdateSaving(ctx context.Context, key string, games []Finished, fn func(old []byte, exists bool) (blob []byte, del bool, err error)) error
	// Results are the guild's newest results, at most limit. Damaged ones
	// are left out and counted by Skipped(err).
	Results(ctx context.Context, guildID string, limit int) ([]stats.Result, error)
	// Record is the guild's kept record of gameID ("" the newest).
	Record(ctx context.Context, guildID, gameID string) (KeptRecord, bool, error)
	// Records lists the guild's kept records, newest first, at most limit.
	Records(ctx context.Context, guildID string, limit int) ([]RecordInfo, error)
	// DeleteUser forgets the user in the guild ("" every guild).
	DeleteUser(ctx context.Context, guildID, userID string) (Forgotten, error)
	// GuildLeft starts the grace period of a guild the bot left;
	// GuildBack ends it and reports whether one was running.
	GuildLeft(ctx context.Context, guildID string, at time.Time) error
	GuildBack(ctx context.Context, guildID string) (bool, error)
	// Sweep applies the retention at time now.
	Sweep(ctx context.Context, now time.Time) (SweepReport, error)
	// Retention is how long results and records are kept.
	Retention() Retention
}

// Secrets keeps named secrets, each made once (32 random bytes) and the
// same for every process on the store, and the marks of the daily
// challenges played: per day a keyed hash of each player (made with a
// secret, never the user ID), kept across forget-me so that the day's
// dice are played once.
type Secrets interface {
	Secret(ctx context.Context, name string) ([]byte, error)
	// DailyMarked reports whether mark was kept for day.
	DailyMarked(ctx context.Context, day int, mark []byte) (bool, error)
	// MarkDaily keeps mark for day, durably, and reports whether it was
	// kept already.
	MarkDaily(ctx context.Context, day int, mark []byte) (already bool, err error)
}

// The values that cross between the session and its storage are
// game/kept's (see there why they live below both); these are their names
// in the session.
type (
	// Finished is a game just over: its result and its record.
	Finished = kept.Finished
	// KeptRecord is a finished game's kept record.
	KeptRecord = kept.Record
	// RecordInfo names a kept record.
	RecordInfo = kept.RecordInfo
	// Forgotten is what forgetting a user changed.
	Forgotten = kept.Forgotten
	// SweepReport is what a sweep dropped.
	SweepReport = kept.SweepReport
	// Retention is how long results and records are kept.
	Retention = kept.Retention
	// CorruptError is a damaged stored value: its bytes as stored, and why.
	CorruptError = kept.CorruptError
	// SkippedError says that a listing left out damaged values.
	SkippedError = kept.SkippedError
)

// ErrCorrupt is the class of the errors of a stored value that is damaged
// (its checksum fails): errors.Is(err, ErrCorrupt). DamagedBytes returns
// its bytes as stored.
var ErrCorrupt = kept.ErrCorrupt

// IsCorrupt reports whether err is a damaged stored value's.
func IsCorrupt(err error) bool { return kept.IsCorrupt(err) }

// DamagedBytes returns the bytes of the damaged value err is about, if it
// carries them.
func DamagedBytes(err error) ([]byte, bool) { return kept.DamagedBytes(err) }

// Skipped is how many damaged values a listing left out (0 when err is
// no SkippedError).
func Skipped(err error) int { return kept.Skipped(err) }
