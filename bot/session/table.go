// Package session is the table apart from any chat service: the lobby,
// seats, stamps, the running game and its news, and what the surfaces
// last showed (Shown, data of its own in bot/session/surface), as data
// that the bot stores and restores. It imports game and its data
// packages, never a store package (its storage is interfaces, storage.go,
// implemented by store/sessiondb), discordgo or the network
// (TestImportRulesSessionStorage).
package session

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/segmentio/encoding/json"

	"github.com/qwixxbot/qwixxbot/bot/session/surface"
	"github.com/qwixxbot/qwixxbot/game"
)

// TableVersion is the version of a stored table; Decode refuses others.
const TableVersion = 1

// Stage is where a table is in its life.
type Stage uint8

// The stages of a table.
const (
	StageLobby   Stage = iota + 1 // players join; the host starts
	StagePlaying                  // a game is running
	StageOver                     // the last game ended; results shown
)

// Seat is a player at a table.
type Seat struct {
	UserID string `json:"user_id"`
	Name   string `json:"name"` // unique at the table; used as the game's player name
	// Left is set when the player left or was removed mid-game and the
	// host chose passes for leavers: their turns are passed for them, and
	// cost them no misthrow (RULES P2). A seat a computer took over has
	// Computer set and keeps the user ID (TakenOver).
	Left bool `json:"left,omitempty"`
	// Computer is the level of a computer player (game/ai: "easy",
	// "medium"), "" for a person. A computer seat has no user ID.
	Computer string `json:"computer,omitempty"`
}

// TakenOver reports whether a computer plays the seat of a player who
// left (RULES P2): a computer seat with a user ID.
func (s Seat) TakenOver() bool { return s.Computer != "" && s.UserID != "" }

// ShownName is the seat's name, a computer's marked with a robot.
func (s Seat) ShownName() string {
	if s.Computer != "" {
		return "🤖 " + s.Name
	}
	return s.Name
}

// Mention names the seat in public text: a person's mention, or the
// computer's name behind a robot.
func (s Seat) Mention() string {
	if s.Computer != "" {
		return s.ShownName()
	}
	return "<@" + s.UserID + ">"
}

// Table is everything the bot keeps about one channel's table: the lobby,
// the running game and the messages that show it. It is stored as JSON under
// the channel's ID and changed only under that channel's lock.
type Table struct {
	Version   int          `json:"version"`
	ID        string       `json:"id"` // random; in every custom_id of this table
	GuildID   string       `json:"guild_id"`
	ChannelID string       `json:"channel_id"`
	Host      string       `json:"host"` // user ID
	Variant   game.Variant `json:"variant"`
	Games     int          `json:"games"` // match length, 1–5 (RULES D11)
	Seats     []Seat       `json:"seats"`
	MaxSeats  int          `json:"max_seats,omitempty"` // 2–5, from the configuration
	// LeaverPass is the host's choice for players who leave mid-game:
	// their turns are passed (RULES P2). By default (false) a computer
	// player (medium) takes their seat. An earlier version kept
	// "leaver_computer", whose default was passes; such tables read as the
	// default now, which is what its true meant.
	LeaverPass bool `json:"leaver_pass,omitempty"`
	// NoHints is the host's choice to turn the 💡 Hint button off.
	NoHints bool `json:"no_hints,omitempty"`
	// Interactions is set for a table where the bot is no member (a DM, a
	// group DM, a server where only a user installed the app): all it
	// shows goes through the players' interactions (follow-ups of their
	// clicks, edits through their tokens), none through the channel; it
	// has no reminders, and what a timer decides shows with the next
	// click.
	Interactions bool      `json:"interactions,omitempty"`
	Stage        Stage     `json:"stage"`
	Lang         string    `json:"lang"` // language of public messages (guild locale)
	Created      time.Time `json:"created"`
	// Messages are the lobby's message and an earlier version's table
	// message (LobbyMessage, TableMessage), taken over by Shown.
	surface.Messages
	// Snapshot is the running game's snapshot (game.Game.MarshalBinary),
	// as stored; Game is the game it restores to (Decode) and the one
	// saved (Encode).
	Snapshot json.RawMessage `json:"game,omitempty"`
	Game     *game.Game      `json:"-"`
	Match    *game.Match     `json:"match,omitempty"`
	// Deadline is when the current action's timer runs out (RULES P1).
	Deadline time.Time `json:"deadline,omitzero"`
	// Reminded is set once the reminder for the current action was sent;
	// RemindAt is when it is due (zero: ReminderBefore the deadline, as
	// tables stored before it was kept).
	Reminded bool      `json:"reminded,omitempty"`
	RemindAt time.Time `json:"remind_at,omitzero"`
	// PostedStamp is an earlier version's stamp of its table message
	// (Posted), taken over by Shown.
	surface.PostedStamp
	// Seq is the state stamp in every custom_id (Table.stamp): it grows by
	// one whenever the table moves on to a new state that buttons are made
	// for (a new game, action, turn or stage) and never goes back, across
	// games, matches and restarts, so a button is accepted for exactly the
	// state it was made for. At names that state (Table.position).
	Seq int    `json:"seq,omitempty"`
	At  string `json:"at,omitempty"`
	// GameNo counts the games started at this table, over all its matches.
	GameNo int `json:"game_no,omitempty"`
	// Shown is what the channel shows of the table (channel.go).
	Shown surface.Shown `json:"shown,omitzero"`
	// News are recent public events (locks, misthrows, timeouts), already in
	// the table's language.
	News []News `json:"news,omitempty"`

	// Private is set on a private game, played by one person in ephemeral
	// messages only: PrivateSolo or PrivateDaily. Such a table is stored
	// under a key of its own (the bot's "solo:<user>", "daily:<user>"),
	// which is also its ChannelID; it has no channel messages, no timer and
	// no reminders.
	Private string `json:"private,omitempty"`
	// Daily is the daily challenge's number (ai.DailyNumber) of a daily
	// table; Par its par, and Streak the player's daily challenges in a
	// row, this one included once it is over.
	Daily  int `json:"daily,omitempty"`
	Par    int `json:"par,omitempty"`
	Streak int `json:"streak,omitempty"`

	// Finished are the games that ended since the table was loaded, to be
	// saved with it in one transaction (the bot's saveTable).
	Finished []Finished `json:"-"`
	// Problems are what went wrong without stopping a change (a result
	// that could not be recorded), for the adapter to log.
	Problems []error `json:"-"`
}

// News is one public event of a turn (a lock, a misthrow, a reshuffle, a
// play, a player leaving, a timer running out), kept as data and put into
// words when shown, in the language of whoever shows it: a record, a
// review or a language switch can read it.
type News struct {
	Turn int `json:"turn"`
	// Event is what happened (the News* constants); "" in news stored by
	// an earlier version, whose Text is already in words.
	Event string `json:"event,omitempty"`
	// Seat is the player it happened to; Color the row locked, or the
	// colour jokers counted as; N the misthrow's number or the new draw
	// pile's size; Nums the numbers a timer took; Cards the cards played.
	Seat  int        `json:"seat,omitempty"`
	Color game.Color `json:"color,omitempty"`
	N     int        `json:"n,omitempty"`
	Nums  []int      `json:"nums,omitempty"`
	Cards []string   `json:"cards,omitempty"`
	Text  string     `json:"text,omitempty"`
}

// The events of News.
const (
	NewsLock        = "lock"
	NewsMisthrow    = "misthrow"
	NewsReshuffle   = "reshuffle"
	NewsPlayed      = "played"
	NewsLeft        = "left"
	NewsLeftBot     = "left.computer"
	NewsTimeout     = "timeout"
	NewsTimeoutTake = "timeout.take"
	NewsTimeoutPlay = "timeout.play"
)

// IsTimeout reports whether the news is a timer running out (the turn's
// log line repeats those).
func (n News) IsTimeout() bool {
	if n.Event == "" {
		return strings.HasPrefix(n.Text, "⌛")
	}
	return strings.HasPrefix(n.Event, NewsTimeout)
}

// AddNews remembers an event of the current turn, keeping the last few.
func (t *Table) AddNews(n News) {
	turn := 0
	if t.Game != nil {
		turn = t.Game.Turn()
	}
	t.AddNewsAt(turn, n)
}

// AddNewsAt remembers an event of the given turn, keeping the last few.
func (t *Table) AddNewsAt(turn int, n News) {
	n.Turn = turn
	t.News = append(t.News, n)
	if len(t.News) > 8 {
		t.News = t.News[len(t.News)-8:]
	}
}

// NewTableID makes a short random id for custom_ids.
func NewTableID() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("session: crypto/rand: %v", err))
	}
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

// NewSeed draws a game seed from crypto/rand, so that nobody can predict a
// game's dice or deal; tests seed their games through Options.NewGame.
func NewSeed() [32]byte {
	var s [32]byte
	if _, err := rand.Read(s[:]); err != nil {
		panic(fmt.Sprintf("session: crypto/rand: %v", err))
	}
	return s
}

// Decode reads a stored table, refusing unknown versions and broken
// games (a corrupt database must not crash or mislead the bot).
func Decode(data []byte) (*Table, error) { return DecodeWith(data, game.RestoreChecked) }

// A stored table is the table's JSON without its game, a newline and the
// game's snapshot (game.Game.MarshalBinary), or the table's JSON alone
// when it has no game. Reading a table then parses only its small JSON:
// the snapshot, most of the bytes, is compared with the one last restored
// (Bot.restoreGame) rather than scanned as part of the table (JSON never
// holds a raw newline). Tables stored by earlier versions, the snapshot
// inside the JSON under "game", are read as well.

// DecodeWith is Decode with the game's snapshot restored by
// restore (the bot reuses games it restored before; see Bot.restoreGame).
func DecodeWith(data []byte, restore func([]byte) (*game.Game, error)) (*Table, error) {
	var t Table
	head, snapshot, split := bytes.Cut(data, []byte{'\n'})
	if err := json.Unmarshal(head, &t); err != nil {
		return nil, fmt.Errorf("session: decode table: %w", err)
	}
	if split {
		if len(t.Snapshot) > 0 || len(snapshot) == 0 {
			return nil, fmt.Errorf("session: decode table: a game inside the table and after it, or an empty game after it")
		}
		t.Snapshot = bytes.Clone(snapshot)
	}
	if t.Version != TableVersion {
		return nil, fmt.Errorf("session: table version %d, this program reads version %d", t.Version, TableVersion)
	}
	if t.Stage < StageLobby || t.Stage > StageOver || t.ID == "" {
		return nil, fmt.Errorf("session: table has no valid stage or id")
	}
	if len(t.Snapshot) > 0 {
		g, err := restore(t.Snapshot)
		if err != nil {
			return nil, fmt.Errorf("session: table %s: %w", t.ID, err)
		}
		t.Game = g
	}
	if t.At == "" {
		t.Advance() // stored by a bot before stamps were kept
	}
	return &t, nil
}

// GuildOf reads the guild of a stored table ("" if it cannot): what
// resharding needs, without restoring the game. A private game outside
// servers gives PrivateResults.
func GuildOf(data []byte) string {
	head, _, _ := bytes.Cut(data, []byte{'\n'})
	var t struct {
		GuildID string `json:"guild_id"`
	}
	if json.Unmarshal(head, &t) != nil {
		return ""
	}
	return t.GuildID
}

// Encode writes the table, with its game's current state, the game's
// snapshot after the table's JSON (see DecodeWith). The snapshot is
// written into the same buffer, and Snapshot is then those bytes of the
// result (capped at their length: never changed in place).
func (t *Table) Encode() ([]byte, error) {
	t.Version = TableVersion
	t.Advance()
	snapshot := t.Snapshot
	t.Snapshot = nil
	// json.Marshal's flags, into a buffer with room for the snapshot,
	// which is about as long as last time.
	out, err := json.Append(make([]byte, 0, encodeRoom+len(snapshot)), t, json.EscapeHTML|json.SortMapKeys)
	t.Snapshot = snapshot
	if err != nil {
		return nil, err
	}
	switch {
	case t.Game != nil:
		out = append(out, '\n')
		at := len(out)
		if out, err = t.Game.AppendBinary(out); err != nil {
			return nil, err
		}
		t.Snapshot = out[at:len(out):len(out)]
	case len(snapshot) > 0:
		out = append(append(out, '\n'), snapshot...)
	}
	return out, nil
}

// encodeRoom is room for a stored table's JSON (a mid-game table's is
// about 1.2 KB) and for its game's snapshot to grow by a move or two.
const encodeRoom = 2048

// CloneStored is a deep copy of what the table stores (everything but
// Finished and Problems, which are left out): a table decoded once can be
// handed out again as a copy instead of decoded again. Game is cloned.
// Snapshot's bytes are shared: they are never changed in place, only
// replaced (Encode).
func (t *Table) CloneStored() *Table {
	c := *t
	c.Finished, c.Problems = nil, nil
	c.Seats = slices.Clone(t.Seats)
	if t.Game != nil {
		c.Game = t.Game.Clone()
	}
	if t.Match != nil {
		m := *t.Match
		m.Players = slices.Clone(m.Players)
		if m.Results != nil {
			m.Results = make([][]int, len(t.Match.Results))
			for i, r := range t.Match.Results {
				m.Results[i] = slices.Clone(r)
			}
		}
		c.Match = &m
	}
	if t.Shown.Token != nil {
		tok := *t.Shown.Token
		c.Shown.Token = &tok
	}
	c.Shown.Past = slices.Clone(t.Shown.Past)
	if t.News != nil {
		c.News = make([]News, len(t.News))
		for i, n := range t.News {
			n.Nums, n.Cards = slices.Clone(n.Nums), slices.Clone(n.Cards)
			c.News[i] = n
		}
	}
	return &c
}

// SeatLimit is the table's size limit.
func (t *Table) SeatLimit() int {
	if t.MaxSeats >= game.MinPlayers && t.MaxSeats <= game.MaxPlayers {
		return t.MaxSeats
	}
	return game.MaxPlayers
}

// SeatOf returns the seat index of a user, or -1.
func (t *Table) SeatOf(userID string) int {
	for i, s := range t.Seats {
		if s.UserID == userID && s.Computer == "" && userID != "" {
			return i
		}
	}
	return -1
}

// computerNames are the names computer players get, in turn.
var computerNames = []string{"Bot Emma", "Bot Felix", "Bot Greta", "Bot Hugo", "Bot Ida"}

// ComputerName is a computer player's name not taken at the table.
func (t *Table) ComputerName() string {
	for _, n := range computerNames {
		if !slices.ContainsFunc(t.Seats, func(s Seat) bool { return s.Name == n }) {
			return n
		}
	}
	return t.UniqueName("Bot")
}

// UniqueName makes a display name unique among the seats.
func (t *Table) UniqueName(name string) string {
	name = strings.TrimSpace(name)
	if name == "" {
		name = "Player"
	}
	if len([]rune(name)) > 32 {
		name = string([]rune(name)[:32])
	}
	taken := func(n string) bool {
		for _, s := range t.Seats {
			if s.Name == n {
				return true
			}
		}
		return false
	}
	if !taken(name) {
		return name
	}
	for i := 2; ; i++ {
		if n := fmt.Sprintf("%s (%d)", name, i); !taken(n) {
			return n
		}
	}
}

// Position names the state buttons are made for: lobby buttons stay valid
// through the lobby; game buttons are valid for one action of one turn of
// one game.
func (t *Table) Position() string {
	var buf [48]byte
	if t.Game == nil || t.Stage == StageLobby {
		return string(strconv.AppendInt(append(buf[:0], "lobby."...), int64(t.GameNo), 10))
	}
	b := strconv.AppendInt(append(buf[:0], "game."...), int64(t.GameNo), 10)
	b = strconv.AppendInt(append(b, '.'), int64(t.Stage), 10)
	b = strconv.AppendInt(append(b, '.'), int64(t.Game.Turn()), 10)
	b = strconv.AppendInt(append(b, '.'), int64(t.Game.Phase()), 10)
	return string(b)
}

// Advance moves Seq on when the table's position changed since Seq was
// assigned. Every write of the table calls it (saveTable), so the stamp of
// any stored state is current.
func (t *Table) Advance() {
	if p := t.Position(); p != t.At {
		t.Seq++
		t.At = p
	}
}

// restoreSeqJump is how far Restored moves a table's stamp on: further
// than the states that a table goes through between two backups, so that
// no button made after the backup matches a state of the restored table.
const restoreSeqJump = 1 << 20

// Restored readies a table read from a database restored from a backup.
// Its channel may show states later than the table's (made after the
// backup, then lost): their buttons' stamps must not match the states the
// restored table goes through next, and its messages are not the
// table's. So the stamp moves on by restoreSeqJump (every older button is
// then stale and answered politely), and the table's live message and
// results are shown afresh; reminders and finished turns still to shrink
// are left for the reconciler to tidy.
func (t *Table) Restored() {
	t.Seq += restoreSeqJump
	old := t.Shown
	t.Shown = Shown{
		Past:          old.Past,
		Reminder:      old.Reminder,
		RemindAt:      old.RemindAt,
		ResultsMsg:    old.ResultsMsg,
		ResultsLive:   old.ResultsLive,
		ResultsRecord: old.ResultsRecord,
		ResultsReview: old.ResultsReview,
		LobbyPending:  old.LobbyPending,
		Token:         old.Token,
	}
}

// Stamp identifies the state buttons are made for (Seq).
func (t *Table) Stamp() int { return t.Seq }

// What the surfaces last showed is data of its own (bot/session/surface);
// these are its names in the session.
type (
	// Shown is what the channel shows of a table, as confirmed by Discord.
	Shown = surface.Shown
	// Token is an interaction kept for its token (Shown.Token).
	Token = surface.Token
	// PastTurn is a finished turn's message and the log line it shrinks to.
	PastTurn = surface.PastTurn
)

// TurnKey names the current turn of the current game.
func (t *Table) TurnKey() string {
	var buf [24]byte
	b := strconv.AppendInt(append(buf[:0], 'g'), int64(t.GameNo), 10)
	return string(strconv.AppendInt(append(b, ".t"...), int64(t.Game.Turn()), 10))
}

// ResultsKey names the results post of the current game.
func (t *Table) ResultsKey() string { return fmt.Sprintf("results.%d", t.GameNo) }

// Running is the table's running or finished game, nil in the lobby.
func (t *Table) Running() *game.Game { return t.Game }
