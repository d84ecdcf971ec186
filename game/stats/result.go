// Package stats turns the results of finished games into per-player
// statistics and a guild leaderboard. It is pure: no I/O, no clock, no
// Discord. The store keeps Results (encoded with MarshalBinary); the bot
// reads them back and hands them to ForUser and Leaders.
//
// # What a result holds
//
// One Result per finished game: the guild, the game's ID (the key of its
// game record), the time it ended, the variant, and per seat the Discord
// user ID, the display name at the time, whether the seat was a computer
// player, and the final score. The rank follows from the scores (RULES D10,
// P3): equal first places share the win. A player who asked to be
// forgotten keeps no user ID: their seat stays as an anonymous opponent
// ("Player 3"), so that the other players' statistics do not change,
// and it counts for nobody.
package stats

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/qwixxbot/qwixxbot/game"
)

// MaxSeats is the most seats a result may have (the game allows 2–5).
const MaxSeats = 5

// Seat is one player's line in a Result.
type Seat struct {
	// UserID is the player's Discord user ID. It is empty for computer
	// players and for forgotten players.
	UserID string
	// Name is the display name the player had in that game.
	Name string
	// Computer marks a computer player (game/ai), and Level is its level
	// ("easy", "medium", "hard"; "" in results kept before levels were):
	// a computer is its level, whatever name it had at the table.
	Computer bool
	Level    string
	// Score is the final score.
	Score int
}

// Levels are the computer levels a result can name, in their encoding's
// order (0 is "" for a level not kept).
var Levels = []string{"", "easy", "medium", "hard"}

// Result is the outcome of one finished game.
type Result struct {
	// Guild is the Discord guild the game was played in.
	Guild string
	// GameID identifies the game; the store keeps the game's record under
	// it. It may be empty when no record is kept.
	GameID string
	// Time is when the game ended.
	Time time.Time
	// Variant is the game played.
	Variant game.Variant
	// Seats are the players in seat order.
	Seats []Seat
	// Private marks a game played in messages only its player saw (a
	// private solo game, the daily challenge): its result is its players'
	// alone, whatever place it is kept in. A table game's result is its
	// players' and its place's.
	Private bool
}

// VisibleTo reports whether viewer may see r, r being kept in the place
// the viewer asks from: a table game's result is its place's, a private
// game's its players' only.
func (r Result) VisibleTo(viewer string) bool {
	return !r.Private || r.Seat(viewer) >= 0
}

// Solo reports whether r is a solo game: one seat, nobody to beat.
func (r Result) Solo() bool { return len(r.Seats) == 1 }

// FromGame is the result of game g of guild, ended at time at: the
// variant, and per seat the name and score from g. users[i] is seat i's
// Discord user ID, "" for a computer player. The names are the record's
// (g.Record()), so result and record agree, as the store requires.
func FromGame(guild, gameID string, at time.Time, g *game.Game, users []string) (Result, error) {
	names, scores := g.Players(), g.Scores()
	if len(users) != len(names) {
		return Result{}, fmt.Errorf("%w: %d user IDs for %d seats", ErrInvalid, len(users), len(names))
	}
	r := Result{Guild: guild, GameID: gameID, Time: at, Variant: g.Variant(), Seats: make([]Seat, len(names))}
	for i, n := range names {
		r.Seats[i] = Seat{UserID: users[i], Name: n, Computer: users[i] == "", Score: scores[i]}
	}
	return r, r.Validate()
}

// ErrInvalid is wrapped by the errors of Validate and UnmarshalBinary.
var ErrInvalid = errors.New("invalid result")

// Validate checks that r can be stored: a guild, a known variant, a time,
// 1 to MaxSeats seats each with a name, no user ID on a computer seat, no
// user twice, and strings of UTF-8 no longer than 256 bytes.
func (r Result) Validate() error {
	switch {
	case r.Guild == "":
		return fmt.Errorf("%w: no guild", ErrInvalid)
	case r.Variant < game.Dice || r.Variant > game.Jokers:
		return fmt.Errorf("%w: variant %d", ErrInvalid, r.Variant)
	case r.Time.IsZero():
		return fmt.Errorf("%w: no time", ErrInvalid)
	case len(r.Seats) == 0 || len(r.Seats) > MaxSeats:
		return fmt.Errorf("%w: %d seats (want 1–%d)", ErrInvalid, len(r.Seats), MaxSeats)
	case !validString(r.Guild) || !validString(r.GameID):
		return fmt.Errorf("%w: guild or game ID longer than %d bytes or not UTF-8", ErrInvalid, maxStringLen)
	}
	for i, s := range r.Seats {
		switch {
		case !validString(s.UserID) || !validString(s.Name):
			return fmt.Errorf("%w: seat %d: user ID or name longer than %d bytes or not UTF-8", ErrInvalid, i+1, maxStringLen)
		case s.Name == "":
			return fmt.Errorf("%w: seat %d has no name", ErrInvalid, i+1)
		case s.Computer && s.UserID != "":
			return fmt.Errorf("%w: seat %d is a computer with user ID %s", ErrInvalid, i+1, s.UserID)
		case s.Level != "" && (!s.Computer || !slices.Contains(Levels, s.Level)):
			return fmt.Errorf("%w: seat %d has level %q", ErrInvalid, i+1, s.Level)
		case s.UserID != "" && r.Seat(s.UserID) != i:
			return fmt.Errorf("%w: user %s has two seats", ErrInvalid, s.UserID)
		}
	}
	return nil
}

func validString(s string) bool { return len(s) <= maxStringLen && utf8.ValidString(s) }

// Rank is the place of seat i: 1 plus the number of seats with a higher
// score, so equal scores share a place (RULES D10, P3).
func (r Result) Rank(i int) int {
	rank := 1
	for _, s := range r.Seats {
		if s.Score > r.Seats[i].Score {
			rank++
		}
	}
	return rank
}

// Winners is the number of seats in first place: more than one is a
// shared win.
func (r Result) Winners() int {
	n := 0
	for i := range r.Seats {
		if r.Rank(i) == 1 {
			n++
		}
	}
	return n
}

// Seat returns the index of userID's seat, or -1.
func (r Result) Seat(userID string) int {
	if userID == "" {
		return -1
	}
	for i, s := range r.Seats {
		if s.UserID == userID {
			return i
		}
	}
	return -1
}

// encodingVersion is the first byte of an encoded result; a result with
// result flags (a private game's) is written as encodingFlags, which adds
// a flags byte after the variant. Both are read.
const (
	encodingVersion = 1
	encodingFlags   = 2
)

// Result flags (encodingFlags): bit 0 a private game.
const resultPrivate = 1

// Limits of the decoder, well above anything Validate lets through from
// Discord (IDs are ≤ 20 digits, names ≤ 32 characters plus decoration).
const (
	maxStringLen = 256
)

// Seat flags: bit 0 a computer, bits 1–2 its level (index in Levels).
const (
	flagComputer   = 1
	flagLevelShift = 1
	flagLevelMask  = 3 << flagLevelShift
)

// MarshalBinary encodes r compactly:
//
//	byte      1, the encoding version
//	string    guild          (every string: uvarint length, then UTF-8 bytes)
//	string    game ID
//	varint    end time, Unix milliseconds
//	byte      variant (1 dice, 2 cards, 3 jokers)
//	byte      result flags, in version 2 only (1 private)
//	byte      number of seats
//	per seat: string user ID, string name, byte flags (1 computer),
//	          varint score
//
// A result without flags is written as version 1 (the bytes of the
// results kept before flags existed), one with flags as version 2. The
// time keeps milliseconds and loses its location (decoded as UTC). An
// invalid result (see Validate) is refused.
func (r Result) MarshalBinary() ([]byte, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	n := 1 + 3*binary.MaxVarintLen64 + len(r.Guild) + len(r.GameID) + 2
	for _, s := range r.Seats {
		n += 2*binary.MaxVarintLen64 + len(s.UserID) + len(s.Name) + 1 + binary.MaxVarintLen64
	}
	b := make([]byte, 0, n)
	version := byte(encodingVersion)
	if r.Private {
		version = encodingFlags
	}
	b = append(b, version)
	b = appendString(b, r.Guild)
	b = appendString(b, r.GameID)
	b = binary.AppendVarint(b, r.Time.UnixMilli())
	b = append(b, byte(r.Variant))
	if r.Private {
		b = append(b, resultPrivate)
	}
	b = append(b, byte(len(r.Seats)))
	for _, s := range r.Seats {
		b = appendString(b, s.UserID)
		b = appendString(b, s.Name)
		var flags byte
		if s.Computer {
			flags |= flagComputer | byte(slices.Index(Levels, s.Level))<<flagLevelShift
		}
		b = append(b, flags)
		b = binary.AppendVarint(b, int64(s.Score))
	}
	return b, nil
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// UnmarshalBinary decodes what MarshalBinary wrote. It is strict: another
// version, a truncated or overlong value, bad UTF-8 or an invalid result
// give an error wrapping ErrInvalid.
func (r *Result) UnmarshalBinary(data []byte) error {
	var dec Decoder
	out, err := dec.Decode(data)
	if err != nil {
		return err
	}
	*r = out
	return nil
}

// A Decoder decodes many results as UnmarshalBinary does, faster: the
// strings that results repeat (guild, user IDs, names) are shared, and
// seats are allocated in blocks. Reading a guild's history takes one. The
// zero Decoder is ready; it is not safe for concurrent use.
type Decoder struct {
	strs    map[string]string
	players map[string][2]string // encoded user ID and name -> both
	slab    []Seat
}

// Decode decodes one result.
func (dec *Decoder) Decode(data []byte) (Result, error) {
	d := decoder{b: data, dec: dec}
	v := d.byte()
	if v != encodingVersion && v != encodingFlags {
		if d.err != nil {
			return Result{}, d.err
		}
		return Result{}, fmt.Errorf("%w: encoding version %d, want %d or %d", ErrInvalid, v, encodingVersion, encodingFlags)
	}
	var out Result
	out.Guild = d.string()
	out.GameID = d.unique()
	out.Time = time.UnixMilli(d.varint()).UTC()
	out.Variant = game.Variant(d.byte())
	if v == encodingFlags {
		flags := d.byte()
		if flags != resultPrivate && d.err == nil {
			// Version 2 is written only with a flag set, and only this one.
			d.err = fmt.Errorf("%w: unknown result flags %#x", ErrInvalid, flags)
		}
		out.Private = flags == resultPrivate
	}
	n := int(d.byte())
	if d.err == nil && (n == 0 || n > MaxSeats) {
		return Result{}, fmt.Errorf("%w: %d seats", ErrInvalid, n)
	}
	if d.err == nil {
		out.Seats = dec.seats(n)
	}
	for i := 0; i < n && d.err == nil; i++ {
		s := &out.Seats[i]
		s.UserID, s.Name = d.player()
		flags := d.byte()
		if flags&^(flagComputer|flagLevelMask) != 0 && d.err == nil {
			d.err = fmt.Errorf("%w: seat %d: unknown flags %#x", ErrInvalid, i+1, flags)
		}
		s.Computer = flags&flagComputer != 0
		if s.Computer {
			s.Level = Levels[(flags&flagLevelMask)>>flagLevelShift]
		}
		s.Score = int(d.varint())
	}
	if d.err != nil {
		return Result{}, d.err
	}
	if len(d.b) != 0 {
		return Result{}, fmt.Errorf("%w: %d bytes after the result", ErrInvalid, len(d.b))
	}
	if err := out.Validate(); err != nil {
		return Result{}, err
	}
	return out, nil
}

// seats returns n zero seats from the current block, with no room to
// grow into the next result's.
func (dec *Decoder) seats(n int) []Seat {
	if len(dec.slab) < n {
		dec.slab = make([]Seat, 256*MaxSeats)
	}
	s := dec.slab[:n:n]
	dec.slab = dec.slab[n:]
	return s
}

// intern returns b as a string, the same string for the same bytes.
func (dec *Decoder) intern(b []byte) string {
	if s, ok := dec.strs[string(b)]; ok {
		return s
	}
	if dec.strs == nil {
		dec.strs = map[string]string{}
	}
	s := string(b)
	dec.strs[s] = s
	return s
}

// decoder reads MarshalBinary's fields; the first error sticks and makes
// every further read return a zero value.
type decoder struct {
	b   []byte
	err error
	dec *Decoder
}

func (d *decoder) fail(what string) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: truncated or malformed %s", ErrInvalid, what)
	}
	d.b = nil
}

func (d *decoder) byte() byte {
	if d.err != nil || len(d.b) < 1 {
		d.fail("byte")
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) varint() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail("number")
		return 0
	}
	d.b = d.b[n:]
	return v
}

// string reads a string that other results repeat (interned: only new
// strings are checked for UTF-8).
func (d *decoder) string() string {
	b := d.raw()
	if b == nil {
		return ""
	}
	if s, ok := d.dec.strs[string(b)]; ok {
		return s
	}
	if !d.utf8(b) {
		return ""
	}
	return d.dec.intern(b)
}

// player reads a seat's user ID and name. A player's pair repeats from
// game to game, so the pair's bytes are looked up as one.
func (d *decoder) player() (userID, name string) {
	start := d.b
	d.raw()
	d.raw()
	if d.err != nil {
		return "", ""
	}
	span := start[:len(start)-len(d.b)]
	if p, ok := d.dec.players[string(span)]; ok {
		return p[0], p[1]
	}
	// New: read the two strings again, interned and checked.
	d.b = start
	userID, name = d.string(), d.string()
	if d.err == nil {
		if d.dec.players == nil {
			d.dec.players = map[string][2]string{}
		}
		d.dec.players[string(span)] = [2]string{userID, name}
	}
	return userID, name
}

// unique reads a string of this result alone (not interned).
func (d *decoder) unique() string {
	b := d.raw()
	if b == nil || !d.utf8(b) {
		return ""
	}
	return string(b)
}

func (d *decoder) utf8(b []byte) bool {
	if !utf8.Valid(b) {
		d.err = fmt.Errorf("%w: string is not UTF-8", ErrInvalid)
		d.b = nil
		return false
	}
	return true
}

// raw reads a string's bytes: nil after an error, and for an empty
// string an empty, non-nil slice.
func (d *decoder) raw() []byte {
	if d.err != nil {
		return nil
	}
	l, n := binary.Uvarint(d.b)
	if n <= 0 || l > maxStringLen || uint64(len(d.b)-n) < l {
		d.fail("string")
		return nil
	}
	s := d.b[n : n+int(l) : n+int(l)]
	d.b = d.b[n+int(l):]
	return s
}
