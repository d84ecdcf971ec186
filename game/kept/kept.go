// Package kept names what is kept of finished games and how their storage
// reports damage: the values that cross between the session (bot/session,
// which defines the storage interfaces) and their implementation on the
// bbolt store (store/sessiondb). It is data only: types, a sentinel error
// and accessors, no I/O.
//
// Why a package of its own, under game: the dependencies point cmd → bot
// → store → game, so store/sessiondb may not import bot/session, and
// bot/session imports no store package. A Go interface is only satisfied
// by methods whose signatures name the identical types, so the values in
// those signatures need one definition that both sides see, below both:
// here, beside game/stats, whose Result is the other half of a finished
// game. The session re-exports them under its own names (type aliases),
// so its callers are unchanged; the store keeps its own types of the
// same shape, converted by store/sessiondb.
package kept

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/qwixxbot/qwixxbot/game/stats"
)

// LegacyDMPlace is where versions before the places kept every DM's and
// group DM's games together (the store's LegacyDMGuild, migration 5).
const LegacyDMPlace = "@dm"

// Finished is a game just over: its result and its record (game/RECORD.md).
type Finished struct {
	Result stats.Result
	Record []byte
}

// Record is a finished game's kept record.
type Record struct {
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

// VisibleTo reports whether viewer may see the record of the place they
// read: a table game's is its players' and its place's, a private game's
// (solo, daily challenge) its player's alone.
func (r Record) VisibleTo(viewer string) bool {
	return !r.Private || (viewer != "" && slices.Contains(r.Users, viewer))
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
