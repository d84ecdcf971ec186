package session

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/qwixxbot/qwixxbot/game/stats"
)

// The session's storage, in its own terms. Every call takes a context: a
// call whose context has ended (the bot shutting down, an interaction's
// life over) starts no transaction and returns the context's error. A
// transaction once begun is finished: a move is on disk whole or not at
// all. OnDisk implements all three interfaces on the bbolt store.

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

// Finished is a game just over: its result and its record (game/RECORD.md).
type Finished struct {
	Result stats.Result
	Record []byte
}

// KeptRecord is a finished game's kept record.
type KeptRecord struct {
	GameID string
	// Time is when the game ended.
	Time time.Time
	// Users are the players' user IDs in seat order; "" for computers and
	// forgotten players.
	Users []string
	// JSON is the record in the format of game/RECORD.md.
	JSON []byte
	// Private marks a private game's record: its players' alone.
	Private bool
}

// RecordInfo names a kept record.
type RecordInfo struct {
	GameID string
	Time   time.Time
}

// Forgotten is what forgetting a user changed.
type Forgotten struct {
	// Results and Records are those in which the user's seat was made
	// anonymous; Unreadable counts damaged values deleted because they
	// might hold the user's data.
	Results, Records, Unreadable int
}

// SweepReport is what a sweep dropped.
type SweepReport struct {
	// Purged are the guilds whose data was deleted, their grace over.
	Purged []string
	// Results and Records count what the retention dropped elsewhere.
	Results, Records int
}

// Retention is how long results and records are kept; a negative
// duration keeps for ever, a negative count has no cap.
type Retention struct {
	ResultMaxAge    time.Duration
	ResultsPerGuild int
	RecordMaxAge    time.Duration
	RecordsPerGuild int
	GuildGrace      time.Duration
}

// ErrCorrupt is the class of the errors of a stored value that is damaged
// (its checksum fails): errors.Is(err, ErrCorrupt). DamagedBytes returns
// its bytes as stored.
var ErrCorrupt = errors.New("stored value is damaged")

// CorruptError is a damaged stored value: its bytes as stored, and why.
type CorruptError struct {
	Raw   []byte
	Cause error
}

func (e *CorruptError) Error() string        { return e.Cause.Error() }
func (e *CorruptError) Unwrap() error        { return e.Cause }
func (e *CorruptError) Is(target error) bool { return target == ErrCorrupt }

// IsCorrupt reports whether err is a damaged stored value's.
func IsCorrupt(err error) bool { return errors.Is(err, ErrCorrupt) }

// DamagedBytes returns the bytes of the damaged value err is about, if it
// carries them.
func DamagedBytes(err error) ([]byte, bool) {
	var ce *CorruptError
	if errors.As(err, &ce) {
		return ce.Raw, ce.Raw != nil
	}
	return nil, false
}

// SkippedError says that a listing left out damaged values.
type SkippedError struct {
	N     int
	Cause error
}

func (e *SkippedError) Error() string {
	return fmt.Sprintf("%d damaged values left out: %v", e.N, e.Cause)
}
func (e *SkippedError) Unwrap() error { return e.Cause }

// Skipped is how many damaged values a listing left out (0 when err is
// no SkippedError).
func Skipped(err error) int {
	var se *SkippedError
	if errors.As(err, &se) {
		return se.N
	}
	return 0
}
