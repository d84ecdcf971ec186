package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/qwixxbot/qwixxbot/game"
	gamestats "github.com/qwixxbot/qwixxbot/game/stats"
	"go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Retention says how long the store keeps the history of finished games:
// their results (for statistics and leaderboards) and their game records
// (for export). Results are small (about 100 bytes); records are the whole
// game (several kilobytes), so they are kept for a shorter time.
type Retention struct {
	// ResultMaxAge drops results of games that ended longer ago; 0 means
	// DefaultResultMaxAge, a negative value keeps them for ever.
	ResultMaxAge time.Duration
	// ResultsPerGuild is the most results a guild keeps; the oldest go
	// first. 0 means DefaultResultsPerGuild, negative no cap.
	ResultsPerGuild int
	// RecordMaxAge and RecordsPerGuild do the same for game records: 0
	// means DefaultRecordMaxAge and DefaultRecordsPerGuild.
	RecordMaxAge    time.Duration
	RecordsPerGuild int
	// GuildGrace is how long a guild's data outlives the bot's leaving the
	// guild (GuildLeft) before Sweep deletes it, in case the bot comes
	// back. 0 means DefaultGuildGrace, negative none (the next Sweep).
	GuildGrace time.Duration
}

// The retention defaults.
const (
	DefaultResultMaxAge    = 2 * 365 * 24 * time.Hour
	DefaultResultsPerGuild = 10000
	DefaultRecordMaxAge    = 90 * 24 * time.Hour
	DefaultRecordsPerGuild = 250
	DefaultGuildGrace      = 30 * 24 * time.Hour
)

// DefaultRetention is the retention of a Store opened without
// WithRetention.
func DefaultRetention() Retention {
	return Retention{
		ResultMaxAge:    DefaultResultMaxAge,
		ResultsPerGuild: DefaultResultsPerGuild,
		RecordMaxAge:    DefaultRecordMaxAge,
		RecordsPerGuild: DefaultRecordsPerGuild,
		GuildGrace:      DefaultGuildGrace,
	}
}

// WithRetention sets how long results and records are kept; zero fields
// keep their defaults (see Retention).
func WithRetention(r Retention) Option {
	return func(o *options) {
		d := DefaultRetention()
		if r.ResultMaxAge != 0 {
			d.ResultMaxAge = r.ResultMaxAge
		}
		if r.ResultsPerGuild != 0 {
			d.ResultsPerGuild = r.ResultsPerGuild
		}
		if r.RecordMaxAge != 0 {
			d.RecordMaxAge = r.RecordMaxAge
		}
		if r.RecordsPerGuild != 0 {
			d.RecordsPerGuild = r.RecordsPerGuild
		}
		switch {
		case r.GuildGrace < 0:
			d.GuildGrace = 0
		case r.GuildGrace > 0:
			d.GuildGrace = r.GuildGrace
		}
		o.keep = d
	}
}

// Retention returns the retention the store applies.
func (s *Store) Retention() Retention { return s.keep }

// recordValue is the payload (inside a frame) of records/<guild>/<key>.
type recordValue struct {
	Game string    `json:"game"`
	Time time.Time `json:"time"`
	// Users are the Discord user IDs of the record's players, in seat
	// order; "" for computers and forgotten players.
	Users  []string        `json:"users"`
	Record json.RawMessage `json:"record"`
	// Private marks a private game's record (gamestats.Result.Private):
	// its players' alone.
	Private bool `json:"private,omitempty"`
}

// recordKey is the end time as 8 sortable bytes (see dueBytes), then the
// game ID, so that a guild's records sort oldest first.
func recordKey(t time.Time, gameID string) []byte {
	d := dueBytes(t)
	return append(d[:], gameID...)
}

// SaveGame records a finished game in its guild (r.Guild) in one
// transaction: its result and, when record is not nil, its game record in
// the format of game/RECORD.md, under r.GameID. The record's players must
// be r's seats' names in seat order; a record already kept under the game
// ID is replaced. The guild then holds at most the retention's numbers of
// results and records, the oldest going first, none older than its max
// ages. A finished game shows that the bot is in the guild: a GuildLeft
// mark is cleared. Saving a game again with the same game ID and end time
// replaces its result rather than adding one (the store looks for the game
// ID among the newest results, back to the first that ended earlier).
func (s *Store) SaveGame(r gamestats.Result, record []byte) error {
	sv, err := newSave(r, record)
	if err != nil {
		return fmt.Errorf("store: save game: %w", err)
	}
	now := s.now()
	err = s.update(func(tx *bbolt.Tx, _ func(func())) error {
		return sv.apply(tx, now, s.keep)
	})
	if err != nil {
		return fmt.Errorf("store: save game of guild %s: %w", r.Guild, err)
	}
	return nil
}

// save is a finished game ready to be written: its result and record,
// encoded and framed.
type save struct {
	r                 gamestats.Result
	framed, recFramed []byte
}

// newSave checks and encodes a game for SaveGame.
func newSave(r gamestats.Result, record []byte) (save, error) {
	payload, err := r.MarshalBinary()
	if err != nil {
		return save{}, err
	}
	if r.Time.Before(minDue) || r.Time.After(maxDue) {
		return save{}, fmt.Errorf("time %v out of range", r.Time)
	}
	sv := save{r: r, framed: encodeFrame(payload)}
	if record != nil {
		v, err := newRecordValue(r, record)
		if err != nil {
			return save{}, fmt.Errorf("game %s: %w", r.GameID, err)
		}
		sv.recFramed = encodeFrame(v)
	}
	return sv, nil
}

// apply writes the game in tx: its result (replacing a result of the
// same game ID saved at the same time or later, so that saving a game
// twice keeps one result), its record, the retention of its guild, and
// clears the guild's GuildLeft mark.
func (sv save) apply(tx *bbolt.Tx, now time.Time, keep Retention) error {
	r := sv.r
	results, records, departed, err := historyBuckets(tx)
	if err != nil {
		return err
	}
	if k := findResult(results.Bucket([]byte(r.Guild)), r.GameID, r.Time); k != nil {
		if err := results.Bucket([]byte(r.Guild)).Put(k, sv.framed); err != nil {
			return err
		}
	} else if _, err := putResult(results, r.Guild, sv.framed); err != nil {
		return err
	}
	if _, err := pruneResults(results.Bucket([]byte(r.Guild)), now, keep); err != nil {
		return err
	}
	if sv.recFramed != nil {
		g, err := records.CreateBucketIfNotExists([]byte(r.Guild))
		if err != nil {
			return err
		}
		if old := findRecord(g, r.GameID); old != nil {
			if err := g.Delete(old); err != nil {
				return err
			}
		}
		if err := g.Put(recordKey(r.Time, r.GameID), sv.recFramed); err != nil {
			return err
		}
		if _, err := pruneRecords(g, now, keep); err != nil {
			return err
		}
	}
	return departed.Delete([]byte(r.Guild))
}

// findResult returns the key of a result of gameID in g among the newest
// results that ended at or after since, or nil. Results lie in the order
// they were saved, so the walk stops at the first older one: a game saved
// again (after a crash) is found by reading a few results at most.
func findResult(g *bbolt.Bucket, gameID string, since time.Time) []byte {
	if g == nil || gameID == "" {
		return nil
	}
	since = since.Truncate(time.Millisecond) // what a result keeps
	var dec gamestats.Decoder
	c := g.Cursor()
	for k, v := c.Last(); k != nil; k, v = c.Prev() {
		payload, err := decodeFrame(v)
		if err != nil {
			continue
		}
		r, err := dec.Decode(payload)
		if err != nil {
			continue
		}
		if r.GameID == gameID {
			return copyBytes(k)
		}
		if r.Time.Before(since) {
			return nil
		}
	}
	return nil
}

func newRecordValue(r gamestats.Result, record []byte) ([]byte, error) {
	if r.GameID == "" {
		return nil, errors.New("a record needs a game ID")
	}
	rec, err := game.ParseRecord(record)
	if err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	if len(rec.Players) != len(r.Seats) {
		return nil, fmt.Errorf("record has %d players, result %d seats", len(rec.Players), len(r.Seats))
	}
	users := make([]string, len(r.Seats))
	for i, st := range r.Seats {
		if rec.Players[i] != st.Name {
			return nil, fmt.Errorf("record's player %d is %q, result's %q", i+1, rec.Players[i], st.Name)
		}
		users[i] = st.UserID
	}
	return json.Marshal(recordValue{Game: r.GameID, Time: r.Time.UTC(), Users: users, Record: record, Private: r.Private})
}

func historyBuckets(tx *bbolt.Tx) (results, records, departed *bbolt.Bucket, err error) {
	if results, err = bucket(tx, bucketResults); err != nil {
		return
	}
	if records, err = bucket(tx, bucketRecords); err != nil {
		return
	}
	departed, err = bucket(tx, bucketDeparted)
	return
}

// findRecord returns the key of gameID's record in g, newest first, or nil.
func findRecord(g *bbolt.Bucket, gameID string) []byte {
	c := g.Cursor()
	for k, _ := c.Last(); k != nil; k, _ = c.Prev() {
		if len(k) >= 8 && string(k[8:]) == gameID {
			return copyBytes(k)
		}
	}
	return nil
}

// pruneResults drops a guild's oldest results beyond the cap and those
// that ended before the max age. Results lie in the order they were saved,
// which is the order the games ended; the age walk stops at the first
// result young enough. Corrupt values are stepped over and left (Results
// reports them). It returns how many it dropped.
func pruneResults(g *bbolt.Bucket, now time.Time, keep Retention) (int, error) {
	if g == nil {
		return 0, nil
	}
	var drop [][]byte
	c := g.Cursor()
	lastK, _ := c.Last()
	if lastK == nil {
		return 0, nil
	}
	capped := keep.ResultsPerGuild > 0 && len(lastK) == 8
	var last uint64
	if capped {
		last = binary.BigEndian.Uint64(lastK)
	}
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if capped && len(k) == 8 && binary.BigEndian.Uint64(k)+uint64(keep.ResultsPerGuild) <= last {
			drop = append(drop, copyBytes(k))
			continue
		}
		if keep.ResultMaxAge <= 0 {
			break
		}
		payload, err := decodeFrame(v)
		if err != nil {
			continue
		}
		var r gamestats.Result
		if r.UnmarshalBinary(payload) != nil {
			continue
		}
		if !r.Time.Before(now.Add(-keep.ResultMaxAge)) {
			break
		}
		drop = append(drop, copyBytes(k))
	}
	return deleteKeys(g, drop)
}

// deleteKeys deletes keys from g and returns how many.
func deleteKeys(g *bbolt.Bucket, keys [][]byte) (int, error) {
	for _, k := range keys {
		if err := g.Delete(k); err != nil {
			return 0, fmt.Errorf("delete %x: %w", k, err)
		}
	}
	return len(keys), nil
}

// pruneRecords drops a guild's records beyond the cap, oldest first, and
// those older than the max age (the time is in the key).
func pruneRecords(g *bbolt.Bucket, now time.Time, keep Retention) (int, error) {
	if g == nil {
		return 0, nil
	}
	n := 0
	c := g.Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		n++
	}
	excess := 0
	if keep.RecordsPerGuild > 0 && n > keep.RecordsPerGuild {
		excess = n - keep.RecordsPerGuild
	}
	var drop [][]byte
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		old := keep.RecordMaxAge > 0 && len(k) >= 8 && dueTime(k[:8]).Before(now.Add(-keep.RecordMaxAge))
		if len(drop) >= excess && !old {
			break
		}
		drop = append(drop, copyBytes(k))
	}
	return deleteKeys(g, drop)
}

// GameRecord is a kept game record.
type GameRecord struct {
	GameID string
	// Time is when the game ended.
	Time time.Time
	// Users are the players' Discord user IDs in seat order; "" for
	// computers and forgotten players.
	Users []string
	// JSON is the record in the format of game/RECORD.md, as
	// `qwixxbot replay` and `qwixxbot render` read it.
	JSON []byte
	// Private marks a private game's record: its players' alone (see
	// gamestats.Result.Private).
	Private bool
}

// Record returns the kept record of guildID's game gameID, or with gameID
// "" the newest record of the guild, and whether there is one. A corrupt
// value gives an error wrapping ErrCorrupt.
func (s *Store) Record(guildID, gameID string) (GameRecord, bool, error) {
	if guildID == "" {
		return GameRecord{}, false, fmt.Errorf("store: record: guild ID: %w", ErrEmptyKey)
	}
	var (
		out   GameRecord
		found bool
	)
	err := s.view(func(tx *bbolt.Tx) error {
		g, err := guildBucket(tx, bucketRecords, guildID)
		if err != nil {
			return err
		}
		if g == nil {
			return nil
		}
		var k []byte
		if gameID == "" {
			k, _ = g.Cursor().Last()
		} else {
			k = findRecord(g, gameID)
		}
		if k == nil {
			return nil
		}
		found = true
		v, err := decodeRecord(g.Get(k))
		if err != nil {
			return fmt.Errorf("value %s/%s/%x: %w", bucketRecords, guildID, k, err)
		}
		out = GameRecord{GameID: v.Game, Time: v.Time, Users: v.Users, JSON: copyBytes(v.Record), Private: v.Private}
		return nil
	})
	if err != nil {
		return GameRecord{}, found, fmt.Errorf("store: record %s of guild %s: %w", gameID, guildID, err)
	}
	return out, found, nil
}

func decodeRecord(v []byte) (recordValue, error) {
	payload, err := decodeFrame(v)
	if err != nil {
		return recordValue{}, err
	}
	var rv recordValue
	if err := json.Unmarshal(payload, &rv); err != nil {
		return recordValue{}, fmt.Errorf("%w: record value: %v", ErrCorrupt, err)
	}
	return rv, nil
}

// RecordInfo names a kept record.
type RecordInfo struct {
	GameID string
	Time   time.Time
}

// Records lists guildID's kept records, newest first, at most limit (all
// when limit <= 0). It checks each value's checksum (not its content): a
// damaged record is left out, and counted in a SkippedError returned with
// the list.
func (s *Store) Records(guildID string, limit int) ([]RecordInfo, error) {
	if guildID == "" {
		return nil, fmt.Errorf("store: records: guild ID: %w", ErrEmptyKey)
	}
	var (
		out []RecordInfo
		bad []error
	)
	err := s.view(func(tx *bbolt.Tx) error {
		g, err := guildBucket(tx, bucketRecords, guildID)
		if err != nil {
			return err
		}
		if g == nil {
			return nil
		}
		c := g.Cursor()
		for k, v := c.Last(); k != nil && (limit <= 0 || len(out) < limit); k, v = c.Prev() {
			if len(k) < 8 {
				continue
			}
			if _, err := decodeFrame(v); err != nil {
				bad = append(bad, fmt.Errorf("value %s/%s/%x: %w", bucketRecords, guildID, k, err))
				continue
			}
			out = append(out, RecordInfo{GameID: string(k[8:]), Time: dueTime(k[:8]).UTC()})
		}
		return nil
	})
	if err != nil {
		return out, fmt.Errorf("store: records of guild %s: %w", guildID, err)
	}
	if len(bad) > 0 {
		return out, &SkippedError{Skipped: len(bad), err: fmt.Errorf("store: records of guild %s: %d unreadable, skipped: %w", guildID, len(bad), errors.Join(bad...))}
	}
	return out, nil
}

// Forgotten counts what DeleteUser changed.
type Forgotten struct {
	// Results and Records are the results and records in which the user's
	// seat was made anonymous.
	Results, Records int
	// Unreadable counts corrupt values deleted because they might hold
	// the user's data and cannot be read to tell.
	Unreadable int
}

// DeleteUser forgets userID in guildID, or in every guild when guildID is
// "": in every kept result and record the user's seat loses its user ID and
// its name becomes "Player N" (N the seat number; "Player N (2)" and so on
// if another seat already has that name), the same in a game's result and
// record. The seat stays, with its score, as an anonymous player who
// counts for nobody: the other players' statistics do not change, and the
// record still replays (every mention of the name in players, first and
// moves is replaced). Values that cannot be read are deleted. Nothing is
// written when the user has no data.
func (s *Store) DeleteUser(guildID, userID string) (Forgotten, error) {
	if userID == "" {
		return Forgotten{}, fmt.Errorf("store: delete user: user ID: %w", ErrEmptyKey)
	}
	var f Forgotten
	err := s.update(func(tx *bbolt.Tx, _ func(func())) error {
		f = Forgotten{}
		results, records, _, err := historyBuckets(tx)
		if err != nil {
			return err
		}
		guilds, err := guildList(results, records, guildID)
		if err != nil {
			return err
		}
		for _, gid := range guilds {
			if g := results.Bucket(gid); g != nil {
				if err := forgetInResults(g, userID, &f); err != nil {
					return fmt.Errorf("results of guild %s: %w", gid, err)
				}
			}
			if g := records.Bucket(gid); g != nil {
				if err := forgetInRecords(g, userID, &f); err != nil {
					return fmt.Errorf("records of guild %s: %w", gid, err)
				}
			}
		}
		if f == (Forgotten{}) {
			return errNoChange
		}
		return nil
	})
	if err != nil && !errors.Is(err, errNoChange) {
		return Forgotten{}, fmt.Errorf("store: delete user %s: %w", userID, err)
	}
	return f, nil
}

// guildList is [guildID], or with guildID "" every guild with results or
// records.
func guildList(results, records *bbolt.Bucket, guildID string) ([][]byte, error) {
	if guildID != "" {
		return [][]byte{[]byte(guildID)}, nil
	}
	var out [][]byte
	for _, b := range []*bbolt.Bucket{results, records} {
		names, err := subBuckets(b)
		if err != nil {
			return nil, err
		}
		for _, k := range names {
			if !slices.ContainsFunc(out, func(g []byte) bool { return bytes.Equal(g, k) }) {
				out = append(out, k)
			}
		}
	}
	return out, nil
}

func forgetInResults(g *bbolt.Bucket, userID string, f *Forgotten) error {
	return rewriteValues(g, func(v []byte) ([]byte, bool, error) {
		payload, err := decodeFrame(v)
		var r gamestats.Result
		if err == nil {
			err = r.UnmarshalBinary(payload)
		}
		if err != nil {
			f.Unreadable++
			return nil, true, nil
		}
		i := r.Seat(userID)
		if i < 0 {
			return nil, false, nil
		}
		names := make([]string, len(r.Seats))
		for j, st := range r.Seats {
			names[j] = st.Name
		}
		r.Seats[i] = gamestats.Seat{Name: anonName(i, names), Score: r.Seats[i].Score}
		b, err := r.MarshalBinary()
		if err != nil {
			return nil, false, err
		}
		f.Results++
		return encodeFrame(b), true, nil
	})
}

func forgetInRecords(g *bbolt.Bucket, userID string, f *Forgotten) error {
	return rewriteValues(g, func(v []byte) ([]byte, bool, error) {
		rv, err := decodeRecord(v)
		if err != nil {
			f.Unreadable++
			return nil, true, nil
		}
		i := slices.Index(rv.Users, userID)
		if i < 0 {
			return nil, false, nil
		}
		rec, err := game.ParseRecord(rv.Record)
		if err != nil || i >= len(rec.Players) {
			f.Unreadable++
			return nil, true, nil
		}
		renamePlayer(rec, i, anonName(i, rec.Players))
		if rv.Record, err = json.Marshal(rec); err != nil {
			return nil, false, err
		}
		rv.Users[i] = ""
		b, err := json.Marshal(rv)
		if err != nil {
			return nil, false, err
		}
		f.Records++
		return encodeFrame(b), true, nil
	})
}

// rewriteValues calls fn on every plain value of b (nested buckets are
// left alone) and then applies what it decided: with change, the value
// becomes nv, or is deleted when nv is nil. The changes wait until the
// walk is over: bbolt does not allow changing a bucket during its ForEach.
func rewriteValues(b *bbolt.Bucket, fn func(v []byte) (nv []byte, change bool, err error)) error {
	type kv struct{ k, v []byte }
	var put []kv
	if err := b.ForEach(func(k, v []byte) error {
		if v == nil {
			return nil
		}
		nv, change, err := fn(v)
		if change {
			put = append(put, kv{copyBytes(k), nv})
		}
		return err
	}); err != nil {
		return err
	}
	for _, e := range put {
		var err error
		if e.v == nil {
			err = b.Delete(e.k)
		} else {
			err = b.Put(e.k, e.v)
		}
		if err != nil {
			return fmt.Errorf("write %x: %w", e.k, err)
		}
	}
	return nil
}

// subBuckets returns the names of b's nested buckets, copied (bbolt's
// keys are valid only during the transaction's walk).
func subBuckets(b *bbolt.Bucket) ([][]byte, error) {
	var out [][]byte
	err := b.ForEachBucket(func(k []byte) error {
		out = append(out, copyBytes(k))
		return nil
	})
	return out, err
}

// anonName is the name of a forgotten player in seat i: "Player i+1",
// with " (2)", " (3)", … added if another seat has that name already.
func anonName(i int, names []string) string {
	base := fmt.Sprintf("Player %d", i+1)
	taken := func(n string) bool {
		for j, o := range names {
			if j != i && o == n {
				return true
			}
		}
		return false
	}
	name := base
	for k := 2; taken(name); k++ {
		name = fmt.Sprintf("%s (%d)", base, k)
	}
	return name
}

// renamePlayer gives seat i of rec a new name everywhere the record names
// it: players, first and every move's player.
func renamePlayer(rec *game.Record, i int, name string) {
	old := rec.Players[i]
	rec.Players[i] = name
	if rec.First == old {
		rec.First = name
	}
	for j := range rec.Moves {
		if rec.Moves[j].Player == old {
			rec.Moves[j].Player = name
		}
	}
}

// GuildLeft marks guildID as left by the bot at time at (on GUILD_DELETE
// without "unavailable"): Sweep deletes its results, records and settings
// once the grace period (Retention.GuildGrace) has passed since the first
// mark, unless GuildBack or a saved game clears it first. Marking a marked
// guild again keeps the first time.
func (s *Store) GuildLeft(guildID string, at time.Time) error {
	if guildID == "" {
		return fmt.Errorf("store: guild left: guild ID: %w", ErrEmptyKey)
	}
	if at.Before(minDue) || at.After(maxDue) {
		return fmt.Errorf("store: guild left %s: time %v out of range", guildID, at)
	}
	d := dueBytes(at)
	err := s.update(func(tx *bbolt.Tx, _ func(func())) error {
		departed, err := bucket(tx, bucketDeparted)
		if err != nil {
			return err
		}
		if departed.Get([]byte(guildID)) != nil {
			return errNoChange
		}
		return departed.Put([]byte(guildID), d[:])
	})
	if err != nil && !errors.Is(err, errNoChange) {
		return fmt.Errorf("store: guild left %s: %w", guildID, err)
	}
	return nil
}

// GuildBack clears guildID's GuildLeft mark (on GUILD_CREATE) and reports
// whether there was one.
func (s *Store) GuildBack(guildID string) (bool, error) {
	if guildID == "" {
		return false, fmt.Errorf("store: guild back: guild ID: %w", ErrEmptyKey)
	}
	var was bool
	err := s.update(func(tx *bbolt.Tx, _ func(func())) error {
		departed, err := bucket(tx, bucketDeparted)
		if err != nil {
			return err
		}
		was = departed.Get([]byte(guildID)) != nil
		if !was {
			return errNoChange
		}
		return departed.Delete([]byte(guildID))
	})
	if err != nil && !errors.Is(err, errNoChange) {
		return false, fmt.Errorf("store: guild back %s: %w", guildID, err)
	}
	return was, nil
}

// LeftGuilds returns the guilds marked by GuildLeft and when.
func (s *Store) LeftGuilds() (map[string]time.Time, error) {
	out := map[string]time.Time{}
	err := s.view(func(tx *bbolt.Tx) error {
		departed, err := bucket(tx, bucketDeparted)
		if err != nil {
			return err
		}
		return departed.ForEach(func(k, v []byte) error {
			if len(v) == 8 {
				out[string(k)] = dueTime(v).UTC()
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("store: left guilds: %w", err)
	}
	return out, nil
}

// SweepReport says what Sweep deleted.
type SweepReport struct {
	// Purged are the guilds whose data was deleted, their grace over.
	Purged []string
	// Results and Records count what the retention dropped in the other
	// guilds.
	Results, Records int
}

// Sweep applies the retention at time now: it deletes the results,
// records and settings of every guild whose GuildLeft mark is older than
// the grace period, and drops results and records beyond the caps or
// older than the max ages in every other guild (saving a game does that
// for its own guild). The bot calls it now and then, say hourly; it writes
// nothing when there is nothing to drop.
func (s *Store) Sweep(now time.Time) (SweepReport, error) {
	var rep SweepReport
	err := s.update(func(tx *bbolt.Tx, _ func(func())) error {
		rep = SweepReport{}
		results, records, departed, err := historyBuckets(tx)
		if err != nil {
			return err
		}
		settings, err := bucket(tx, bucketGuilds)
		if err != nil {
			return err
		}
		var purge [][]byte
		if err := departed.ForEach(func(k, v []byte) error {
			if len(v) == 8 && !now.Before(dueTime(v).Add(s.keep.GuildGrace)) {
				purge = append(purge, copyBytes(k))
			}
			return nil
		}); err != nil {
			return err
		}
		for _, g := range purge {
			for _, b := range []*bbolt.Bucket{results, records} {
				if err := b.DeleteBucket(g); err != nil && !errors.Is(err, berrors.ErrBucketNotFound) {
					return fmt.Errorf("purge guild %s: %w", g, err)
				}
			}
			if err := settings.Delete(g); err != nil {
				return err
			}
			if err := departed.Delete(g); err != nil {
				return err
			}
			rep.Purged = append(rep.Purged, string(g))
		}
		all, err := guildList(results, records, "")
		if err != nil {
			return err
		}
		for _, g := range all {
			n, err := pruneResults(results.Bucket(g), now, s.keep)
			if err != nil {
				return fmt.Errorf("results of guild %s: %w", g, err)
			}
			rep.Results += n
			if n, err = pruneRecords(records.Bucket(g), now, s.keep); err != nil {
				return fmt.Errorf("records of guild %s: %w", g, err)
			}
			rep.Records += n
		}
		if len(rep.Purged) == 0 && rep.Results == 0 && rep.Records == 0 {
			return errNoChange
		}
		return nil
	})
	if err != nil && !errors.Is(err, errNoChange) {
		return SweepReport{}, fmt.Errorf("store: sweep: %w", err)
	}
	return rep, nil
}
